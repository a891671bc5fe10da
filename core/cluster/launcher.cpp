#include "core/cluster/launcher.h"

#include "core/cost/ledger.h"
#include "core/providers/providerhub.h"
#include "core/workspace/workspace.h"

namespace gantry::cluster {

struct ClusterLauncher::Run
{
    ClusterLaunchRequest request;
    QPointer<providers::Provider> provider;
    std::vector<std::optional<Result<workspace::LaunchedInstance>>> ids;
    std::vector<std::optional<Result<workspace::ReadyInstance>>> up;
    int answered = 0;
    int pending = 0; // terminations still running
    ClusterLaunchOutcome outcome;
    std::function<void(const Cluster &)> launched;
    providers::Callback<ClusterLaunchOutcome> done;
};

ClusterLauncher::ClusterLauncher(workspace::Workspace *workspace, QObject *parent) : QObject(parent), m_workspace(workspace) {}

void ClusterLauncher::launch(const ClusterLaunchRequest &request, std::function<void(const Cluster &)> launched,
                             providers::Callback<ClusterLaunchOutcome> done)
{
    auto run = std::make_shared<Run>();
    run->request = request;
    run->provider = m_workspace ? m_workspace->providers()->provider(request.provider) : nullptr;
    run->launched = std::move(launched);
    run->done = std::move(done);
    if (!run->provider || request.nodes < 1) {
        QMetaObject::invokeMethod(this, [run] {
            run->done(makeError(ErrorCode::Usage, tr("cannot launch on \"%1\": that provider is not configured (gantry-cli providers)")
                                                      .arg(run->request.provider)));
        }, Qt::QueuedConnection);
        return;
    }
    run->ids.resize(size_t(request.nodes));
    run->up.resize(size_t(request.nodes));
    emit progress(tr("Launching %n node(s) of %1 in %2…", nullptr, request.nodes).arg(request.base.typeName, request.base.region));
    // Every node at once: a cluster that launches one by one takes N times as long to start billing
    // in full. Each node is the workspace's launch: a lost answer adopted, its ledger row written.
    workspace::LaunchOptions options;
    options.pricePerHour = request.pricePerHour;
    options.follow = false;
    for (int rank = 0; rank < request.nodes; ++rank) {
        providers::LaunchRequest one = request.base;
        one.name = QStringLiteral("%1-%2").arg(request.name).arg(rank);
        m_workspace->launch(request.provider, one, options, [this, run, rank](Result<workspace::LaunchedInstance> launched) {
            run->ids[size_t(rank)].emplace(std::move(launched));
            if (++run->answered == run->request.nodes)
                allLaunched(run);
        });
    }
}

void ClusterLauncher::allLaunched(const std::shared_ptr<Run> &run)
{
    Cluster &cluster = run->outcome.cluster;
    cluster.name = run->request.name;
    cluster.provider = run->request.provider;
    cluster.typeName = run->request.base.typeName;
    cluster.region = run->request.base.region;
    cluster.gpusPerNode = run->request.gpusPerNode;
    cluster.created = QDateTime::currentDateTimeUtc();
    for (int rank = 0; rank < run->request.nodes; ++rank) {
        const Result<workspace::LaunchedInstance> &launched = *run->ids[size_t(rank)];
        if (!launched) {
            run->outcome.failures << tr("node %1: %2").arg(rank).arg(launched.error().message);
            continue;
        }
        ClusterNode node;
        node.provider = run->request.provider;
        node.instanceId = launched->instanceId;
        node.region = run->request.base.region;
        node.pricePerHour = run->request.pricePerHour;
        cluster.nodes.append(node);
        run->outcome.warnings << launched->warnings;
        if (launched->adopted)
            run->outcome.warnings << launched->note;
    }
    if (run->launched)
        run->launched(cluster);
    if (run->outcome.partial() && !run->request.keepPartial)
        return terminatePartial(run);
    if (!run->request.wait || cluster.nodes.isEmpty())
        return finish(run);
    run->answered = 0;
    run->up.assign(size_t(cluster.nodes.size()), std::nullopt);
    emit progress(tr("Waiting for %n node(s) to boot…", nullptr, int(cluster.nodes.size())));
    workspace::FollowOptions follow;
    follow.timeoutMs = run->request.timeoutMs;
    follow.neverUpNote = tr("cluster %1: never became active").arg(cluster.name);
    for (int rank = 0; rank < cluster.nodes.size(); ++rank) {
        m_workspace->follow(run->request.provider, cluster.nodes[rank].instanceId, follow,
                            [this, run, rank](Result<workspace::ReadyInstance> ready) { nodeUp(run, rank, std::move(ready)); });
    }
}

void ClusterLauncher::nodeUp(const std::shared_ptr<Run> &run, int rank, Result<workspace::ReadyInstance> result)
{
    run->up[size_t(rank)].emplace(std::move(result));
    if (++run->answered < run->outcome.cluster.nodes.size())
        return;
    Cluster &cluster = run->outcome.cluster;
    QList<ClusterNode> alive;
    cost::Ledger *ledger = m_workspace ? m_workspace->ledger() : nullptr;
    for (int i = 0; i < cluster.nodes.size(); ++i) {
        ClusterNode node = cluster.nodes[i];
        const Result<workspace::ReadyInstance> &up = *run->up[size_t(i)];
        if (!up) {
            // It never came up: the watcher terminated it after a timeout (and the workspace closed its
            // ledger row); one that failed or vanished is closed here.
            run->outcome.failures << tr("node %1 (%2): %3").arg(i).arg(node.instanceId, up.error().message);
            if (ledger && up.error().code != ErrorCode::Timeout) {
                if (Result<void> closed = ledger->recordTerminated(node.provider, node.instanceId, tr("cluster %1: never became active").arg(cluster.name)); !closed)
                    run->outcome.warnings << closed.error().message;
            }
            continue;
        }
        node.address = up->instance.sshHost;
        node.hostName = up->hostName;
        run->outcome.warnings << up->warnings;
        alive.append(node);
    }
    cluster.nodes = alive;
    if (run->outcome.partial() && !run->request.keepPartial)
        return terminatePartial(run);
    finish(run);
}

void ClusterLauncher::terminatePartial(const std::shared_ptr<Run> &run)
{
    const QList<ClusterNode> nodes = run->outcome.cluster.nodes;
    run->outcome.cluster.nodes.clear();
    if (nodes.isEmpty() || !m_workspace)
        return finish(run);
    emit progress(tr("Only some nodes came up: terminating the %n that did, so they do not bill for nothing…", nullptr, int(nodes.size())));
    run->pending = int(nodes.size());
    workspace::ActionOptions options;
    options.resultsAcknowledged = true; // brand-new machines: there is nothing to bring home
    options.note = tr("cluster %1: partial launch").arg(run->request.name);
    for (const ClusterNode &node : nodes) {
        m_workspace->terminate(node.provider, node.instanceId, options, [this, run, node](Result<workspace::ActionOutcome> outcome) {
            if (outcome) {
                run->outcome.terminated << node.instanceId;
                run->outcome.warnings << outcome->warnings;
            } else {
                run->outcome.warnings << tr("could not terminate %1: %2 — terminate it yourself in Instances (gantry-cli terminate %1 --yes)")
                                             .arg(node.instanceId, outcome.error().message);
                run->outcome.cluster.nodes.append(node); // still there: keep it on record
            }
            if (--run->pending == 0)
                finish(run);
        });
    }
}

void ClusterLauncher::finish(const std::shared_ptr<Run> &run)
{
    if (run->done)
        run->done(run->outcome);
    run->done = nullptr;
}

void ClusterLauncher::refresh(const Cluster &cluster, std::function<void(Result<Cluster>, QHash<QString, providers::Instance>)> done)
{
    providers::Provider *provider = m_workspace && !cluster.provider.isEmpty() ? m_workspace->providers()->provider(cluster.provider) : nullptr;
    if (!provider) {
        QMetaObject::invokeMethod(this, [cluster, done] { done(cluster, {}); }, Qt::QueuedConnection);
        return;
    }
    const QDateTime listedAt = m_workspace->listingTime();
    provider->listInstances([this, cluster, done, listedAt](Result<QList<providers::Instance>> list) {
        if (!list)
            return done(list.error(), {});
        // The whole listing, as the Instances view reconciles it: hosts saved for nodes that came up.
        if (m_workspace)
            m_workspace->reconcile(cluster.provider, *list, listedAt); // its problems surface in the Instances view
        QHash<QString, providers::Instance> states;
        for (const providers::Instance &instance : std::as_const(*list))
            states.insert(instance.id, instance);
        Cluster updated = cluster;
        for (ClusterNode &node : updated.nodes) {
            const auto it = states.constFind(node.instanceId);
            if (it == states.cend() || !it->reachable())
                continue;
            node.address = it->sshHost;
            if (node.hostName.isEmpty() && m_workspace)
                node.hostName = m_workspace->hostNameFor(cluster.provider, node.instanceId);
        }
        done(updated, states);
    });
}

} // namespace gantry::cluster
