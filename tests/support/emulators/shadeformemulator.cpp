#include "shadeformemulator.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonDocument>

namespace gantry::test {
namespace {

QJsonObject type(const QString &cloud, const QString &shade, const QString &cloudType, const QString &gpu,
                 const QString &interconnect, int gpus, int vram, int cents, const QJsonArray &availability)
{
    const QJsonObject configuration{
        {QStringLiteral("memory_in_gb"), 48 * gpus}, {QStringLiteral("storage_in_gb"), 256 * gpus},
        {QStringLiteral("vcpus"), 6 * gpus}, {QStringLiteral("num_gpus"), gpus}, {QStringLiteral("gpu_type"), gpu},
        {QStringLiteral("interconnect"), interconnect}, {QStringLiteral("nvlink"), interconnect != QLatin1String("pcie")},
        {QStringLiteral("os_options"), QJsonArray{QStringLiteral("ubuntu22.04_cuda12.6_shade_os")}},
        {QStringLiteral("vram_per_gpu_in_gb"), vram}, {QStringLiteral("gpu_manufacturer"), QStringLiteral("nvidia")}};
    // The quickstart's reply repeats some configuration keys at the top level.
    return QJsonObject{
        {QStringLiteral("cloud"), cloud}, {QStringLiteral("shade_instance_type"), shade},
        {QStringLiteral("cloud_instance_type"), cloudType}, {QStringLiteral("configuration"), configuration},
        {QStringLiteral("memory_in_gb"), 48 * gpus}, {QStringLiteral("num_gpus"), gpus}, {QStringLiteral("gpu_type"), gpu},
        {QStringLiteral("hourly_price"), cents}, {QStringLiteral("availability"), availability},
        {QStringLiteral("boot_time"), QJsonObject{{QStringLiteral("min_boot_in_sec"), 300}, {QStringLiteral("max_boot_in_sec"), 600}}},
        {QStringLiteral("deployment_type"), QStringLiteral("vm")}};
}

QJsonObject region(const QString &name, bool available, const QString &display, const QJsonValue &spotPrice = QJsonValue())
{
    QJsonObject object{{QStringLiteral("region"), name}, {QStringLiteral("available"), available},
                       {QStringLiteral("display_name"), display}};
    if (!spotPrice.isNull()) {
        object.insert(QStringLiteral("rental_type"), QStringLiteral("spot"));
        object.insert(QStringLiteral("hourly_price"), spotPrice);
    } else {
        object.insert(QStringLiteral("rental_type"), QStringLiteral("on_demand"));
    }
    return object;
}

} // namespace

ShadeformEmulator::ShadeformEmulator(QObject *parent)
    : EmulatorServer(parent)
{
    m_types.append(type(QStringLiteral("massedcompute"), QStringLiteral("A6000"), QStringLiteral("gpu_1x_a6000"), QStringLiteral("A6000"),
                        QStringLiteral("pcie"), 1, 48, 57,
                        QJsonArray{region(QStringLiteral("kansascity-usa-1"), true, QStringLiteral("US, Kansas City, KS"))}));
    m_types.append(type(QStringLiteral("hyperstack"), QStringLiteral("H100_sxm5x8"), QStringLiteral("n3-H100-SXM5x8"), QStringLiteral("H100"),
                        QStringLiteral("sxm5"), 8, 80, 2392,
                        QJsonArray{region(QStringLiteral("canada-1"), false, QStringLiteral("Canada, Montreal")),
                                   region(QStringLiteral("norway-1"), false, QStringLiteral("Norway, Oslo"))}));
    m_types.append(type(QStringLiteral("lambdalabs"), QStringLiteral("H100"), QStringLiteral("gpu_1x_h100_pcie"), QStringLiteral("H100"),
                        QStringLiteral("pcie"), 1, 80, 249,
                        QJsonArray{region(QStringLiteral("us-east-1"), true, QStringLiteral("US, Virginia")),
                                   region(QStringLiteral("us-east-1"), true, QStringLiteral("US, Virginia"), QStringLiteral("1.50"))}));
}

void ShadeformEmulator::setAvailable(const QString &shadeType, bool available)
{
    for (qsizetype i = 0; i < m_types.size(); ++i) {
        QJsonObject object = m_types.at(i).toObject();
        if (object.value(QLatin1String("shade_instance_type")).toString() != shadeType)
            continue;
        QJsonArray regions = object.value(QLatin1String("availability")).toArray();
        for (qsizetype r = 0; r < regions.size(); ++r) {
            QJsonObject entry = regions.at(r).toObject();
            entry.insert(QStringLiteral("available"), available);
            regions.replace(r, entry);
        }
        object.insert(QStringLiteral("availability"), regions);
        m_types.replace(i, object);
    }
}

bool ShadeformEmulator::vanish(const QString &id)
{
    return m_instances.remove(id) > 0;
}

void ShadeformEmulator::configure(const QJsonObject &config)
{
    bootMs = config.value(QLatin1String("bootMs")).toInt(bootMs);
    instanceIp = config.value(QLatin1String("instanceIp")).toString(instanceIp);
    walletEmpty = config.value(QLatin1String("walletEmpty")).toBool(walletEmpty);
    hiddenPolls = config.value(QLatin1String("hiddenPolls")).toInt(hiddenPolls);
}

EmuResponse ShadeformEmulator::message(int status, const QString &text)
{
    return json(status, QJsonObject{{QStringLiteral("message"), text}});
}

EmuResponse ShadeformEmulator::errorFor(int status, const QString &text) const
{
    switch (status) {
    case 401: return message(401, QStringLiteral("Invalid API key"));
    case 403: return message(403, QStringLiteral("Account mismatch"));
    case 404: return message(404, QStringLiteral("instance not found"));
    case 409: return message(409, QStringLiteral("instance is not in a state that allows this operation"));
    case 429: return message(429, QStringLiteral("Rate limited"));
    default: return message(status, text.isEmpty() ? QStringLiteral("internal server error") : text);
    }
}

QJsonArray ShadeformEmulator::types(const EmuRequest &request)
{
    ++typePolls;
    const QString gpu = request.query.queryItemValue(QStringLiteral("gpu_type"));
    const QString numGpus = request.query.queryItemValue(QStringLiteral("num_gpus"));
    QJsonArray out;
    for (const QJsonValue &value : std::as_const(m_types)) {
        QJsonObject object = value.toObject();
        const QJsonObject configuration = object.value(QLatin1String("configuration")).toObject();
        if (!gpu.isEmpty() && configuration.value(QLatin1String("gpu_type")).toString() != gpu)
            continue;
        if (!numGpus.isEmpty() && configuration.value(QLatin1String("num_gpus")).toInt() != numGpus.toInt())
            continue;
        if (typePolls <= hiddenPolls && configuration.value(QLatin1String("gpu_type")).toString() == QLatin1String("H100")) {
            QJsonArray regions = object.value(QLatin1String("availability")).toArray();
            for (qsizetype r = 0; r < regions.size(); ++r) {
                QJsonObject entry = regions.at(r).toObject();
                entry.insert(QStringLiteral("available"), false);
                regions.replace(r, entry);
            }
            object.insert(QStringLiteral("availability"), regions);
        }
        out.append(object);
    }
    return out;
}

QJsonObject ShadeformEmulator::render(const Instance &instance) const
{
    QJsonObject object = instance.base;
    const qint64 age = nowMs() - instance.createdMs;
    QString status = QStringLiteral("active");
    if (instance.deleting)
        status = QStringLiteral("deleting");
    else if (age < bootMs / 2)
        status = QStringLiteral("creating");
    else if (age < bootMs)
        status = QStringLiteral("pending_provider");
    object.insert(QStringLiteral("status"), status);
    object.insert(QStringLiteral("status_details"), status == QLatin1String("pending_provider")
                                                        ? QStringLiteral("Instance created, waiting on provider to spin up instance")
                                                        : QString());
    object.insert(QStringLiteral("ip"), status == QLatin1String("active") ? QJsonValue(instanceIp) : QJsonValue());
    object.insert(QStringLiteral("ssh_port"), QJsonValue()); // null even when active, as in every example
    object.insert(QStringLiteral("cost_estimate"), status == QLatin1String("active") ? QStringLiteral("0.12") : QStringLiteral("0"));
    return object;
}

EmuResponse ShadeformEmulator::create(const QJsonObject &body)
{
    for (const char *required : {"cloud", "region", "shade_instance_type", "name"}) {
        if (body.value(QLatin1String(required)).toString().isEmpty())
            return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("%1 is required").arg(QLatin1String(required))}});
    }
    if (walletEmpty)
        return message(402, QStringLiteral("Insufficient wallet balance: add funds before launching"));
    QJsonObject chosen;
    for (const QJsonValue &value : types(EmuRequest{})) {
        const QJsonObject object = value.toObject();
        if (object.value(QLatin1String("cloud")) == body.value(QLatin1String("cloud"))
            && object.value(QLatin1String("shade_instance_type")) == body.value(QLatin1String("shade_instance_type")))
            chosen = object;
    }
    --typePolls; // the lookup above is not a client's poll
    if (chosen.isEmpty())
        return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("unknown instance type")}});
    bool available = false;
    for (const QJsonValue &entry : chosen.value(QLatin1String("availability")).toArray()) {
        const QJsonObject object = entry.toObject();
        available = available || (object.value(QLatin1String("region")) == body.value(QLatin1String("region"))
                                  && object.value(QLatin1String("available")).toBool());
    }
    if (!available)
        return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("The selected instance type is out of capacity in this region")}});
    if (const QString wrong = mountVolumes(body, {}); !wrong.isEmpty())
        return json(400, QJsonObject{{QStringLiteral("error"), wrong}});
    const QByteArray hash = QCryptographicHash::hash(QByteArray(QByteArray::number(m_next++) + "shade"), QCryptographicHash::Md5).toHex();
    const QString id = QString::fromLatin1(QByteArray(hash.left(8) + "-" + hash.mid(8, 4) + "-" + hash.mid(12, 4) + "-" + hash.mid(16, 4) + "-" + hash.mid(20, 12)));
    Instance instance;
    instance.createdMs = nowMs();
    QJsonObject configuration = chosen.value(QLatin1String("configuration")).toObject();
    configuration.remove(QStringLiteral("os_options"));
    configuration.insert(QStringLiteral("os"), body.value(QLatin1String("os")).toString(QStringLiteral("ubuntu22.04_cuda12.6_shade_os")));
    instance.base = QJsonObject{
        {QStringLiteral("id"), id}, {QStringLiteral("cloud"), chosen.value(QLatin1String("cloud"))},
        {QStringLiteral("region"), body.value(QLatin1String("region"))},
        {QStringLiteral("shade_instance_type"), chosen.value(QLatin1String("shade_instance_type"))},
        {QStringLiteral("cloud_instance_type"), chosen.value(QLatin1String("cloud_instance_type"))},
        {QStringLiteral("cloud_assigned_id"), QStringLiteral("2865d9f3-86fa-4d9b-ac0b-a0fb2fa19a3a")},
        {QStringLiteral("shade_cloud"), body.value(QLatin1String("shade_cloud")).toBool(true)},
        {QStringLiteral("name"), body.value(QLatin1String("name"))}, {QStringLiteral("configuration"), configuration},
        {QStringLiteral("ssh_user"), QStringLiteral("shadeform")}, {QStringLiteral("hourly_price"), chosen.value(QLatin1String("hourly_price"))},
        {QStringLiteral("ssh_key_id"), body.value(QLatin1String("ssh_key_id"))},
        {QStringLiteral("created_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("active_at"), QJsonValue()}, {QStringLiteral("deleted_at"), QJsonValue()},
        {QStringLiteral("boot_time"), chosen.value(QLatin1String("boot_time"))}};
    m_instances.insert(id, instance);
    mountVolumes(body, id);
    return json(200, QJsonObject{{QStringLiteral("id"), id}}); // only the id: the create is asynchronous
}

EmuResponse ShadeformEmulator::keysCall(const EmuRequest &request, const QJsonObject &body)
{
    if (m_keys.isEmpty())
        m_keys.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("f246a983-5ddd-4f5f-8005-de0867cba782")},
                                  {QStringLiteral("name"), QStringLiteral("Shadeform Managed Key")},
                                  {QStringLiteral("public_key"), QStringLiteral("ssh-ed25519 AAAAmanaged shadeform")},
                                  {QStringLiteral("is_default"), true}});
    if (request.method == "GET" && request.path == QLatin1String("/v1/sshkeys"))
        return json(200, QJsonObject{{QStringLiteral("ssh_keys"), m_keys}});
    if (request.method == "POST" && request.path == QLatin1String("/v1/sshkeys/add")) {
        if (body.value(QLatin1String("name")).toString().isEmpty() || !body.value(QLatin1String("public_key")).toString().startsWith(QLatin1String("ssh-")))
            return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("name and an OpenSSH public_key are required")}});
        const QString id = QStringLiteral("26bedfa2-1e98-4ff5-9342-%1").arg(m_keys.size(), 12, 10, QLatin1Char('0'));
        m_keys.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("name"), body.value(QLatin1String("name"))},
                                  {QStringLiteral("public_key"), body.value(QLatin1String("public_key"))},
                                  {QStringLiteral("is_default"), false}});
        return json(200, QJsonObject{{QStringLiteral("id"), id}});
    }
    const QString id = request.path.section(QLatin1Char('/'), 3, 3);
    if (request.method == "POST" && request.path.endsWith(QLatin1String("/delete"))) {
        for (qsizetype i = 0; i < m_keys.size(); ++i) {
            const QJsonObject key = m_keys.at(i).toObject();
            if (key.value(QLatin1String("id")).toString() != id)
                continue;
            if (key.value(QLatin1String("is_default")).toBool())
                return json(400, QJsonObject{{QStringLiteral("error"), QStringLiteral("The default SSH key cannot be deleted")}});
            m_keys.removeAt(i);
            EmuResponse response;
            response.body.clear(); // delete answers 200 with an empty body
            return response;
        }
    }
    return message(404, QStringLiteral("ssh key not found"));
}

EmuResponse ShadeformEmulator::handle(const EmuRequest &request)
{
    if (request.headers.value("x-api-key") != apiKey().toUtf8())
        return errorFor(401, {});
    const QString path = request.path;
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (request.method == "GET" && path == QLatin1String("/v1/instances/types"))
        return json(200, QJsonObject{{QStringLiteral("instance_types"), types(request)}});
    if (request.method == "POST" && path == QLatin1String("/v1/instances/create"))
        return create(body);
    if (request.method == "GET" && path == QLatin1String("/v1/instances")) {
        QJsonArray list;
        for (const Instance &instance : std::as_const(m_instances))
            list.append(render(instance));
        return json(200, QJsonObject{{QStringLiteral("instances"), list}});
    }
    if (path.startsWith(QLatin1String("/v1/sshkeys")))
        return keysCall(request, body);
    if (path.startsWith(QLatin1String("/v1/volumes")))
        return volumesCall(request, body);
    if (path.startsWith(QLatin1String("/v1/instances/"))) {
        const QString id = path.section(QLatin1Char('/'), 3, 3);
        const QString verb = path.section(QLatin1Char('/'), 4, 4);
        auto it = m_instances.find(id);
        if (it == m_instances.end())
            return message(404, QStringLiteral("instance not found"));
        if (request.method == "GET" && verb == QLatin1String("info"))
            return json(200, render(*it));
        if (request.method == "POST" && verb == QLatin1String("delete")) {
            it->deleting = true;
            return EmuResponse{200, {}, "application/json", {}, 0, false};
        }
        if (request.method == "POST" && verb == QLatin1String("restart"))
            return EmuResponse{200, {}, "application/json", {}, 0, false};
    }
    return message(404, QStringLiteral("not found"));
}

} // namespace gantry::test
