#include "core/providers/lambdaprovider.h"

#include "core/providers/jsonfields.h"
#include "core/providers/providerdescriptor.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

namespace gantry::providers {
namespace {

Region parseRegion(const QJsonValue &value)
{
    if (value.isString())
        return Region{value.toString(), {}};
    const QJsonObject object = value.toObject();
    return Region{json::string(object.value(QLatin1String("name"))),
                  json::string(object.value(QLatin1String("description")))};
}

// "A10 (24 GB PCIe)" → model "A10", 24 GB. Lambda gives VRAM only inside this free text.
void parseGpuDescription(const QString &text, InstanceType *type)
{
    static const QRegularExpression vram(QStringLiteral("(\\d+)\\s*GB"), QRegularExpression::CaseInsensitiveOption);
    QString model = text;
    const qsizetype paren = model.indexOf(QLatin1Char('('));
    if (paren > 0)
        model = model.left(paren);
    type->gpuModel = model.trimmed();
    const QRegularExpressionMatch match = vram.match(text);
    if (match.hasMatch())
        type->vramGbPerGpu = match.captured(1).toInt();
}

InstanceType parseType(const QJsonObject &object)
{
    InstanceType type;
    type.provider = QStringLiteral("lambda");
    type.name = json::string(object.value(QLatin1String("name")));
    type.description = json::string(object.value(QLatin1String("description")));
    // Documented as integer cents; older examples send the string "80".
    type.pricePerHour = json::number(object.value(QLatin1String("price_cents_per_hour"))) / 100.0;
    const QJsonObject specs = object.value(QLatin1String("specs")).toObject();
    type.vcpus = json::integer(specs.value(QLatin1String("vcpus")));
    type.ramGb = json::integer(specs.value(QLatin1String("memory_gib")));
    type.diskGb = json::integer(specs.value(QLatin1String("storage_gib")));
    type.gpuCount = json::integer(specs.value(QLatin1String("gpus")));
    if (type.gpuCount > 0)
        parseGpuDescription(json::string(object.value(QLatin1String("gpu_description"))), &type);
    return type;
}

InstanceState stateFromLambda(const QString &status)
{
    if (status == QLatin1String("booting"))
        return InstanceState::Booting;
    if (status == QLatin1String("active"))
        return InstanceState::Running;
    if (status == QLatin1String("unhealthy"))
        return InstanceState::Unhealthy;
    if (status == QLatin1String("terminating"))
        return InstanceState::Terminating;
    if (status == QLatin1String("terminated") || status == QLatin1String("preempted"))
        return InstanceState::Terminated;
    return InstanceState::Unknown;
}

QStringList stringList(const QJsonValue &value)
{
    QStringList list;
    const QJsonArray array = value.toArray();
    for (const QJsonValue &item : array)
        list.append(json::string(item));
    return list;
}

} // namespace

LambdaProvider::LambdaProvider(RestConfig config, QObject *parent)
    : RestProvider(std::move(config), parent)
{
}

ProviderInfo LambdaProvider::info() const
{
    ProviderInfo info;
    info.id = QStringLiteral("lambda");
    info.displayName = tr("Lambda Cloud");
    info.capabilities = Capability::Restart | Capability::Filesystems | Capability::Images
        | Capability::GenerateSshKey | Capability::RegionsPerType | Capability::ImagesByFamily;
    info.billingGranularitySeconds = 60;
    info.cost = costModelFor(info.id);
    info.launchNeedsRegion = true;
    info.launchNeedsSshKey = true;
    info.sshUser = QStringLiteral("ubuntu");
    info.billingNote = tr("Billed per minute from launch to terminate. Instances cannot be stopped; "
                          "terminating loses the local disk. Filesystems bill per GB-month.");
    return info;
}

Result<QJsonValue> LambdaProvider::unwrap(const HttpResponse &response) const
{
    Result<QJsonValue> parsed = RestProvider::unwrap(response);
    if (!parsed)
        return parsed;
    const QJsonObject object = parsed->toObject();
    if (!object.contains(QLatin1String("data")))
        return malformed(tr("no \"data\" field in the reply"));
    return object.value(QLatin1String("data"));
}

Error LambdaProvider::httpError(const HttpResponse &response) const
{
    if (response.status == 429)
        return Error{ErrorCode::Provider, rateLimitHint(response)};
    const QJsonObject root = QJsonDocument::fromJson(response.body).object();
    const QJsonObject error = root.value(QLatin1String("error")).toObject();
    const QString code = json::string(error.value(QLatin1String("code")));
    QString message = json::string(error.value(QLatin1String("message")));
    const QString suggestion = json::string(error.value(QLatin1String("suggestion")));
    if (message.isEmpty()) {
        if (response.status == 401)
            message = tr("API key was rejected.");
        else if (response.status >= 500)
            message = tr("The service had an internal error (HTTP %1).").arg(response.status);
        else
            message = tr("The request failed with HTTP %1.").arg(response.status);
    }
    QString text = tr("Lambda Cloud: %1").arg(message);
    if (!suggestion.isEmpty())
        text += QLatin1Char(' ') + suggestion;
    else if (code == QLatin1String("global/invalid-api-key") || response.status == 401)
        text += QLatin1Char(' ') + tr("Check your API key (Settings → Accounts, or gantry-cli provider-key set lambda) or create a new one.");
    else if (code == QLatin1String("filesystems/filesystem-in-use"))
        text += QLatin1Char(' ') + tr("Terminate the instances that mount it first, then delete it again.");
    else if (code == QLatin1String("instance-operations/launch/file-system-in-wrong-region"))
        text += QLatin1Char(' ') + tr("Launch in the filesystem's region, or pick a filesystem in this region.");
    else if (code == QLatin1String("instance-operations/launch/insufficient-capacity"))
        text += QLatin1Char(' ') + tr("Pick another region or instance type (the price table shows where capacity is).");
    if (!code.isEmpty())
        text += QStringLiteral(" [%1]").arg(code);
    return Error{ErrorCode::Provider, text};
}

Result<QList<InstanceType>> LambdaProvider::parseInstanceTypes(const QJsonValue &data)
{
    QList<InstanceType> types;
    auto addEntry = [&types](const QJsonObject &entry) {
        // Either the documented {instance_type, regions_with_capacity_available} or a bare type.
        const bool wrapped = entry.contains(QLatin1String("instance_type"));
        InstanceType type = parseType(wrapped ? entry.value(QLatin1String("instance_type")).toObject() : entry);
        if (type.name.isEmpty())
            return;
        const QJsonArray regions = entry.value(QLatin1String("regions_with_capacity_available")).toArray();
        for (const QJsonValue &region : regions) {
            const Region parsed = parseRegion(region);
            if (!parsed.name.isEmpty())
                type.regionsWithCapacity.append(parsed);
        }
        types.append(type);
    };
    if (data.isObject()) {
        const QJsonObject map = data.toObject();
        for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
            if (it.value().isObject())
                addEntry(it.value().toObject());
        }
    } else if (data.isArray()) {
        const QJsonArray array = data.toArray();
        for (const QJsonValue &value : array)
            addEntry(value.toObject());
    } else {
        return Error{ErrorCode::Provider, tr("Lambda Cloud sent instance types in an unknown shape.")};
    }
    return types;
}

Instance LambdaProvider::parseInstance(const QJsonObject &object)
{
    Instance instance;
    instance.provider = QStringLiteral("lambda");
    instance.id = json::string(object.value(QLatin1String("id")));
    instance.name = json::string(object.value(QLatin1String("name")));
    instance.providerStatus = json::string(object.value(QLatin1String("status")));
    instance.state = stateFromLambda(instance.providerStatus);
    instance.sshHost = json::string(object.value(QLatin1String("ip")));
    instance.sshPort = 22;
    instance.sshUser = QStringLiteral("ubuntu");
    instance.region = parseRegion(object.value(QLatin1String("region"))).name;
    const QJsonObject type = object.value(QLatin1String("instance_type")).toObject();
    const InstanceType parsedType = parseType(type);
    instance.typeName = parsedType.name;
    instance.gpuDescription = json::string(type.value(QLatin1String("gpu_description")), parsedType.description);
    instance.pricePerHour = parsedType.pricePerHour;
    instance.sshKeyNames = stringList(object.value(QLatin1String("ssh_key_names")));
    instance.filesystemNames = stringList(object.value(QLatin1String("file_system_names")));
    return instance;
}

void LambdaProvider::listInstanceTypes(Callback<QList<InstanceType>> done)
{
    call("GET", QStringLiteral("/api/v1/instance-types"), QJsonValue(), true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             done(parseInstanceTypes(*data));
         });
}

void LambdaProvider::listInstances(Callback<QList<Instance>> done)
{
    call("GET", QStringLiteral("/api/v1/instances"), QJsonValue(), true,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             if (!data->isArray())
                 return done(malformed(tr("the instance list is not an array")));
             QList<Instance> instances;
             const QJsonArray array = data->toArray();
             for (const QJsonValue &value : array) {
                 Instance instance = parseInstance(value.toObject());
                 if (!instance.id.isEmpty())
                     instances.append(instance);
             }
             done(instances);
         });
}

void LambdaProvider::getInstance(const QString &id, Callback<Instance> done)
{
    call("GET", QStringLiteral("/api/v1/instances/") + QString::fromUtf8(QUrl::toPercentEncoding(id)),
         QJsonValue(), true, [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             Instance instance = parseInstance(data->toObject());
             if (instance.id.isEmpty())
                 return done(malformed(tr("the instance has no id")));
             done(instance);
         });
}

void LambdaProvider::launch(const LaunchRequest &request, Callback<QString> done)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 wait = m_lastLaunchMs < 0 ? 0 : m_lastLaunchMs + m_launchIntervalMs - now;
    m_lastLaunchMs = std::max(now, m_lastLaunchMs + m_launchIntervalMs);
    if (wait > 0) {
        QTimer::singleShot(int(wait), this, [this, request, done = std::move(done)]() mutable {
            sendLaunch(request, std::move(done));
        });
        return;
    }
    sendLaunch(request, std::move(done));
}

void LambdaProvider::sendLaunch(const LaunchRequest &request, Callback<QString> done)
{
    if (request.typeName.isEmpty() || request.region.isEmpty() || request.sshKeyName.isEmpty()) {
        return deliver<QString>(std::move(done),
                                Error{ErrorCode::Usage, tr("A Lambda launch needs an instance type, a region "
                                                           "and exactly one SSH key name.")});
    }
    QJsonObject body{
        {QStringLiteral("region_name"), request.region},
        {QStringLiteral("instance_type_name"), request.typeName},
        {QStringLiteral("ssh_key_names"), QJsonArray{request.sshKeyName}},
        {QStringLiteral("file_system_names"), QJsonArray::fromStringList(request.filesystemNames)},
    };
    if (!request.name.isEmpty())
        body.insert(QStringLiteral("name"), request.name);
    if (!request.image.isEmpty()) {
        // Image ids are opaque hex; anything else is a family name such as "lambda-stack-22-04".
        static const QRegularExpression idLike(QStringLiteral("^[0-9a-f]{16,}$"));
        body.insert(QStringLiteral("image"),
                    QJsonObject{{idLike.match(request.image).hasMatch() ? QStringLiteral("id") : QStringLiteral("family"),
                                 request.image}});
    }
    call("POST", QStringLiteral("/api/v1/instance-operations/launch"), body, false,
         [this, done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QJsonArray ids = data->toObject().value(QLatin1String("instance_ids")).toArray();
             if (ids.isEmpty() || json::string(ids.first()).isEmpty())
                 return done(malformed(tr("the launch reply has no instance id")));
             done(json::string(ids.first()));
         });
}

void LambdaProvider::restart(const QString &id, Callback<void> done)
{
    call("POST", QStringLiteral("/api/v1/instance-operations/restart"),
         QJsonObject{{QStringLiteral("instance_ids"), QJsonArray{id}}}, true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             done(Result<void>());
         });
}

void LambdaProvider::terminate(const QString &id, Callback<void> done)
{
    call("POST", QStringLiteral("/api/v1/instance-operations/terminate"),
         QJsonObject{{QStringLiteral("instance_ids"), QJsonArray{id}}}, true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             done(Result<void>());
         });
}

void LambdaProvider::listSshKeys(Callback<QList<SshKey>> done)
{
    call("GET", QStringLiteral("/api/v1/ssh-keys"), QJsonValue(), true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             QList<SshKey> keys;
             const QJsonArray array = data->toArray();
             for (const QJsonValue &value : array) {
                 const QJsonObject object = value.toObject();
                 keys.append(SshKey{json::string(object.value(QLatin1String("id"))),
                                    json::string(object.value(QLatin1String("name"))),
                                    json::string(object.value(QLatin1String("public_key"))), {}});
             }
             done(keys);
         });
}

void LambdaProvider::addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done)
{
    QJsonObject body{{QStringLiteral("name"), name}};
    if (!publicKey.trimmed().isEmpty())
        body.insert(QStringLiteral("public_key"), publicKey.trimmed());
    call("POST", QStringLiteral("/api/v1/ssh-keys"), body, false,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QJsonObject object = data->toObject();
             done(SshKey{json::string(object.value(QLatin1String("id"))),
                         json::string(object.value(QLatin1String("name"))),
                         json::string(object.value(QLatin1String("public_key"))),
                         json::string(object.value(QLatin1String("private_key")))});
         });
}

void LambdaProvider::deleteSshKey(const QString &idOrName, Callback<void> done)
{
    // The API deletes by id; users know keys by name, so look the name up first.
    listSshKeys([this, idOrName, done = std::move(done)](Result<QList<SshKey>> keys) mutable {
        if (!keys)
            return done(keys.error());
        QString id;
        for (const SshKey &key : *keys) {
            if (key.id == idOrName || key.name == idOrName)
                id = key.id;
        }
        if (id.isEmpty())
            return done(Error{ErrorCode::NotFound, tr("Lambda Cloud has no SSH key named \"%1\".").arg(idOrName)});
        call("DELETE", QStringLiteral("/api/v1/ssh-keys/") + QString::fromUtf8(QUrl::toPercentEncoding(id)),
             QJsonValue(), true, [done = std::move(done)](Result<QJsonValue> data) {
                 if (!data)
                     return done(data.error());
                 done(Result<void>());
             });
    });
}

Filesystem LambdaProvider::parseFilesystem(const QJsonObject &object)
{
    Filesystem fs;
    fs.provider = QStringLiteral("lambda");
    fs.id = json::string(object.value(QLatin1String("id")));
    fs.name = json::string(object.value(QLatin1String("name")));
    fs.mountPoint = json::string(object.value(QLatin1String("mount_point")));
    fs.inUse = json::boolean(object.value(QLatin1String("is_in_use")));
    fs.region = parseRegion(object.value(QLatin1String("region"))).name;
    fs.bytesUsed = json::truncatedInt64(json::number(object.value(QLatin1String("bytes_used")), -1), -1);
    fs.createdAt = QDateTime::fromString(json::string(object.value(QLatin1String("created"))), Qt::ISODate);
    // Lambda's API gives no price; its docs bill filesystems per GB used per month.
    fs.pricePerGbMonth = providerDescriptor(QStringLiteral("lambda"))->volumes.perGbMonth;
    return fs;
}

void LambdaProvider::listFilesystems(Callback<QList<Filesystem>> done)
{
    call("GET", QStringLiteral("/api/v1/file-systems"), QJsonValue(), true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             QList<Filesystem> list;
             const QJsonArray array = data->toArray();
             for (const QJsonValue &value : array)
                 list.append(parseFilesystem(value.toObject()));
             done(list);
         });
}

void LambdaProvider::createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done)
{
    // The document's pattern for names: a letter first, then letters, digits and dashes (60 at most).
    static const QRegularExpression valid(QStringLiteral("^[a-zA-Z]+[0-9a-zA-Z-]*$"));
    if (!valid.match(spec.name).hasMatch() || spec.name.size() > 60)
        return deliver<Filesystem>(std::move(done),
                                   Error{ErrorCode::Usage, tr("Lambda Cloud: \"%1\" is not a valid filesystem name. Use "
                                                              "a letter first, then letters, digits and dashes (60 at most).")
                                                               .arg(spec.name)});
    if (spec.region.isEmpty())
        return deliver<Filesystem>(std::move(done),
                                   Error{ErrorCode::Usage, tr("Lambda Cloud: a filesystem needs a region (--region, "
                                                              "e.g. us-east-1).")});
    const QJsonObject body{{QStringLiteral("name"), spec.name}, {QStringLiteral("region"), spec.region}};
    call("POST", QStringLiteral("/api/v1/filesystems"), body, false, [this, done = std::move(done)](Result<QJsonValue> data) {
        if (!data)
            return done(data.error());
        Filesystem fs = parseFilesystem(data->toObject());
        if (fs.id.isEmpty())
            return done(malformed(tr("the new filesystem has no id")));
        done(fs);
    });
}

void LambdaProvider::deleteFilesystem(const QString &id, Callback<void> done)
{
    call("DELETE", QStringLiteral("/api/v1/filesystems/") + QString::fromLatin1(QUrl::toPercentEncoding(id)), QJsonValue(), true,
         ignoreBody(std::move(done)));
}

void LambdaProvider::listImages(Callback<QList<Image>> done)
{
    call("GET", QStringLiteral("/api/v1/images"), QJsonValue(), true,
         [done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             QList<Image> list;
             const QJsonArray array = data->toArray();
             for (const QJsonValue &value : array) {
                 const QJsonObject object = value.toObject();
                 list.append(Image{json::string(object.value(QLatin1String("id"))),
                                   json::string(object.value(QLatin1String("name"))),
                                   json::string(object.value(QLatin1String("family"))),
                                   json::string(object.value(QLatin1String("description"))),
                                   parseRegion(object.value(QLatin1String("region"))).name});
             }
             done(list);
         });
}

} // namespace gantry::providers
