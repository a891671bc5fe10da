// SPDX-License-Identifier: Apache-2.0
// Shadeform volumes (/volumes, /volumes/types, /volumes/create, /volumes/{id}/delete in
// shadeform-openapi.yaml).
#include "core/providers/jsonfields.h"
#include "core/providers/shadeformprovider.h"

#include <QJsonArray>
#include <QUrl>

namespace gantry::providers {
namespace {

// Hours in an average month: the types price per GB-hour, people and budgets think per month.
constexpr double kHoursPerMonth = 730.0;

struct VolumeType
{
    QString cloud;
    QString region;
    double perGbMonth = 0;
};

QList<VolumeType> parseVolumeTypes(const QJsonValue &root)
{
    QList<VolumeType> types;
    const QJsonArray array = root.toObject().value(QLatin1String("volume_types")).toArray();
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        types.append(VolumeType{json::string(object.value(QLatin1String("cloud"))),
                                json::string(object.value(QLatin1String("region"))),
                                json::number(object.value(QLatin1String("price_per_gb_per_hour"))) * kHoursPerMonth});
    }
    return types;
}

Filesystem parseVolume(const QJsonObject &object, const QList<VolumeType> &types)
{
    Filesystem fs;
    fs.provider = QStringLiteral("shadeform");
    fs.id = json::string(object.value(QLatin1String("id")));
    fs.name = json::string(object.value(QLatin1String("name")));
    fs.region = json::string(object.value(QLatin1String("region")));
    fs.sizeGb = json::integer(object.value(QLatin1String("size_in_gb")));
    const QString cloud = json::string(object.value(QLatin1String("cloud")));
    for (const VolumeType &type : types) {
        if (type.cloud == cloud && type.region == fs.region)
            fs.pricePerGbMonth = type.perGbMonth;
    }
    const QString mountedBy = json::string(object.value(QLatin1String("mounted_by")));
    if (!mountedBy.isEmpty())
        fs.attachedTo.append(mountedBy);
    fs.inUse = !mountedBy.isEmpty();
    return fs;
}

} // namespace

void ShadeformProvider::listFilesystems(Callback<QList<Filesystem>> done)
{
    call("GET", QStringLiteral("/v1/volumes/types"), QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> types) {
        if (!types)
            return done(types.error());
        call("GET", QStringLiteral("/v1/volumes"), QJsonValue(), true,
             [priced = parseVolumeTypes(*types), done](Result<QJsonValue> data) {
                 if (!data)
                     return done(data.error());
                 QList<Filesystem> list;
                 const QJsonArray array = data->toObject().value(QLatin1String("volumes")).toArray();
                 for (const QJsonValue &value : array)
                     list.append(parseVolume(value.toObject(), priced));
                 done(list);
             });
    });
}

void ShadeformProvider::createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done)
{
    if (spec.name.isEmpty() || spec.region.isEmpty() || spec.sizeGb < 1)
        return deliver<Filesystem>(std::move(done), Error{ErrorCode::Usage, tr("Shadeform: a volume needs a name, a region "
                                                                               "and a size in GB.")});
    call("GET", QStringLiteral("/v1/volumes/types"), QJsonValue(), true, [this, spec, done = std::move(done)](Result<QJsonValue> types) {
        if (!types)
            return done(types.error());
        // A volume lives in one underlying cloud: take the cheapest one that offers volumes here.
        const QList<VolumeType> offered = parseVolumeTypes(*types);
        const VolumeType *best = nullptr;
        QStringList regions;
        for (const VolumeType &type : offered) {
            regions.append(type.region);
            if (type.region == spec.region && (!best || type.perGbMonth < best->perGbMonth))
                best = &type;
        }
        if (!best) {
            regions.removeDuplicates();
            return done(Error{ErrorCode::Usage, tr("Shadeform offers no volumes in %1. Regions with volumes: %2.")
                                                    .arg(spec.region, regions.join(QStringLiteral(", ")))});
        }
        const QJsonObject body{{QStringLiteral("cloud"), best->cloud}, {QStringLiteral("region"), spec.region},
                               {QStringLiteral("size_in_gb"), spec.sizeGb}, {QStringLiteral("name"), spec.name}};
        Filesystem made = parseVolume(body, offered);
        call("POST", QStringLiteral("/v1/volumes/create"), body, false, [this, made, done](Result<QJsonValue> data) mutable {
            if (!data)
                return done(data.error());
            made.id = json::string(data->toObject().value(QLatin1String("id")));
            if (made.id.isEmpty())
                return done(malformed(tr("the new volume has no id")));
            done(made);
        });
    });
}

void ShadeformProvider::deleteFilesystem(const QString &id, Callback<void> done)
{
    call("POST", QStringLiteral("/v1/volumes/%1/delete").arg(QString::fromUtf8(QUrl::toPercentEncoding(id))), QJsonValue(),
         true, ignoreBody(std::move(done)));
}

} // namespace gantry::providers
