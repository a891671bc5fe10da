#include "core/providers/shadeformprovider.h"

#include "core/providers/gpumodels.h"
#include "core/providers/jsonfields.h"
#include "core/providers/volumes.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace gantry::providers {
namespace {

QString encodeId(const QString &id)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(id));
}

QJsonValue field(const QJsonObject &object, const char *name)
{
    return object.value(QLatin1String(name));
}

InstanceState stateFromShadeform(const QString &status)
{
    if (status == QLatin1String("creating") || status == QLatin1String("pending_provider")
        || status == QLatin1String("pending"))
        return InstanceState::Booting;
    if (status == QLatin1String("active"))
        return InstanceState::Running;
    if (status == QLatin1String("error"))
        return InstanceState::Error;
    if (status == QLatin1String("deleting"))
        return InstanceState::Terminating;
    if (status == QLatin1String("deleted"))
        return InstanceState::Terminated;
    return InstanceState::Unknown;
}

// "H100" + interconnect "sxm5" → "H100 SXM5", which the GPU model table reads as H100 SXM.
QString gpuText(const QJsonObject &configuration)
{
    const QString gpu = json::string(field(configuration, "gpu_type"));
    const QString interconnect = json::string(field(configuration, "interconnect"));
    return interconnect.isEmpty() || gpu.contains(interconnect, Qt::CaseInsensitive) ? gpu : gpu + QLatin1Char(' ') + interconnect;
}

} // namespace

ShadeformProvider::ShadeformProvider(RestConfig config, QObject *parent)
    : RestProvider(std::move(config), parent)
{
}

ProviderInfo ShadeformProvider::info() const
{
    ProviderInfo info;
    info.id = QStringLiteral("shadeform");
    info.displayName = tr("Shadeform");
    info.capabilities = Capability::Restart | Capability::RegionsPerType | Capability::Filesystems;
    info.billingGranularitySeconds = 1;
    info.cost = costModelFor(info.id);
    info.launchNeedsRegion = true;
    info.launchNeedsSshKey = true;
    info.sshUser = QStringLiteral("shadeform");
    info.billingNote = tr("Billed per second at the underlying cloud's rate until deleted. Instances cannot be "
                          "stopped; deleting loses the local disk.");
    info.statusPollMs = 10000;
    return info;
}

void ShadeformProvider::authorize(HttpRequest &request) const
{
    request.headers.append({QByteArray("X-API-KEY"), config().apiKey.toUtf8()});
}

double ShadeformProvider::dollars(const QJsonValue &value)
{
    if (value.isString()) {
        QString text = value.toString().trimmed();
        text.remove(QLatin1Char('$'));
        text.remove(QLatin1Char(','));
        return json::number(QJsonValue(text));
    }
    return json::number(value);
}

double ShadeformProvider::centsToDollars(const QJsonValue &cents)
{
    // The documented unit is integer cents; a decimal string is the dollar form the spot fields use.
    if (cents.isString() && cents.toString().contains(QLatin1Char('.')))
        return dollars(cents);
    return json::number(cents) / 100.0;
}

QList<InstanceType> ShadeformProvider::parseTypes(const QJsonValue &root)
{
    const QJsonArray array = root.isArray() ? root.toArray() : root.toObject().value(QLatin1String("instance_types")).toArray();
    QList<InstanceType> types;
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        const QString cloud = json::string(field(object, "cloud")).trimmed();
        const QString shade = json::string(field(object, "shade_instance_type")).trimmed();
        if (cloud.isEmpty() || shade.isEmpty())
            continue;
        const QJsonObject configuration = field(object, "configuration").toObject();
        InstanceType type;
        type.provider = QStringLiteral("shadeform");
        type.name = cloud + QLatin1Char('/') + shade;
        // The table's name ("H100 SXM", "RTX A6000") reads like the other providers' rows.
        const GpuModel model = parseGpuModel(gpuText(configuration));
        type.gpuModel = model.isKnown() ? model.name() : gpuText(configuration);
        type.gpuCount = json::integer(field(configuration, "num_gpus"));
        type.vramGbPerGpu = json::integer(field(configuration, "vram_per_gpu_in_gb"));
        type.vcpus = json::integer(field(configuration, "vcpus"));
        type.ramGb = json::integer(field(configuration, "memory_in_gb"));
        type.diskGb = json::integer(field(configuration, "storage_in_gb"));
        type.pricePerHour = centsToDollars(field(object, "hourly_price"));
        type.description = tr("%1 on %2 (%3)").arg(shade, cloud, json::string(field(object, "cloud_instance_type")));
        double spot = 0;
        const QJsonArray availability = field(object, "availability").toArray();
        for (const QJsonValue &entry : availability) {
            const QJsonObject region = entry.toObject();
            // With spot, one region is listed twice; the spot entry carries its price in dollars.
            if (json::string(field(region, "rental_type"), QStringLiteral("on_demand")) == QLatin1String("spot")) {
                const double price = dollars(field(region, "hourly_price"));
                spot = spot > 0 && price > 0 ? std::min(spot, price) : std::max(spot, price);
                continue;
            }
            if (json::boolean(field(region, "available")))
                type.regionsWithCapacity.append(Region{json::string(field(region, "region")),
                                                       json::string(field(region, "display_name"))});
        }
        if (spot > 0)
            type.note = tr("Spot from $%1/h.").arg(spot, 0, 'f', 2);
        types.append(type);
    }
    return types;
}

Instance ShadeformProvider::parseInstance(const QJsonObject &object)
{
    Instance instance;
    instance.provider = QStringLiteral("shadeform");
    instance.id = json::string(field(object, "id"));
    instance.name = json::string(field(object, "name"));
    instance.providerStatus = json::string(field(object, "status"));
    instance.state = stateFromShadeform(instance.providerStatus);
    const QString cloud = json::string(field(object, "cloud"));
    const QString shade = json::string(field(object, "shade_instance_type"));
    instance.typeName = cloud.isEmpty() ? shade : cloud + QLatin1Char('/') + shade;
    const QJsonObject configuration = field(object, "configuration").toObject();
    const int gpus = json::integer(field(configuration, "num_gpus"));
    instance.gpuDescription = gpus > 0 ? QStringLiteral("%1x %2").arg(gpus).arg(gpuText(configuration)) : QString();
    instance.region = json::string(field(object, "region"));
    instance.pricePerHour = centsToDollars(field(object, "hourly_price"));
    const QJsonObject terms = field(object, "rental_terms").toObject();
    if (instance.pricePerHour <= 0 && !terms.isEmpty())
        instance.pricePerHour = dollars(field(terms, "hourly_price"));
    instance.createdAt = QDateTime::fromString(json::string(field(object, "created_at")), Qt::ISODate);
    instance.sshHost = json::string(field(object, "ip")).trimmed();
    // Documented as an integer, null in every real example: null means 22.
    instance.sshPort = json::integer(field(object, "ssh_port"), 22);
    if (instance.sshPort <= 0)
        instance.sshPort = 22;
    instance.sshUser = json::string(field(object, "ssh_user"), QStringLiteral("shadeform")).trimmed();
    if (instance.state != InstanceState::Running)
        instance.sshHost.clear();
    return instance;
}

QList<SshKey> ShadeformProvider::parseSshKeys(const QJsonValue &root)
{
    const QJsonArray array = root.isArray() ? root.toArray() : root.toObject().value(QLatin1String("ssh_keys")).toArray();
    QList<SshKey> keys;
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        SshKey key{json::string(field(object, "id")), json::string(field(object, "name")),
                   json::string(field(object, "public_key")).trimmed(), {}};
        if (!key.id.isEmpty())
            keys.append(key);
    }
    return keys;
}

Error ShadeformProvider::httpError(const HttpResponse &response) const
{
    if (response.status == 429)
        return Error{ErrorCode::Provider, rateLimitHint(response)};
    // Only 401 {"message": …} is documented; read message, then error, then the raw text.
    const QJsonObject body = QJsonDocument::fromJson(response.body).object();
    QString message = json::string(field(body, "message"), json::string(field(body, "error")));
    if (message.isEmpty())
        message = QString::fromUtf8(response.body.left(300)).simplified();
    if (message.isEmpty())
        message = tr("HTTP %1").arg(response.status);
    QString text = tr("Shadeform: %1").arg(text::printable(message));
    const QString lower = message.toLower();
    if (response.status == 401)
        text += QLatin1Char(' ') + tr("Check your API key (Settings → Accounts, or gantry-cli provider-key set shadeform).");
    else if (response.status == 403)
        text += QLatin1Char(' ') + tr("The key belongs to another account or workspace than this resource.");
    else if (lower.contains(QLatin1String("capacity")) || lower.contains(QLatin1String("not available")))
        text += QLatin1Char(' ') + tr("Out of capacity: try another region or type (Prices, or gantry-cli types --provider shadeform "
                                      "--available).");
    else if (lower.contains(QLatin1String("balance")) || lower.contains(QLatin1String("wallet"))
             || lower.contains(QLatin1String("fund")))
        text += QLatin1Char(' ') + tr("Insufficient balance: top up your Shadeform wallet, then launch again.");
    else if (lower.contains(QLatin1String("quota")) || lower.contains(QLatin1String("limit")))
        text += QLatin1Char(' ') + tr("Quota reached: delete an instance or ask Shadeform to raise the limit.");
    else if (response.status >= 500)
        text += QLatin1Char(' ') + tr("Shadeform had an internal error; try again shortly.");
    return Error{response.status == 404 ? ErrorCode::NotFound : ErrorCode::Provider, text};
}

void ShadeformProvider::listInstanceTypes(Callback<QList<InstanceType>> done)
{
    call("GET", QStringLiteral("/v1/instances/types"), QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        if (!data->toObject().value(QLatin1String("instance_types")).isArray())
            return done(malformed(tr("no \"instance_types\" list in the reply")));
        done(parseTypes(*data));
    });
}

void ShadeformProvider::listInstances(Callback<QList<Instance>> done)
{
    fetchInstances(QStringLiteral("/v1/instances"), QStringLiteral("instances"), &ShadeformProvider::parseInstance, std::move(done));
}

void ShadeformProvider::getInstance(const QString &id, Callback<Instance> done)
{
    call("GET", QStringLiteral("/v1/instances/%1/info").arg(encodeId(id)), QJsonValue(), true,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             Instance instance = parseInstance(data->toObject());
             if (instance.id.isEmpty())
                 return done(malformed(tr("the instance has no id")));
             done(instance);
         });
}

void ShadeformProvider::launch(const LaunchRequest &request, Callback<QString> done)
{
    const qsizetype slash = request.typeName.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == request.typeName.size() - 1 || request.region.isEmpty() || request.sshKeyName.isEmpty()) {
        return deliver<QString>(std::move(done),
                                Error{ErrorCode::Usage, tr("A Shadeform launch needs --type CLOUD/TYPE as gantry-cli types "
                                                           "--provider shadeform lists it, a --region of that type and an SSH key.")});
    }
    // Create takes a key id; people know their keys by name.
    listSshKeys([this, request, done = std::move(done)](Result<QList<SshKey>> keys) mutable {
        if (!keys)
            return done(keys.error());
        const auto key = std::find_if(keys->cbegin(), keys->cend(), [&](const SshKey &k) {
            return k.name == request.sshKeyName || k.id == request.sshKeyName;
        });
        if (key == keys->cend())
            return done(Error{ErrorCode::Provider, tr("Shadeform: no SSH key named \"%1\". Add it first (gantry-cli keys add "
                                                      "--provider shadeform NAME FILE.pub).").arg(text::printable(request.sshKeyName))});
        if (request.filesystemNames.isEmpty())
            return create(request, key->id, QString(), std::move(done));
        resolveLaunchVolume(*this, request, [this, request, keyId = key->id, done = std::move(done)](Result<Filesystem> volume) mutable {
            if (!volume)
                return done(volume.error());
            create(request, keyId, volume->id, std::move(done));
        });
    });
}

void ShadeformProvider::create(const LaunchRequest &request, const QString &keyId, const QString &volumeId,
                               Callback<QString> done)
{
    const qsizetype slash = request.typeName.indexOf(QLatin1Char('/'));
    QJsonObject body{
        {QStringLiteral("cloud"), request.typeName.left(slash)},
        {QStringLiteral("shade_instance_type"), request.typeName.mid(slash + 1)},
        {QStringLiteral("region"), request.region},
        // Required by the spec, omitted by most clients: say it (bill through Shadeform).
        {QStringLiteral("shade_cloud"), true},
        {QStringLiteral("name"), request.name.isEmpty() ? QStringLiteral("gantry-%1").arg(QDateTime::currentSecsSinceEpoch())
                                                        : request.name},
        {QStringLiteral("ssh_key_id"), keyId},
    };
    if (!request.image.isEmpty())
        body.insert(QStringLiteral("os"), request.image);
    if (!volumeId.isEmpty()) // "Currently only supports 1 volume at a time."
        body.insert(QStringLiteral("volume_ids"), QJsonArray{volumeId});
    call("POST", QStringLiteral("/v1/instances/create"), body, false, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        const QString id = json::string(data->toObject().value(QLatin1String("id")));
        if (id.isEmpty())
            return done(malformed(tr("the create reply has no instance id")));
        done(id); // asynchronous: the instance starts as "creating" and is polled from here
    });
}

void ShadeformProvider::post(const QString &path, Callback<void> done)
{
    call("POST", path, QJsonValue(), true,
         ignoreBody(std::move(done)));
}

void ShadeformProvider::restart(const QString &id, Callback<void> done)
{
    post(QStringLiteral("/v1/instances/%1/restart").arg(encodeId(id)), std::move(done));
}

void ShadeformProvider::terminate(const QString &id, Callback<void> done)
{
    post(QStringLiteral("/v1/instances/%1/delete").arg(encodeId(id)), std::move(done));
}

void ShadeformProvider::listSshKeys(Callback<QList<SshKey>> done)
{
    call("GET", QStringLiteral("/v1/sshkeys"), QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        if (!data->toObject().value(QLatin1String("ssh_keys")).isArray())
            return done(malformed(tr("no \"ssh_keys\" list in the reply")));
        done(parseSshKeys(*data));
    });
}

void ShadeformProvider::addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done)
{
    if (publicKey.trimmed().isEmpty()) {
        return deliver<SshKey>(std::move(done),
                               Error{ErrorCode::Usage, tr("Shadeform keys need a public key (Tools → SSH keys… → Generate new key…, or gantry-cli keys generate); "
                                                          "Gantry does not use the Shadeform Managed Key.")});
    }
    call("POST", QStringLiteral("/v1/sshkeys/add"),
         QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("public_key"), publicKey.trimmed()}}, false,
         [this, name, publicKey, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QString id = json::string(data->toObject().value(QLatin1String("id")));
             if (id.isEmpty())
                 return done(malformed(tr("the new key has no id")));
             done(SshKey{id, name, publicKey.trimmed(), {}});
         });
}

void ShadeformProvider::deleteSshKey(const QString &idOrName, Callback<void> done)
{
    listSshKeys([this, idOrName, done = std::move(done)](Result<QList<SshKey>> keys) mutable {
        if (!keys)
            return done(keys.error());
        const auto key = std::find_if(keys->cbegin(), keys->cend(),
                                      [&](const SshKey &k) { return k.id == idOrName || k.name == idOrName; });
        if (key == keys->cend())
            return done(Error{ErrorCode::NotFound, tr("Shadeform has no SSH key named \"%1\".").arg(text::printable(idOrName))});
        post(QStringLiteral("/v1/sshkeys/%1/delete").arg(encodeId(key->id)), std::move(done));
    });
}

} // namespace gantry::providers
