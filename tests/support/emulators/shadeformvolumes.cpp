// SPDX-License-Identifier: Apache-2.0
// The Shadeform emulator's volumes: /volumes, /volumes/types, /volumes/create, /volumes/{id}/info and
// /volumes/{id}/delete with the shapes of shadeform-openapi.yaml (CreateVolumeRequest, Volume).
#include "shadeformemulator.h"

#include <QCryptographicHash>

namespace gantry::test {

QJsonArray ShadeformEmulator::volumeTypes()
{
    auto volumeType = [](const char *cloud, const char *region, const char *price) {
        return QJsonObject{{QStringLiteral("cloud"), QLatin1String(cloud)}, {QStringLiteral("region"), QLatin1String(region)},
                           {QStringLiteral("supports_multi_mount"), false}, {QStringLiteral("fixed_size"), true},
                           {QStringLiteral("price_per_gb_per_hour"), QLatin1String(price)}};
    };
    return QJsonArray{volumeType("massedcompute", "kansascity-usa-1", "0.0001"), volumeType("hyperstack", "canada-1", "0.00011"),
                      volumeType("lambdalabs", "us-east-1", "0.0003")};
}

EmuResponse ShadeformEmulator::volumesCall(const EmuRequest &request, const QJsonObject &body)
{
    const QString path = request.path;
    if (request.method == "GET" && path == QLatin1String("/v1/volumes/types"))
        return json(200, QJsonObject{{QStringLiteral("volume_types"), volumeTypes()}});
    if (request.method == "GET" && path == QLatin1String("/v1/volumes")) {
        QJsonArray list;
        for (const QJsonObject &volume : std::as_const(m_volumes))
            list.append(volume);
        return json(200, QJsonObject{{QStringLiteral("volumes"), list}});
    }
    if (request.method == "POST" && path == QLatin1String("/v1/volumes/create")) {
        for (const char *required : {"cloud", "region", "name"}) {
            if (body.value(QLatin1String(required)).toString().isEmpty())
                return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("%1 is required").arg(QLatin1String(required))}});
        }
        if (body.value(QLatin1String("size_in_gb")).toInt() < 1)
            return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("size_in_gb is required")}});
        const QByteArray hash = QCryptographicHash::hash(QByteArray(QByteArray::number(m_next++) + "volume"), QCryptographicHash::Md5).toHex();
        const QString id = QString::fromLatin1(hash.left(8) + "-" + hash.mid(8, 4) + "-" + hash.mid(12, 4) + "-" + hash.mid(16, 4) + "-" + hash.mid(20, 12));
        m_volumes.insert(id, QJsonObject{
            {QStringLiteral("id"), id}, {QStringLiteral("cloud"), body.value(QLatin1String("cloud"))},
            {QStringLiteral("cloud_assigned_id"), id}, {QStringLiteral("region"), body.value(QLatin1String("region"))},
            {QStringLiteral("name"), body.value(QLatin1String("name"))}, {QStringLiteral("fixed_size"), true},
            {QStringLiteral("size_in_gb"), body.value(QLatin1String("size_in_gb"))}, {QStringLiteral("cost_estimate"), QStringLiteral("0.00")},
            {QStringLiteral("supports_multi_mount"), false}, {QStringLiteral("mounted_by"), QString()}});
        return json(200, QJsonObject{{QStringLiteral("id"), id}});
    }
    const QString id = path.section(QLatin1Char('/'), 3, 3);
    const QString verb = path.section(QLatin1Char('/'), 4, 4);
    if (!m_volumes.contains(id))
        return message(404, QStringLiteral("volume not found"));
    if (request.method == "GET" && verb == QLatin1String("info"))
        return json(200, m_volumes.value(id));
    if (request.method == "POST" && verb == QLatin1String("delete")) {
        m_volumes.remove(id);
        return EmuResponse{200, {}, "application/json", {}, 0, false};
    }
    return message(404, QStringLiteral("not found"));
}

// volume_ids of a create: one volume, existing, in the instance's cloud and region.
QString ShadeformEmulator::mountVolumes(const QJsonObject &body, const QString &instanceId)
{
    const QJsonArray ids = body.value(QLatin1String("volume_ids")).toArray();
    if (ids.size() > 1)
        return QStringLiteral("only 1 volume is supported at a time");
    for (const QJsonValue &value : ids) {
        auto it = m_volumes.find(value.toString());
        if (it == m_volumes.end())
            return QStringLiteral("volume %1 not found").arg(value.toString());
        if (it->value(QLatin1String("region")) != body.value(QLatin1String("region"))
            || it->value(QLatin1String("cloud")) != body.value(QLatin1String("cloud")))
            return QStringLiteral("the volume is in another cloud or region");
        if (!instanceId.isEmpty())
            it->insert(QStringLiteral("mounted_by"), instanceId);
    }
    return {};
}

} // namespace gantry::test
