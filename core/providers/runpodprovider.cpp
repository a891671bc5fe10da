#include "core/providers/runpodprovider.h"

#include "core/providers/jsonfields.h"
#include "core/providers/providerdescriptor.h"
#include "core/providers/volumes.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

namespace gantry::providers {
namespace {

QString encodeId(const QString &id)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(id));
}

InstanceState stateFromRunPod(const QString &status)
{
    if (status == QLatin1String("PROVISIONING") || status == QLatin1String("STARTING")
        || status == QLatin1String("CREATED"))
        return InstanceState::Booting;
    if (status == QLatin1String("RUNNING"))
        return InstanceState::Running;
    if (status == QLatin1String("RESTARTING"))
        return InstanceState::Restarting;
    if (status == QLatin1String("EXITED") || status == QLatin1String("PAUSED"))
        return InstanceState::Stopped;
    if (status == QLatin1String("ERROR") || status == QLatin1String("DEAD"))
        return InstanceState::Error;
    if (status == QLatin1String("TERMINATED"))
        return InstanceState::Terminated;
    return InstanceState::Unknown;
}

} // namespace

RunPodProvider::RunPodProvider(RestConfig config, QObject *parent)
    : RestProvider(std::move(config), parent)
{
}

ProviderInfo RunPodProvider::info() const
{
    ProviderInfo info;
    info.id = QStringLiteral("runpod");
    info.selfStop = SelfStop::RunPodPodKey;
    info.displayName = tr("RunPod");
    info.capabilities = Capability::StopStart | Capability::Restart | Capability::Filesystems
        | Capability::StorageBillsWhileStopped | Capability::RegionsPerType | Capability::PerGpuPricing
        | Capability::LaunchVolume;
    info.billingGranularitySeconds = 1;
    info.cost = costModelFor(info.id);
    info.sshUser = QStringLiteral("root");
    info.billingNote = tr("Billed per second while running. A stopped pod still bills its volume disk "
                          "(at twice the running rate); the container disk is wiped on stop.");
    return info;
}

Error RunPodProvider::httpError(const HttpResponse &response) const
{
    if (response.status == 429)
        return Error{ErrorCode::Provider, rateLimitHint(response)};
    const QJsonObject problem = QJsonDocument::fromJson(response.body).object();
    QString detail = json::string(problem.value(QLatin1String("detail")));
    if (detail.isEmpty())
        detail = json::string(problem.value(QLatin1String("message"))); // REST v1 shape
    const QString title = json::string(problem.value(QLatin1String("title")));
    QStringList violations;
    const QJsonArray errors = problem.value(QLatin1String("errors")).toArray();
    for (const QJsonValue &value : errors)
        violations.append(value.isString() ? value.toString()
                                           : QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)));
    QString text = tr("RunPod: %1").arg(detail.isEmpty() ? (title.isEmpty() ? tr("HTTP %1").arg(response.status) : title)
                                                         : detail);
    if (!violations.isEmpty())
        text += QStringLiteral(" (") + violations.join(QStringLiteral("; ")) + QLatin1Char(')');
    switch (response.status) {
    case 401: text += QLatin1Char(' ') + tr("Check your API key (Settings → Accounts, or gantry-cli provider-key set runpod)."); break;
    case 402: text += QLatin1Char(' ') + tr("Add credit to your RunPod account; a deploy needs at least one hour's worth."); break;
    case 403: text += QLatin1Char(' ') + tr("Your account has no access to this resource or GPU pool."); break;
    default:
        if (response.status >= 500)
            text += QLatin1Char(' ') + tr("RunPod had an internal error; try again shortly.");
        break;
    }
    return Error{ErrorCode::Provider, text};
}

QList<InstanceType> RunPodProvider::parseCatalog(const QJsonValue &root)
{
    const QJsonArray gpus = root.isArray() ? root.toArray() : root.toObject().value(QLatin1String("gpus")).toArray();
    QList<InstanceType> types;
    for (const QJsonValue &value : gpus) {
        const QJsonObject gpu = value.toObject();
        InstanceType type;
        type.provider = QStringLiteral("runpod");
        type.name = json::string(gpu.value(QLatin1String("id")));
        if (type.name.isEmpty())
            continue;
        type.gpuModel = json::string(gpu.value(QLatin1String("name")), type.name);
        type.description = type.name;
        type.gpuCount = 1;
        type.vramGbPerGpu = json::integer(gpu.value(QLatin1String("memory")));
        const QJsonObject price = gpu.value(QLatin1String("price")).toObject();
        const bool secure = json::boolean(gpu.value(QLatin1String("secure")), true);
        const double securePrice = json::number(price.value(QLatin1String("secure")));
        const double communityPrice = json::number(price.value(QLatin1String("community")));
        type.pricePerHour = secure && securePrice > 0 ? securePrice : communityPrice;
        const QJsonObject maxCount = gpu.value(QLatin1String("maxCount")).toObject();
        const int max = json::integer(maxCount.value(secure ? QLatin1String("secure") : QLatin1String("community")));
        if (max > 1)
            type.note = tr("Price for one GPU; up to %1 per pod.").arg(max);
        const QJsonArray dataCenters = gpu.value(QLatin1String("dataCenters")).toArray();
        for (const QJsonValue &dc : dataCenters) {
            const QJsonObject object = dc.toObject();
            const QString availability = json::string(object.value(QLatin1String("availability")));
            if (!availability.isEmpty() && availability != QLatin1String("NONE"))
                type.regionsWithCapacity.append(Region{json::string(object.value(QLatin1String("id"))),
                                                       json::string(object.value(QLatin1String("name")))});
        }
        const QString availability = json::string(gpu.value(QLatin1String("availability")));
        if (dataCenters.isEmpty() && !availability.isEmpty() && availability != QLatin1String("NONE"))
            type.regionsWithCapacity.append(Region{QStringLiteral("any"), tr("Any data center")});
        types.append(type);
    }
    return types;
}

Instance RunPodProvider::parsePod(const QJsonObject &object)
{
    Instance pod;
    pod.provider = QStringLiteral("runpod");
    pod.id = json::string(object.value(QLatin1String("id")));
    pod.name = json::string(object.value(QLatin1String("name")));
    pod.providerStatus = json::string(object.value(QLatin1String("status")),
                                      json::string(object.value(QLatin1String("desiredStatus"))));
    pod.state = stateFromRunPod(pod.providerStatus);
    const QJsonObject gpu = object.value(QLatin1String("gpu")).toObject();
    pod.typeName = json::string(gpu.value(QLatin1String("id")));
    const int count = json::integer(gpu.value(QLatin1String("count")), 1);
    pod.gpuDescription = pod.typeName.isEmpty() ? QString() : QStringLiteral("%1x %2").arg(count).arg(pod.typeName);
    pod.region = json::string(object.value(QLatin1String("dataCenterId")));
    pod.pricePerHour = json::number(object.value(QLatin1String("cost")),
                                    json::number(object.value(QLatin1String("costPerHr"))));
    pod.volumeGb = json::integer(object.value(QLatin1String("mounts")).toObject()
                                     .value(QLatin1String("persistent")).toObject().value(QLatin1String("size")));
    pod.createdAt = QDateTime::fromString(json::string(object.value(QLatin1String("createdAt"))), Qt::ISODate);
    pod.sshUser = QStringLiteral("root");
    const QJsonObject direct = object.value(QLatin1String("ssh")).toObject().value(QLatin1String("direct")).toObject();
    if (!direct.isEmpty()) {
        pod.sshHost = json::string(direct.value(QLatin1String("host")));
        pod.sshPort = json::integer(direct.value(QLatin1String("port")), 22);
        pod.sshUser = json::string(direct.value(QLatin1String("username")), pod.sshUser);
    } else {
        // Older replies only list runtime port mappings.
        const QJsonArray ports = object.value(QLatin1String("runtime")).toObject().value(QLatin1String("ports")).toArray();
        for (const QJsonValue &value : ports) {
            const QJsonObject port = value.toObject();
            if (json::integer(port.value(QLatin1String("private"))) == 22 && port.value(QLatin1String("public")).isDouble()) {
                pod.sshHost = json::string(port.value(QLatin1String("ip")));
                pod.sshPort = json::integer(port.value(QLatin1String("public")), 22);
            }
        }
    }
    if (pod.state != InstanceState::Running)
        pod.sshHost.clear();
    return pod;
}

SshKey RunPodProvider::keyFromLine(const QString &line)
{
    const QStringList fields = line.simplified().split(QLatin1Char(' '));
    SshKey key;
    key.publicKey = line.trimmed();
    const QByteArray material = fields.size() > 1 ? fields.at(1).toLatin1() : line.toLatin1();
    key.id = QString::fromLatin1(QCryptographicHash::hash(material, QCryptographicHash::Sha256).toHex().left(12));
    key.name = fields.size() > 2 ? fields.mid(2).join(QLatin1Char(' ')) : key.id;
    return key;
}

void RunPodProvider::listInstanceTypes(Callback<QList<InstanceType>> done)
{
    call("GET", QStringLiteral("/v2/catalog/gpus?include=AVAILABILITY&product=POD"), QJsonValue(), true,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             if (!data->isArray() && !data->toObject().value(QLatin1String("gpus")).isArray())
                 return done(malformed(tr("no \"gpus\" list in the catalog")));
             done(parseCatalog(*data));
         });
}

void RunPodProvider::listInstances(Callback<QList<Instance>> done)
{
    call("GET", QStringLiteral("/v2/pods"), QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        const QJsonValue pods = data->isArray() ? *data : data->toObject().value(QLatin1String("pods"));
        if (!pods.isArray())
            return done(malformed(tr("no \"pods\" list in the reply")));
        QList<Instance> list;
        const QJsonArray array = pods.toArray();
        for (const QJsonValue &value : array) {
            Instance pod = parsePod(value.toObject());
            if (!pod.id.isEmpty())
                list.append(pod);
        }
        done(list);
    });
}

void RunPodProvider::getInstance(const QString &id, Callback<Instance> done)
{
    call("GET", QStringLiteral("/v2/pods/") + encodeId(id), QJsonValue(), true,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             Instance pod = parsePod(data->toObject());
             if (pod.id.isEmpty())
                 return done(malformed(tr("the pod has no id")));
             done(pod);
         });
}

void RunPodProvider::launch(const LaunchRequest &request, Callback<QString> done)
{
    if (request.typeName.isEmpty())
        return deliver<QString>(std::move(done), Error{ErrorCode::Usage, tr("A RunPod launch needs a GPU type.")});
    if (request.filesystemNames.isEmpty())
        return sendLaunch(request, QString(), std::move(done));
    // The pod names its network volume by id, and the volume must be in the pod's data center.
    resolveLaunchVolume(*this, request, [this, request, done = std::move(done)](Result<Filesystem> volume) mutable {
        if (!volume)
            return done(volume.error());
        LaunchRequest placed = request;
        placed.region = volume->region;
        sendLaunch(placed, volume->id, std::move(done));
    });
}

void RunPodProvider::sendLaunch(const LaunchRequest &request, const QString &volumeId, Callback<QString> done)
{
    // startSsh injects the account's registered keys, so the chosen key must be registered.
    fetchKeyLines([this, request, volumeId, done = std::move(done)](Result<QStringList> lines) mutable {
        if (!lines)
            return done(lines.error());
        if (!request.sshKeyName.isEmpty()) {
            bool found = false;
            for (const QString &line : *lines) {
                const SshKey key = keyFromLine(line);
                found = found || key.name == request.sshKeyName || key.id == request.sshKeyName;
            }
            if (!found)
                return done(Error{ErrorCode::Provider,
                                  tr("RunPod: no account SSH key named \"%1\". Add it first (gantry-cli keys add "
                                     "--provider runpod NAME FILE.pub).").arg(request.sshKeyName)});
        } else if (lines->isEmpty()) {
            return done(Error{ErrorCode::Provider,
                              tr("RunPod: your account has no SSH keys, so the pod would be unreachable. Add one "
                                 "first (gantry-cli keys add --provider runpod NAME FILE.pub).")});
        }
        QJsonObject body{
            {QStringLiteral("name"), request.name.isEmpty()
                                         ? QStringLiteral("gantry-%1").arg(QDateTime::currentSecsSinceEpoch())
                                         : request.name},
            {QStringLiteral("image"), request.image.isEmpty() ? defaultImage() : request.image},
            {QStringLiteral("gpu"), QJsonObject{{QStringLiteral("id"), request.typeName},
                                                {QStringLiteral("count"), std::max(1, request.gpuCount)}}},
            {QStringLiteral("cloud"), QStringLiteral("SECURE")},
            {QStringLiteral("ports"), QJsonArray{QStringLiteral("22/tcp")}},
            {QStringLiteral("startSsh"), true},
        };
        if (!request.region.isEmpty() && request.region != QLatin1String("any"))
            body.insert(QStringLiteral("dataCenterIds"), QJsonArray{request.region});
        // A pod mounts a network volume or a volume disk, never both (Mounts in the document): the
        // network volume takes /workspace.
        if (!volumeId.isEmpty())
            body.insert(QStringLiteral("mounts"),
                        QJsonObject{{QStringLiteral("network"),
                                     QJsonArray{QJsonObject{{QStringLiteral("volumeId"), volumeId},
                                                            {QStringLiteral("path"), QStringLiteral("/workspace")}}}}});
        else if (request.volumeGb > 0)
            body.insert(QStringLiteral("mounts"),
                        QJsonObject{{QStringLiteral("persistent"),
                                     QJsonObject{{QStringLiteral("size"), std::max(10, request.volumeGb)},
                                                 {QStringLiteral("path"), QStringLiteral("/workspace")}}}});
        call("POST", QStringLiteral("/v2/pods"), body, false, [this, done = std::move(done)](Result<QJsonValue> data) {
            if (!data)
                return done(data.error());
            const QString id = json::string(data->toObject().value(QLatin1String("id")));
            if (id.isEmpty())
                return done(malformed(tr("the new pod has no id")));
            done(id);
        });
    });
}

void RunPodProvider::action(const QString &id, const QString &verb, Callback<void> done)
{
    call("POST", QStringLiteral("/v2/pods/") + encodeId(id) + QStringLiteral("/action"),
         QJsonObject{{QStringLiteral("action"), verb}}, true, [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             done(Result<void>());
         });
}

void RunPodProvider::stop(const QString &id, Callback<void> done)
{
    action(id, QStringLiteral("stop"), std::move(done));
}

void RunPodProvider::start(const QString &id, Callback<void> done)
{
    action(id, QStringLiteral("start"), std::move(done));
}

void RunPodProvider::restart(const QString &id, Callback<void> done)
{
    action(id, QStringLiteral("restart"), std::move(done));
}

void RunPodProvider::terminate(const QString &id, Callback<void> done)
{
    action(id, QStringLiteral("terminate"), std::move(done));
}

void RunPodProvider::fetchKeyLines(std::function<void(Result<QStringList>)> done)
{
    call("GET", QStringLiteral("/v2/account/ssh-keys"), QJsonValue(), true,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QJsonValue keys = data->isArray() ? *data : data->toObject().value(QLatin1String("keys"));
             if (!keys.isArray())
                 return done(malformed(tr("no \"keys\" list in the reply")));
             QStringList lines;
             const QJsonArray array = keys.toArray();
             for (const QJsonValue &value : array) {
                 if (!json::string(value).trimmed().isEmpty())
                     lines.append(json::string(value).trimmed());
             }
             done(lines);
         });
}

void RunPodProvider::putKeyLines(const QStringList &lines, Callback<void> done)
{
    call("PUT", QStringLiteral("/v2/account/ssh-keys"), QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(lines)}},
         true, [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             done(Result<void>());
         });
}

void RunPodProvider::listSshKeys(Callback<QList<SshKey>> done)
{
    fetchKeyLines([done = std::move(done)](Result<QStringList> lines) {
        if (!lines)
            return done(lines.error());
        QList<SshKey> keys;
        for (const QString &line : *lines)
            keys.append(keyFromLine(line));
        done(keys);
    });
}

void RunPodProvider::addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done)
{
    static const QRegularExpression shape(QStringLiteral("^(ssh|ecdsa|sk)-[^\\s]+ [^\\s]+"));
    const QStringList fields = publicKey.simplified().split(QLatin1Char(' '));
    if (!shape.match(publicKey.trimmed()).hasMatch() || fields.size() < 2) {
        return deliver<SshKey>(std::move(done),
                               Error{ErrorCode::Usage, tr("RunPod cannot generate keys; give an OpenSSH public key "
                                                          "(\"ssh-ed25519 AAAA… comment\"), e.g. from gantry-cli keys generate.")});
    }
    // The account stores bare lines: the name travels as the key's comment.
    const QString line = fields.at(0) + QLatin1Char(' ') + fields.at(1) + QLatin1Char(' ') + name;
    fetchKeyLines([this, line, done = std::move(done)](Result<QStringList> lines) mutable {
        if (!lines)
            return done(lines.error());
        QStringList next = *lines;
        const SshKey added = keyFromLine(line);
        bool present = false;
        for (const QString &existing : next)
            present = present || keyFromLine(existing).id == added.id;
        if (!present)
            next.append(line);
        putKeyLines(next, [added, done = std::move(done)](Result<void> result) {
            if (!result)
                return done(result.error());
            done(added);
        });
    });
}

void RunPodProvider::deleteSshKey(const QString &idOrName, Callback<void> done)
{
    fetchKeyLines([this, idOrName, done = std::move(done)](Result<QStringList> lines) mutable {
        if (!lines)
            return done(lines.error());
        QStringList next;
        for (const QString &line : *lines) {
            const SshKey key = keyFromLine(line);
            if (key.id != idOrName && key.name != idOrName)
                next.append(line);
        }
        if (next.size() == lines->size())
            return done(Error{ErrorCode::NotFound, tr("RunPod has no account SSH key named \"%1\".").arg(idOrName)});
        putKeyLines(next, std::move(done));
    });
}

Filesystem RunPodProvider::parseVolume(const QJsonObject &object)
{
    Filesystem fs;
    fs.provider = QStringLiteral("runpod");
    fs.id = json::string(object.value(QLatin1String("id")));
    fs.name = json::string(object.value(QLatin1String("name")));
    fs.region = json::string(object.value(QLatin1String("dataCenter")));
    fs.sizeGb = json::integer(object.value(QLatin1String("size")));
    fs.mountPoint = QStringLiteral("/workspace");
    // The API reports no price; RunPod's pricing page: $0.07/GB-month (under 1 TB), $0.05 above.
    fs.pricePerGbMonth = fs.sizeGb > 1000 ? 0.05 : providerDescriptor(fs.provider)->volumes.perGbMonth;
    return fs;
}

void RunPodProvider::listFilesystems(Callback<QList<Filesystem>> done)
{
    call("GET", QStringLiteral("/v2/network-volumes"), QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        const QJsonArray array = data->isArray() ? data->toArray()
                                                 : data->toObject().value(QLatin1String("networkVolumes")).toArray();
        QList<Filesystem> list;
        for (const QJsonValue &value : array)
            list.append(parseVolume(value.toObject()));
        // A volume lists no pods; each pod names its network volume under mounts.network.
        call("GET", QStringLiteral("/v2/pods"), QJsonValue(), true, [list, done](Result<QJsonValue> pods) mutable {
            if (!pods)
                return done(pods.error());
            const QJsonArray array = pods->isArray() ? pods->toArray() : pods->toObject().value(QLatin1String("pods")).toArray();
            for (const QJsonValue &value : array) {
                const QJsonObject pod = value.toObject();
                const QJsonArray mounts = pod.value(QLatin1String("mounts")).toObject().value(QLatin1String("network")).toArray();
                for (const QJsonValue &mount : mounts) {
                    const QString volumeId = json::string(mount.toObject().value(QLatin1String("volumeId")));
                    for (Filesystem &fs : list) {
                        if (fs.id == volumeId) {
                            fs.attachedTo.append(json::string(pod.value(QLatin1String("id"))));
                            fs.inUse = true;
                        }
                    }
                }
            }
            done(list);
        });
    });
}

void RunPodProvider::createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done)
{
    if (spec.name.isEmpty() || spec.region.isEmpty() || spec.sizeGb < 10 || spec.sizeGb > 4096)
        return deliver<Filesystem>(std::move(done),
                                   Error{ErrorCode::Usage, tr("RunPod: a network volume needs a name, a data center "
                                                              "(--region, e.g. US-KS-2) and a size of 10 to 4096 GB.")});
    const QJsonObject body{{QStringLiteral("name"), spec.name}, {QStringLiteral("size"), spec.sizeGb},
                           {QStringLiteral("dataCenter"), spec.region}};
    call("POST", QStringLiteral("/v2/network-volumes"), body, false, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        Filesystem fs = parseVolume(data->toObject());
        if (fs.id.isEmpty())
            return done(malformed(tr("the new network volume has no id")));
        done(fs);
    });
}

void RunPodProvider::deleteFilesystem(const QString &id, Callback<void> done)
{
    call("DELETE", QStringLiteral("/v2/network-volumes/") + encodeId(id), QJsonValue(), true, ignoreBody(std::move(done)));
}

void RunPodProvider::listImages(Callback<QList<Image>> done)
{
    // Pods run any container image; offer the common PyTorch one.
    deliver<QList<Image>>(std::move(done),
                          QList<Image>{Image{defaultImage(), defaultImage(), QStringLiteral("pytorch"),
                                             tr("RunPod PyTorch (CUDA 12.8)"), {}}});
}

} // namespace gantry::providers
