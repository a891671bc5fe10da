// SPDX-License-Identifier: Apache-2.0
// Vast.ai volumes (/api/v0/volumes and /api/v0/volumes/search in vast-openapi.yaml).
#include "core/providers/jsonfields.h"
#include "core/providers/vastprovider.h"

#include <QJsonArray>

namespace gantry::providers {
namespace {

// Vast's storage_total_cost is dollars an hour for the whole disk (the document's offer example:
// 0.000556 for 10 GB, i.e. $0.04 per GB-month of 720 hours); Vast counts 30-day months.
constexpr double kVastHoursPerMonth = 720.0;

Filesystem parseVolume(const QJsonObject &object)
{
    Filesystem fs;
    fs.provider = QStringLiteral("vast");
    const qint64 id = json::truncatedInt64(json::number(object.value(QLatin1String("id")), -1), -1);
    if (id > 0)
        fs.id = QString::number(id);
    fs.name = QStringLiteral("V.%1").arg(fs.id); // Vast names volumes "V.<id>" and lists no name
    fs.sizeGb = json::truncatedInt(json::number(object.value(QLatin1String("disk_space"))));
    const qint64 machine = json::truncatedInt64(json::number(object.value(QLatin1String("machine_id")), -1), -1);
    if (machine > 0)
        fs.machineId = QString::number(machine);
    fs.region = json::string(object.value(QLatin1String("geolocation")));
    if (fs.region.isEmpty() && !fs.machineId.isEmpty())
        fs.region = QStringLiteral("machine %1").arg(fs.machineId);
    const double perHour = json::number(object.value(QLatin1String("storage_total_cost")));
    if (fs.sizeGb > 0)
        fs.pricePerGbMonth = perHour * kVastHoursPerMonth / fs.sizeGb;
    const double started = json::number(object.value(QLatin1String("start_date")));
    if (started > 0)
        fs.createdAt = QDateTime::fromSecsSinceEpoch(qint64(started), Qt::UTC);
    const QJsonArray instances = object.value(QLatin1String("instances")).toArray();
    for (const QJsonValue &value : instances) {
        const QJsonValue instanceId = value.isObject() ? value.toObject().value(QLatin1String("id")) : value;
        const qint64 used = json::truncatedInt64(json::number(instanceId, -1), -1);
        fs.attachedTo.append(used > 0 ? QString::number(used) : json::string(instanceId));
    }
    fs.inUse = !fs.attachedTo.isEmpty();
    fs.mountPoint = QStringLiteral("/workspace");
    return fs;
}

} // namespace

void VastProvider::listFilesystems(Callback<QList<Filesystem>> done)
{
    call("GET", QStringLiteral("/api/v0/volumes"), QJsonValue(), true, [done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        QList<Filesystem> list;
        const QJsonArray array = data->toObject().value(QLatin1String("volumes")).toArray();
        for (const QJsonValue &value : array) {
            Filesystem fs = parseVolume(value.toObject());
            if (!fs.id.isEmpty())
                list.append(fs);
        }
        done(list);
    });
}

void VastProvider::createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done)
{
    if (spec.sizeGb < 1)
        return deliver<Filesystem>(std::move(done), Error{ErrorCode::Usage, tr("Vast.ai: a volume needs a size in GB.")});
    // Vast rents volumes from machines' offers: take the cheapest with room, in the region if one is named.
    call("POST", QStringLiteral("/api/v0/volumes/search"), QJsonObject{{QStringLiteral("limit"), 64}}, true,
         [this, spec, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             QJsonObject best;
             const QJsonArray offers = data->toObject().value(QLatin1String("offers")).toArray();
             for (const QJsonValue &value : offers) {
                 const QJsonObject offer = value.toObject();
                 const bool fits = json::number(offer.value(QLatin1String("disk_space"))) >= spec.sizeGb
                     && (spec.region.isEmpty()
                         || json::string(offer.value(QLatin1String("geolocation"))).contains(spec.region, Qt::CaseInsensitive));
                 if (fits && (best.isEmpty() || json::number(offer.value(QLatin1String("storage_cost")))
                                                    < json::number(best.value(QLatin1String("storage_cost")))))
                     best = offer;
             }
             if (best.isEmpty())
                 return done(Error{ErrorCode::Provider,
                                   spec.region.isEmpty()
                                       ? tr("Vast.ai has no volume offer with %1 GB free now. Try a smaller size.").arg(spec.sizeGb)
                                       : tr("Vast.ai has no volume offer with %1 GB free in %2 now. Try a smaller size or another "
                                            "region.").arg(spec.sizeGb).arg(spec.region)});
             rentVolume(best, spec, std::move(done));
         });
}

void VastProvider::rentVolume(const QJsonObject &offer, const VolumeSpec &spec, Callback<Filesystem> done)
{
    const qint64 offerId = json::truncatedInt64(json::number(offer.value(QLatin1String("id"))));
    const QJsonObject body{{QStringLiteral("id"), offerId}, {QStringLiteral("size"), spec.sizeGb}};
    call("PUT", QStringLiteral("/api/v0/volumes"), body, false, [this, offer, spec, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        const QString name = json::string(data->toObject().value(QLatin1String("volume_name")));
        if (!name.startsWith(QLatin1String("V.")))
            return done(malformed(tr("the new volume has no \"volume_name\"")));
        Filesystem fs = parseVolume(offer);
        fs.id = name.mid(2);
        fs.name = name;
        fs.sizeGb = spec.sizeGb;
        fs.pricePerGbMonth = json::number(offer.value(QLatin1String("storage_cost")));
        done(fs);
    });
}

void VastProvider::deleteFilesystem(const QString &id, Callback<void> done)
{
    bool ok = false;
    const qint64 number = id.startsWith(QLatin1String("V.")) ? id.mid(2).toLongLong(&ok) : id.toLongLong(&ok);
    if (!ok)
        return deliver<void>(std::move(done), Error{ErrorCode::Usage, tr("Vast.ai: \"%1\" is not a volume id (a number, or "
                                                                         "V.<number>).").arg(id)});
    call("DELETE", QStringLiteral("/api/v0/volumes"), QJsonObject{{QStringLiteral("id"), number}}, true, ignoreBody(std::move(done)));
}

} // namespace gantry::providers
