#include "lambdaemulator.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace gantry::test {

LambdaEmulator::LambdaEmulator(QObject *parent)
    : EmulatorServer(parent)
{
    auto addType = [this](const QString &name, const QString &description, const QString &gpu, const QJsonValue &cents,
                          int vcpus, int memory, int storage, int gpus, const QStringList &regions) {
        m_types.insert(name, QJsonObject{
            {QStringLiteral("name"), name}, {QStringLiteral("description"), description},
            {QStringLiteral("gpu_description"), gpu}, {QStringLiteral("price_cents_per_hour"), cents},
            {QStringLiteral("specs"), QJsonObject{{QStringLiteral("vcpus"), vcpus}, {QStringLiteral("memory_gib"), memory},
                                                  {QStringLiteral("storage_gib"), storage}, {QStringLiteral("gpus"), gpus}}}});
        m_capacity.insert(name, regions);
    };
    addType(QStringLiteral("gpu_1x_a10"), QStringLiteral("1x A10 (24 GB PCIe)"), QStringLiteral("A10 (24 GB PCIe)"),
            75, 30, 200, 1400, 1, {QStringLiteral("us-east-1"), QStringLiteral("us-west-1")});
    // Older API examples send the price as a string; clients must cope.
    addType(QStringLiteral("gpu_1x_h100_sxm5"), QStringLiteral("1x H100 (80 GB SXM5)"), QStringLiteral("H100 (80 GB SXM5)"),
            QStringLiteral("329"), 26, 225, 2750, 1, {QStringLiteral("us-west-1")});
    addType(QStringLiteral("gpu_8x_a100"), QStringLiteral("8x A100 (40 GB SXM4)"), QStringLiteral("A100 (40 GB SXM4)"),
            1032, 124, 1800, 6000, 8, {});
    addType(QStringLiteral("cpu_4x_general"), QStringLiteral("4x CPU"), QString(), 20, 4, 16, 100, 0,
            {QStringLiteral("us-east-1")});
    m_keys.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("key0001")}, {QStringLiteral("name"), QStringLiteral("laptop")},
                              {QStringLiteral("public_key"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFake laptop")}});
    addFilesystem(QStringLiteral("shared-fs"), QStringLiteral("us-east-1"), 1048576);
}

void LambdaEmulator::setCapacity(const QString &typeName, const QStringList &regions)
{
    m_capacity.insert(typeName, regions);
}

QStringList LambdaEmulator::sshKeyNames() const
{
    QStringList names;
    for (const QJsonValue &key : m_keys)
        names.append(key.toObject().value(QLatin1String("name")).toString());
    return names;
}

bool LambdaEmulator::vanish(const QString &id)
{
    return m_instances.remove(id) > 0;
}

void LambdaEmulator::configure(const QJsonObject &config)
{
    bootMs = config.value(QLatin1String("bootMs")).toInt(bootMs);
    terminateMs = config.value(QLatin1String("terminateMs")).toInt(terminateMs);
    launchIntervalMs = config.value(QLatin1String("launchIntervalMs")).toInt(launchIntervalMs);
    neverActive = config.value(QLatin1String("neverActive")).toBool(neverActive);
    accountInactive = config.value(QLatin1String("accountInactive")).toBool(accountInactive);
    quotaExceeded = config.value(QLatin1String("quotaExceeded")).toBool(quotaExceeded);
    instanceIp = config.value(QLatin1String("instanceIp")).toString(instanceIp);
    if (config.contains(QLatin1String("capacity"))) {
        const QJsonObject capacity = config.value(QLatin1String("capacity")).toObject();
        for (auto it = capacity.constBegin(); it != capacity.constEnd(); ++it) {
            QStringList regions;
            for (const QJsonValue &region : it.value().toArray())
                regions.append(region.toString());
            setCapacity(it.key(), regions);
        }
    }
}

EmuResponse LambdaEmulator::error(int status, const QString &code, const QString &message, const QString &suggestion)
{
    QJsonObject object{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!suggestion.isEmpty())
        object.insert(QStringLiteral("suggestion"), suggestion);
    return json(status, QJsonObject{{QStringLiteral("error"), object}});
}

EmuResponse LambdaEmulator::errorFor(int status, const QString &message) const
{
    switch (status) {
    case 401: return error(401, QStringLiteral("global/invalid-api-key"), QStringLiteral("API key was invalid, expired, or deleted."),
                           QStringLiteral("Check your API key or create a new one, then try again."));
    case 429: {
        EmuResponse response; // the spec declares no 429 body
        response.status = 429;
        response.body = "Too Many Requests";
        response.contentType = "text/plain";
        return response;
    }
    default:
        if (status >= 500)
            return error(status, QStringLiteral("global/internal-error"),
                         message.isEmpty() ? QStringLiteral("An internal server error occurred.") : message,
                         QStringLiteral("Try again later. Contact Support if the problem persists."));
        return error(status, QStringLiteral("global/invalid-parameters"), message.isEmpty() ? QStringLiteral("Invalid request data.") : message);
    }
}

EmuResponse LambdaEmulator::data(const QJsonValue &value)
{
    EmuResponse response;
    response.body = QJsonDocument(QJsonObject{{QStringLiteral("data"), value}}).toJson(QJsonDocument::Compact);
    return response;
}

QJsonObject LambdaEmulator::region(const QString &name) const
{
    static const QMap<QString, QString> descriptions{{QStringLiteral("us-east-1"), QStringLiteral("Virginia, USA")},
                                                     {QStringLiteral("us-west-1"), QStringLiteral("California, USA")}};
    return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("description"), descriptions.value(name, name)}};
}

QJsonObject LambdaEmulator::typeObject(const QString &name) const
{
    return m_types.value(name);
}

QJsonObject LambdaEmulator::render(const Instance &instance) const
{
    QJsonObject object = instance.base;
    const qint64 now = nowMs();
    QString status = QStringLiteral("booting");
    if (instance.terminatedMs >= 0)
        status = now - instance.terminatedMs < terminateMs ? QStringLiteral("terminating") : QStringLiteral("terminated");
    else if (!instance.neverActive && now - instance.createdMs >= bootMs)
        status = QStringLiteral("active");
    object.insert(QStringLiteral("status"), status);
    if (status == QLatin1String("active")) {
        object.insert(QStringLiteral("ip"), instanceIp);
        object.insert(QStringLiteral("private_ip"), QStringLiteral("10.0.0.5"));
        object.insert(QStringLiteral("hostname"), QStringLiteral("10-0-0-5.cloud.lambdalabs.com"));
        object.insert(QStringLiteral("jupyter_token"), QStringLiteral("53968f128c4a4489b688c2c0a181d083"));
        object.insert(QStringLiteral("jupyter_url"), QStringLiteral("https://jupyter.example.invalid/?token=5396"));
    }
    const QJsonObject available{{QStringLiteral("available"), status == QLatin1String("active")}};
    object.insert(QStringLiteral("actions"), QJsonObject{{QStringLiteral("migrate"), QJsonObject{{QStringLiteral("available"), false}}},
                                                         {QStringLiteral("rebuild"), available}, {QStringLiteral("restart"), available},
                                                         {QStringLiteral("cold_reboot"), available},
                                                         {QStringLiteral("terminate"), QJsonObject{{QStringLiteral("available"), true}}}});
    return object;
}

void LambdaEmulator::reap()
{
    for (auto it = m_instances.begin(); it != m_instances.end();) {
        if (it->terminatedMs >= 0 && nowMs() - it->terminatedMs >= 2 * terminateMs)
            it = m_instances.erase(it);
        else
            ++it;
    }
}

EmuResponse LambdaEmulator::launch(const QJsonObject &body)
{
    if (accountInactive)
        return error(403, QStringLiteral("global/account-inactive"), QStringLiteral("Your account is inactive."),
                     QStringLiteral("Make sure you have verified your email address and have a valid payment method. Contact Support if problems continue."));
    if (launchIntervalMs > 0 && m_lastLaunchMs >= 0 && nowMs() - m_lastLaunchMs < launchIntervalMs)
        return errorFor(429, {});
    const QString typeName = body.value(QLatin1String("instance_type_name")).toString();
    const QString regionName = body.value(QLatin1String("region_name")).toString();
    const QJsonArray keys = body.value(QLatin1String("ssh_key_names")).toArray();
    if (typeName.isEmpty() || regionName.isEmpty() || keys.size() != 1)
        return error(400, QStringLiteral("global/invalid-parameters"), QStringLiteral("Invalid request data."),
                     QStringLiteral("Exactly one SSH key must be specified."));
    if (!m_types.contains(typeName))
        return error(400, QStringLiteral("global/invalid-parameters"), QStringLiteral("Invalid request data."),
                     QStringLiteral("Unknown instance type."));
    if (!sshKeyNames().contains(keys.first().toString()))
        return error(400, QStringLiteral("global/object-does-not-exist"), QStringLiteral("Specified SSH key does not exist."));
    if (quotaExceeded)
        return error(400, QStringLiteral("global/quota-exceeded"), QStringLiteral("Quota exceeded."),
                     QStringLiteral("Contact Support to increase your quota."));
    for (const QJsonValue &wanted : body.value(QLatin1String("file_system_names")).toArray()) {
        const auto fs = std::find_if(m_filesystems.cbegin(), m_filesystems.cend(), [&](const QJsonObject &f) {
            return f.value(QLatin1String("name")) == wanted;
        });
        if (fs == m_filesystems.cend())
            return error(400, QStringLiteral("global/object-does-not-exist"), QStringLiteral("Filesystem was not found."));
        if (fs->value(QLatin1String("region")).toObject().value(QLatin1String("name")).toString() != regionName)
            return error(400, QStringLiteral("instance-operations/launch/file-system-in-wrong-region"),
                         QStringLiteral("The filesystem is in another region."));
    }
    if (!m_capacity.value(typeName).contains(regionName))
        return error(400, QStringLiteral("instance-operations/launch/insufficient-capacity"),
                     QStringLiteral("Not enough capacity to fulfill launch request."));
    m_lastLaunchMs = nowMs();
    const QString id = QString::fromLatin1(QCryptographicHash::hash(QByteArray(QByteArray::number(m_nextId++) + "lambda"), QCryptographicHash::Md5).toHex());
    Instance instance;
    instance.createdMs = nowMs();
    instance.neverActive = neverActive;
    instance.base = QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), body.value(QLatin1String("name")).toString()},
        {QStringLiteral("ssh_key_names"), keys},
        {QStringLiteral("file_system_names"), body.value(QLatin1String("file_system_names")).toArray()},
        {QStringLiteral("region"), region(regionName)},
        {QStringLiteral("instance_type"), typeObject(typeName)},
        {QStringLiteral("tags"), QJsonArray{}},
        {QStringLiteral("firewall_rulesets"), QJsonArray{}},
    };
    m_instances.insert(id, instance);
    return data(QJsonObject{{QStringLiteral("instance_ids"), QJsonArray{id}}});
}

QJsonObject LambdaEmulator::renderFilesystem(const QJsonObject &fs) const
{
    QJsonObject object = fs;
    bool inUse = false;
    for (const Instance &instance : m_instances)
        inUse = inUse || (instance.terminatedMs < 0 && instance.base.value(QLatin1String("file_system_names")).toArray().contains(fs.value(QLatin1String("name"))));
    object.insert(QStringLiteral("is_in_use"), inUse);
    return object;
}

// GET /file-systems, POST /filesystems (name pattern, duplicate), DELETE /filesystems/{id}
// (refused while mounted: filesystems/filesystem-in-use), as lambda-cloud-openapi-1.10.0.json has them.
EmuResponse LambdaEmulator::filesystems(const EmuRequest &request, const QJsonObject &body)
{
    if (request.method == "GET" && request.path == QLatin1String("/api/v1/file-systems")) {
        QJsonArray list;
        for (const QJsonObject &fs : std::as_const(m_filesystems))
            list.append(renderFilesystem(fs));
        return data(list);
    }
    if (request.method == "POST" && request.path == QLatin1String("/api/v1/filesystems")) {
        static const QRegularExpression valid(QStringLiteral("^[a-zA-Z]+[0-9a-zA-Z-]*$"));
        const QString name = body.value(QLatin1String("name")).toString();
        const QString regionName = body.value(QLatin1String("region")).toString();
        if (!valid.match(name).hasMatch() || name.size() > 60 || regionName.isEmpty())
            return error(400, QStringLiteral("global/invalid-parameters"), QStringLiteral("Invalid request data."));
        for (const QJsonObject &fs : std::as_const(m_filesystems)) {
            if (fs.value(QLatin1String("name")).toString() == name)
                return error(400, QStringLiteral("global/duplicate"), QStringLiteral("A filesystem with this name already exists."));
        }
        addFilesystem(name, regionName, 0);
        return data(renderFilesystem(m_filesystems.last()));
    }
    const QString id = request.path.mid(int(qstrlen("/api/v1/filesystems/")));
    if (request.method == "DELETE") {
        for (qsizetype i = 0; i < m_filesystems.size(); ++i) {
            if (m_filesystems.at(i).value(QLatin1String("id")).toString() != id)
                continue;
            if (renderFilesystem(m_filesystems.at(i)).value(QLatin1String("is_in_use")).toBool())
                return error(400, QStringLiteral("filesystems/filesystem-in-use"), QStringLiteral("Filesystem is in use."));
            m_filesystems.removeAt(i);
            return data(QJsonObject{{QStringLiteral("deleted_ids"), QJsonArray{id}}});
        }
        return error(404, QStringLiteral("global/object-does-not-exist"), QStringLiteral("Filesystem was not found."));
    }
    return error(404, QStringLiteral("global/not-found"), QStringLiteral("The requested resource was not found."));
}

void LambdaEmulator::addFilesystem(const QString &name, const QString &regionName, qint64 bytesUsed)
{
    m_filesystems.append(QJsonObject{
        {QStringLiteral("id"), QStringLiteral("fs%1").arg(m_nextId++, 4, 10, QLatin1Char('0'))}, {QStringLiteral("name"), name},
        {QStringLiteral("mount_point"), QStringLiteral("/lambda/nfs/%1").arg(name)},
        {QStringLiteral("created"), QStringLiteral("2026-01-01T00:00:00Z")},
        {QStringLiteral("created_by"), QJsonObject{{QStringLiteral("id"), QStringLiteral("u1")},
                                                   {QStringLiteral("email"), QStringLiteral("user@example.com")},
                                                   {QStringLiteral("status"), QStringLiteral("active")}}},
        {QStringLiteral("region"), region(regionName)}, {QStringLiteral("bytes_used"), bytesUsed}});
}

EmuResponse LambdaEmulator::handle(const EmuRequest &request)
{
    const QByteArray auth = request.headers.value("authorization");
    const QByteArray key = apiKey().toUtf8();
    const bool authorized = auth == "Bearer " + key || auth == "Basic " + QByteArray(key + ':').toBase64()
        || auth == "Basic " + key;
    if (!authorized)
        return errorFor(401, {});
    reap();
    const QString path = request.path;
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (accountInactive && !path.endsWith(QLatin1String("/launch")))
        return error(403, QStringLiteral("global/account-inactive"), QStringLiteral("Your account is inactive."));

    if (request.method == "GET" && path == QLatin1String("/api/v1/instance-types")) {
        QJsonObject map;
        for (auto it = m_types.constBegin(); it != m_types.constEnd(); ++it) {
            QJsonArray regions;
            for (const QString &name : m_capacity.value(it.key()))
                regions.append(region(name));
            map.insert(it.key(), QJsonObject{{QStringLiteral("instance_type"), it.value()},
                                             {QStringLiteral("regions_with_capacity_available"), regions}});
        }
        return data(map);
    }
    if (request.method == "GET" && path == QLatin1String("/api/v1/instances")) {
        QJsonArray list;
        for (const Instance &instance : std::as_const(m_instances)) {
            const QJsonObject rendered = render(instance);
            if (rendered.value(QLatin1String("status")).toString() != QLatin1String("terminated"))
                list.append(rendered);
        }
        return data(list);
    }
    if (path.startsWith(QLatin1String("/api/v1/instances/"))) {
        const QString id = path.mid(int(qstrlen("/api/v1/instances/")));
        if (!m_instances.contains(id))
            return error(404, QStringLiteral("global/object-does-not-exist"), QStringLiteral("Specified instance does not exist."));
        if (request.method == "POST" && body.contains(QLatin1String("name")))
            m_instances[id].base.insert(QStringLiteral("name"), body.value(QLatin1String("name")));
        return data(render(m_instances.value(id)));
    }
    if (request.method == "POST" && path == QLatin1String("/api/v1/instance-operations/launch"))
        return launch(body);
    if (request.method == "POST" && (path == QLatin1String("/api/v1/instance-operations/terminate")
                                     || path == QLatin1String("/api/v1/instance-operations/restart"))) {
        const bool terminate = path.endsWith(QLatin1String("terminate"));
        QJsonArray done;
        for (const QJsonValue &value : body.value(QLatin1String("instance_ids")).toArray()) {
            const QString id = value.toString();
            if (!m_instances.contains(id))
                return error(404, QStringLiteral("global/object-does-not-exist"), QStringLiteral("Specified instance does not exist."));
            Instance &instance = m_instances[id];
            if (terminate) {
                if (instance.terminatedMs < 0)
                    instance.terminatedMs = nowMs();
            } else if (render(instance).value(QLatin1String("status")).toString() != QLatin1String("active")) {
                return error(409, QStringLiteral("global/conflict"), QStringLiteral("The request conflicts with the current state of the resource."));
            }
            done.append(render(instance));
        }
        return data(QJsonObject{{terminate ? QStringLiteral("terminated_instances") : QStringLiteral("restarted_instances"), done}});
    }
    if (path == QLatin1String("/api/v1/ssh-keys")) {
        if (request.method == "GET")
            return data(m_keys);
        const QString name = body.value(QLatin1String("name")).toString();
        if (name.isEmpty() || name.size() > 64)
            return error(400, QStringLiteral("global/invalid-parameters"), QStringLiteral("Invalid request data."));
        if (sshKeyNames().contains(name))
            return error(400, QStringLiteral("global/duplicate"), QStringLiteral("An SSH key with this name already exists."));
        QJsonObject key{{QStringLiteral("id"), QStringLiteral("key%1").arg(1000 + m_nextId++)},
                        {QStringLiteral("name"), name}};
        QJsonObject reply = key;
        if (body.contains(QLatin1String("public_key"))) {
            key.insert(QStringLiteral("public_key"), body.value(QLatin1String("public_key")));
            reply = key;
        } else {
            key.insert(QStringLiteral("public_key"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGenerated%1 %2").arg(m_nextId).arg(name));
            reply = key;
            reply.insert(QStringLiteral("private_key"), QStringLiteral("-----BEGIN OPENSSH PRIVATE KEY-----\nemulated\n-----END OPENSSH PRIVATE KEY-----\n"));
        }
        m_keys.append(key);
        return data(reply);
    }
    if (request.method == "DELETE" && path.startsWith(QLatin1String("/api/v1/ssh-keys/"))) {
        const QString id = path.mid(int(qstrlen("/api/v1/ssh-keys/")));
        for (qsizetype i = 0; i < m_keys.size(); ++i) {
            if (m_keys.at(i).toObject().value(QLatin1String("id")).toString() == id) {
                m_keys.removeAt(i);
                return data(QJsonObject{});
            }
        }
        return error(404, QStringLiteral("global/not-found"), QStringLiteral("The requested resource was not found."));
    }
    if (path == QLatin1String("/api/v1/file-systems") || path.startsWith(QLatin1String("/api/v1/filesystems")))
        return filesystems(request, QJsonDocument::fromJson(request.body).object());
    if (request.method == "GET" && path == QLatin1String("/api/v1/images")) {
        return data(QJsonArray{QJsonObject{
            {QStringLiteral("id"), QStringLiteral("43336648096945f5a1e0a6a5c8d1a2b3")},
            {QStringLiteral("created_time"), QStringLiteral("2026-01-01T00:00:00Z")},
            {QStringLiteral("updated_time"), QStringLiteral("2026-01-01T00:00:00Z")},
            {QStringLiteral("name"), QStringLiteral("Lambda Stack 22.04")},
            {QStringLiteral("description"), QStringLiteral("Ubuntu 22.04 with Lambda Stack")},
            {QStringLiteral("family"), QStringLiteral("lambda-stack-22-04")}, {QStringLiteral("version"), QStringLiteral("1.0")},
            {QStringLiteral("architecture"), QStringLiteral("x86_64")}, {QStringLiteral("region"), region(QStringLiteral("us-east-1"))}}});
    }
    if (request.method == "GET" && path == QLatin1String("/api/v1/regions"))
        return data(QJsonArray{region(QStringLiteral("us-east-1")), region(QStringLiteral("us-west-1"))});
    return error(404, QStringLiteral("global/not-found"), QStringLiteral("The requested resource was not found."));
}

} // namespace gantry::test
