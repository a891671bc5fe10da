// SPDX-License-Identifier: Apache-2.0
// The Vast.ai emulator's volumes: GET/PUT/DELETE /api/v0/volumes and POST /api/v0/volumes/search with
// the shapes of vast-openapi.yaml (Volume, VolumeOffer). A volume is a machine's disk.
#include "vastemulator.h"

#include <QDateTime>

namespace gantry::test {

QJsonArray VastEmulator::volumeOffers() const
{
    auto offer = [](qint64 id, qint64 machine, const char *where, double diskGb, double perGbMonth) {
        return QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("ask_contract_id"), id}, {QStringLiteral("machine_id"), machine},
                           {QStringLiteral("host_id"), machine / 13}, {QStringLiteral("geolocation"), QLatin1String(where)},
                           {QStringLiteral("disk_space"), diskGb}, {QStringLiteral("storage_cost"), perGbMonth},
                           {QStringLiteral("storage_total_cost"), perGbMonth * diskGb / 720.0},
                           {QStringLiteral("verification"), QStringLiteral("verified")}, {QStringLiteral("reliability2"), 0.99}};
    };
    // On the machines of the RTX 4090 offers in Washington (4100201 / 7) and the H100 in Sweden (4100302 / 7).
    return QJsonArray{offer(9100, 4100201 / 7, "Washington, US", 500, 0.05), offer(9101, 4100302 / 7, "Sweden, SE", 2000, 0.03)};
}

QJsonObject VastEmulator::renderVolume(const QJsonObject &volume) const
{
    QJsonObject object = volume;
    QJsonArray users;
    for (auto it = m_instances.cbegin(); it != m_instances.cend(); ++it) {
        if (it->base.value(QLatin1String("volume_id")) == volume.value(QLatin1String("id")))
            users.append(QJsonObject{{QStringLiteral("id"), it.key()}});
    }
    object.insert(QStringLiteral("instances"), users);
    return object;
}

EmuResponse VastEmulator::volumesCall(const EmuRequest &request, const QJsonObject &body)
{
    const QString path = request.path.endsWith(QLatin1Char('/')) ? request.path.chopped(1) : request.path;
    if (request.method == "POST" && path == QLatin1String("/api/v0/volumes/search"))
        return json(200, QJsonObject{{QStringLiteral("offers"), volumeOffers()}});
    if (path != QLatin1String("/api/v0/volumes"))
        return failure(404, QStringLiteral("invalid_args"), QStringLiteral("Not found"));
    if (request.method == "GET") {
        QJsonArray list;
        for (const QJsonObject &volume : std::as_const(m_volumes))
            list.append(renderVolume(volume));
        return json(200, QJsonObject{{QStringLiteral("volumes"), list}});
    }
    if (!body.value(QLatin1String("id")).isDouble())
        return failure(400, QStringLiteral("invalid_args"), QStringLiteral("Please provide a valid volume ID."));
    const qint64 id = body.value(QLatin1String("id")).toInteger();
    if (request.method == "DELETE") {
        if (m_volumes.remove(id) == 0)
            return failure(404, QStringLiteral("no_such_volume"), QStringLiteral("Volume with that ID does not exist."));
        return json(200, QJsonObject{{QStringLiteral("success"), true}});
    }
    if (request.method == "PUT") {
        for (const QJsonValue &value : volumeOffers()) {
            const QJsonObject offer = value.toObject();
            if (offer.value(QLatin1String("id")).toInteger() != id)
                continue;
            const double size = body.value(QLatin1String("size")).toDouble(15);
            const qint64 volumeId = m_nextInstance++;
            QJsonObject volume = offer;
            volume.insert(QStringLiteral("id"), volumeId);
            volume.insert(QStringLiteral("disk_space"), size);
            volume.insert(QStringLiteral("storage_total_cost"), offer.value(QLatin1String("storage_cost")).toDouble() * size / 720.0);
            volume.insert(QStringLiteral("status"), QStringLiteral("created"));
            volume.insert(QStringLiteral("start_date"), double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
            volume.remove(QStringLiteral("geolocation")); // a Volume has none in the document
            m_volumes.insert(volumeId, volume);
            return json(200, QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("volume_name"), QStringLiteral("V.%1").arg(volumeId)}});
        }
        return failure(404, QStringLiteral("no_such_ask"), QStringLiteral("Volume offer %1 is not available.").arg(id));
    }
    return failure(405, QStringLiteral("invalid_request"), QStringLiteral("Method not allowed"));
}

// volume_info of a rent: link an existing volume on the offer's own machine ("" when fine).
QString VastEmulator::linkVolume(const QJsonObject &body, const QJsonObject &offer) const
{
    if (!body.contains(QLatin1String("volume_info")))
        return {};
    const QJsonObject info = body.value(QLatin1String("volume_info")).toObject();
    if (info.value(QLatin1String("create_new")).toBool())
        return QStringLiteral("create_new is not supported here");
    const auto it = m_volumes.find(info.value(QLatin1String("volume_id")).toInteger());
    if (it == m_volumes.end())
        return QStringLiteral("no_such_volume");
    if (it->value(QLatin1String("machine_id")) != offer.value(QLatin1String("machine_id")))
        return QStringLiteral("the volume is on another machine");
    return {};
}

} // namespace gantry::test
