#include "core/cluster/check.h"
#include "core/cluster/clustertext.h"

#include "core/cluster/netcheck.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace gantry::cluster {
namespace {

using verify::CheckStatus;
using verify::DoctorCheck;

QString majorMinor(const QString &version)
{
    return version.section(QLatin1Char('.'), 0, 1);
}

void compareOne(NodeCheck &node, const NodeFacts &facts, const NodeFacts &head)
{
    auto differs = [&](const QString &id, const QString &what, const QString &mine, const QString &theirs, CheckStatus status,
                       const QString &fix) {
        if (mine == theirs)
            return;
        node.checks.append(DoctorCheck{id, status, ClusterText::tr("%1 is %2 here but %3 on the head (rank 0).")
                                                        .arg(what, mine.isEmpty() ? ClusterText::tr("missing") : mine,
                                                             theirs.isEmpty() ? ClusterText::tr("missing") : theirs), fix});
    };
    const QString gpus = facts.gpuCount > 0 ? QStringLiteral("%1x %2").arg(facts.gpuCount).arg(facts.gpuModel) : ClusterText::tr("no GPU");
    const QString headGpus = head.gpuCount > 0 ? QStringLiteral("%1x %2").arg(head.gpuCount).arg(head.gpuModel) : ClusterText::tr("no GPU");
    differs(QStringLiteral("gpus"), ClusterText::tr("The GPU set"), gpus, headGpus, CheckStatus::Fail,
            ClusterText::tr("Launch every node with the same instance type: mixed GPUs make the fast ones wait and break --nproc_per_node."));
    differs(QStringLiteral("driver"), ClusterText::tr("The NVIDIA driver"), facts.driver, head.driver, CheckStatus::Warn,
            ClusterText::tr("Use the same image on every node; NCCL across driver versions usually works but is untested."));
    differs(QStringLiteral("cuda"), ClusterText::tr("CUDA"), facts.cuda, head.cuda, CheckStatus::Warn,
            ClusterText::tr("Use the same image on every node."));
    differs(QStringLiteral("python"), ClusterText::tr("Python"), majorMinor(facts.python), majorMinor(head.python), CheckStatus::Warn,
            ClusterText::tr("Install the same Python on every node (pickled objects cross nodes)."));
    if (facts.torch.isEmpty()) {
        node.checks.append(DoctorCheck{QStringLiteral("torch"), CheckStatus::Fail, ClusterText::tr("PyTorch does not import with %1.")
                                                                                  .arg(facts.pythonPath.isEmpty() ? QStringLiteral("python3") : facts.pythonPath),
                                       ClusterText::tr("Install it (pip install torch, or apt install python3-torch on Debian) or activate its environment.")});
    } else {
        differs(QStringLiteral("torch"), ClusterText::tr("PyTorch"), facts.torch, head.torch, CheckStatus::Fail,
                ClusterText::tr("Install the same torch version everywhere: c10d's wire format changes between releases."));
    }
}

void interfaceAndRdma(NodeCheck &node, const NodeFacts &facts, const QString &masterAddr)
{
    node.socketIfname = suggestSocketIfname(facts.interfaces, masterAddr);
    if (node.socketIfname.isEmpty()) {
        node.checks.append(DoctorCheck{QStringLiteral("nccl-interface"), CheckStatus::Warn,
                                       ClusterText::tr("No interface reaches %1 by its subnet (ip -o addr).").arg(masterAddr),
                                       ClusterText::tr("Set NCCL_SOCKET_IFNAME to the interface of the private network.")});
    } else {
        node.checks.append(DoctorCheck{QStringLiteral("nccl-interface"), CheckStatus::Ok,
                                       ClusterText::tr("NCCL sockets should use %1.").arg(node.socketIfname),
                                       QStringLiteral("NCCL_SOCKET_IFNAME=%1").arg(node.socketIfname)});
    }
    QStringList active;
    QStringList down;
    bool efa = false;
    for (const RdmaDevice &device : facts.rdma) {
        (device.active() || device.efa ? active : down) << device.name;
        efa = efa || device.efa;
    }
    if (!active.isEmpty()) {
        node.checks.append(DoctorCheck{QStringLiteral("rdma"), CheckStatus::Ok,
                                       (efa ? ClusterText::tr("EFA: %1.") : ClusterText::tr("InfiniBand/RoCE active: %1.")).arg(active.join(QStringLiteral(", "))),
                                       efa ? ClusterText::tr("NCCL needs the aws-ofi-nccl plugin to use EFA (FI_PROVIDER=efa).") : QString()});
    } else if (!down.isEmpty()) {
        node.checks.append(DoctorCheck{QStringLiteral("rdma"), CheckStatus::Warn,
                                       ClusterText::tr("InfiniBand devices are not active: %1.").arg(down.join(QStringLiteral(", "))),
                                       ClusterText::tr("NCCL falls back to TCP; ask the provider why the fabric port is down (ibstat).")});
    } else if (facts.gpuCount > 0) {
        node.checks.append(DoctorCheck{QStringLiteral("rdma"), CheckStatus::Ok,
                                       ClusterText::tr("No InfiniBand or EFA: NCCL uses TCP sockets between nodes."), QString()});
    }
}

void topology(NodeCheck &node, const GpuTopology &topo)
{
    if (topo.gpus < 2)
        return;
    if (topo.nvlinkPairs == topo.pairs) {
        node.checks.append(DoctorCheck{QStringLiteral("gpu-topology"), CheckStatus::Ok,
                                       ClusterText::tr("All %1 GPU pairs are linked by NVLink.").arg(topo.pairs), QString()});
    } else {
        node.checks.append(DoctorCheck{QStringLiteral("gpu-topology"), CheckStatus::Warn,
                                       ClusterText::tr("%1 of %2 GPU pairs talk over PCIe (slowest path: %3): NCCL inside the node is slower than over NVLink.")
                                           .arg(topo.pairs - topo.nvlinkPairs).arg(topo.pairs).arg(topo.weakestLink),
                                       ClusterText::tr("Expected on PCIe cards; for tensor parallelism pick an SXM type with NVLink.")});
    }
    if (!topo.nics.isEmpty()) {
        const bool near = topo.nicsNearGpu.size() == topo.nics.size();
        node.checks.append(DoctorCheck{QStringLiteral("gpu-nic"), near ? CheckStatus::Ok : CheckStatus::Warn,
                                       ClusterText::tr("%1 of %2 NICs share a PCIe switch with a GPU (GPUDirect RDMA).")
                                           .arg(topo.nicsNearGpu.size()).arg(topo.nics.size()),
                                       near ? QString() : ClusterText::tr("Traffic through the other NICs crosses the CPU; NCCL_IB_HCA can pin the near ones.")});
    }
}

QList<NodeCheck> gatherFacts(const Cluster &cluster, const NodeConnector &connect)
{
    const std::function<Result<NodeFacts>(int, ssh::Session &)> work = [](int, ssh::Session &session) -> Result<NodeFacts> {
        QByteArray out;
        ssh::Session::ExecOptions exec;
        exec.onStdout = [&out](const QByteArray &data) { out += data; };
        exec.stdinData = factsScript();
        exec.timeoutMs = 60000;
        Result<int> status = session.exec(QStringLiteral("sh -s"), exec);
        if (!status)
            return status.error();
        return parseFacts(out);
    };
    const std::vector<Result<NodeFacts>> facts = forEachNode(cluster, connect, work);
    QList<NodeCheck> nodes;
    for (int rank = 0; rank < int(facts.size()); ++rank) {
        NodeCheck node;
        node.rank = rank;
        node.hostName = cluster.nodes.at(rank).hostName;
        if (facts[rank]) {
            node.facts = *facts[rank];
            node.checks.append(DoctorCheck{QStringLiteral("ssh"), CheckStatus::Ok, ClusterText::tr("Reachable by SSH."), QString()});
        } else {
            node.checks.append(DoctorCheck{QStringLiteral("ssh"), CheckStatus::Fail, facts[rank].error().message,
                                           ClusterText::tr("Start the machine, or fix its saved host in Machines (gantry-cli hosts list).")});
        }
        nodes.append(node);
    }
    return nodes;
}

} // namespace

CheckStatus NodeCheck::verdict() const
{
    CheckStatus worst = CheckStatus::Ok;
    for (const DoctorCheck &check : checks)
        worst = std::max(worst, check.status);
    return worst;
}

CheckStatus ClusterCheck::verdict() const
{
    CheckStatus worst = CheckStatus::Ok;
    for (const NodeCheck &node : nodes)
        worst = std::max(worst, node.verdict());
    return worst;
}

void compareFacts(QList<NodeCheck> &nodes, const QString &masterAddr)
{
    if (nodes.isEmpty() || !nodes.first().facts)
        return;
    const NodeFacts head = *nodes.first().facts;
    for (NodeCheck &node : nodes) {
        if (!node.facts)
            continue;
        compareOne(node, *node.facts, head);
        interfaceAndRdma(node, *node.facts, masterAddr);
        topology(node, node.facts->topology);
    }
}

ClusterCheck checkCluster(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options)
{
    ClusterCheck result;
    result.masterAddr = masterAddress(cluster);
    result.masterPort = options.masterPort;
    result.nodes = gatherFacts(cluster, connect);
    compareFacts(result.nodes, result.masterAddr);
    QStringList unreachable;
    for (const NodeCheck &node : std::as_const(result.nodes)) {
        if (!node.facts)
            unreachable << QString::number(node.rank);
    }
    if (!unreachable.isEmpty()) {
        // The rendezvous needs every node: without one, the port test and the all-reduce would
        // only wait for it until they time out.
        for (NodeCheck &node : result.nodes) {
            if (node.facts)
                node.checks.append(DoctorCheck{QStringLiteral("rendezvous-port"), CheckStatus::Warn,
                                               ClusterText::tr("Network steps not run: rank %1 is unreachable.").arg(unreachable.join(QStringLiteral(", "))),
                                               ClusterText::tr("Bring that node back (or remove it from the cluster), then check again.")});
        }
        return result;
    }
    if (!checkRendezvousPort(cluster, connect, options, result) || !options.allReduce)
        return result;
    checkAllReduce(cluster, connect, options, result);
    return result;
}

QStringList failureLines(const ClusterCheck &check)
{
    QStringList lines;
    for (const NodeCheck &node : check.nodes) {
        for (const DoctorCheck &entry : node.checks) {
            if (entry.status != CheckStatus::Fail)
                continue;
            // A connect error already names its rank and host (the connector's own words).
            const QString prefix = ClusterText::tr("rank %1 (%2): %3").arg(node.rank).arg(node.hostName, QString());
            lines << (entry.message.startsWith(prefix) ? entry.message : prefix + entry.message);
        }
    }
    return lines;
}

QJsonObject clusterCheckToJson(const ClusterCheck &check)
{
    QJsonArray nodes;
    for (const NodeCheck &node : check.nodes) {
        QJsonObject o = verify::doctorToJson(node.checks);
        o.insert(QStringLiteral("rank"), node.rank);
        o.insert(QStringLiteral("host"), node.hostName);
        o.insert(QStringLiteral("verdict"), verify::checkStatusName(node.verdict()));
        o.insert(QStringLiteral("socket_ifname"), node.socketIfname);
        o.insert(QStringLiteral("bus_bandwidth_gbps"), node.busBandwidthGBps);
        if (node.facts) {
            o.insert(QStringLiteral("gpu_model"), node.facts->gpuModel);
            o.insert(QStringLiteral("gpu_count"), node.facts->gpuCount);
            o.insert(QStringLiteral("driver"), node.facts->driver);
            o.insert(QStringLiteral("cuda"), node.facts->cuda);
            o.insert(QStringLiteral("python"), node.facts->python);
            o.insert(QStringLiteral("torch"), node.facts->torch);
        }
        nodes.append(o);
    }
    return QJsonObject{{QStringLiteral("verdict"), verify::checkStatusName(check.verdict())},
                       {QStringLiteral("master_addr"), check.masterAddr},
                       {QStringLiteral("master_port"), check.masterPort},
                       {QStringLiteral("nodes"), nodes}};
}

} // namespace gantry::cluster
