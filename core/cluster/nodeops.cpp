#include "core/cluster/nodeops.h"
#include "core/cluster/clustertext.h"

#include "core/jobs/jobspec.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>

namespace gantry::cluster {
namespace {

// The node's GPU count for GPUS_PER_NODE: the cluster's when launched from a known type.
int gpusOn(const Cluster &cluster, ssh::Session &session)
{
    if (cluster.gpusPerNode >= 0)
        return cluster.gpusPerNode;
    Result<ssh::ExecOutput> listed = session.run(QStringLiteral("nvidia-smi -L 2>/dev/null"), 20000);
    return listed ? countGpus(listed->out) : 0;
}

QList<RankStatus> statusesOf(const std::vector<Result<jobs::JobInfo>> &results)
{
    QList<RankStatus> out;
    for (int rank = 0; rank < int(results.size()); ++rank) {
        RankStatus status{rank, std::nullopt, {}};
        if (results[rank])
            status.job = *results[rank];
        else
            status.error = ClusterText::tr("rank %1: %2").arg(rank).arg(results[rank].error().message);
        out.append(status);
    }
    return out;
}

} // namespace

QList<StartedRank> startOnAllRanks(const Cluster &cluster, const RunSpec &spec, const NodeConnector &connect,
                                   const std::function<QString(int rank, int gpus)> &line, const QString &jobsRoot)
{
    const std::function<Result<jobs::StartedJob>(int, ssh::Session &)> work = [&](int rank, ssh::Session &session) -> Result<jobs::StartedJob> {
        const int gpus = gpusOn(cluster, session);
        const jobs::JobSpec job = rankJobSpec(cluster, spec, rank, gpus, line(rank, gpus));
        if (auto valid = jobs::validateSpec(job); !valid)
            return valid.error();
        jobs::JobRunner runner(session, jobsRoot);
        return runner.start(job);
    };
    std::vector<Result<jobs::StartedJob>> results = forEachNode(cluster, connect, work);
    QList<StartedRank> out;
    bool allStarted = true;
    for (int rank = 0; rank < int(results.size()); ++rank) {
        allStarted = allStarted && results[rank].ok();
        out.append(StartedRank{rank, results[rank]});
    }
    if (!allStarted) {
        jobs::StopOptions quick;
        quick.intGraceMs = 2000;
        quick.termGraceMs = 2000;
        stopAllRanks(cluster, spec.jobName, connect, quick, jobsRoot);
    }
    return out;
}

QList<RankStatus> rankStatuses(const Cluster &cluster, const QString &jobName, const NodeConnector &connect, const QString &jobsRoot)
{
    const std::function<Result<jobs::JobInfo>(int, ssh::Session &)> work = [&](int rank, ssh::Session &session) {
        jobs::JobRunner runner(session, jobsRoot);
        return runner.status(rankJobName(jobName, rank));
    };
    return statusesOf(forEachNode(cluster, connect, work));
}

QList<RankStatus> stopAllRanks(const Cluster &cluster, const QString &jobName, const NodeConnector &connect,
                               const jobs::StopOptions &options, const QString &jobsRoot)
{
    const std::function<Result<jobs::JobInfo>(int, ssh::Session &)> work = [&](int rank, ssh::Session &session) -> Result<jobs::JobInfo> {
        jobs::JobRunner runner(session, jobsRoot);
        Result<jobs::JobInfo> status = runner.status(rankJobName(jobName, rank));
        if (!status || !status->isActive())
            return status;
        return runner.stop(rankJobName(jobName, rank), options);
    };
    return statusesOf(forEachNode(cluster, connect, work));
}

QByteArray prefixLines(int rank, const QByteArray &data, QByteArray *pending)
{
    const QByteArray prefix = "[rank " + QByteArray::number(rank) + "] ";
    QByteArray text = *pending + data;
    QByteArray out;
    qsizetype start = 0;
    for (qsizetype newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
        out += prefix + text.mid(start, newline - start + 1);
        start = newline + 1;
    }
    *pending = text.mid(start);
    return out;
}

ClusterJobStart startClusterJob(const QString &configDir, const Cluster &cluster, RunSpec spec, const QString &kind,
                                const NodeConnector &connect, const std::function<QString(int rank, int gpus)> &line,
                                const QString &jobsRoot)
{
    if (spec.jobName.isEmpty())
        spec.jobName = jobs::defaultJobName(commandLine(spec.command), QDateTime::currentDateTime()).left(56);
    ClusterJobStart outcome;
    outcome.jobName = spec.jobName;
    outcome.ranks = startOnAllRanks(cluster, spec, connect, line, jobsRoot);
    outcome.everywhere = std::all_of(outcome.ranks.cbegin(), outcome.ranks.cend(), [](const StartedRank &rank) { return bool(rank.started); });
    if (!outcome.everywhere)
        return outcome;
    Cluster updated = cluster;
    updated.lastJob = ClusterJob{spec.jobName, kind, QDateTime::currentDateTimeUtc(), spec.masterPort};
    ClusterStore store(configDir);
    Result<void> saved = store.load();
    if (saved)
        saved = store.find(updated.name) ? store.update(updated) : store.add(updated);
    if (!saved) // without the record, Job status cannot find the ranks: say why
        outcome.warnings.append(saved.error().message);
    return outcome;
}

} // namespace gantry::cluster
