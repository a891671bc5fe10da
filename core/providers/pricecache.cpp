#include "core/providers/pricecache.h"
#include "core/providers/providerstext.h"

#include "core/util/schemaversion.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace gantry::providers {
namespace {
constexpr int kPriceCacheSchema = 1; // 1: every file so far
} // namespace

QString priceCachePath(const QString &configDir)
{
    return QDir(configDir).absoluteFilePath(QStringLiteral("cache/prices.json"));
}

Result<void> savePriceCache(const QString &path, const PriceSnapshot &snapshot)
{
    QJsonArray types;
    for (const InstanceType &type : snapshot.types) {
        QJsonArray regions;
        for (const Region &region : type.regionsWithCapacity)
            regions.append(QJsonObject{{QStringLiteral("name"), region.name}, {QStringLiteral("description"), region.description}});
        types.append(QJsonObject{
            {QStringLiteral("provider"), type.provider}, {QStringLiteral("name"), type.name},
            {QStringLiteral("description"), type.description}, {QStringLiteral("gpuModel"), type.gpuModel},
            {QStringLiteral("gpuCount"), type.gpuCount}, {QStringLiteral("vram"), type.vramGbPerGpu},
            {QStringLiteral("vcpus"), type.vcpus}, {QStringLiteral("ram"), type.ramGb}, {QStringLiteral("disk"), type.diskGb},
            {QStringLiteral("price"), type.pricePerHour}, {QStringLiteral("regions"), regions}, {QStringLiteral("note"), type.note}});
    }
    if (Result<void> replaceable = schema::checkReplaceable(path, kPriceCacheSchema); !replaceable)
        return replaceable;
    const QJsonObject root{{QStringLiteral("fetchedAt"), snapshot.fetchedAt.toString(Qt::ISODate)}, {QStringLiteral("types"), types}};
    const QByteArray data = QJsonDocument(schema::stamped(root, kPriceCacheSchema)).toJson(QJsonDocument::Compact);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, ProvidersText::tr("Cannot write the price cache %1: %2").arg(path, file.errorString())};
    return {};
}

PriceSnapshot loadPriceCache(const QString &path)
{
    PriceSnapshot snapshot;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return snapshot;
    // A cache from a newer Gantry is not read (nor replaced by savePriceCache): prices come live.
    const Result<QJsonObject> upgraded = schema::upgrade(QJsonDocument::fromJson(file.readAll()).object(), kPriceCacheSchema, path);
    if (!upgraded)
        return snapshot;
    const QJsonObject &root = *upgraded;
    snapshot.fetchedAt = QDateTime::fromString(root.value(QLatin1String("fetchedAt")).toString(), Qt::ISODate);
    const QJsonArray types = root.value(QLatin1String("types")).toArray();
    for (const QJsonValue &value : types) {
        const QJsonObject object = value.toObject();
        InstanceType type;
        type.provider = object.value(QLatin1String("provider")).toString();
        type.name = object.value(QLatin1String("name")).toString();
        type.description = object.value(QLatin1String("description")).toString();
        type.gpuModel = object.value(QLatin1String("gpuModel")).toString();
        type.gpuCount = object.value(QLatin1String("gpuCount")).toInt();
        type.vramGbPerGpu = object.value(QLatin1String("vram")).toInt();
        type.vcpus = object.value(QLatin1String("vcpus")).toInt();
        type.ramGb = object.value(QLatin1String("ram")).toInt();
        type.diskGb = object.value(QLatin1String("disk")).toInt();
        type.pricePerHour = object.value(QLatin1String("price")).toDouble();
        type.note = object.value(QLatin1String("note")).toString();
        for (const QJsonValue &region : object.value(QLatin1String("regions")).toArray())
            type.regionsWithCapacity.append(Region{region.toObject().value(QLatin1String("name")).toString(),
                                                   region.toObject().value(QLatin1String("description")).toString()});
        if (!type.name.isEmpty())
            snapshot.types.append(type);
    }
    if (snapshot.types.isEmpty())
        snapshot.fetchedAt = QDateTime();
    return snapshot;
}

} // namespace gantry::providers
