#include "core/cluster/cluster.h"

#include "core/hosts/hoststore.h"
#include "core/util/schemaversion.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

namespace gantry::cluster {
namespace {

// clusters.json's format: 1 is the first.
constexpr int kClustersSchema = 1;

QJsonObject nodeJson(const ClusterNode &node)
{
    return QJsonObject{{QStringLiteral("host"), node.hostName},         {QStringLiteral("provider"), node.provider},
                       {QStringLiteral("instance_id"), node.instanceId}, {QStringLiteral("address"), node.address},
                       {QStringLiteral("private_address"), node.privateAddress}, {QStringLiteral("region"), node.region},
                       {QStringLiteral("price_per_hour"), node.pricePerHour}};
}

ClusterNode nodeFrom(const QJsonObject &o)
{
    ClusterNode node;
    node.hostName = o.value(QLatin1String("host")).toString();
    node.provider = o.value(QLatin1String("provider")).toString();
    node.instanceId = o.value(QLatin1String("instance_id")).toString();
    node.address = o.value(QLatin1String("address")).toString();
    node.privateAddress = o.value(QLatin1String("private_address")).toString();
    node.region = o.value(QLatin1String("region")).toString();
    node.pricePerHour = o.value(QLatin1String("price_per_hour")).toDouble();
    return node;
}

QJsonObject clusterJson(const Cluster &cluster)
{
    QJsonArray nodes;
    for (const ClusterNode &node : cluster.nodes)
        nodes.append(nodeJson(node));
    QJsonObject o{{QStringLiteral("name"), cluster.name},         {QStringLiteral("provider"), cluster.provider},
                  {QStringLiteral("type"), cluster.typeName},     {QStringLiteral("region"), cluster.region},
                  {QStringLiteral("gpus_per_node"), cluster.gpusPerNode}, {QStringLiteral("master_addr"), cluster.masterAddr},
                  {QStringLiteral("created"), cluster.created.toString(Qt::ISODate)}, {QStringLiteral("nodes"), nodes}};
    if (cluster.lastJob) {
        o.insert(QStringLiteral("last_job"),
                 QJsonObject{{QStringLiteral("name"), cluster.lastJob->name}, {QStringLiteral("kind"), cluster.lastJob->kind},
                             {QStringLiteral("started"), cluster.lastJob->started.toString(Qt::ISODate)},
                             {QStringLiteral("master_port"), cluster.lastJob->masterPort}});
    }
    return o;
}

Cluster clusterFrom(const QJsonObject &o)
{
    Cluster cluster;
    cluster.name = o.value(QLatin1String("name")).toString();
    cluster.provider = o.value(QLatin1String("provider")).toString();
    cluster.typeName = o.value(QLatin1String("type")).toString();
    cluster.region = o.value(QLatin1String("region")).toString();
    cluster.gpusPerNode = o.value(QLatin1String("gpus_per_node")).toInt(-1);
    cluster.masterAddr = o.value(QLatin1String("master_addr")).toString();
    cluster.created = QDateTime::fromString(o.value(QLatin1String("created")).toString(), Qt::ISODate);
    for (const QJsonValue &node : o.value(QLatin1String("nodes")).toArray())
        cluster.nodes.append(nodeFrom(node.toObject()));
    const QJsonObject job = o.value(QLatin1String("last_job")).toObject();
    if (!job.isEmpty()) {
        cluster.lastJob = ClusterJob{job.value(QLatin1String("name")).toString(), job.value(QLatin1String("kind")).toString(),
                                     QDateTime::fromString(job.value(QLatin1String("started")).toString(), Qt::ISODate),
                                     job.value(QLatin1String("master_port")).toInt()};
    }
    return cluster;
}

} // namespace

double Cluster::pricePerHour() const
{
    double total = 0;
    for (const ClusterNode &node : nodes)
        total += node.pricePerHour;
    return total;
}

bool Cluster::oneRegion() const
{
    if (nodes.isEmpty() || nodes.first().region.isEmpty())
        return false;
    return std::all_of(nodes.cbegin(), nodes.cend(), [&](const ClusterNode &n) { return n.region == nodes.first().region; });
}

QString rankJobName(const QString &job, int rank)
{
    return QStringLiteral("%1-r%2").arg(job).arg(rank);
}

Result<void> validateClusterName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$"));
    if (!pattern.match(name).hasMatch() || name.contains(QLatin1String("..")))
        return makeError(ErrorCode::Usage, ClusterStore::tr("\"%1\" is not a cluster name: use up to 40 letters, digits, '.', '_' "
                                                            "or '-', starting with a letter or digit").arg(name));
    return {};
}

ClusterStore::ClusterStore(QString configDir) : m_configDir(std::move(configDir)) {}

QString ClusterStore::filePath() const
{
    return QDir(m_configDir).filePath(QStringLiteral("clusters.json"));
}

Result<void> ClusterStore::load()
{
    m_clusters.clear();
    m_readOnly = false;
    QFile file(filePath());
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, tr("cannot read %1: %2").arg(filePath(), file.errorString()));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return makeError(ErrorCode::Io, tr("%1 is not valid JSON (%2): fix or remove the file").arg(filePath(), parseError.errorString()));
    Result<QJsonObject> root = schema::upgrade(doc.object(), kClustersSchema, filePath());
    const QJsonObject object = root ? *root : doc.object();
    for (const QJsonValue &value : object.value(QLatin1String("clusters")).toArray())
        m_clusters.append(clusterFrom(value.toObject()));
    if (!root) {
        m_readOnly = true;
        return root.error();
    }
    return {};
}

std::optional<Cluster> ClusterStore::find(const QString &name) const
{
    for (const Cluster &cluster : m_clusters) {
        if (cluster.name == name)
            return cluster;
    }
    return std::nullopt;
}

Result<void> ClusterStore::add(const Cluster &cluster)
{
    if (auto valid = validateClusterName(cluster.name); !valid)
        return valid;
    if (find(cluster.name))
        return makeError(ErrorCode::Conflict, tr("a cluster named \"%1\" exists already: pick another name or remove that cluster "
                                                 "first").arg(cluster.name));
    m_clusters.append(cluster);
    return save();
}

Result<void> ClusterStore::update(const Cluster &cluster)
{
    for (Cluster &existing : m_clusters) {
        if (existing.name == cluster.name) {
            existing = cluster;
            return save();
        }
    }
    return makeError(ErrorCode::NotFound, tr("no cluster named \"%1\" (gantry-cli cluster list)").arg(cluster.name));
}

Result<void> ClusterStore::remove(const QString &name)
{
    const auto removed = m_clusters.removeIf([&](const Cluster &c) { return c.name == name; });
    if (removed == 0)
        return makeError(ErrorCode::NotFound, tr("no cluster named \"%1\" (gantry-cli cluster list)").arg(name));
    return save();
}

Result<void> ClusterStore::save()
{
    if (m_readOnly)
        return makeError(ErrorCode::Conflict, tr("%1 was written by a newer Gantry: it is left as it is; update Gantry to change clusters")
                                                  .arg(filePath()));
    if (auto replaceable = schema::checkReplaceable(filePath(), kClustersSchema); !replaceable)
        return replaceable;
    QDir().mkpath(m_configDir);
    QJsonArray array;
    for (const Cluster &cluster : std::as_const(m_clusters))
        array.append(clusterJson(cluster));
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    file.write(QJsonDocument(schema::stamped(QJsonObject{{QStringLiteral("clusters"), array}}, kClustersSchema)).toJson());
    if (!file.commit())
        return makeError(ErrorCode::Io, tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    return {};
}

Result<Cluster> addClusterOfSavedHosts(const QString &configDir, const QString &name, const QStringList &hostNames,
                                       const QString &masterAddr)
{
    if (hostNames.isEmpty())
        return makeError(ErrorCode::Usage, ClusterStore::tr("a cluster needs at least one saved host"));
    Cluster cluster;
    cluster.name = name;
    cluster.masterAddr = masterAddr;
    cluster.created = QDateTime::currentDateTimeUtc();
    HostStore hosts(configDir);
    if (Result<void> loaded = hosts.load(); !loaded)
        return loaded.error();
    for (const QString &hostName : hostNames) {
        const std::optional<SavedHost> host = hosts.find(hostName);
        if (!host)
            return makeError(ErrorCode::NotFound, ClusterStore::tr("\"%1\" is not a saved host").arg(hostName));
        cluster.nodes.append(ClusterNode{host->name, host->provider, host->instanceId, host->target.host, {}, {}, host->hourlyPriceUsd});
    }
    ClusterStore store(configDir);
    if (Result<void> loaded = store.load(); !loaded)
        return loaded.error();
    if (Result<void> added = store.add(cluster); !added)
        return added.error();
    return cluster;
}

} // namespace gantry::cluster
