// SPDX-License-Identifier: Apache-2.0
#include "core/verify/reference.h"

#include "core/util/paths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gantry::verify {
namespace {

const QString kCompiledIn = QStringLiteral(":/gantry/verify/gpu-reference.json");

QString installedFile()
{
    const QString dir = paths::resourcesDir();
    const QString path = dir + QStringLiteral("/gpu-reference.json");
    return !dir.isEmpty() && QFileInfo::exists(path) ? path : kCompiledIn;
}

} // namespace

Result<ReferenceTable> ReferenceTable::fromJson(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return Error::make(ErrorCode::Parse, QStringLiteral("gpu-reference.json is not JSON: %1").arg(error.errorString()));
    if (doc.object().value(QLatin1StringView("schema")).toInt() != 1)
        return Error::make(ErrorCode::Parse, QStringLiteral("gpu-reference.json has an unknown schema"));
    ReferenceTable table;
    for (const QJsonValue &v : doc.object().value(QLatin1StringView("references")).toArray()) {
        const QJsonObject o = v.toObject();
        ReferenceFigure f;
        f.specId = o.value(QLatin1StringView("spec")).toString();
        f.measure = o.value(QLatin1StringView("measure")).toString();
        f.pcie = o.value(QLatin1StringView("pcie")).toString();
        f.count = o.value(QLatin1StringView("count")).toInt();
        f.value = o.value(QLatin1StringView("value")).toDouble();
        f.unit = o.value(QLatin1StringView("unit")).toString();
        if (o.value(QLatin1StringView("datasheet")).isDouble())
            f.datasheet = o.value(QLatin1StringView("datasheet")).toDouble();
        f.kernel = o.value(QLatin1StringView("kernel")).toString();
        f.source = o.value(QLatin1StringView("source")).toString();
        // A figure without its source is an opinion: refuse it.
        if (f.specId.isEmpty() || f.measure.isEmpty() || f.value <= 0 || f.source.isEmpty())
            return Error::make(ErrorCode::Parse, QStringLiteral("a gpu-reference.json entry lacks spec, measure, value or source"));
        table.m_figures.append(f);
    }
    return table;
}

QString ReferenceTable::installedPath()
{
    static const QString path = installedFile();
    return path;
}

const ReferenceTable &ReferenceTable::installed()
{
    static const ReferenceTable table = [] {
        for (const QString &path : {installedPath(), kCompiledIn}) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            if (auto parsed = fromJson(file.readAll()))
                return std::move(parsed).value();
        }
        return ReferenceTable{};
    }();
    return table;
}

const ReferenceFigure *ReferenceTable::find(const QString &specId, const QString &measure, int count) const
{
    for (const ReferenceFigure &f : m_figures) {
        if (f.specId == specId && f.measure == measure && f.count == count)
            return &f;
    }
    return nullptr;
}

const ReferenceFigure *ReferenceTable::hostLink(int pcieGen, int pcieWidth) const
{
    const QString link = QStringLiteral("gen%1x%2").arg(pcieGen).arg(pcieWidth);
    for (const ReferenceFigure &f : m_figures) {
        if (f.measure == QLatin1StringView("host_to_device") && f.pcie == link)
            return &f;
    }
    return nullptr;
}

} // namespace gantry::verify
