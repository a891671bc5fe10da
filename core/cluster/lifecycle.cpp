// SPDX-License-Identifier: Apache-2.0
#include "core/cluster/lifecycle.h"

#include "core/util/printable.h"

namespace gantry::cluster {

struct ClusterLifecycle::Run
{
    Cluster cluster;
    QList<ClusterNode> kept;
    ClusterActionOutcome outcome;
    int pending = 0;
    providers::Callback<ClusterActionOutcome> done;
};

ClusterLifecycle::ClusterLifecycle(workspace::Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_launcher(new ClusterLauncher(workspace, this))
{
    connect(m_launcher, &ClusterLauncher::progress, this, &ClusterLifecycle::progress);
}

Result<void> ClusterLifecycle::save(const Cluster &cluster)
{
    ClusterStore store(m_workspace ? m_workspace->configDir() : QString());
    if (Result<void> loaded = store.load(); !loaded)
        return loaded;
    if (cluster.nodes.isEmpty())
        return store.find(cluster.name) ? store.remove(cluster.name) : Result<void>();
    return store.find(cluster.name) ? store.update(cluster) : store.add(cluster);
}

void ClusterLifecycle::launch(const ClusterLaunchRequest &request, providers::Callback<ClusterLaunchOutcome> done)
{
    // On record before the wait: an interrupted wait (a closed window, Ctrl+C) leaves no node unseen.
    auto early = std::make_shared<QStringList>();
    auto onRecord = [this, early](const Cluster &cluster) {
        if (cluster.nodes.isEmpty())
            return;
        if (Result<void> saved = save(cluster); !saved)
            early->append(saved.error().message);
    };
    m_launcher->launch(request, onRecord, [this, early, done](Result<ClusterLaunchOutcome> outcome) {
        if (!outcome)
            return done(outcome);
        outcome->warnings << *early;
        if (Result<void> saved = save(outcome->cluster); !saved)
            outcome->warnings << saved.error().message;
        done(outcome);
    });
}

void ClusterLifecycle::act(workspace::InstanceAction action, const QString &name, const workspace::ActionOptions &options,
                           providers::Callback<ClusterActionOutcome> done)
{
    auto run = std::make_shared<Run>();
    run->done = std::move(done);
    run->outcome.name = name;
    run->outcome.action = action;
    ClusterStore store(m_workspace ? m_workspace->configDir() : QString());
    Result<void> loaded = store.load();
    const std::optional<Cluster> found = loaded ? store.find(name) : std::nullopt;
    if (!found || !m_workspace) {
        const Error error = !loaded ? loaded.error()
                                    : Error{ErrorCode::NotFound, tr("No cluster named \"%1\" (gantry-cli cluster list).").arg(name)};
        QMetaObject::invokeMethod(this, [run, error] { run->done(error); }, Qt::QueuedConnection);
        return;
    }
    run->cluster = *found;
    const bool terminate = action == workspace::InstanceAction::Terminate;
    for (int rank = 0; rank < run->cluster.nodes.size(); ++rank) {
        const ClusterNode node = run->cluster.nodes[rank];
        if (node.provider.isEmpty()) {
            run->outcome.warnings << tr("rank %1 (%2) is a saved host, not a rented instance: left as it is.").arg(rank).arg(node.hostName);
            run->kept.append(node);
            continue;
        }
        ++run->pending;
        workspace::ActionOptions one = options;
        one.note = tr("cluster %1 rank %2").arg(name).arg(rank);
        m_workspace->act(action, node.provider, node.instanceId, one, [this, run, node, rank, terminate](Result<workspace::ActionOutcome> result) {
            if (!result) {
                run->outcome.failures << tr("rank %1 (%2): %3").arg(rank).arg(node.instanceId, result.error().message);
                run->kept.append(node); // it may still bill: keep it where the user finds it
            } else {
                run->outcome.done << tr("rank %1: %2").arg(rank).arg(text::printable(result->message));
                run->outcome.warnings << result->warnings;
                if (!terminate)
                    run->kept.append(node);
            }
            if (--run->pending == 0)
                settle(run);
        });
    }
    if (run->pending == 0)
        QMetaObject::invokeMethod(this, [this, run] { settle(run); }, Qt::QueuedConnection);
}

void ClusterLifecycle::settle(const std::shared_ptr<Run> &run)
{
    // The nodes in their ranks' order, whatever order the answers came in.
    QList<ClusterNode> nodes;
    for (const ClusterNode &node : std::as_const(run->cluster.nodes)) {
        if (run->kept.contains(node))
            nodes.append(node);
    }
    run->cluster.nodes = nodes;
    run->outcome.kept = int(nodes.size());
    run->outcome.forgotten = nodes.isEmpty();
    if (Result<void> saved = save(run->cluster); !saved)
        run->outcome.warnings << saved.error().message;
    run->done(run->outcome);
}

} // namespace gantry::cluster
