#include "clirun.h"
#include "sshdfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

// cluster check on three real sshd nodes where the third one's all-reduce fails (its python3 is
// tests/cluster/badnode/python3): the all-reduce across all nodes fails, and the head-plus-one
// pairs name that node and only that node.
class TestClusterPairwise final : public QObject
{
    Q_OBJECT

    test::SshdFixture m_nodes[3];
    QTemporaryDir m_config;

    int run(const QStringList &args, QByteArray *out = nullptr, int timeoutMs = 60000)
    {
        test::RunOptions options;
        options.timeoutMs = timeoutMs;
        const test::CliRun run = test::runCli(m_config.path(), args, options);
        if (out)
            *out = run.out + run.err;
        return run.code;
    }

private slots:
    void badNodeIsNamed()
    {
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import torch.distributed")});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("python3-torch is not installed (packaging/install-deps.sh installs it)");
        QByteArray known;
        for (int i = 0; i < 3; ++i) {
            test::SshdFixture::Options options;
            options.systemPythonPackages = true;
            if (i == 2)
                options.binDir = QStringLiteral(GANTRY_TEST_SOURCE_DIR "/cluster/badnode");
            GANTRY_REQUIRE_SSHD(m_nodes[i].start(options));
            QFile file(m_nodes[i].knownHostsPath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            known += file.readAll();
            QCOMPARE(run({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("p%1").arg(i),
                          QStringLiteral("%1@127.0.0.1:%2").arg(m_nodes[i].user()).arg(m_nodes[i].port()), QStringLiteral("-i"),
                          m_nodes[i].clientKeyPath()}), 0);
        }
        const QString knownHosts = m_config.filePath(QStringLiteral("known_hosts"));
        QFile file(knownHosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(known);
        file.close();
        QCOMPARE(run({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("trio"), QStringLiteral("p0"), QStringLiteral("p1"),
                      QStringLiteral("p2")}), 0);
        QByteArray out;
        const int code = run({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("trio"),
                              QStringLiteral("--known-hosts"), knownHosts, QStringLiteral("--master-port"), QStringLiteral("29681")},
                             &out, 240000);
        QVERIFY2(code == 1, out.constData());
        const QJsonArray nodes = QJsonDocument::fromJson(out.left(out.lastIndexOf('}') + 1)).object().value(QLatin1String("nodes")).toArray();
        QCOMPARE(nodes.size(), 3);
        auto pairwise = [&](int rank) {
            for (const QJsonValue &item : nodes.at(rank).toObject().value(QLatin1String("checks")).toArray()) {
                if (item.toObject().value(QLatin1String("id")).toString() == u"pairwise")
                    return item.toObject().value(QLatin1String("status")).toString();
            }
            return QString();
        };
        QVERIFY2(pairwise(1) == u"ok", out.constData());
        QCOMPARE(pairwise(2), QStringLiteral("fail"));
        QCOMPARE(nodes.at(2).toObject().value(QLatin1String("verdict")).toString(), QStringLiteral("fail"));
        // The good node's own all-reduce step still fails (the collective did), its pair is what clears it.
    }
};

QTEST_GUILESS_MAIN(TestClusterPairwise)
#include "test_cluster_pairwise.moc"
