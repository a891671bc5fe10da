#include "runpodemulator.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonDocument>

namespace gantry::test {
namespace {
QJsonObject gpu(const QString &id, const QString &name, int memory, double secure, double community, const QString &availability,
                const QJsonArray &dataCenters)
{
    return QJsonObject{
        {QStringLiteral("id"), id}, {QStringLiteral("name"), name}, {QStringLiteral("pool"), QJsonValue()},
        {QStringLiteral("manufacturer"), QStringLiteral("NVIDIA")}, {QStringLiteral("memory"), memory},
        {QStringLiteral("secure"), true}, {QStringLiteral("community"), true},
        {QStringLiteral("price"), QJsonObject{{QStringLiteral("secure"), secure}, {QStringLiteral("community"), community}}},
        {QStringLiteral("maxCount"), QJsonObject{{QStringLiteral("secure"), 8}, {QStringLiteral("community"), 4}}},
        {QStringLiteral("availability"), availability}, {QStringLiteral("dataCenters"), dataCenters}};
}
QJsonObject dc(const QString &id, const QString &name, const QString &availability)
{
    return QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("name"), name}, {QStringLiteral("availability"), availability}};
}
} // namespace

RunPodEmulator::RunPodEmulator(QObject *parent)
    : EmulatorServer(parent)
{
    m_gpus.append(gpu(QStringLiteral("NVIDIA GeForce RTX 4090"), QStringLiteral("RTX 4090"), 24, 0.44, 0.31, QStringLiteral("HIGH"),
                      QJsonArray{dc(QStringLiteral("US-KS-2"), QStringLiteral("US Kansas 2"), QStringLiteral("HIGH")),
                                 dc(QStringLiteral("EU-RO-1"), QStringLiteral("Romania 1"), QStringLiteral("NONE"))}));
    m_gpus.append(gpu(QStringLiteral("NVIDIA H100 80GB HBM3"), QStringLiteral("H100 SXM"), 80, 2.99, 2.69, QStringLiteral("NONE"),
                      QJsonArray{dc(QStringLiteral("US-KS-2"), QStringLiteral("US Kansas 2"), QStringLiteral("NONE"))}));
    m_gpus.append(gpu(QStringLiteral("NVIDIA A100-SXM4-80GB"), QStringLiteral("A100 SXM"), 80, 1.89, 1.39, QStringLiteral("LOW"),
                      QJsonArray{dc(QStringLiteral("CA-MTL-1"), QStringLiteral("Canada Montreal 1"), QStringLiteral("LOW"))}));
    // The document's example volume.
    networkVolumes.insert(QStringLiteral("2q9m7x4c"), QVariantMap{{QStringLiteral("id"), QStringLiteral("2q9m7x4c")},
        {QStringLiteral("name"), QStringLiteral("training-dataset")}, {QStringLiteral("size"), 100},
        {QStringLiteral("dataCenter"), QStringLiteral("US-KS-2")}, {QStringLiteral("type"), QStringLiteral("HIGH_PERFORMANCE")}});
}

bool RunPodEmulator::vanish(const QString &id)
{
    return m_pods.remove(id) > 0;
}

void RunPodEmulator::configure(const QJsonObject &config)
{
    bootMs = config.value(QLatin1String("bootMs")).toInt(bootMs);
    neverRunning = config.value(QLatin1String("neverRunning")).toBool(neverRunning);
    insufficientBalance = config.value(QLatin1String("insufficientBalance")).toBool(insufficientBalance);
    sshHost = config.value(QLatin1String("sshHost")).toString(sshHost);
}

EmuResponse RunPodEmulator::problem(int status, const QString &title, const QString &detail, const QJsonArray &errors)
{
    QJsonObject object{{QStringLiteral("title"), title}, {QStringLiteral("status"), status}, {QStringLiteral("detail"), detail}};
    if (!errors.isEmpty())
        object.insert(QStringLiteral("errors"), errors);
    EmuResponse response = json(status, object);
    response.contentType = "application/problem+json";
    return response;
}

EmuResponse RunPodEmulator::errorFor(int status, const QString &message) const
{
    switch (status) {
    case 401: return problem(401, QStringLiteral("Unauthorized"), message.isEmpty() ? QStringLiteral("missing bearer token") : message);
    case 403: return problem(403, QStringLiteral("Forbidden"), QStringLiteral("access denied"));
    case 404: return problem(404, QStringLiteral("Not Found"), QStringLiteral("resource not found"));
    case 429: return problem(429, QStringLiteral("Too Many Requests"), QStringLiteral("rate limit exceeded for the minute window"));
    default:
        if (status >= 500)
            return problem(status, QStringLiteral("Internal Server Error"), message.isEmpty() ? QStringLiteral("internal error") : message);
        return problem(status, QStringLiteral("Bad Request"), message.isEmpty() ? QStringLiteral("bad request") : message);
    }
}

QString RunPodEmulator::status(const Pod &pod) const
{
    if (pod.stopped)
        return QStringLiteral("EXITED");
    const qint64 age = nowMs() - pod.startedMs;
    if (pod.neverRunning || age < bootMs / 2)
        return QStringLiteral("PROVISIONING");
    if (age < bootMs)
        return QStringLiteral("STARTING");
    return QStringLiteral("RUNNING");
}

QJsonObject RunPodEmulator::render(const Pod &pod) const
{
    QJsonObject object = pod.base;
    const QString now = status(pod);
    object.insert(QStringLiteral("status"), now);
    QJsonArray actions;
    if (now == QLatin1String("RUNNING"))
        actions = {QStringLiteral("stop"), QStringLiteral("restart"), QStringLiteral("terminate")};
    else if (now == QLatin1String("EXITED"))
        actions = {QStringLiteral("start"), QStringLiteral("terminate")};
    else
        actions = {QStringLiteral("stop"), QStringLiteral("terminate")};
    object.insert(QStringLiteral("actions"), actions);
    object.insert(QStringLiteral("cost"), now == QLatin1String("EXITED") ? 0.0 : pod.price);
    const QString id = object.value(QLatin1String("id")).toString();
    if (now == QLatin1String("RUNNING")) {
        const int port = 30000 + int(qHash(id) % 20000);
        object.insert(QStringLiteral("ssh"), QJsonObject{
            {QStringLiteral("proxy"), QJsonObject{{QStringLiteral("host"), QStringLiteral("ssh.runpod.io")}, {QStringLiteral("port"), 22},
                                                  {QStringLiteral("username"), QString(id + QStringLiteral("-64411eb2"))},
                                                  {QStringLiteral("command"), QStringLiteral("ssh %1-64411eb2@ssh.runpod.io").arg(id)}}},
            {QStringLiteral("direct"), QJsonObject{{QStringLiteral("host"), sshHost}, {QStringLiteral("port"), port},
                                                   {QStringLiteral("username"), QStringLiteral("root")},
                                                   {QStringLiteral("command"), QStringLiteral("ssh root@127.0.0.1 -p %1").arg(port)}}}});
        object.insert(QStringLiteral("runtime"), QJsonObject{
            {QStringLiteral("uptime"), int((nowMs() - pod.startedMs) / 1000)},
            {QStringLiteral("ports"), QJsonArray{QJsonObject{{QStringLiteral("private"), 22}, {QStringLiteral("public"), port},
                                                             {QStringLiteral("type"), QStringLiteral("tcp")}, {QStringLiteral("ip"), sshHost}}}}});
    } else {
        object.insert(QStringLiteral("ssh"), QJsonObject{{QStringLiteral("proxy"), QJsonValue()}, {QStringLiteral("direct"), QJsonValue()}});
        object.insert(QStringLiteral("runtime"), QJsonObject{});
    }
    return object;
}

EmuResponse RunPodEmulator::create(const QJsonObject &body)
{
    QJsonArray violations;
    if (body.value(QLatin1String("name")).toString().isEmpty())
        violations.append(QStringLiteral("name is required"));
    if (body.value(QLatin1String("image")).toString().isEmpty() && !body.contains(QLatin1String("templateId")))
        violations.append(QStringLiteral("image is required unless templateId is set"));
    const QJsonObject gpuConfig = body.value(QLatin1String("gpu")).toObject();
    if (gpuConfig.value(QLatin1String("id")).toString().isEmpty())
        violations.append(QStringLiteral("gpu.id is required"));
    const QJsonObject mounts = body.value(QLatin1String("mounts")).toObject();
    if (mounts.contains(QLatin1String("persistent")) && mounts.contains(QLatin1String("network")))
        return problem(400, QStringLiteral("Bad Request"), QStringLiteral("At most one of persistent or network may be set."));
    QString volumeCenter;
    for (const QJsonValue &mount : mounts.value(QLatin1String("network")).toArray()) {
        const QString volumeId = mount.toObject().value(QLatin1String("volumeId")).toString();
        if (mount.toObject().value(QLatin1String("path")).toString().isEmpty())
            violations.append(QStringLiteral("mounts.network[].path is required"));
        if (!networkVolumes.contains(volumeId))
            return problem(400, QStringLiteral("Bad Request"), QStringLiteral("Network volume %1 does not exist.").arg(volumeId));
        volumeCenter = networkVolumes.value(volumeId).toMap().value(QStringLiteral("dataCenter")).toString();
    }
    if (!violations.isEmpty())
        return problem(422, QStringLiteral("Unprocessable Entity"), QStringLiteral("Request validation failed."), violations);
    if (insufficientBalance)
        return problem(402, QStringLiteral("Payment Required"), QStringLiteral("Insufficient balance: deploying requires at least one hour of credits."));
    QJsonObject type;
    for (const QJsonValue &value : std::as_const(m_gpus)) {
        if (value.toObject().value(QLatin1String("id")).toString() == gpuConfig.value(QLatin1String("id")).toString())
            type = value.toObject();
    }
    if (type.isEmpty())
        return problem(400, QStringLiteral("Bad Request"), QStringLiteral("Unknown GPU type %1.").arg(gpuConfig.value(QLatin1String("id")).toString()));
    QStringList wanted;
    for (const QJsonValue &value : body.value(QLatin1String("dataCenterIds")).toArray())
        wanted.append(value.toString());
    QString placed;
    for (const QJsonValue &value : type.value(QLatin1String("dataCenters")).toArray()) {
        const QJsonObject center = value.toObject();
        const QString id = center.value(QLatin1String("id")).toString();
        if (placed.isEmpty() && center.value(QLatin1String("availability")).toString() != QLatin1String("NONE")
            && (wanted.isEmpty() || wanted.contains(id)) && (volumeCenter.isEmpty() || volumeCenter == id))
            placed = id;
    }
    if (placed.isEmpty())
        return problem(400, QStringLiteral("Bad Request"),
                       QStringLiteral("There are no longer any instances available with the requested specifications. Please refresh and try again."));
    const int count = std::max(1, gpuConfig.value(QLatin1String("count")).toInt(1));
    const QString id = QString::fromLatin1(QCryptographicHash::hash(QByteArray(QByteArray::number(m_nextId++) + "runpod"), QCryptographicHash::Md5).toHex().left(14));
    Pod pod;
    pod.startedMs = nowMs();
    pod.neverRunning = neverRunning;
    pod.price = type.value(QLatin1String("price")).toObject().value(QLatin1String("secure")).toDouble() * count;
    pod.base = QJsonObject{
        {QStringLiteral("id"), id}, {QStringLiteral("name"), body.value(QLatin1String("name"))},
        {QStringLiteral("image"), body.value(QLatin1String("image"))}, {QStringLiteral("args"), QString()},
        {QStringLiteral("disk"), body.value(QLatin1String("disk")).toInt(50)},
        {QStringLiteral("ports"), body.value(QLatin1String("ports"))}, {QStringLiteral("env"), QJsonObject{}},
        {QStringLiteral("registry"), QJsonValue()},
        {QStringLiteral("mounts"), body.value(QLatin1String("mounts")).toObject()},
        {QStringLiteral("gpu"), QJsonObject{{QStringLiteral("id"), type.value(QLatin1String("id"))}, {QStringLiteral("count"), count}}},
        {QStringLiteral("cloud"), body.value(QLatin1String("cloud")).toString(QStringLiteral("SECURE"))},
        {QStringLiteral("dataCenterId"), placed}, {QStringLiteral("cudaVersion"), QStringLiteral("12.8")},
        {QStringLiteral("template"), QJsonValue()}, {QStringLiteral("locked"), false},
        {QStringLiteral("globalNetworking"), QJsonObject{{QStringLiteral("enabled"), false}}},
        {QStringLiteral("createdAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("startedAt"), QJsonValue()},
    };
    m_pods.insert(id, pod);
    return json(201, render(pod));
}

// Network volumes per CreateNetworkVolumeRequest / NetworkVolume (additionalProperties false,
// size 10..4096); delete answers 204 with no body.
EmuResponse RunPodEmulator::volumes(const EmuRequest &request, const QJsonObject &body)
{
    const QString id = request.path.mid(int(qstrlen("/v2/network-volumes/")));
    if (request.path == QLatin1String("/v2/network-volumes") && request.method == "GET") {
        QJsonArray list;
        for (const QVariant &volume : std::as_const(networkVolumes))
            list.append(QJsonObject::fromVariantMap(volume.toMap()));
        return json(200, QJsonObject{{QStringLiteral("networkVolumes"), list}});
    }
    if (request.path == QLatin1String("/v2/network-volumes") && request.method == "POST") {
        QJsonArray violations;
        for (const char *required : {"name", "size", "dataCenter"}) {
            if (!body.contains(QLatin1String(required)))
                violations.append(QStringLiteral("%1 is required").arg(QLatin1String(required)));
        }
        for (auto it = body.constBegin(); it != body.constEnd(); ++it) {
            if (!QStringList{QStringLiteral("name"), QStringLiteral("size"), QStringLiteral("dataCenter"), QStringLiteral("type")}.contains(it.key()))
                violations.append(QStringLiteral("%1 is not allowed").arg(it.key()));
        }
        const int size = body.value(QLatin1String("size")).toInt();
        if (size < 10 || size > 4096)
            violations.append(QStringLiteral("size must be between 10 and 4096"));
        if (!violations.isEmpty())
            return problem(422, QStringLiteral("Unprocessable Entity"), QStringLiteral("Request validation failed."), violations);
        QJsonObject volume{{QStringLiteral("id"), QStringLiteral("vol%1").arg(m_nextId++)}, {QStringLiteral("name"), body.value(QLatin1String("name"))},
                           {QStringLiteral("size"), size}, {QStringLiteral("dataCenter"), body.value(QLatin1String("dataCenter"))},
                           {QStringLiteral("type"), body.value(QLatin1String("type")).toString(QStringLiteral("STANDARD"))}};
        networkVolumes.insert(volume.value(QLatin1String("id")).toString(), volume.toVariantMap());
        return json(201, volume);
    }
    if (!networkVolumes.contains(id))
        return problem(404, QStringLiteral("Not Found"), QStringLiteral("network volume %1 not found").arg(id));
    if (request.method == "DELETE") {
        networkVolumes.remove(id);
        EmuResponse response;
        response.status = 204;
        return response;
    }
    return json(200, QJsonObject::fromVariantMap(networkVolumes.value(id).toMap()));
}

EmuResponse RunPodEmulator::handle(const EmuRequest &request)
{
    if (request.headers.value("authorization") != "Bearer " + apiKey().toUtf8())
        return errorFor(401, request.headers.contains("authorization") ? QStringLiteral("invalid api key") : QString());
    const QString path = request.path;
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (request.method == "GET" && path == QLatin1String("/v2/catalog/gpus")) {
        QJsonArray gpus = m_gpus;
        if (request.query.queryItemValue(QStringLiteral("include")) != QLatin1String("AVAILABILITY")) {
            for (qsizetype i = 0; i < gpus.size(); ++i) {
                QJsonObject object = gpus.at(i).toObject();
                object.remove(QStringLiteral("availability"));
                object.remove(QStringLiteral("dataCenters"));
                gpus.replace(i, object);
            }
        }
        return json(200, QJsonObject{{QStringLiteral("gpus"), gpus}});
    }
    if (path == QLatin1String("/v2/pods")) {
        if (request.method == "POST")
            return create(body);
        QJsonArray pods;
        for (const Pod &pod : std::as_const(m_pods))
            pods.append(render(pod));
        return json(200, QJsonObject{{QStringLiteral("pods"), pods}});
    }
    if (path.startsWith(QLatin1String("/v2/pods/"))) {
        QString id = path.mid(int(qstrlen("/v2/pods/")));
        const bool isAction = id.endsWith(QLatin1String("/action"));
        if (isAction)
            id.chop(int(qstrlen("/action")));
        if (!m_pods.contains(id))
            return problem(404, QStringLiteral("Not Found"), QStringLiteral("pod %1 not found").arg(id));
        Pod &pod = m_pods[id];
        if (request.method == "DELETE") {
            m_pods.remove(id);
            EmuResponse response;
            response.status = 204;
            return response;
        }
        if (isAction && request.method == "POST") {
            const QString action = body.value(QLatin1String("action")).toString();
            const QJsonArray allowed = render(pod).value(QLatin1String("actions")).toArray();
            if (!allowed.contains(QJsonValue(action)))
                return problem(409, QStringLiteral("Conflict"),
                               QStringLiteral("action %1 is not valid while the pod is %2").arg(action, status(pod)));
            if (action == QLatin1String("terminate")) {
                m_pods.remove(id);
                EmuResponse response;
                response.status = 204;
                return response;
            }
            if (action == QLatin1String("stop"))
                pod.stopped = true;
            else { // start, restart
                pod.stopped = false;
                pod.startedMs = nowMs();
            }
            return json(200, render(pod));
        }
        if (request.method == "GET")
            return json(200, render(pod));
    }
    if (path == QLatin1String("/v2/account/ssh-keys")) {
        if (request.method == "PUT") {
            QStringList next;
            QJsonArray violations;
            for (const QJsonValue &value : body.value(QLatin1String("keys")).toArray()) {
                const QString line = value.toString();
                if (!(line.startsWith(QLatin1String("ssh-")) || line.startsWith(QLatin1String("ecdsa-")) || line.startsWith(QLatin1String("sk-")))
                    || line.split(QLatin1Char(' ')).size() < 2)
                    violations.append(QStringLiteral("keys: \"%1\" is not an OpenSSH public key").arg(line.left(30)));
                next.append(line);
            }
            if (!violations.isEmpty())
                return problem(422, QStringLiteral("Unprocessable Entity"), QStringLiteral("Request validation failed."), violations);
            keys = next;
        }
        return json(200, QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}});
    }
    if (path.startsWith(QLatin1String("/v2/network-volumes")))
        return volumes(request, body);
    return problem(404, QStringLiteral("Not Found"), QStringLiteral("resource not found"));
}

} // namespace gantry::test
