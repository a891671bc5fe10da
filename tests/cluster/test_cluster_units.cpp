#include "core/cluster/check.h"
#include "core/cluster/cluster.h"
#include "core/cluster/netcheck.h"
#include "core/cluster/probes.h"
#include "core/cluster/wiring.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::cluster;

namespace {

QByteArray fixture(const QString &name)
{
    QFile file(QStringLiteral(GANTRY_FIXTURES_DIR "/cluster/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return file.readAll();
}

Cluster threeNodes()
{
    Cluster c;
    c.name = QStringLiteral("train");
    c.region = QStringLiteral("us-east-1");
    for (int i = 0; i < 3; ++i)
        c.nodes.append(ClusterNode{QStringLiteral("n%1").arg(i), QStringLiteral("lambda"), QStringLiteral("id%1").arg(i),
                                   QStringLiteral("203.0.113.%1").arg(10 + i), QStringLiteral("10.0.0.%1").arg(10 + i),
                                   QStringLiteral("us-east-1"), 1.5});
    return c;
}

NodeFacts factsWith(const QString &torch, const QString &gpu, int count)
{
    NodeFacts f;
    f.torch = torch;
    f.gpuModel = gpu;
    f.gpuCount = count;
    f.python = QStringLiteral("3.11.2");
    f.driver = QStringLiteral("550.54.15");
    f.interfaces = parseIpAddr(fixture(QStringLiteral("ip-o-addr-docker-first.txt")));
    return f;
}

} // namespace

class TestClusterUnits final : public QObject
{
    Q_OBJECT

private slots:
    // The status line under the nodes says every failure whole (a table cell would cut it off),
    // each once with its rank and host.
    void failuresAreListedWhole()
    {
        ClusterCheck check;
        NodeCheck ok;
        ok.rank = 0;
        ok.hostName = QStringLiteral("n0");
        ok.checks.append(verify::DoctorCheck{QStringLiteral("ssh"), verify::CheckStatus::Ok, QStringLiteral("connected"), {}});
        NodeCheck unknown;
        unknown.rank = 1;
        unknown.hostName = QStringLiteral("n1");
        const QString message = QStringLiteral("rank 1 (n1): host 203.0.113.11 is not known yet; its ssh-ed25519 key fingerprint is "
                                               "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; compare it with the one your provider shows");
        unknown.checks.append(verify::DoctorCheck{QStringLiteral("ssh"), verify::CheckStatus::Fail, message, {}});
        unknown.checks.append(verify::DoctorCheck{QStringLiteral("torch"), verify::CheckStatus::Fail, QStringLiteral("torch 2.1 != 2.3"), {}});
        check.nodes = {ok, unknown};
        QCOMPARE(failureLines(check), (QStringList{message, QStringLiteral("rank 1 (n1): torch 2.1 != 2.3")}));
    }

    void storeRoundTripAndNewerFileRefused()
    {
        QTemporaryDir dir;
        ClusterStore store(dir.path());
        QVERIFY(store.load());
        Cluster c = threeNodes();
        c.created = QDateTime(QDate(2026, 12, 2), QTime(1, 0), Qt::UTC);
        c.lastJob = ClusterJob{QStringLiteral("job"), QStringLiteral("torchrun"), c.created, 29501};
        QVERIFY(store.add(c));
        QCOMPARE(store.add(c).error().code, ErrorCode::Conflict);
        ClusterStore again(dir.path());
        QVERIFY(again.load());
        QCOMPARE(again.clusters().size(), 1);
        QCOMPARE(*again.find(QStringLiteral("train")), c);
        QFile file(again.filePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("schema")).toInt(), 1);
        file.close();
        // A file from a newer Gantry is read, never rewritten.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(R"({"schema": 99, "clusters": []})");
        file.close();
        ClusterStore newer(dir.path());
        QVERIFY(!newer.load());
        QVERIFY(!newer.remove(QStringLiteral("train")));
        QVERIFY(!validateClusterName(QStringLiteral("-x")));
        QVERIFY(!validateClusterName(QStringLiteral("a b")));
        QVERIFY(validateClusterName(QStringLiteral("llama-70b.run_2")));
    }

    void masterAddressPrefersPrivateInOneRegion()
    {
        Cluster c = threeNodes();
        QCOMPARE(masterAddress(c), QStringLiteral("10.0.0.10"));
        c.nodes[2].region = QStringLiteral("us-west-2");
        QCOMPARE(masterAddress(c), QStringLiteral("203.0.113.10")); // a private address does not cross regions
        c.masterAddr = QStringLiteral("head.internal");
        QCOMPARE(masterAddress(c), QStringLiteral("head.internal"));
    }

    void environmentPerRank()
    {
        const Cluster c = threeNodes();
        const auto env = nodeEnvironment(c, 2, 29600, 8);
        QHash<QString, QString> map;
        for (const auto &pair : env)
            map.insert(pair.first, pair.second);
        QCOMPARE(map.value(QStringLiteral("NODE_RANK")), QStringLiteral("2"));
        QCOMPARE(map.value(QStringLiteral("NNODES")), QStringLiteral("3"));
        QCOMPARE(map.value(QStringLiteral("MASTER_ADDR")), QStringLiteral("10.0.0.10"));
        QCOMPARE(map.value(QStringLiteral("MASTER_PORT")), QStringLiteral("29600"));
        QCOMPARE(map.value(QStringLiteral("GPUS_PER_NODE")), QStringLiteral("8"));
        QCOMPARE(map.value(QStringLiteral("GANTRY_CLUSTER")), QStringLiteral("train"));
        QCOMPARE(map.value(QStringLiteral("GANTRY_NODE_ADDRS")), QStringLiteral("203.0.113.10,203.0.113.11,203.0.113.12"));
        RunSpec spec;
        spec.jobName = QStringLiteral("pre");
        spec.env = {{QStringLiteral("LR"), QStringLiteral("0.1")}};
        const jobs::JobSpec job = rankJobSpec(c, spec, 1, 8, QStringLiteral("true"));
        QCOMPARE(job.name, QStringLiteral("pre-r1"));
        QCOMPARE(job.env.last().first, QStringLiteral("LR"));
        QVERIFY(jobs::validateSpec(job));
    }

    void torchrunLineQuotesEverything()
    {
        Cluster c = threeNodes();
        TorchrunSpec spec;
        spec.run.masterPort = 29555;
        spec.run.command = {QStringLiteral("train.py"), QStringLiteral("--name=$(rm -rf ~)"), QStringLiteral("it's")};
        const QString line = torchrunLine(spec, c, 1, 4);
        QVERIFY(line.contains(QStringLiteral("--nnodes 3 --node_rank 1 --nproc_per_node 4")));
        QVERIFY(line.contains(QRegularExpression(QStringLiteral("--master_addr '?10\\.0\\.0\\.10'? --master_port 29555"))));
        QVERIFY(line.contains(QStringLiteral("--redirects 1 --tee 1")));
        QVERIFY(line.contains(QStringLiteral("--rdzv_backend static")));
        QVERIFY(line.contains(QStringLiteral("'--name=$(rm -rf ~)'")));
        QVERIFY(line.contains(QStringLiteral("'it'\\''s'")));
        QVERIFY(line.contains(QStringLiteral("NCCL_DEBUG=INFO")));
        spec.nprocPerNode = 0;
        QVERIFY(torchrunLine(spec, c, 0, 0).contains(QStringLiteral("--nproc_per_node 1"))); // a CPU node runs one process
        QCOMPARE(commandLine({QStringLiteral("echo $HOME")}), QStringLiteral("echo $HOME"));
        QCOMPARE(commandLine({QStringLiteral("echo"), QStringLiteral("$HOME")}), QStringLiteral("echo '$HOME'"));
    }

    void ipAddrAndInterfaceSuggestion()
    {
        const QList<InterfaceAddress> vm = parseIpAddr(fixture(QStringLiteral("ip-o-addr-this-vm.txt")));
        QVERIFY(vm.size() >= 2);
        QCOMPARE(vm.first().name, QStringLiteral("lo"));
        QCOMPARE(suggestSocketIfname(vm, QStringLiteral("127.0.0.1")), QStringLiteral("lo"));

        const QList<InterfaceAddress> docker = parseIpAddr(fixture(QStringLiteral("ip-o-addr-docker-first.txt")));
        QCOMPARE(docker.size(), 6);
        QCOMPARE(docker.last().name, QStringLiteral("veth3c1a2b7")); // "@if4" dropped
        QCOMPARE(suggestSocketIfname(docker, QStringLiteral("172.31.17.5")), QStringLiteral("ens5"));
        // No subnet match (a public head address): the first real interface, never docker0.
        QCOMPARE(suggestSocketIfname(docker, QStringLiteral("203.0.113.10")), QStringLiteral("ens5"));

        const QList<InterfaceAddress> ib = parseIpAddr(fixture(QStringLiteral("ip-o-addr-ipoib.txt")));
        QCOMPARE(suggestSocketIfname(ib, QStringLiteral("192.168.100.3")), QStringLiteral("ibp12s0"));
        QCOMPARE(suggestSocketIfname(ib, QStringLiteral("10.19.40.2")), QStringLiteral("eno1"));
        QCOMPARE(suggestSocketIfname({}, QStringLiteral("10.0.0.1")), QString());
    }

    void ibvDevinfo()
    {
        const QList<RdmaDevice> ib = parseIbvDevinfo(fixture(QStringLiteral("ibv_devinfo-mlx5-ib.txt")));
        QCOMPARE(ib.size(), 2);
        QCOMPARE(ib[1].name, QStringLiteral("mlx5_1"));
        QCOMPARE(ib[0].linkLayer, QStringLiteral("InfiniBand"));
        QVERIFY(ib[0].active() && !ib[0].efa);
        const QList<RdmaDevice> efa = parseIbvDevinfo(fixture(QStringLiteral("ibv_devinfo-efa.txt")));
        QCOMPARE(efa.size(), 1);
        QVERIFY(efa[0].efa);
        const QList<RdmaDevice> down = parseIbvDevinfo(fixture(QStringLiteral("ibv_devinfo-roce-down.txt")));
        QCOMPARE(down.size(), 1);
        QVERIFY(!down[0].active());
        QCOMPARE(down[0].linkLayer, QStringLiteral("Ethernet"));
        QVERIFY(parseIbvDevinfo("").isEmpty());
    }

    void gpuTopology()
    {
        QFile single(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/topo-m-h200-driver590.48.01-linux-nvgpuexp.txt"));
        QVERIFY(single.open(QIODevice::ReadOnly));
        const GpuTopology one = parseTopology(single.readAll());
        QCOMPARE(one.gpus, 1);
        QCOMPARE(one.pairs, 0);
        const GpuTopology hgx = parseTopology(fixture(QStringLiteral("nvidia-smi-topo-m-8xh100-nvlink-4nic.txt")));
        QCOMPARE(hgx.gpus, 8);
        QCOMPARE(hgx.pairs, 28);
        QCOMPARE(hgx.nvlinkPairs, 28);
        QCOMPARE(hgx.nics.size(), 4);
        QCOMPARE(hgx.nicsNearGpu.size(), 4);
        const GpuTopology pcie = parseTopology(fixture(QStringLiteral("nvidia-smi-topo-m-4xa10-pcie.txt")));
        QCOMPARE(pcie.gpus, 4);
        QCOMPARE(pcie.pairs, 6);
        QCOMPARE(pcie.nvlinkPairs, 0);
        QCOMPARE(pcie.weakestLink, QStringLiteral("SYS"));
        QVERIFY(pcie.nics.isEmpty());
        QList<NodeCheck> nodes(1);
        nodes[0].facts = factsWith(QStringLiteral("2.3.1"), QStringLiteral("A10"), 4);
        nodes[0].facts->topology = pcie;
        compareFacts(nodes, QStringLiteral("172.31.20.1"));
        QCOMPARE(nodes[0].verdict(), verify::CheckStatus::Warn);
        QVERIFY(parseTopology("").gpus == 0);
    }

    void factsAndComparison()
    {
        QByteArray out = "@@gpu@@\nNVIDIA H100 80GB HBM3, 550.54.15\nNVIDIA H100 80GB HBM3, 550.54.15\n@@cuda@@\n12.4\n"
                         "@@python@@\n/usr/bin/python3\n3.11.2\n@@torch@@\n2.3.1\nTrue\n@@ip@@\n"
                         + fixture(QStringLiteral("ip-o-addr-docker-first.txt")) + "@@ibv@@\n"
                         + fixture(QStringLiteral("ibv_devinfo-efa.txt")) + "@@end@@\n";
        const NodeFacts facts = parseFacts(out);
        QVERIFY(facts.complete);
        QCOMPARE(facts.gpuCount, 2);
        QCOMPARE(facts.gpuModel, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(facts.cuda, QStringLiteral("12.4"));
        QCOMPARE(facts.torch, QStringLiteral("2.3.1"));
        QVERIFY(facts.torchCuda);
        QCOMPARE(facts.pythonPath, QStringLiteral("/usr/bin/python3"));
        QCOMPARE(facts.rdma.size(), 1);

        QList<NodeCheck> nodes(3);
        nodes[0].facts = factsWith(QStringLiteral("2.3.1"), QStringLiteral("H100"), 8);
        nodes[1].facts = factsWith(QStringLiteral("2.1.0"), QStringLiteral("H100"), 8);
        nodes[2].facts = factsWith(QStringLiteral("2.3.1"), QStringLiteral("A100"), 8);
        nodes[2].facts->rdma = parseIbvDevinfo(fixture(QStringLiteral("ibv_devinfo-roce-down.txt")));
        compareFacts(nodes, QStringLiteral("172.31.20.1"));
        QCOMPARE(nodes[0].verdict(), verify::CheckStatus::Ok);
        QCOMPARE(nodes[1].verdict(), verify::CheckStatus::Fail);
        QCOMPARE(nodes[2].verdict(), verify::CheckStatus::Fail);
        QCOMPARE(nodes[0].socketIfname, QStringLiteral("ens5"));
        auto find = [](const NodeCheck &n, const QString &id) {
            for (const verify::DoctorCheck &c : n.checks)
                if (c.id == id)
                    return c;
            return verify::DoctorCheck{};
        };
        QVERIFY(find(nodes[1], QStringLiteral("torch")).message.contains(QStringLiteral("2.1.0")));
        QCOMPARE(find(nodes[2], QStringLiteral("rdma")).status, verify::CheckStatus::Warn);
        ClusterCheck check;
        check.nodes = nodes;
        const QJsonObject json = clusterCheckToJson(check);
        QCOMPARE(json.value(QLatin1String("verdict")).toString(), QStringLiteral("fail"));
        QCOMPARE(json.value(QLatin1String("nodes")).toArray().at(0).toObject().value(QLatin1String("socket_ifname")).toString(), QStringLiteral("ens5"));
    }

    void jobStateAndLogPrefix()
    {
        auto rank = [](int r, jobs::JobState state, std::optional<int> code) {
            jobs::JobInfo info;
            info.state = state;
            info.exitCode = code;
            return RankStatus{r, info, {}};
        };
        QCOMPARE(clusterJobState({rank(0, jobs::JobState::Running, {}), rank(1, jobs::JobState::Exited, 0)}), ClusterJobState::Running);
        QCOMPARE(clusterJobState({rank(0, jobs::JobState::Running, {}), rank(1, jobs::JobState::Exited, 3)}), ClusterJobState::Failed);
        QCOMPARE(clusterJobState({rank(0, jobs::JobState::Exited, 0), rank(1, jobs::JobState::Exited, 0)}), ClusterJobState::Succeeded);
        QCOMPARE(clusterJobState({rank(0, jobs::JobState::Exited, 0), RankStatus{1, std::nullopt, QStringLiteral("down")}}), ClusterJobState::Unknown);
        QByteArray pending;
        QCOMPARE(prefixLines(2, "a\nb", &pending), QByteArray("[rank 2] a\n"));
        QCOMPARE(prefixLines(2, "c\n", &pending), QByteArray("[rank 2] bc\n"));
        QVERIFY(pending.isEmpty());
        QCOMPARE(countGpus("GPU 0: NVIDIA A10 (UUID: GPU-1)\nGPU 1: NVIDIA A10 (UUID: GPU-2)\n"), 2);
        QCOMPARE(busBandwidthGBps(1000000000, 1.0, 4), 1.5);
        const auto parsed = parseAllReduce("noise\nGANTRY_ALLREDUCE value=10 seconds=0.25 backend=gloo\n");
        QVERIFY(parsed && parsed->value == 10 && parsed->backend == u"gloo");
    }
};

QTEST_GUILESS_MAIN(TestClusterUnits)
#include "test_cluster_units.moc"
