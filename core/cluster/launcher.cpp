#include "core/cluster/launcher.h"

#include "core/cost/billing.h"
#include "core/cost/ledger.h"
#include "core/providers/instancehosts.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/providerhub.h"
#include "core/workspace/workspace.h"

namespace gantry::cluster {

struct ClusterLauncher::Run
{
    ClusterLaunchRequest request;
    QPointer<providers::Provider> provider;
    std::vector<std::optional<Result<QString>>> ids;
    std::vector<std::optional<Result<providers::Instance>>> up;
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
    // Every node at once: a cluster that launches one by one takes N times as long to start billing in full.
    for (int rank = 0; rank < request.nodes; ++rank) {
        providers::LaunchRequest one = request.base;
        one.name = QStringLiteral("%1-%2").arg(request.name).arg(rank);
        run->provider->launch(one, [this, run, rank](Result<QString> id) {
            run->ids[size_t(rank)].emplace(std::move(id));
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
    cost::Ledger *ledger = m_workspace ? m_workspace->ledger() : nullptr;
    if (ledger && run->provider)
        ledger->setBillingPolicy(run->request.provider, cost::billingPolicyFor(run->provider->info()));
    for (int rank = 0; rank < run->request.nodes; ++rank) {
        const Result<QString> &id = *run->ids[size_t(rank)];
        if (!id) {
            run->outcome.failures << tr("node %1: %2").arg(rank).arg(id.error().message);
            continue;
        }
        ClusterNode node;
        node.provider = run->request.provider;
        node.instanceId = *id;
        node.region = run->request.base.region;
        node.pricePerHour = run->request.pricePerHour;
        cluster.nodes.append(node);
        providers::Instance instance;
        instance.provider = node.provider;
        instance.id = node.instanceId;
        instance.name = QStringLiteral("%1-%2").arg(cluster.name).arg(rank);
        instance.typeName = cluster.typeName;
        instance.region = node.region;
        if (ledger) {
            if (Result<void> recorded = ledger->recordLaunch(instance, node.pricePerHour); !recorded)
                run->outcome.warnings << recorded.error().message;
        }
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
    for (int rank = 0; rank < cluster.nodes.size(); ++rank) {
        auto *watcher = new providers::LaunchWatcher(run->provider, cluster.nodes[rank].instanceId, run->request.timeoutMs,
                                                     run->provider->info().statusPollMs, this);
        watcher->start([this, run, rank, watcher](Result<providers::Instance> result) {
            watcher->deleteLater();
            nodeUp(run, rank, std::move(result));
        });
    }
}

void ClusterLauncher::nodeUp(const std::shared_ptr<Run> &run, int rank, Result<providers::Instance> result)
{
    run->up[size_t(rank)].emplace(std::move(result));
    if (++run->answered < run->outcome.cluster.nodes.size())
        return;
    Cluster &cluster = run->outcome.cluster;
    QList<ClusterNode> alive;
    cost::Ledger *ledger = m_workspace ? m_workspace->ledger() : nullptr;
    for (int i = 0; i < cluster.nodes.size(); ++i) {
        ClusterNode node = cluster.nodes[i];
        const Result<providers::Instance> &up = *run->up[size_t(i)];
        if (!up) {
            // The watcher terminated it already (it never came up): only the ledger row is left.
            run->outcome.failures << tr("node %1 (%2): %3").arg(i).arg(node.instanceId, up.error().message);
            if (ledger)
                (void)ledger->recordTerminated(node.provider, node.instanceId, tr("cluster %1: never became active").arg(cluster.name));
            continue;
        }
        node.address = up->sshHost;
        Result<QString> host = remember(*up);
        if (host)
            node.hostName = *host;
        else
            run->outcome.warnings << host.error().message;
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
                run->outcome.warnings << tr("could not terminate %1: %2 — terminate it yourself (gantry-cli terminate %1 --yes)")
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

Result<QString> ClusterLauncher::remember(const providers::Instance &instance)
{
    if (!m_workspace || !m_workspace->hosts())
        return makeError(ErrorCode::Generic, tr("no saved hosts to remember %1 in").arg(instance.id));
    return providers::rememberInstanceHost(*m_workspace->hosts(), instance, m_workspace->configDir());
}

void ClusterLauncher::refresh(const Cluster &cluster, std::function<void(Result<Cluster>, QHash<QString, providers::Instance>)> done)
{
    providers::Provider *provider = m_workspace && !cluster.provider.isEmpty() ? m_workspace->providers()->provider(cluster.provider) : nullptr;
    if (!provider) {
        QMetaObject::invokeMethod(this, [cluster, done] { done(cluster, {}); }, Qt::QueuedConnection);
        return;
    }
    provider->listInstances([this, cluster, done](Result<QList<providers::Instance>> list) {
        if (!list)
            return done(list.error(), {});
        QHash<QString, providers::Instance> states;
        for (const providers::Instance &instance : std::as_const(*list))
            states.insert(instance.id, instance);
        Cluster updated = cluster;
        for (ClusterNode &node : updated.nodes) {
            const auto it = states.constFind(node.instanceId);
            if (it == states.cend() || !it->reachable())
                continue;
            node.address = it->sshHost;
            if (node.hostName.isEmpty()) {
                if (Result<QString> host = remember(*it))
                    node.hostName = *host;
            }
        }
        done(updated, states);
    });
}

} // namespace gantry::cluster
