#include "vastemulator.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <algorithm>

namespace gantry::test {
namespace {

QJsonObject offer(qint64 id, const QString &gpu, int count, int gpuRamMb, double dph, const QString &where, double reliability,
                  bool rentable = true)
{
    return QJsonObject{
        {QStringLiteral("id"), id}, {QStringLiteral("ask_contract_id"), id}, {QStringLiteral("bundle_id"), id * 10},
        {QStringLiteral("machine_id"), id / 7}, {QStringLiteral("host_id"), id / 13},
        {QStringLiteral("gpu_name"), gpu}, {QStringLiteral("num_gpus"), count}, {QStringLiteral("gpu_ram"), gpuRamMb},
        {QStringLiteral("gpu_total_ram"), gpuRamMb * count}, {QStringLiteral("cpu_cores"), 32 * count},
        {QStringLiteral("cpu_cores_effective"), 16 * count}, {QStringLiteral("cpu_ram"), 65536 * count},
        {QStringLiteral("disk_space"), 500.5}, {QStringLiteral("dph_base"), dph - 0.01}, {QStringLiteral("dph_total"), dph},
        {QStringLiteral("min_bid"), dph * 0.45}, {QStringLiteral("storage_cost"), 0.15},
        {QStringLiteral("storage_total_cost"), 0.15 * 32 / 720}, {QStringLiteral("inet_up"), 850.3},
        {QStringLiteral("inet_down"), 2210.7}, {QStringLiteral("reliability"), reliability},
        {QStringLiteral("reliability2"), reliability}, {QStringLiteral("dlperf"), 31.5 * count},
        {QStringLiteral("cuda_max_good"), 12.4}, {QStringLiteral("driver_version"), QStringLiteral("550.54.15")},
        {QStringLiteral("geolocation"), where}, {QStringLiteral("verification"), QStringLiteral("verified")},
        {QStringLiteral("verified"), true}, {QStringLiteral("rentable"), rentable}, {QStringLiteral("rented"), false},
        {QStringLiteral("external"), false}, {QStringLiteral("direct_port_count"), 40},
        {QStringLiteral("public_ipaddr"), QStringLiteral("203.0.113.%1").arg(id % 250)}, {QStringLiteral("is_bid"), false},
    };
}

int compare(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isString() || b.isString())
        return QString::compare(a.toVariant().toString(), b.toVariant().toString(), Qt::CaseInsensitive);
    const double x = a.toVariant().toDouble();
    const double y = b.toVariant().toDouble();
    return x < y ? -1 : (x > y ? 1 : 0);
}

// {"num_gpus": {"gte": 2}, "gpu_name": {"in": ["RTX 4090", …]}} as the API applies them.
bool matches(const QJsonObject &offer, const QJsonObject &query)
{
    for (auto it = query.constBegin(); it != query.constEnd(); ++it) {
        if (!it.value().isObject())
            continue; // order, limit, type, allocated_storage
        const QJsonValue have = offer.value(it.key());
        const QJsonObject ops = it.value().toObject();
        for (auto op = ops.constBegin(); op != ops.constEnd(); ++op) {
            const QString name = op.key();
            const int c = compare(have, op.value());
            const QJsonArray set = op.value().toArray();
            const bool inSet = std::any_of(set.begin(), set.end(), [&](const QJsonValue &v) { return compare(have, v) == 0; });
            const bool ok = (name == QLatin1String("eq") && c == 0) || (name == QLatin1String("neq") && c != 0)
                || (name == QLatin1String("gt") && c > 0) || (name == QLatin1String("gte") && c >= 0)
                || (name == QLatin1String("lt") && c < 0) || (name == QLatin1String("lte") && c <= 0)
                || (name == QLatin1String("in") && inSet) || (name == QLatin1String("notin") && !inSet);
            if (!ok)
                return false;
        }
    }
    return true;
}

} // namespace

VastEmulator::VastEmulator(QObject *parent)
    : EmulatorServer(parent)
{
    m_offers.append(offer(4100201, QStringLiteral("RTX 4090"), 1, 24564, 0.35, QStringLiteral("Washington, US"), 0.998));
    m_offers.append(offer(4100202, QStringLiteral("RTX 4090"), 1, 24564, 0.29, QStringLiteral("Quebec, CA"), 0.981));
    m_offers.append(offer(4100203, QStringLiteral("RTX 4090"), 2, 24564, 0.62, QStringLiteral("Texas, US"), 0.995));
    m_offers.append(offer(4100301, QStringLiteral("H100 SXM"), 1, 81559, 2.25, QStringLiteral("Texas, US"), 0.999));
    m_offers.append(offer(4100302, QStringLiteral("H100 SXM"), 1, 81559, 1.95, QStringLiteral("Sweden, SE"), 0.990));
    m_offers.append(offer(4100303, QStringLiteral("H100 PCIE"), 1, 81559, 1.69, QStringLiteral("Ohio, US"), 0.993));
    m_offers.append(offer(4100304, QStringLiteral("H100 NVL"), 1, 95830, 2.05, QStringLiteral("Oregon, US"), 0.97));
    m_offers.append(offer(4100401, QStringLiteral("A100 SXM4"), 8, 81920, 8.80, QStringLiteral("Nevada, US"), 0.999, false));
}

void VastEmulator::addOffer(qint64 id, const QString &gpu, int count, double dollarsPerHour, const QString &where)
{
    m_offers.append(offer(id, gpu, count, 81559, dollarsPerHour, where, 0.99));
}

void VastEmulator::addSyntheticOffers(int n)
{
    static const QStringList gpus{QStringLiteral("RTX 4090"), QStringLiteral("RTX 3090"), QStringLiteral("H100 SXM"),
                                  QStringLiteral("H100 PCIE"), QStringLiteral("A100 SXM4"), QStringLiteral("RTX A6000"),
                                  QStringLiteral("L40S"), QStringLiteral("A40")};
    static const QList<int> vramMb{24564, 24576, 81559, 81559, 81920, 49140, 46068, 46068};
    static const QStringList places{QStringLiteral("Texas, US"), QStringLiteral("Quebec, CA"), QStringLiteral("Bavaria, DE"),
                                    QStringLiteral("Sweden, SE"), QStringLiteral("Ohio, US")};
    QRandomGenerator random(42);
    for (int i = 0; i < n; ++i) {
        const int count = 1 << random.bounded(4);
        m_offers.append(offer(5000000 + i, gpus.at(i % gpus.size()), count, vramMb.at(i % vramMb.size()),
                              (0.2 + random.bounded(300) / 100.0) * count, places.at(i % places.size()),
                              0.9 + random.bounded(100) / 1000.0));
    }
}

bool VastEmulator::vanish(const QString &id)
{
    return m_instances.remove(id.toLongLong()) > 0;
}

bool VastEmulator::outbid(const QString &id)
{
    auto it = m_instances.find(id.toLongLong());
    if (it == m_instances.end() || !it->base.value(QLatin1String("is_bid")).toBool())
        return false;
    it->outbid = true;
    return true;
}

QStringList VastEmulator::keyLines() const
{
    QStringList lines;
    for (const QJsonValue &key : m_keys)
        lines.append(key.toObject().value(QLatin1String("key")).toString());
    return lines;
}

void VastEmulator::configure(const QJsonObject &config)
{
    bootMs = config.value(QLatin1String("bootMs")).toInt(bootMs);
    credit = config.value(QLatin1String("credit")).toDouble(credit);
    sshHost = config.value(QLatin1String("sshHost")).toString(sshHost);
    hiddenSearches = config.value(QLatin1String("hiddenSearches")).toInt(hiddenSearches);
    rentRacesAway = config.value(QLatin1String("rentRacesAway")).toBool(rentRacesAway);
    rentRaces = config.value(QLatin1String("rentRaces")).toInt(rentRaces);
    for (const QJsonValue &extra : config.value(QLatin1String("extraOffers")).toArray()) {
        const QJsonObject o = extra.toObject();
        addOffer(o.value(QLatin1String("id")).toInteger(), o.value(QLatin1String("gpu")).toString(), o.value(QLatin1String("count")).toInt(1),
                 o.value(QLatin1String("dph")).toDouble(), o.value(QLatin1String("where")).toString());
    }
    if (config.contains(QLatin1String("syntheticOffers")))
        addSyntheticOffers(config.value(QLatin1String("syntheticOffers")).toInt());
    if (config.contains(QLatin1String("outbid")))
        outbid(config.value(QLatin1String("outbid")).toVariant().toString());
}

EmuResponse VastEmulator::failure(int status, const QString &code, const QString &message)
{
    return json(status, QJsonObject{{QStringLiteral("success"), false}, {QStringLiteral("error"), code},
                                    {QStringLiteral("msg"), message}});
}

EmuResponse VastEmulator::errorFor(int status, const QString &message) const
{
    switch (status) {
    case 401: return failure(401, QStringLiteral("auth_error"), QStringLiteral("Invalid user key"));
    case 403: return failure(403, QStringLiteral("forbidden"), QStringLiteral("error 403/3586: Offer is not your own."));
    case 404: return failure(404, QStringLiteral("not_found"), QStringLiteral("Instance not found"));
    case 409: return failure(409, QStringLiteral("conflict"), QStringLiteral("Instance is busy with another operation"));
    case 429: {
        // Plain text and no Retry-After, as rate-limits-and-errors.mdx describes.
        EmuResponse response;
        response.status = 429;
        response.contentType = "text/plain";
        response.body = "API requests too frequent endpoint threshold=4.5";
        return response;
    }
    default:
        if (status >= 500)
            return failure(status, QStringLiteral("server_error"), message.isEmpty() ? QStringLiteral("Internal server error") : message);
        return failure(status, QStringLiteral("invalid_args"), message.isEmpty() ? QStringLiteral("Invalid args") : message);
    }
}

QJsonArray VastEmulator::search(const QJsonObject &query)
{
    ++searchCount;
    QJsonArray found;
    for (const QJsonValue &value : std::as_const(m_offers)) {
        const QJsonObject candidate = value.toObject();
        if (searchCount <= hiddenSearches && candidate.value(QLatin1String("gpu_name")).toString().startsWith(QLatin1String("H100")))
            continue;
        if (matches(candidate, query))
            found.append(candidate);
    }
    QList<QJsonValue> sorted(found.begin(), found.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const QJsonValue &a, const QJsonValue &b) {
        return a.toObject().value(QLatin1String("dph_total")).toDouble() < b.toObject().value(QLatin1String("dph_total")).toDouble();
    });
    const int limit = query.value(QLatin1String("limit")).toInt(64);
    QJsonArray out;
    for (qsizetype i = 0; i < sorted.size() && i < limit; ++i)
        out.append(sorted.at(i));
    return out;
}

QJsonObject VastEmulator::render(const Instance &instance) const
{
    QJsonObject object = instance.base;
    const qint64 age = nowMs() - instance.startedMs;
    QJsonValue actual;
    if (instance.stopped || instance.outbid)
        actual = QStringLiteral("stopped");
    else if (age >= bootMs)
        actual = QStringLiteral("running");
    else if (age >= bootMs / 3)
        actual = QStringLiteral("loading");
    object.insert(QStringLiteral("actual_status"), actual);
    object.insert(QStringLiteral("cur_state"), actual.isNull() ? QStringLiteral("running") : actual.toString());
    object.insert(QStringLiteral("intended_status"), instance.stopped ? QStringLiteral("stopped") : QStringLiteral("running"));
    if (actual == QJsonValue(QStringLiteral("running"))) {
        const int port = 20000 + int(instance.base.value(QLatin1String("id")).toInteger() % 20000);
        object.insert(QStringLiteral("public_ipaddr"), QString(sshHost + QStringLiteral("\n")));   // the API pads it; clients strip
        object.insert(QStringLiteral("ssh_host"), QStringLiteral("ssh%1.vast.ai").arg(port % 9));
        object.insert(QStringLiteral("ssh_port"), port + 1);
        if (object.value(QLatin1String("image_runtype")).toString().contains(QLatin1String("ssh_direc")))
            object.insert(QStringLiteral("ports"), QJsonObject{{QStringLiteral("22/tcp"), QJsonArray{QJsonObject{
                {QStringLiteral("HostIp"), QStringLiteral("0.0.0.0")}, {QStringLiteral("HostPort"), QString::number(port)}}}}});
    }
    return object;
}

EmuResponse VastEmulator::rent(const QString &offerId, const QJsonObject &body)
{
    const qint64 id = offerId.toLongLong();
    qsizetype index = -1;
    for (qsizetype i = 0; i < m_offers.size(); ++i) {
        const QJsonObject candidate = m_offers.at(i).toObject();
        if (candidate.value(QLatin1String("id")).toInteger() == id && candidate.value(QLatin1String("rentable")).toBool()
            && !candidate.value(QLatin1String("rented")).toBool())
            index = i;
    }
    const bool raced = rentRacesAway || (index >= 0 && rentRaces > 0 && rentRaces-- > 0);
    if (index < 0 || raced)
        return json(404, QJsonObject{{QStringLiteral("success"), false}, {QStringLiteral("error"), QStringLiteral("invalid_args")},
                                     {QStringLiteral("msg"), QStringLiteral("error 404/3603: no_such_ask Instance type by id %1 is not available.").arg(id)},
                                     {QStringLiteral("ask_id"), id}});
    QJsonObject chosen = m_offers.at(index).toObject();
    if (const QString wrong = linkVolume(body, chosen); !wrong.isEmpty())
        return failure(400, QStringLiteral("invalid_args"), wrong);
    const double dph = chosen.value(QLatin1String("dph_total")).toDouble();
    const bool bid = body.contains(QLatin1String("price"));
    if (bid && body.value(QLatin1String("price")).toDouble() < chosen.value(QLatin1String("min_bid")).toDouble())
        return failure(400, QStringLiteral("invalid_price"), QStringLiteral("error 400/3467: bid price is below the minimum"));
    if (credit < dph)
        return failure(200, QStringLiteral("insufficient_credit"),
                       QStringLiteral("Your account lacks credit; add at least one hour of credit to rent this machine."));
    chosen.insert(QStringLiteral("rented"), true);
    m_offers.replace(index, chosen);
    Instance instance;
    instance.offer = chosen;
    instance.startedMs = nowMs();
    const qint64 contract = m_nextInstance++;
    QJsonObject base = chosen;
    base.insert(QStringLiteral("id"), contract);
    base.insert(QStringLiteral("label"), body.value(QLatin1String("label")));
    base.insert(QStringLiteral("image_uuid"), body.value(QLatin1String("image")));
    base.insert(QStringLiteral("image_runtype"), body.value(QLatin1String("runtype")).toString(QStringLiteral("ssh")));
    base.insert(QStringLiteral("disk_space"), body.value(QLatin1String("disk")).toDouble(8));
    base.insert(QStringLiteral("is_bid"), bid);
    if (body.contains(QLatin1String("volume_info")))
        base.insert(QStringLiteral("volume_id"), body.value(QLatin1String("volume_info")).toObject().value(QLatin1String("volume_id")));
    base.insert(QStringLiteral("start_date"), double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
    base.remove(QStringLiteral("public_ipaddr"));
    instance.base = base;
    m_instances.insert(contract, instance);
    return json(200, QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("new_contract"), contract},
                                 {QStringLiteral("instance_api_key"), QStringLiteral("d15a%1").arg(contract)}});
}

EmuResponse VastEmulator::instanceCall(const EmuRequest &request, const QString &id, const QJsonObject &body)
{
    auto it = m_instances.find(id.toLongLong());
    if (request.method == "GET" && it == m_instances.end())
        return json(200, QJsonObject{{QStringLiteral("instances"), QJsonValue()}});
    if (it == m_instances.end())
        return failure(404, QStringLiteral("not_found"), QStringLiteral("Instance not found"));
    if (request.method == "GET")
        return json(200, QJsonObject{{QStringLiteral("instances"), render(*it)}});
    if (request.method == "DELETE") {
        m_instances.erase(it);
        return json(200, QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("msg"), QStringLiteral("Instance destroyed successfully")}});
    }
    const QString state = body.value(QLatin1String("state")).toString();
    if (state == QLatin1String("stopped")) {
        it->stopped = true;
    } else if (state == QLatin1String("running")) {
        it->stopped = false;
        it->outbid = false;
        it->startedMs = nowMs();
    } else if (!body.contains(QLatin1String("label"))) {
        return failure(400, QStringLiteral("invalid_args"), QStringLiteral("state must be running or stopped"));
    }
    return json(200, QJsonObject{{QStringLiteral("success"), true}});
}

EmuResponse VastEmulator::keysCall(const EmuRequest &request, const QJsonObject &body)
{
    if (request.method == "GET")
        return jsonArray(200, m_keys); // a bare array whose items say "key", as the OpenAPI document has it
    if (request.method == "POST") {
        const QString line = body.value(QLatin1String("ssh_key")).toString().trimmed();
        if (line.isEmpty())
            return failure(400, QStringLiteral("no_ssh_key"), QStringLiteral("No ssh key provided"));
        const int id = m_nextKey++;
        m_keys.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("user_id"), 456}, {QStringLiteral("key"), line},
                                  {QStringLiteral("created_at"), QStringLiteral("2026-01-01T12:00:00Z")},
                                  {QStringLiteral("deleted_at"), QJsonValue()}});
        return json(200, QJsonObject{{QStringLiteral("success"), true},
                                     {QStringLiteral("key"), QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("user_id"), 456},
                                                                         {QStringLiteral("public_key"), line}}}});
    }
    const int id = request.path.section(QLatin1Char('/'), 4, 4).toInt();
    for (qsizetype i = 0; i < m_keys.size(); ++i) {
        if (m_keys.at(i).toObject().value(QLatin1String("id")).toInt() == id) {
            m_keys.removeAt(i);
            return json(200, QJsonObject{{QStringLiteral("success"), true}});
        }
    }
    return failure(404, QStringLiteral("no_such_ssh_key"), QStringLiteral("SSH key not found"));
}

EmuResponse VastEmulator::handle(const EmuRequest &request)
{
    if (request.headers.value("authorization") != "Bearer " + apiKey().toUtf8())
        return errorFor(401, {});
    const QString path = request.path;
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (request.method == "POST" && path == QLatin1String("/api/v0/bundles/"))
        return json(200, QJsonObject{{QStringLiteral("offers"), search(body)}});
    if (request.method == "PUT" && path.startsWith(QLatin1String("/api/v0/asks/")) && path.endsWith(QLatin1Char('/')))
        return rent(path.section(QLatin1Char('/'), 4, 4), body);
    if (request.method == "GET" && path == QLatin1String("/api/v0/instances/")) {
        QJsonArray list;
        for (const Instance &instance : std::as_const(m_instances))
            list.append(render(instance));
        return json(200, QJsonObject{{QStringLiteral("instances_found"), list.size()}, {QStringLiteral("instances"), list}});
    }
    if (request.method == "PUT" && path.startsWith(QLatin1String("/api/v0/instances/reboot/"))) {
        auto it = m_instances.find(path.section(QLatin1Char('/'), 5, 5).toLongLong());
        if (it == m_instances.end())
            return failure(404, QStringLiteral("not_found"), QStringLiteral("Instance not found"));
        it->startedMs = nowMs();
        return json(200, QJsonObject{{QStringLiteral("success"), true}});
    }
    if (path.startsWith(QLatin1String("/api/v0/instances/")))
        return instanceCall(request, path.section(QLatin1Char('/'), 4, 4), body);
    if (path.startsWith(QLatin1String("/api/v0/volumes")))
        return volumesCall(request, body);
    if (path.startsWith(QLatin1String("/api/v0/ssh/")))
        return keysCall(request, body);
    return failure(404, QStringLiteral("not_found"), QStringLiteral("Unknown endpoint"));
}

} // namespace gantry::test
