#include "restconfigfor.h"
#include "core/cluster/launcher.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "lambdaemulator.h"
#include "core/providers/await.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/providerhub.h"
#include "core/workspace/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::cluster;

// ClusterLauncher against the Lambda emulator (HTTP, per the vendor's API): parallel launches, a
// partial launch that terminates the nodes that came up, and --on-partial keep.
class TestClusterLaunch final : public QObject
{
    Q_OBJECT

    struct Rig
    {
        test::LambdaEmulator emulator;
        QTemporaryDir dir;
        providers::ProviderHub hub;
        cost::Ledger ledger{cost::Ledger::defaultPath(dir.path())};
        HostStore hosts{dir.path()};
        std::unique_ptr<workspace::Workspace> workspace;

        Rig()
        {
            emulator.bootMs = 50;
            emulator.terminateMs = 50;
            QVERIFY(emulator.listen());
            test::EmulatorTiming timing;
            timing.key = emulator.apiKey();
            timing.maxAttempts = 1; // a capacity error is final: no retry hides the partial launch
            auto lambda = std::make_unique<providers::LambdaProvider>(test::restConfigFor(emulator, timing));
            lambda->setLaunchIntervalMs(0);
            hub.addProvider(std::move(lambda));
            QVERIFY(ledger.open());
            QVERIFY(hosts.load());
            workspace = std::make_unique<workspace::Workspace>(dir.path(), &hub, &ledger, &hosts);
        }

        ClusterLaunchRequest request(int nodes) const
        {
            ClusterLaunchRequest r;
            r.name = QStringLiteral("big");
            r.provider = QStringLiteral("lambda");
            r.base.typeName = QStringLiteral("gpu_1x_a10");
            r.base.region = QStringLiteral("us-east-1");
            r.base.sshKeyName = QStringLiteral("laptop");
            r.nodes = nodes;
            r.pricePerHour = 0.75;
            r.gpusPerNode = 1;
            return r;
        }

        Result<ClusterLaunchOutcome> launch(const ClusterLaunchRequest &r, int *launchedNodes = nullptr)
        {
            ClusterLauncher launcher(workspace.get());
            return providers::await<ClusterLaunchOutcome>([&](auto done) {
                launcher.launch(r, [launchedNodes](const Cluster &c) { if (launchedNodes) *launchedNodes = int(c.nodes.size()); }, done);
            }, 60000);
        }

        int liveInstances()
        {
            Result<QList<providers::Instance>> list = providers::await<QList<providers::Instance>>(
                [&](auto done) { hub.provider(QStringLiteral("lambda"))->listInstances(done); });
            if (!list)
                return -1;
            return int(std::count_if(list->cbegin(), list->cend(), [](const providers::Instance &i) { return !providers::isGone(i.state) && i.state != providers::InstanceState::Terminating; }));
        }

        void failOneLaunch()
        {
            test::Fault fault;
            fault.pathContains = QStringLiteral("instance-operations/launch");
            fault.method = "POST";
            fault.status = 400;
            fault.body = R"({"error": {"code": "instance-operations/launch/insufficient-capacity", "message": "Not enough capacity to fulfill launch request."}})";
            fault.count = 1;
            emulator.addFault(fault);
        }
    };

private slots:
    void allNodesUpWithHosts()
    {
        Rig rig;
        ClusterLaunchRequest r = rig.request(3);
        r.wait = true;
        Result<ClusterLaunchOutcome> outcome = rig.launch(r);
        QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
        QVERIFY(!outcome->partial());
        QCOMPARE(outcome->cluster.nodes.size(), 3);
        QCOMPARE(outcome->cluster.pricePerHour(), 2.25);
        QSet<QString> hosts;
        for (const ClusterNode &node : outcome->cluster.nodes) {
            QCOMPARE(node.address, QStringLiteral("127.0.0.1"));
            QVERIFY(!node.hostName.isEmpty());
            QCOMPARE(node.region, QStringLiteral("us-east-1"));
            hosts.insert(node.hostName);
        }
        QCOMPARE(hosts.size(), 3);                  // one saved host per node
        QCOMPARE(rig.hosts.hosts().size(), 3);
        QCOMPARE(rig.emulator.requestCount(QStringLiteral("instance-operations/launch")), 3);
        QCOMPARE(rig.ledger.entries()->size(), 3);  // every node bills on its own row
    }

    void partialLaunchTerminatesTheNodesThatCameUp()
    {
        Rig rig;
        rig.failOneLaunch();
        int launched = -1;
        Result<ClusterLaunchOutcome> outcome = rig.launch(rig.request(3), &launched);
        QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
        QCOMPARE(launched, 2);
        QVERIFY(outcome->partial());
        QCOMPARE(outcome->failures.size(), 1);
        QVERIFY2(outcome->failures.first().contains(QStringLiteral("capacity")), qPrintable(outcome->failures.first()));
        QCOMPARE(outcome->terminated.size(), 2);
        QVERIFY(outcome->cluster.nodes.isEmpty());
        QCOMPARE(rig.liveInstances(), 0);
        const QList<cost::LedgerEntry> rows = *rig.ledger.entries();
        QCOMPARE(rows.size(), 2);
        for (const cost::LedgerEntry &row : rows) {
            QCOMPARE(row.state, QStringLiteral("terminated"));
            QVERIFY2(row.note.contains(QStringLiteral("partial launch")), qPrintable(row.note));
        }
    }

    void partialLaunchKeptOnRequest()
    {
        Rig rig;
        rig.failOneLaunch();
        ClusterLaunchRequest r = rig.request(3);
        r.keepPartial = true;
        Result<ClusterLaunchOutcome> outcome = rig.launch(r);
        QVERIFY(outcome);
        QVERIFY(outcome->partial());
        QVERIFY(outcome->terminated.isEmpty());
        QCOMPARE(outcome->cluster.nodes.size(), 2);
        QCOMPARE(rig.liveInstances(), 2);
    }

    void unknownProviderIsAnError()
    {
        Rig rig;
        ClusterLaunchRequest r = rig.request(2);
        r.provider = QStringLiteral("runpod");
        Result<ClusterLaunchOutcome> outcome = rig.launch(r);
        QVERIFY(!outcome);
        QVERIFY(outcome.error().message.contains(QStringLiteral("runpod")));
    }
};

QTEST_GUILESS_MAIN(TestClusterLaunch)
#include "test_cluster_launch.moc"
