// The Clusters panel's view of the last job: every rank's state, and stopping the ranks that
// still run once one has failed (the cluster job is failed then; the others only wait and bill).
#include "ui/cluster/clusterspanel.h"

#include "core/util/background.h"
#include "core/cluster/connector.h"
#include "core/cluster/nodeops.h"

#include <QPushButton>

#include <algorithm>

namespace gantry::ui {

void ClustersPanel::updateStopOthers()
{
    const std::optional<cluster::Cluster> c = current();
    const auto job = c ? m_jobs.constFind(c->name) : m_jobs.cend();
    const bool offer = job != m_jobs.cend() && cluster::clusterJobState(*job) == cluster::ClusterJobState::Failed
        && std::any_of(job->cbegin(), job->cend(), [](const cluster::RankStatus &r) { return r.job && r.job->isActive(); });
    m_stopOthers->setEnabled(offer);
}

void ClustersPanel::refreshJobStatus()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c || !c->lastJob)
        return setStatus(tr("This cluster has run no job yet."));
    m_jobStatus->setEnabled(false);
    const cluster::NodeConnector connect = connector();
    const cluster::Cluster target = *c;
    background::run<QList<cluster::RankStatus>>(this, [target, connect] {
        return cluster::rankStatuses(target, target.lastJob->name, connect);
    }, [this, target](QList<cluster::RankStatus> ranks) { showJobStatus(target, ranks); });
}

void ClustersPanel::showJobStatus(const cluster::Cluster &c, const QList<cluster::RankStatus> &ranks)
{
    m_jobs.insert(c.name, ranks);
    QStringList failed;
    QStringList running;
    for (const cluster::RankStatus &rank : ranks) {
        if (cluster::rankFailed(rank))
            failed << QString::number(rank.rank);
        else if (rank.job && rank.job->isActive())
            running << QString::number(rank.rank);
    }
    const QString job = c.lastJob->name;
    switch (cluster::clusterJobState(ranks)) {
    case cluster::ClusterJobState::Failed:
        setStatus(running.isEmpty() ? tr("Job %1 failed on rank %2.").arg(job, failed.join(QStringLiteral(", ")))
                                    : tr("Job %1 failed on rank %2; still running and billing while waiting for it: rank %3. Stop them with Stop the other ranks.")
                                          .arg(job, failed.join(QStringLiteral(", ")), running.join(QStringLiteral(", "))));
        break;
    case cluster::ClusterJobState::Running: setStatus(tr("Job %1 is running on every rank.").arg(job)); break;
    case cluster::ClusterJobState::Succeeded: setStatus(tr("Job %1 succeeded on every rank.").arg(job)); break;
    case cluster::ClusterJobState::Unknown: setStatus(tr("Job %1: some ranks could not be read (see the Job column).").arg(job)); break;
    }
    showNodes();
    emit jobStatusShown(c.name);
}

void ClustersPanel::stopOtherRanks()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c || !c->lastJob || !m_stopOthers->isEnabled())
        return;
    if (!m_confirm(tr("Stop job %1 on the ranks of %2 that still run? They cannot finish without the failed rank.").arg(c->lastJob->name, c->name)))
        return;
    m_stopOthers->setEnabled(false);
    setStatus(tr("Stopping %1 on the other ranks…").arg(c->lastJob->name));
    const cluster::NodeConnector connect = connector();
    const cluster::Cluster target = *c;
    background::run<QList<cluster::RankStatus>>(this, [target, connect] {
        return cluster::stopAllRanks(target, target.lastJob->name, connect, {});
    }, [this, target](QList<cluster::RankStatus> ranks) {
        // stopAllRanks answers the state each rank ended in; a rank it could not reach keeps its error.
        showJobStatus(target, ranks);
        emit ranksStopped(target.name);
    });
}

} // namespace gantry::ui
