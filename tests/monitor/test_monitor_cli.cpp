// `gantry-cli monitor` end to end: the real CLI binary against a real sshd whose PATH has the fake
// nvidia-smi (fakenvidiasmi.h).
#include "clirun.h"
#include "fakenvidiasmi.h"
#include "sshdfixture.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::test::monitor;

class TestMonitorCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        gantry::test::SshdFixture::Options options;
        options.binDir = writeFakeNvidiaSmi(m_dir.path());
        const QString error = m_sshd.start(options);
        GANTRY_REQUIRE_SSHD(error);
    }

    void cliMonitorJson()
    {
        QTemporaryDir config;
        const QString spec = QStringLiteral("%1@%2:%3").arg(m_sshd.user(), m_sshd.host()).arg(m_sshd.port());
        const test::CliRun run = cli(config.path(), {QStringLiteral("--json"), QStringLiteral("monitor"), spec, QStringLiteral("--interval"),
                                                     QStringLiteral("200"), QStringLiteral("--count"), QStringLiteral("3")});
        QVERIFY2(run.code == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        for (const QByteArray &line : lines) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
            QVERIFY(QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).isValid());
            QCOMPARE(o.value(QStringLiteral("host")).toString(), spec);
            const QJsonArray gpus = o.value(QStringLiteral("gpus")).toArray();
            QCOMPARE(gpus.size(), 2);
            const QJsonObject g = gpus.at(0).toObject();
            for (const char *key : {"index", "uuid", "name", "utilization_gpu", "utilization_memory", "memory_used_mib",
                                    "memory_total_mib", "temperature_c", "power_draw_w", "power_limit_w", "sm_clock_mhz",
                                    "sm_clock_max_mhz", "pstate", "clocks_event_reasons", "pcie_gen", "pcie_gen_max",
                                    "pcie_width", "pcie_width_max", "ecc_uncorrected"}) {
                QVERIFY2(g.contains(QString::fromLatin1(key)), key);
            }
            QCOMPARE(g.value(QStringLiteral("memory_total_mib")).toDouble(), 81559.0);
            QCOMPARE(g.value(QStringLiteral("power_limit_w")).toDouble(), 700.0);
            QVERIFY(o.value(QStringLiteral("processes")).isArray());
            QVERIFY(o.value(QStringLiteral("host_metrics")).isObject());
        }
    }

    void cliUsageErrors()
    {
        QTemporaryDir config;
        QCOMPARE(test::runCli(config.path(), {QStringLiteral("monitor"), QStringLiteral("--interval"), QStringLiteral("abc"), QStringLiteral("h")})
                     .code, 2);
    }

    // `gantry-cli kill`: the sshd runs as this user on this machine, so a local process is one of
    // the host's processes; the signal really ends it.
    void cliKillEndsAProcess()
    {
        QProcess victim;
        victim.start(QStringLiteral("sleep"), {QStringLiteral("300")});
        QVERIFY(victim.waitForStarted());
        const QString pid = QString::number(victim.processId());
        QTemporaryDir config;
        const test::CliRun refused = cli(config.path(), {QStringLiteral("kill"), spec(), pid}); // stdin is not a terminal: --yes is required
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("--yes"), "the refusal names --yes");
        QCOMPARE(victim.state(), QProcess::Running);

        const test::CliRun killed = cli(config.path(), {QStringLiteral("--json"), QStringLiteral("kill"), spec(), pid, QStringLiteral("--signal"),
                                                        QStringLiteral("KILL"), QStringLiteral("--yes")});
        QVERIFY2(killed.code == 0, killed.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(killed.out).object();
        QCOMPARE(o.value(QStringLiteral("pid")).toInteger(), victim.processId());
        QCOMPARE(o.value(QStringLiteral("signal")).toString(), QStringLiteral("KILL"));
        QVERIFY2(o.value(QStringLiteral("command_line")).toString().contains(QLatin1StringView("sleep 300")), killed.out.constData());
        QVERIFY(victim.waitForFinished(10000));
        QCOMPARE(victim.exitStatus(), QProcess::CrashExit); // ended by the signal

        // Gone now: the error says so; a PID that is not a number never reaches the host.
        const test::CliRun gone = cli(config.path(), {QStringLiteral("kill"), spec(), pid, QStringLiteral("--yes")});
        QVERIFY(gone.code != 0);
        QVERIFY(gone.err.contains("not running"));
        const test::CliRun notANumber = cli(config.path(), {QStringLiteral("kill"), spec(), QStringLiteral("1;touch x"), QStringLiteral("--yes")});
        QCOMPARE(notANumber.code, 2);
        QVERIFY(notANumber.err.contains("not a process id"));
    }

private:
    QString spec() const { return QStringLiteral("%1@%2:%3").arg(m_sshd.user(), m_sshd.host()).arg(m_sshd.port()); }
    // gantry-cli COMMAND… with the connection options of the test sshd.
    test::CliRun cli(const QString &configDir, const QStringList &command) const
    {
        test::RunOptions options;
        options.timeoutMs = 30000;
        return test::runCli(configDir, command + QStringList{QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                                                             m_sshd.knownHostsPath()},
                            options);
    }

    QTemporaryDir m_dir;
    gantry::test::SshdFixture m_sshd;
};

QTEST_GUILESS_MAIN(TestMonitorCli)
#include "test_monitor_cli.moc"
