// Not a timed test: prints how long sandbox cluster launches and `cluster check` take.
//   bench_cluster [NODES=4] [BOOT_MS=2000]
// Targets (issue #16): N nodes launch in under twice the time of one; check on 4 nodes < 15 s.
#include "core/cluster/check.h"
#include "core/cluster/connector.h"
#include "core/cluster/launcher.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/providerhub.h"
#include "core/providers/sandboxprovider.h"
#include "core/ssh/session.h"
#include "core/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>

using namespace gantry;

namespace {

struct Bench
{
    QTemporaryDir dir;
    providers::ProviderHub hub;
    cost::Ledger ledger{cost::Ledger::defaultPath(dir.path())};
    HostStore hosts{dir.path()};
    std::unique_ptr<workspace::Workspace> workspace;

    explicit Bench(int bootMs)
    {
        providers::SandboxOptions options;
        options.bootDelayMs = bootMs;
        hub.addProvider(std::make_unique<providers::SandboxProvider>(dir.path(), options));
        (void)ledger.open();
        (void)hosts.load();
        workspace = std::make_unique<workspace::Workspace>(dir.path(), &hub, &ledger, &hosts);
    }

    Result<cluster::ClusterLaunchOutcome> launch(const QString &name, int nodes, qint64 *ms)
    {
        cluster::ClusterLaunchRequest request;
        request.name = name;
        request.provider = QStringLiteral("sandbox");
        request.base.typeName = QStringLiteral("sandbox-cpu");
        request.base.region = QStringLiteral("local");
        request.nodes = nodes;
        request.wait = true;
        request.gpusPerNode = 0;
        cluster::ClusterLauncher launcher(workspace.get());
        QElapsedTimer timer;
        timer.start();
        auto outcome = providers::await<cluster::ClusterLaunchOutcome>([&](auto done) { launcher.launch(request, {}, done); });
        *ms = timer.elapsed();
        return outcome;
    }

    void terminate(const cluster::Cluster &c)
    {
        workspace::ActionOptions options;
        options.resultsAcknowledged = true;
        for (const cluster::ClusterNode &node : c.nodes)
            (void)providers::await<workspace::ActionOutcome>([&](auto done) { workspace->terminate(node.provider, node.instanceId, options, done); });
    }
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int nodes = argc > 1 ? std::max(2, atoi(argv[1])) : 4;
    const int bootMs = argc > 2 ? atoi(argv[2]) : 2000;
    Bench bench(bootMs);
    qint64 oneMs = 0;
    qint64 manyMs = 0;
    auto one = bench.launch(QStringLiteral("one"), 1, &oneMs);
    auto many = bench.launch(QStringLiteral("many"), nodes, &manyMs);
    if (!one || !many || one->partial() || many->partial()) {
        fprintf(stderr, "launch failed: %s\n", qPrintable(!one ? one.error().message : !many ? many.error().message : QStringLiteral("partial")));
        return 1;
    }
    printf("launch 1 node: %lld ms; %d nodes: %lld ms (%.2fx; target < 2x) [sandbox boot delay %d ms]\n", oneMs, nodes, manyMs,
           double(manyMs) / double(std::max<qint64>(1, oneMs)), bootMs);
    const QString knownHosts = QDir(bench.dir.path()).filePath(QStringLiteral("known_hosts"));
    ssh::ConnectOptions connectOptions;
    connectOptions.knownHostsFile = knownHosts;
    connectOptions.acceptNewHostKey = true;
    const cluster::NodeConnector connect = cluster::savedHostConnector(bench.dir.path(), connectOptions);
    QElapsedTimer timer;
    timer.start();
    cluster::CheckOptions options;
    options.masterPort = 29700 + int(QCoreApplication::applicationPid() % 200);
    const cluster::ClusterCheck check = cluster::checkCluster(many->cluster, connect, options);
    printf("check on %d nodes: %lld ms, verdict %s (target < 15000 ms)\n", nodes, timer.elapsed(),
           qPrintable(verify::checkStatusName(check.verdict())));
    for (const cluster::NodeCheck &node : check.nodes) {
        for (const verify::DoctorCheck &item : node.checks) {
            if (item.status != verify::CheckStatus::Ok)
                printf("  rank %d %s: %s\n", node.rank, qPrintable(item.id), qPrintable(item.message));
        }
    }
    bench.terminate(one->cluster);
    bench.terminate(many->cluster);
    return check.verdict() == verify::CheckStatus::Fail ? 1 : 0;
}
