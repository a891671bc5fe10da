// checkAllReduce(): the last step of `cluster check` (declared in netcheck.h).
#include "core/cluster/netcheck.h"
#include "core/cluster/clustertext.h"

#include <QCoreApplication>

namespace gantry::cluster {
namespace {

using verify::CheckStatus;
using verify::DoctorCheck;

// One all-reduce over the given ranks of the cluster (their index in `ranks` is their rank in the
// process group); the value per rank is what it printed, or why it failed.
std::vector<Result<AllReduceResult>> allReduceOver(const Cluster &cluster, const QList<int> &ranks, const NodeConnector &connect,
                                             const ClusterCheck &check, int port, const CheckOptions &options)
{
    Cluster group = cluster;
    group.nodes.clear();
    for (int rank : ranks)
        group.nodes.append(cluster.nodes.at(rank));
    const int world = int(ranks.size());
    QStringList pythons;
    for (int rank : ranks)
        pythons << (check.nodes[rank].facts ? check.nodes[rank].facts->pythonPath : QString());
    const std::function<Result<AllReduceResult>(int, ssh::Session &)> work = [&](int member, ssh::Session &session) -> Result<AllReduceResult> {
        Result<ssh::ExecOutput> out = session.run(allReduceCommand(pythons[member], check.masterAddr, port, member, world, options.allReduceBytes, options.allReduceTimeoutS),
                                                  (options.allReduceTimeoutS + 30) * 1000);
        if (!out)
            return out.error();
        if (std::optional<AllReduceResult> parsed = parseAllReduce(out->out))
            return *parsed;
        const QString tail = QString::fromUtf8(out->err).trimmed().section(QLatin1Char('\n'), -1);
        return makeError(ErrorCode::RemoteFailed, tail.isEmpty() ? ClusterText::tr("exit status %1").arg(out->exitStatus) : tail);
    };
    return forEachNode(group, connect, work);
}

// Which node breaks the collective: head-and-one pairs, one after the other (each a fresh group).
void namePairs(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options, ClusterCheck &check)
{
    CheckOptions pair = options;
    pair.allReduceTimeoutS = std::min(options.allReduceTimeoutS, 20);
    pair.allReduceBytes = 1 << 20;
    for (int rank = 1; rank < int(cluster.nodes.size()); ++rank) {
        const std::vector<Result<AllReduceResult>> results = allReduceOver(cluster, {0, rank}, connect, check, options.masterPort, pair);
        const bool ok = results.size() == 2 && results[0] && results[1];
        check.nodes[rank].checks.append(
            ok ? DoctorCheck{QStringLiteral("pairwise"), CheckStatus::Ok, ClusterText::tr("An all-reduce with the head alone works."), QString()}
               : DoctorCheck{QStringLiteral("pairwise"), CheckStatus::Fail,
                             ClusterText::tr("An all-reduce between this node and the head fails: this node breaks the collective."),
                             ClusterText::tr("Replace the node, or compare its network settings with the others (NCCL_DEBUG=INFO).")});
    }
}

} // namespace

void checkAllReduce(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options, ClusterCheck &check)
{
    QList<int> everyone;
    for (int rank = 0; rank < int(cluster.nodes.size()); ++rank)
        everyone << rank;
    const int world = int(everyone.size());
    const std::vector<Result<AllReduceResult>> results = allReduceOver(cluster, everyone, connect, check, options.masterPort, options);
    const double expected = world * (world + 1) / 2.0;
    bool failed = false;
    for (int rank = 0; rank < int(results.size()); ++rank) {
        NodeCheck &node = check.nodes[rank];
        if (!results[rank] || results[rank]->value != expected) {
            failed = true;
            const QString why = results[rank] ? ClusterText::tr("it summed to %1 instead of %2").arg(results[rank]->value).arg(expected)
                                               : results[rank].error().message;
            node.checks.append(DoctorCheck{QStringLiteral("all-reduce"), CheckStatus::Fail,
                                           ClusterText::tr("The all-reduce across %n node(s) failed here: %1", nullptr, world).arg(why),
                                           ClusterText::tr("Rerun with NCCL_DEBUG=INFO; set NCCL_SOCKET_IFNAME to the interface suggested above.")});
            continue;
        }
        node.busBandwidthGBps = busBandwidthGBps(options.allReduceBytes, results[rank]->seconds, world);
        node.checks.append(DoctorCheck{QStringLiteral("all-reduce"), CheckStatus::Ok,
                                       ClusterText::tr("All-reduce of %1 MiB over %2: bus bandwidth %3 GB/s.")
                                           .arg(options.allReduceBytes >> 20).arg(results[rank]->backend)
                                           .arg(node.busBandwidthGBps, 0, 'f', 2), QString()});
    }
    if (failed && world > 2)
        namePairs(cluster, connect, options, check);
}

} // namespace gantry::cluster
