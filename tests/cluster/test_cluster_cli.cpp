#include "clirun.h"
#include "sshdfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

// gantry-cli cluster as a user runs it, on four real sshd "nodes" on 127.0.0.1 (one machine,
// one home: the per-rank job names keep them apart) and Debian's python3-torch (CPU, gloo).
class TestClusterCli final : public QObject
{
    Q_OBJECT

private:
    using Run = test::CliRun;

    Run cli(const QStringList &args, int timeoutMs = 180000)
    {
        test::RunOptions options;
        options.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("100"));
        options.timeoutMs = timeoutMs;
        return test::runCli(m_config.path(), args, options);
    }

    // A cluster command with the connection options every node shares.
    Run cluster(const QString &sub, const QString &name, const QStringList &more = {}, int timeoutMs = 180000)
    {
        QStringList args{QStringLiteral("cluster"), sub, name, QStringLiteral("--known-hosts"), m_knownHosts};
        if (sub != u"check")
            args << QStringLiteral("--jobs-dir") << m_jobs.path(); // this run's own: the nodes share this machine's home
        return cli(args + more, timeoutMs);
    }

    QJsonObject json(const Run &run)
    {
        return QJsonDocument::fromJson(run.out).object();
    }

    static bool isGoneState(const QString &state)
    {
        return state == u"terminated" || state == u"terminating";
    }

    bool torchAvailable() const
    {
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import torch.distributed")});
        return p.waitForFinished(60000) && p.exitCode() == 0;
    }

    void torchrunAllReduce(const QString &name, int nodes, int port)
    {
        if (!m_torch)
            QSKIP("python3-torch is not installed (packaging/install-deps.sh installs it)");
        const QString job = QStringLiteral("allreduce-%1").arg(nodes);
        const Run started = cluster(QStringLiteral("torchrun"), name,
                                    {QStringLiteral("--name"), job, QStringLiteral("--master-port"), QString::number(port),
                                     QStringLiteral("--cwd"), QStringLiteral(GANTRY_TEST_SOURCE_DIR "/cluster"), QStringLiteral("--"),
                                     QStringLiteral("allreduce.py")});
        QVERIFY2(started.code == 0, started.err.constData());
        const Run follow = cluster(QStringLiteral("logs"), name, {QStringLiteral("--follow")});
        QVERIFY2(follow.code == 0, QByteArray(follow.out + follow.err).constData());
        const QByteArray sum = QByteArray::number(nodes * (nodes + 1) / 2);
        for (int rank = 0; rank < nodes; ++rank) {
            const Run log = cluster(QStringLiteral("logs"), name, {QStringLiteral("--rank"), QString::number(rank)});
            // Each line carries its rank's label, then torchrun's. torchrun's own log tail may cut a
            // line where it read the file mid-write ("reduced 3[default0]:\n"): the text is whole
            // once its labels are taken out.
            const QByteArray label = "[rank " + QByteArray::number(rank) + "] [default0]:";
            const QByteArray line = "rank " + QByteArray::number(rank) + " of " + QByteArray::number(nodes) + " node "
                + QByteArray::number(rank) + " reduced " + sum + "\n";
            QVERIFY2(log.out.contains(QByteArray(label + line.left(8))), QByteArray(log.out + log.err).constData());
            QByteArray text = log.out;
            text.replace(label, "");
            text.replace("[default0]:", "");
            QVERIFY2(text.contains(line), QByteArray(log.out + log.err).constData());
        }
        const Run status = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("status"), name,
                                QStringLiteral("--known-hosts"), m_knownHosts, QStringLiteral("--jobs-dir"), m_jobs.path()});
        QVERIFY2(status.code == 0, status.err.constData());
        QCOMPARE(json(status).value(QLatin1String("state")).toString(), QStringLiteral("succeeded"));
    }

    test::SshdFixture m_nodes[4];
    QTemporaryDir m_config;
    QTemporaryDir m_jobs;
    QString m_knownHosts;
    bool m_torch = false;

private slots:
    void initTestCase()
    {
        test::SshdFixture::Options options;
        options.systemPythonPackages = true; // the nodes' python3 must see python3-torch
        QByteArray known;
        for (int i = 0; i < 4; ++i) {
            GANTRY_REQUIRE_SSHD(m_nodes[i].start(options));
            QFile file(m_nodes[i].knownHostsPath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            known += file.readAll();
            const Run added = cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("n%1").arg(i),
                                   QStringLiteral("%1@127.0.0.1:%2").arg(m_nodes[i].user()).arg(m_nodes[i].port()),
                                   QStringLiteral("-i"), m_nodes[i].clientKeyPath()});
            QVERIFY2(added.code == 0, added.err.constData());
        }
        m_knownHosts = m_config.filePath(QStringLiteral("known_hosts"));
        QFile file(m_knownHosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(known);
        file.close();
        QCOMPARE(cli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("duo"), QStringLiteral("n0"), QStringLiteral("n1")}).code, 0);
        QCOMPARE(cli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("quad"), QStringLiteral("n0"), QStringLiteral("n1"),
                      QStringLiteral("n2"), QStringLiteral("n3")}).code, 0);
        m_torch = torchAvailable();
    }

    void listAndShow()
    {
        const Run list = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("list")});
        QCOMPARE(json(list).value(QLatin1String("clusters")).toArray().size(), 2);
        const Run show = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("show"), QStringLiteral("quad")});
        const QJsonObject o = json(show);
        QCOMPARE(o.value(QLatin1String("master_addr")).toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(o.value(QLatin1String("nodes")).toArray().size(), 4);
        QCOMPARE(o.value(QLatin1String("nodes")).toArray().at(3).toObject().value(QLatin1String("host")).toString(), QStringLiteral("n3"));
        const Run missing = cli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("bad"), QStringLiteral("n0"), QStringLiteral("nope")});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("not a saved host"));
    }

    void sandboxLaunchShowTerminate()
    {
        const Run launch = cli({QStringLiteral("cluster"), QStringLiteral("launch"), QStringLiteral("sb"), QStringLiteral("--provider"),
                                QStringLiteral("sandbox"), QStringLiteral("--type"), QStringLiteral("sandbox-cpu"), QStringLiteral("--nodes"),
                                QStringLiteral("3"), QStringLiteral("--wait")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        QVERIFY2(launch.out.contains("Cluster sb: 3 node(s)"), launch.out.constData());
        const QJsonObject shown = json(cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("show"), QStringLiteral("sb")}));
        const QJsonArray nodes = shown.value(QLatin1String("nodes")).toArray();
        QCOMPARE(nodes.size(), 3);
        for (const QJsonValue &node : nodes) {
            QCOMPARE(node.toObject().value(QLatin1String("state")).toString(), QStringLiteral("running"));
            QVERIFY(!node.toObject().value(QLatin1String("host")).toString().isEmpty());
        }
        // Without --wait the nodes are on record at once; `show` fills in their hosts once they run.
        const Run later = cli({QStringLiteral("cluster"), QStringLiteral("launch"), QStringLiteral("sb2"), QStringLiteral("--provider"),
                               QStringLiteral("sandbox"), QStringLiteral("--type"), QStringLiteral("sandbox-cpu"), QStringLiteral("--nodes"),
                               QStringLiteral("2")});
        QVERIFY2(later.code == 0, later.err.constData());
        QTRY_VERIFY_WITH_TIMEOUT([&] {
            const QJsonArray n = json(cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("show"), QStringLiteral("sb2")}))
                                     .value(QLatin1String("nodes")).toArray();
            return n.size() == 2 && !n[0].toObject().value(QLatin1String("host")).toString().isEmpty()
                && !n[1].toObject().value(QLatin1String("host")).toString().isEmpty();
        }(), 20000);
        QCOMPARE(cli({QStringLiteral("cluster"), QStringLiteral("terminate"), QStringLiteral("sb2"), QStringLiteral("--yes")}).code, 0);
        const Run refused = cli({QStringLiteral("cluster"), QStringLiteral("terminate"), QStringLiteral("sb")});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.err.contains("--yes"));
        const Run gone = cli({QStringLiteral("cluster"), QStringLiteral("terminate"), QStringLiteral("sb"), QStringLiteral("--yes")});
        QVERIFY2(gone.code == 0, gone.err.constData());
        QCOMPARE(cli({QStringLiteral("cluster"), QStringLiteral("show"), QStringLiteral("sb")}).code, 1);
        const QJsonObject instances = json(cli({QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("sandbox")}));
        for (const QJsonValue &instance : instances.value(QLatin1String("instances")).toArray())
            QVERIFY(isGoneState(instance.toObject().value(QLatin1String("state")).toString()));
    }

    void runSetsTheWiring()
    {
        const Run started = cluster(QStringLiteral("run"), QStringLiteral("duo"),
                                    {QStringLiteral("--name"), QStringLiteral("env"), QStringLiteral("--env"), QStringLiteral("LR=0.1"),
                                     QStringLiteral("--master-port"), QStringLiteral("29611"), QStringLiteral("--"),
                                     QStringLiteral("echo $NODE_RANK/$NNODES $MASTER_ADDR:$MASTER_PORT gpus=$GPUS_PER_NODE $GANTRY_CLUSTER $GANTRY_NODE_ADDRS lr=$LR")});
        QVERIFY2(started.code == 0, started.err.constData());
        QCOMPARE(cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--follow")}).code, 0);
        const Run one = cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--rank"), QStringLiteral("1")});
        QCOMPARE(one.out, QByteArray("[rank 1] 1/2 127.0.0.1:29611 gpus=0 duo 127.0.0.1,127.0.0.1 lr=0.1\n"));
        const Run all = cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--rank"), QStringLiteral("all")});
        QCOMPARE(all.out, QByteArray("[rank 0] 0/2 127.0.0.1:29611 gpus=0 duo 127.0.0.1,127.0.0.1 lr=0.1\n"
                                     "[rank 1] 1/2 127.0.0.1:29611 gpus=0 duo 127.0.0.1,127.0.0.1 lr=0.1\n"));
    }

    void torchrunTwoNodes() { torchrunAllReduce(QStringLiteral("duo"), 2, 29621); }
    void torchrunFourNodes() { torchrunAllReduce(QStringLiteral("quad"), 4, 29631); }

    void rankFailureFailsTheClusterJob()
    {
        const Run started = cluster(QStringLiteral("run"), QStringLiteral("duo"),
                                    {QStringLiteral("--name"), QStringLiteral("flaky"), QStringLiteral("--"),
                                     QStringLiteral("if [ \"$NODE_RANK\" = 1 ]; then echo boom; exit 3; fi; exec sleep 300")});
        QVERIFY2(started.code == 0, started.err.constData());
        // Following rank 0 (which would wait forever) ends as soon as rank 1 has failed.
        const Run follow = cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--follow")}, 60000);
        QCOMPARE(follow.code, 1);
        QVERIFY2(follow.err.contains("rank 1 failed (exited 3)"), follow.err.constData());
        QVERIFY2(follow.err.contains("gantry-cli cluster cancel duo"), follow.err.constData());
        const Run status = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("status"), QStringLiteral("duo"),
                                QStringLiteral("--known-hosts"), m_knownHosts, QStringLiteral("--jobs-dir"), m_jobs.path()});
        QCOMPARE(status.code, 1);
        const QJsonObject o = json(status);
        QCOMPARE(o.value(QLatin1String("state")).toString(), QStringLiteral("failed"));
        QCOMPARE(o.value(QLatin1String("ranks")).toArray().at(0).toObject().value(QLatin1String("state")).toString(), QStringLiteral("running"));
        QCOMPARE(o.value(QLatin1String("ranks")).toArray().at(1).toObject().value(QLatin1String("exit_code")).toInt(), 3);
        const Run cancel = cluster(QStringLiteral("cancel"), QStringLiteral("duo"));
        QVERIFY2(cancel.code == 0, cancel.err.constData());
        QVERIFY2(cancel.out.contains("rank 0: killed"), cancel.out.constData());
    }

    // One rank of a torchrun fails before the process group forms: the other no longer waits
    // for it (init_process_group's 30 minutes), the watchdog beside its torchrun stops it.
    void torchrunRankFailureStopsThePeers_data()
    {
        QTest::addColumn<int>("failing");
        QTest::addColumn<int>("port");
        QTest::newRow("rank 1 fails, the head is stopped") << 1 << 29661;
        QTest::newRow("the head fails, rank 1 is stopped") << 0 << 29671;
    }
    void torchrunRankFailureStopsThePeers()
    {
        if (!m_torch)
            QSKIP("python3-torch is not installed (packaging/install-deps.sh installs it)");
        QFETCH(int, failing);
        QFETCH(int, port);
        const QString job = QStringLiteral("rankfail-%1").arg(failing);
        const Run started = cluster(QStringLiteral("torchrun"), QStringLiteral("duo"),
                                    {QStringLiteral("--name"), job, QStringLiteral("--master-port"), QString::number(port),
                                     QStringLiteral("--env"), QStringLiteral("GANTRY_TEST_FAIL_RANK=%1").arg(failing),
                                     QStringLiteral("--env"), QStringLiteral("GANTRY_PEER_GRACE_S=3"),
                                     QStringLiteral("--cwd"), QStringLiteral(GANTRY_TEST_SOURCE_DIR "/cluster"), QStringLiteral("--"),
                                     QStringLiteral("rankfail.py")});
        QVERIFY2(started.code == 0, started.err.constData());
        const auto cancel = qScopeGuard([&] { cluster(QStringLiteral("cancel"), QStringLiteral("duo"), {QStringLiteral("--name"), job}); });
        const int other = 1 - failing;
        // Follow the rank that would hang: its log ends (the job machinery's follow returns once
        // the job ended) well inside the test's limit instead of after 30 minutes.
        const Run follow = cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--rank"), QString::number(other),
                                                                                    QStringLiteral("--follow")}, 120000);
        QVERIFY2(follow.code == 1, QByteArray(follow.out + follow.err).constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const Run status = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("status"), QStringLiteral("duo"),
                                        QStringLiteral("--name"), job, QStringLiteral("--known-hosts"), m_knownHosts,
                                        QStringLiteral("--jobs-dir"), m_jobs.path()});
                const QJsonArray ranks = json(status).value(QLatin1String("ranks")).toArray();
                return ranks.size() == 2 && ranks.at(other).toObject().value(QLatin1String("state")).toString() != u"running";
            }(), 90000);
        const Run log = cluster(QStringLiteral("logs"), QStringLiteral("duo"), {QStringLiteral("--name"), job, QStringLiteral("--rank"), QString::number(other)});
        // When the head fails, rank 1 stops on its mark or on its store being gone, whichever it sees
        // first, or fails by itself when the store goes away under its init_process_group (the
        // head's torchrun served it): then torchrun, not the watchdog, ends it at once.
        const QByteArray why = "gantry: rank " + QByteArray::number(failing) + " failed: stopping rank " + QByteArray::number(other);
        const bool storeLost = log.out.contains("Connection reset by peer") || log.out.contains("Connection refused")
                               || log.out.contains("Broken pipe") || log.out.contains("DistStoreError");
        const bool headGone = log.out.contains("gantry: the head (rank 0) is gone: stopping rank 1")
                              || (log.out.contains("failed (exitcode: 1)") && storeLost);
        QVERIFY2(log.out.contains(why) || (failing == 0 && headGone), log.out.constData());
        QVERIFY2(!log.out.contains("passed the barrier"), log.out.constData());
    }

    void checkPasses()
    {
        if (!m_torch)
            QSKIP("python3-torch is not installed (packaging/install-deps.sh installs it)");
        const Run check = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("duo"),
                               QStringLiteral("--known-hosts"), m_knownHosts, QStringLiteral("--master-port"), QStringLiteral("29641")});
        QVERIFY2(check.code == 0, QByteArray(check.out + check.err).constData());
        const QJsonObject o = json(check);
        QCOMPARE(o.value(QLatin1String("verdict")).toString(), QStringLiteral("ok"));
        for (const QJsonValue &node : o.value(QLatin1String("nodes")).toArray()) {
            QCOMPARE(node.toObject().value(QLatin1String("socket_ifname")).toString(), QStringLiteral("lo"));
            QVERIFY(node.toObject().value(QLatin1String("bus_bandwidth_gbps")).toDouble() > 0);
            QVERIFY(!node.toObject().value(QLatin1String("torch")).toString().isEmpty());
        }
    }

    void checkFailsOnATakenPort()
    {
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost));
        const Run check = cli({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("duo"),
                               QStringLiteral("--known-hosts"), m_knownHosts, QStringLiteral("--master-port"), QString::number(squatter.serverPort())});
        QCOMPARE(check.code, 1);
        const QJsonArray nodes = json(check).value(QLatin1String("nodes")).toArray();
        QCOMPARE(nodes.at(0).toObject().value(QLatin1String("verdict")).toString(), QStringLiteral("fail"));
        QVERIFY2(check.out.contains("is already taken on the head"), check.out.constData());
        QVERIFY(nodes.at(1).toObject().value(QLatin1String("verdict")).toString() != QStringLiteral("fail"));
    }

    void checkNamesAnUnreachableNode()
    {
        m_nodes[2].stop();
        const Run check = cluster(QStringLiteral("check"), QStringLiteral("quad"), {QStringLiteral("--master-port"), QStringLiteral("29651")}, 60000);
        QVERIFY2(m_nodes[2].restart().isEmpty(), "sshd did not come back");
        QCOMPARE(check.code, 1);
        QVERIFY2(check.out.contains("rank 2 n2 FAIL"), check.out.constData());
        QVERIFY2(check.out.contains("rank 0 n0 WARN"), check.out.constData());
        QVERIFY2(check.out.contains("Network steps not run: rank 2 is unreachable"), check.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterCli)
#include "test_cluster_cli.moc"
