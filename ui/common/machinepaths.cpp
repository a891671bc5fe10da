// SPDX-License-Identifier: Apache-2.0
#include "ui/common/machinepaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gantry::ui {

// JSON: a path may hold any character a line-based format would have to escape.
QByteArray encodeMachinePaths(const MachinePaths &paths)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("host"), paths.host},
                                     {QStringLiteral("paths"), QJsonArray::fromStringList(paths.paths)}})
        .toJson(QJsonDocument::Compact);
}

std::optional<MachinePaths> decodeMachinePaths(const QByteArray &data)
{
    const QJsonObject object = QJsonDocument::fromJson(data).object();
    MachinePaths paths;
    paths.host = object.value(QStringLiteral("host")).toString();
    for (const QJsonValue &path : object.value(QStringLiteral("paths")).toArray()) {
        if (!path.toString().isEmpty())
            paths.paths.append(path.toString());
    }
    if (paths.host.isEmpty() || paths.paths.isEmpty())
        return std::nullopt;
    return paths;
}

} // namespace gantry::ui
