#pragma once

#include "core/cluster/cluster.h"
#include "core/jobs/jobinfo.h"
#include "core/jobs/jobspec.h"

#include <QPair>

namespace gantry::cluster {

// What `cluster run` / `cluster torchrun` start on every node. Pure functions: nothing here
// connects; the values they produce reach the remote shell only through shellQuote().
struct RunSpec
{
    QString jobName;
    QString workingDir;
    QList<QPair<QString, QString>> env;  // the user's --env, exported after the cluster's own
    QStringList command;                  // `run`: one shell line or several words to quote
    int masterPort = 29500;
};

struct TorchrunSpec
{
    RunSpec run;                  // run.command: SCRIPT ARGS…
    int nprocPerNode = 0;         // 0: auto (GPUS_PER_NODE, else 1 on a CPU node)
    int rendezvousTimeoutS = 300; // the static rendezvous waits this long for every node
};

constexpr int kDefaultMasterPort = 29500;

// The head's address the other nodes dial: an explicit --master-addr, else the head's private
// address when the provider reports one and all nodes share a region, else its SSH address.
QString masterAddress(const Cluster &cluster);
// NODE_RANK, NNODES, MASTER_ADDR, MASTER_PORT, GPUS_PER_NODE, GANTRY_CLUSTER, GANTRY_NODE_ADDRS.
QList<QPair<QString, QString>> nodeEnvironment(const Cluster &cluster, int rank, int masterPort, int gpusPerNode);
// "python3 train.py" as one line, or several words quoted one by one (like `job run`).
QString commandLine(const QStringList &words);
// The bash line that finds a Python with torch (the PATH's python3 first, then the system's:
// Debian's python3-torch lives under /usr/bin/python3) and runs torchrun with a static
// rendezvous at the head; on failure it explains a rendezvous timeout instead of leaving a trace.
QString torchrunLine(const TorchrunSpec &spec, const Cluster &cluster, int rank, int gpusPerNode);
// The job one rank runs.
jobs::JobSpec rankJobSpec(const Cluster &cluster, const RunSpec &spec, int rank, int gpusPerNode, const QString &commandLine);
// "4" from `nvidia-smi -L` output (lines starting with "GPU "); 0 on a CPU node.
int countGpus(const QByteArray &nvidiaSmiList);

// The cluster job's state from its ranks: failed as soon as one rank failed, even while others
// still run (they keep billing and usually hang waiting for the lost peer).
enum class ClusterJobState
{
    Running,
    Succeeded,
    Failed,
    Unknown, // a rank could not be read (unreachable node, no such job)
};
QString clusterJobStateName(ClusterJobState state); // "running", "succeeded", "failed", "unknown"
struct RankStatus
{
    int rank = 0;
    std::optional<jobs::JobInfo> job;
    QString error; // why the rank could not be read
};
ClusterJobState clusterJobState(const QList<RankStatus> &ranks);
bool rankFailed(const RankStatus &rank);

} // namespace gantry::cluster
