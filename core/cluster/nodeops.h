#pragma once

#include "core/cluster/wiring.h"
#include "core/jobs/jobrunner.h"

#include <functional>
#include <memory>
#include <vector>

namespace gantry::ssh { class Session; }

namespace gantry::cluster {

// Opens a session to one node (the front end decides about keys, known hosts and prompts). It is
// called on the node's own worker thread, and the session lives and dies on that thread.
using NodeConnector = std::function<Result<std::unique_ptr<ssh::Session>>(const ClusterNode &node, int rank)>;

// Runs work(rank, session) for every node at once, one thread and one session per node, and
// returns each node's result in rank order. Blocking: for the CLI, tests and worker threads.
template<typename T>
std::vector<Result<T>> forEachNode(const Cluster &cluster, const NodeConnector &connect,
                                   const std::function<Result<T>(int rank, ssh::Session &session)> &work);

struct StartedRank
{
    int rank = 0;
    Result<jobs::StartedJob> started = Error{};
};

// Starts the job on every rank: `line(rank, gpus)` is the rank's command line. The GPU count is
// the cluster's when known, else what `nvidia-smi -L` says on the node. When some ranks did not
// start, the ones that did are stopped again (a half-started job only hangs and bills).
QList<StartedRank> startOnAllRanks(const Cluster &cluster, const RunSpec &spec, const NodeConnector &connect,
                                   const std::function<QString(int rank, int gpus)> &line, const QString &jobsRoot = {});
// A job started on every rank from either front end: what each rank answered and, when all
// started, whether the cluster's record could be told (warnings: the job runs all the same).
struct ClusterJobStart
{
    QString jobName;
    QList<StartedRank> ranks;
    bool everywhere = false;
    QStringList warnings;
};
// Names the job when spec has no name (after its command), starts it on every rank
// (startOnAllRanks) and, when every rank started, records it as the cluster's last job in
// <configDir>/clusters.json, so Job status and logs find its ranks from the GUI and gantry-cli
// alike. Blocking: call it from a worker (the GUI) or a command.
ClusterJobStart startClusterJob(const QString &configDir, const Cluster &cluster, RunSpec spec, const QString &kind,
                                const NodeConnector &connect, const std::function<QString(int rank, int gpus)> &line,
                                const QString &jobsRoot = {});
// Every rank's job state.
QList<RankStatus> rankStatuses(const Cluster &cluster, const QString &jobName, const NodeConnector &connect,
                               const QString &jobsRoot = {});
// Stops the job on every rank still running it; the values say what each rank ended as.
QList<RankStatus> stopAllRanks(const Cluster &cluster, const QString &jobName, const NodeConnector &connect,
                               const jobs::StopOptions &options, const QString &jobsRoot = {});
// "[rank 1] " before every line of data; `pending` keeps a partial last line between chunks.
QByteArray prefixLines(int rank, const QByteArray &data, QByteArray *pending);

} // namespace gantry::cluster

#include "core/cluster/nodeops_impl.h"
