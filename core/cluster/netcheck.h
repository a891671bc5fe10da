#pragma once

#include "core/cluster/check.h"

namespace gantry::cluster {

// The network steps of checkCluster(), each adding its findings to `check`'s nodes.

// A short-lived listener on the head's rendezvous port (it fails at once when the port is taken)
// and a dial from every node, the head included, to MASTER_ADDR:port. False when the port step
// failed, so the all-reduce is not attempted (it would only time out).
bool checkRendezvousPort(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options,
                         ClusterCheck &check);
// One all-reduce across every node (NCCL on GPUs, gloo on CPU) with its bus bandwidth per node;
// when it fails on a cluster of three or more, head-and-one pairs name the node that breaks it.
void checkAllReduce(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options, ClusterCheck &check);

// The remote scripts, for tests and the curious (Python programs run with -c).
QString listenerCommand(int port, int expected, int timeoutS);
QString dialCommand(const QString &addr, int port, int rank, int timeoutS);
// `python`: the interpreter that imports torch on that node (NodeFacts::pythonPath).
QString allReduceCommand(const QString &python, const QString &addr, int port, int rank, int world, qint64 bytes, int timeoutS);

struct AllReduceResult
{
    double value = 0;
    double seconds = 0;
    QString backend;
};
// The "GANTRY_ALLREDUCE value=… seconds=… backend=…" line; nullopt when it is not there.
std::optional<AllReduceResult> parseAllReduce(const QByteArray &output);

} // namespace gantry::cluster
