#include "core/providers/vastprovider.h"

#include "core/providers/gpumodels.h"
#include "core/providers/jsonfields.h"
#include "core/providers/launchtypes.h"
#include "core/providers/volumes.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <cmath>

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

int mbToGb(const QJsonValue &mb)
{
    return json::truncatedInt(std::round(json::number(mb) / 1024.0));
}

// "Texas, US" → "US"; free text without a trailing country code stays as it is.
QString countryOf(const QString &geolocation)
{
    const QString trimmed = geolocation.trimmed();
    const qsizetype comma = trimmed.lastIndexOf(QLatin1Char(','));
    const QString tail = comma >= 0 ? trimmed.mid(comma + 1).trimmed() : trimmed;
    static const QRegularExpression code(QStringLiteral("^[A-Z]{2}$"));
    return code.match(tail).hasMatch() ? tail : trimmed;
}

InstanceState stateFromVast(const QString &actual, const QString &intended)
{
    if (actual.isEmpty() || actual == QLatin1String("created") || actual == QLatin1String("loading")
        || actual == QLatin1String("scheduling"))
        return intended == QLatin1String("stopped") ? InstanceState::Stopped : InstanceState::Booting;
    if (actual == QLatin1String("running"))
        return intended == QLatin1String("stopped") ? InstanceState::Stopping : InstanceState::Running;
    if (actual == QLatin1String("stopped") || actual == QLatin1String("frozen"))
        return InstanceState::Stopped;
    if (actual == QLatin1String("rebooting"))
        return InstanceState::Restarting;
    if (actual == QLatin1String("exited") || actual == QLatin1String("offline") || actual == QLatin1String("unknown"))
        return InstanceState::Unhealthy;
    if (actual == QLatin1String("destroyed"))
        return InstanceState::Terminated;
    return InstanceState::Unknown;
}

// Direct SSH (public IP + the host port mapped to 22) is faster; the proxy works on every machine.
void readSshEndpoint(const QJsonObject &object, Instance *instance)
{
    const QJsonArray mapped = field(object, "ports").toObject().value(QLatin1String("22/tcp")).toArray();
    const QString publicIp = json::string(field(object, "public_ipaddr")).trimmed();
    const int directPort = mapped.isEmpty() ? 0 : json::integer(mapped.first().toObject().value(QLatin1String("HostPort")));
    if (!publicIp.isEmpty() && directPort > 0) {
        instance->sshHost = publicIp;
        instance->sshPort = directPort;
        return;
    }
    instance->sshHost = json::string(field(object, "ssh_host")).trimmed();
    instance->sshPort = json::integer(field(object, "ssh_port"), 22);
}

} // namespace

VastProvider::VastProvider(RestConfig config, QObject *parent)
    : RestProvider(std::move(config), parent)
{
}

ProviderInfo VastProvider::info() const
{
    ProviderInfo info;
    info.id = QStringLiteral("vast");
    info.selfStop = SelfStop::VastContainerKey;
    info.displayName = tr("Vast.ai");
    info.capabilities = Capability::StopStart | Capability::Restart | Capability::StorageBillsWhileStopped
        | Capability::RegionsPerType | Capability::LaunchVolume | Capability::Marketplace | Capability::Filesystems;
    info.billingGranularitySeconds = 1;
    info.cost = costModelFor(info.id);
    info.sshUser = QStringLiteral("root");
    info.billingNote = tr("Billed per second while running; the disk bills for as long as the instance exists, "
                          "stopped too. Each offer is one host's machine with its own price and reliability.");
    info.statusPollMs = 5000;
    return info;
}

QJsonObject VastProvider::offerQuery(const QString &gpuName, int gpuCount, int limit)
{
    QJsonObject query{
        {QStringLiteral("verified"), QJsonObject{{QStringLiteral("eq"), true}}},
        {QStringLiteral("rentable"), QJsonObject{{QStringLiteral("eq"), true}}},
        {QStringLiteral("rented"), QJsonObject{{QStringLiteral("eq"), false}}},
        {QStringLiteral("external"), QJsonObject{{QStringLiteral("eq"), false}}},
        {QStringLiteral("direct_port_count"), QJsonObject{{QStringLiteral("gte"), 1}}},
        {QStringLiteral("order"), QJsonArray{QJsonArray{QStringLiteral("dph_total"), QStringLiteral("asc")}}},
        {QStringLiteral("type"), QStringLiteral("on-demand")},
        {QStringLiteral("allocated_storage"), kDefaultDiskGb},
        {QStringLiteral("limit"), limit},
    };
    if (!gpuName.isEmpty())
        query.insert(QStringLiteral("gpu_name"), QJsonObject{{QStringLiteral("eq"), gpuName}});
    if (gpuCount > 0)
        query.insert(QStringLiteral("num_gpus"), QJsonObject{{QStringLiteral("eq"), gpuCount}});
    return query;
}

InstanceType VastProvider::parseOffer(const QJsonObject &offer)
{
    InstanceType type;
    type.provider = QStringLiteral("vast");
    const qint64 id = json::truncatedInt64(json::number(field(offer, "id"), -1), -1);
    if (id <= 0)
        return type;
    type.name = QString::number(id);
    type.gpuModel = json::string(field(offer, "gpu_name")).simplified();
    type.gpuCount = std::max(0, json::integer(field(offer, "num_gpus")));
    type.vramGbPerGpu = mbToGb(field(offer, "gpu_ram"));       // MB in the REST API
    type.ramGb = mbToGb(field(offer, "cpu_ram"));
    type.vcpus = json::truncatedInt(json::number(field(offer, "cpu_cores_effective"), json::number(field(offer, "cpu_cores"))));
    type.diskGb = json::truncatedInt(json::number(field(offer, "disk_space")));
    type.pricePerHour = json::number(field(offer, "dph_total"));
    type.reliability = json::number(field(offer, "reliability2"), json::number(field(offer, "reliability"), -1));
    type.dlperf = json::number(field(offer, "dlperf"));
    type.inetUpMbps = json::number(field(offer, "inet_up"));
    type.inetDownMbps = json::number(field(offer, "inet_down"));
    type.maxCuda = json::number(field(offer, "cuda_max_good"));
    type.minBidPerHour = json::number(field(offer, "min_bid"));
    type.storagePerGbMonth = json::number(field(offer, "storage_cost"));
    type.machineId = json::string(field(offer, "machine_id"));
    type.verified = json::string(field(offer, "verification")) == QLatin1String("verified")
        || json::boolean(field(offer, "verified"));
    const QString location = json::string(field(offer, "geolocation")).simplified();
    const bool available = json::boolean(field(offer, "rentable"), true) && !json::boolean(field(offer, "rented"));
    if (available)
        type.regionsWithCapacity.append(Region{countryOf(location), location});
    type.description = tr("%1x %2, %3 GB each, %4").arg(type.gpuCount).arg(type.gpuModel).arg(type.vramGbPerGpu)
                           .arg(location.isEmpty() ? tr("location unknown") : location);
    if (type.minBidPerHour > 0)
        type.note = tr("Interruptible from $%1/h.").arg(type.minBidPerHour, 0, 'f', 3);
    return type;
}

QList<InstanceType> VastProvider::parseOffers(const QJsonValue &root)
{
    // The OpenAPI example shows "offers" as one object; the service sends an array.
    const QJsonValue offers = root.isArray() ? root : root.toObject().value(QLatin1String("offers"));
    QList<InstanceType> types;
    const QJsonArray array = offers.isArray() ? offers.toArray() : QJsonArray{offers};
    types.reserve(array.size());
    for (const QJsonValue &value : array) {
        InstanceType type = parseOffer(value.toObject());
        if (!type.name.isEmpty())
            types.append(std::move(type));
    }
    return types;
}

Instance VastProvider::parseInstance(const QJsonObject &object)
{
    Instance instance;
    instance.provider = QStringLiteral("vast");
    const qint64 id = json::truncatedInt64(json::number(field(object, "id"), -1), -1);
    if (id <= 0)
        return instance;
    instance.id = QString::number(id);
    instance.name = json::string(field(object, "label"));
    const QString actual = json::string(field(object, "actual_status"));
    const QString intended = json::string(field(object, "intended_status"));
    instance.state = stateFromVast(actual, intended);
    const bool outbid = json::boolean(field(object, "is_bid")) && actual == QLatin1String("stopped")
        && intended == QLatin1String("running");
    instance.providerStatus = outbid ? QStringLiteral("outbid") : (actual.isEmpty() ? QStringLiteral("provisioning") : actual);
    const QString gpu = json::string(field(object, "gpu_name")).simplified();
    const int count = json::integer(field(object, "num_gpus"), 1);
    instance.typeName = gpu.isEmpty() ? QString() : QStringLiteral("%1x%2").arg(gpu).arg(count);
    instance.gpuDescription = gpu.isEmpty() ? QString() : QStringLiteral("%1x %2").arg(count).arg(gpu);
    instance.region = json::string(field(object, "geolocation")).simplified();
    instance.volumeGb = json::truncatedInt(json::number(field(object, "disk_space")));
    // dph_total includes the disk; stopped, only the disk is charged (kept out of compute).
    instance.pricePerHour = isBillingCompute(instance.state) ? json::number(field(object, "dph_total")) : 0;
    const double started = json::number(field(object, "start_date"));
    if (started > 0)
        instance.createdAt = QDateTime::fromMSecsSinceEpoch(json::truncatedInt64(started * 1000), Qt::UTC);
    instance.machineId = json::string(field(object, "machine_id"));
    instance.storagePerGbMonth = json::number(field(object, "storage_cost"));
    instance.sshUser = QStringLiteral("root");
    readSshEndpoint(object, &instance);
    if (instance.state != InstanceState::Running)
        instance.sshHost.clear();
    return instance;
}

QList<SshKey> VastProvider::parseSshKeys(const QJsonValue &root)
{
    // Documented as a bare array; the official CLI also accepts {"ssh_keys": […]}.
    QJsonValue list = root;
    if (root.isObject())
        list = root.toObject().contains(QLatin1String("ssh_keys")) ? root.toObject().value(QLatin1String("ssh_keys"))
                                                                   : root.toObject().value(QLatin1String("keys"));
    QList<SshKey> keys;
    const QJsonArray array = list.toArray();
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        SshKey key;
        key.id = json::string(field(object, "id"));
        key.publicKey = json::string(field(object, "public_key"), json::string(field(object, "key"),
                                                                               json::string(field(object, "ssh_key")))).trimmed();
        const QStringList parts = key.publicKey.simplified().split(QLatin1Char(' '));
        key.name = json::string(field(object, "name"), parts.size() > 2 ? parts.mid(2).join(QLatin1Char(' ')) : key.id);
        if (!key.id.isEmpty())
            keys.append(key);
    }
    return keys;
}

Error VastProvider::vastError(int status, const QJsonObject &body, const QByteArray &raw)
{
    const QString code = json::string(body.value(QLatin1String("error")));
    QString message = json::string(body.value(QLatin1String("msg")), json::string(body.value(QLatin1String("message")),
                                                                                  json::string(body.value(QLatin1String("detail")))));
    if (message.isEmpty() && body.isEmpty())
        message = QString::fromUtf8(raw.left(300)).simplified();
    if (message.isEmpty())
        message = code.isEmpty() ? tr("HTTP %1").arg(status) : code;
    QString text = tr("Vast.ai: %1").arg(text::printable(message));
    const QString lower = (code + QLatin1Char(' ') + message).toLower();
    if (status == 401 || status == 403 || code == QLatin1String("auth_error") || lower.contains(QLatin1String("invalid user key")))
        text += QLatin1Char(' ') + tr("Check your API key (Settings → Accounts, or gantry-cli provider-key set vast).");
    else if (lower.contains(QLatin1String("no_such_ask")) || lower.contains(QLatin1String("no longer available"))
             || lower.contains(QLatin1String("not available")))
        text += QLatin1Char(' ') + tr("Someone else rented that offer (out of capacity); pick another one "
                                      "(gantry-cli types --provider vast).");
    else if (lower.contains(QLatin1String("credit")) || lower.contains(QLatin1String("balance")))
        text += QLatin1Char(' ') + tr("Insufficient balance: add credit at https://cloud.vast.ai/billing/ and try again.");
    else if (code == QLatin1String("invalid_price"))
        text += QLatin1Char(' ') + tr("The bid is below the offer's minimum; bid at least its interruptible price.");
    else if (lower.contains(QLatin1String("image")))
        text += QLatin1Char(' ') + tr("Bad image: check the image name (docker pull must work for it).");
    else if (status >= 500)
        text += QLatin1Char(' ') + tr("Vast.ai had an internal error; try again shortly.");
    if (!code.isEmpty())
        text += QStringLiteral(" [%1]").arg(text::printable(code));
    return Error{status == 404 && !lower.contains(QLatin1String("ask")) ? ErrorCode::NotFound : ErrorCode::Provider, text};
}

Error VastProvider::httpError(const HttpResponse &response) const
{
    // Often plain text ("API requests too frequent endpoint threshold=…") and never a Retry-After.
    if (response.status == 429)
        return Error{ErrorCode::Provider, rateLimitHint(response)};
    return vastError(response.status, QJsonDocument::fromJson(response.body).object(), response.body);
}

Result<QJsonValue> VastProvider::unwrap(const HttpResponse &response) const
{
    Result<QJsonValue> parsed = RestProvider::unwrap(response);
    if (!parsed)
        return parsed;
    // {"success": false, …} on HTTP 200 is a failure all the same.
    const QJsonObject object = parsed->toObject();
    if (object.value(QLatin1String("success")) == QJsonValue(false))
        return vastError(response.status, object, response.body);
    return parsed;
}

void VastProvider::searchOffers(const QJsonObject &query, Callback<QList<InstanceType>> done)
{
    // A full search is a thousand offers: read and parse them on a worker thread.
    callParsed<QList<InstanceType>>("POST", QStringLiteral("/api/v0/bundles/"), query, true, &VastProvider::readOffers, std::move(done));
}

Result<QList<InstanceType>> VastProvider::readOffers(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error{ErrorCode::Provider, tr("Vast.ai sent a reply Gantry cannot read (%1). The service may be having problems; "
                                             "try again in a minute.").arg(parseError.errorString())};
    const QJsonObject object = document.object();
    if (object.value(QLatin1String("success")) == QJsonValue(false))
        return vastError(200, object, body);
    if (!document.isArray() && !object.contains(QLatin1String("offers")))
        return Error{ErrorCode::Provider, tr("Vast.ai sent a reply Gantry cannot read (no \"offers\" in the search reply). "
                                             "The service may be having problems; try again in a minute.")};
    return parseOffers(document.isArray() ? QJsonValue(document.array()) : QJsonValue(object));
}

void VastProvider::listInstanceTypes(Callback<QList<InstanceType>> done)
{
    searchOffers(offerQuery(), std::move(done));
}

void VastProvider::listInstances(Callback<QList<Instance>> done)
{
    fetchInstances(QStringLiteral("/api/v0/instances/?owner=me"), QStringLiteral("instances"), &VastProvider::parseInstance, std::move(done));
}

void VastProvider::getInstance(const QString &id, Callback<Instance> done)
{
    call("GET", QStringLiteral("/api/v0/instances/%1/?owner=me").arg(encodeId(id)), QJsonValue(), true,
         [this, id, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             // One instance comes back as {"instances": {…}}, and as {"instances": null} once it is gone.
             const QJsonValue one = data->toObject().value(QLatin1String("instances"));
             if (one.isNull() || (one.isObject() && one.toObject().isEmpty()))
                 return done(Error{ErrorCode::NotFound, tr("Vast.ai: instance %1 not found (destroyed?).").arg(text::printable(id))});
             Instance instance = parseInstance(one.isArray() ? one.toArray().first().toObject() : one.toObject());
             if (instance.id.isEmpty())
                 return done(malformed(tr("the instance has no id")));
             done(instance);
         });
}

void VastProvider::launch(const LaunchRequest &request, Callback<QString> done)
{
    // Account keys are installed when the instance is created: without one it is unreachable.
    listSshKeys([this, request, done = std::move(done)](Result<QList<SshKey>> keys) mutable {
        if (!keys)
            return done(keys.error());
        const bool named = std::any_of(keys->cbegin(), keys->cend(), [&](const SshKey &key) {
            return key.name == request.sshKeyName || key.id == request.sshKeyName;
        });
        if (!request.sshKeyName.isEmpty() && !named)
            return done(Error{ErrorCode::Provider, tr("Vast.ai: no account SSH key named \"%1\". Add it first (gantry-cli keys "
                                                      "add --provider vast NAME FILE.pub).").arg(text::printable(request.sshKeyName))});
        if (keys->isEmpty())
            return done(Error{ErrorCode::Provider, tr("Vast.ai: your account has no SSH keys, so the instance would be "
                                                      "unreachable. Add one first (gantry-cli keys add --provider vast NAME FILE.pub).")});
        if (request.filesystemNames.isEmpty())
            return pickOffer(request, {}, std::move(done));
        // The volume is a machine's disk: the offer must be on that machine.
        resolveLaunchVolume(*this, request, [this, request, done = std::move(done)](Result<Filesystem> volume) mutable {
            if (!volume)
                return done(volume.error());
            pickOffer(request, *volume, std::move(done));
        });
    });
}

void VastProvider::pickOffer(const LaunchRequest &request, const Filesystem &volume, Callback<QString> done)
{
    static const QRegularExpression offerId(QStringLiteral("^\\d{1,12}$"));
    if (offerId.match(request.typeName).hasMatch())
        return rent(request.typeName, request, volume.id, std::move(done));
    QString gpu;
    int count = 0;
    if (!parseGpuSpec(request.typeName, &gpu, &count)) {
        return done(Error{ErrorCode::Usage, tr("A Vast.ai launch needs an offer id or GPUxN such as H100x1 "
                                               "(gantry-cli types --provider vast lists offers).")});
    }
    searchOffers(offerQuery({}, count, 1000), [this, request, volume, done = std::move(done)](Result<QList<InstanceType>> offers) mutable {
        if (!offers)
            return done(offers.error());
        if (!volume.machineId.isEmpty())
            offers->removeIf([&](const InstanceType &offer) { return offer.machineId != volume.machineId; });
        if (!volume.machineId.isEmpty() && offers->isEmpty())
            return done(Error{ErrorCode::Provider, tr("Vast.ai: volume \"%1\" lives on machine %2, which has no %3 offer "
                                                      "now. Launch there later, or use another volume.")
                                                       .arg(volume.name, volume.machineId, request.typeName)});
        Result<InstanceType> best = resolveLaunchType(info(), *offers, request);
        if (!best)
            return done(best.error());
        rent(best->name, request, volume.id, std::move(done));
    });
}

void VastProvider::rent(const QString &offerId, const LaunchRequest &request, const QString &volumeId, Callback<QString> done)
{
    QJsonObject body{
        {QStringLiteral("client_id"), QStringLiteral("me")},
        {QStringLiteral("image"), request.image.isEmpty() ? defaultImage() : request.image},
        {QStringLiteral("disk"), request.volumeGb > 0 ? request.volumeGb : kDefaultDiskGb},
        // The spelling every working client sends: direct SSH, with the proxy as fallback.
        {QStringLiteral("runtype"), QStringLiteral("ssh_direc ssh_proxy")},
        {QStringLiteral("target_state"), QStringLiteral("running")},
        {QStringLiteral("cancel_unavail"), true},
    };
    if (!request.name.isEmpty())
        body.insert(QStringLiteral("label"), request.name);
    if (request.bidPerHour > 0)
        body.insert(QStringLiteral("price"), request.bidPerHour); // a price makes it interruptible
    if (!volumeId.isEmpty()) // link an existing volume (create_new false: volume_id is from "show volumes")
        body.insert(QStringLiteral("volume_info"),
                    QJsonObject{{QStringLiteral("create_new"), false}, {QStringLiteral("volume_id"), volumeId.toLongLong()},
                                {QStringLiteral("mount_path"), QStringLiteral("/workspace")}});
    call("PUT", QStringLiteral("/api/v0/asks/%1/").arg(encodeId(offerId)), body, false,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             // The instance id arrives as "new_contract", not "id".
             const qint64 id = json::truncatedInt64(json::number(data->toObject().value(QLatin1String("new_contract")), -1), -1);
             if (id <= 0)
                 return done(malformed(tr("the rent reply has no \"new_contract\" id")));
             done(QString::number(id));
         });
}

void VastProvider::setState(const QString &id, const QString &state, Callback<void> done)
{
    call("PUT", QStringLiteral("/api/v0/instances/%1/").arg(encodeId(id)), QJsonObject{{QStringLiteral("state"), state}}, true,
         ignoreBody(std::move(done)));
}

void VastProvider::stop(const QString &id, Callback<void> done)
{
    setState(id, QStringLiteral("stopped"), std::move(done));
}

void VastProvider::start(const QString &id, Callback<void> done)
{
    setState(id, QStringLiteral("running"), std::move(done));
}

void VastProvider::restart(const QString &id, Callback<void> done)
{
    call("PUT", QStringLiteral("/api/v0/instances/reboot/%1/").arg(encodeId(id)), QJsonObject{}, true,
         ignoreBody(std::move(done)));
}

void VastProvider::terminate(const QString &id, Callback<void> done)
{
    call("DELETE", QStringLiteral("/api/v0/instances/%1/").arg(encodeId(id)), QJsonValue(), true,
         ignoreBody(std::move(done)));
}

void VastProvider::listSshKeys(Callback<QList<SshKey>> done)
{
    call("GET", QStringLiteral("/api/v0/ssh/"), QJsonValue(), true, [done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        done(parseSshKeys(*data));
    });
}

void VastProvider::addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done)
{
    static const QRegularExpression shape(QStringLiteral("^(ssh|ecdsa|sk)-[^\\s]+ [^\\s]+"));
    const QStringList fields = publicKey.simplified().split(QLatin1Char(' '));
    if (!shape.match(publicKey.trimmed()).hasMatch() || fields.size() < 2) {
        return deliver<SshKey>(std::move(done),
                               Error{ErrorCode::Usage, tr("Vast.ai cannot generate keys; give an OpenSSH public key "
                                                          "(\"ssh-ed25519 AAAA… comment\"), e.g. from gantry-cli keys generate.")});
    }
    // Vast keys have no names: the name travels as the key's comment.
    const QString line = fields.at(0) + QLatin1Char(' ') + fields.at(1) + QLatin1Char(' ') + name;
    call("POST", QStringLiteral("/api/v0/ssh/"), QJsonObject{{QStringLiteral("ssh_key"), line}}, false,
         [this, name, line, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QJsonObject key = data->toObject().value(QLatin1String("key")).toObject();
             const QString id = json::string(key.value(QLatin1String("id")));
             if (id.isEmpty())
                 return done(malformed(tr("the new key has no id")));
             done(SshKey{id, name, json::string(key.value(QLatin1String("public_key")), line), {}});
         });
}

void VastProvider::deleteSshKey(const QString &idOrName, Callback<void> done)
{
    listSshKeys([this, idOrName, done = std::move(done)](Result<QList<SshKey>> keys) mutable {
        if (!keys)
            return done(keys.error());
        QString id;
        for (const SshKey &key : *keys) {
            if (key.id == idOrName || key.name == idOrName)
                id = key.id;
        }
        if (id.isEmpty())
            return done(Error{ErrorCode::NotFound, tr("Vast.ai has no SSH key named \"%1\".").arg(text::printable(idOrName))});
        call("DELETE", QStringLiteral("/api/v0/ssh/%1/").arg(encodeId(id)), QJsonValue(), true,
             ignoreBody(std::move(done)));
    });
}

} // namespace gantry::providers
