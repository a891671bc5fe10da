// gantry-cli watch end to end, as a service runs it: a separate process against the local sandbox
// (real sshd instances, the simulated idle GPU). An idle machine is terminated only after its
// result paths are home; when they cannot come home it is not terminated, and the watcher says so.
// A budget already far over is said once, at its highest threshold, naming what bills.
// Synchronised on the watcher's JSON lines, never on sleeps.
#include "clirun.h"
#include "sshdfixture.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/results.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

class TestWatchCli final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_config;
    QTemporaryDir m_home; // the watcher's ~: "Gantry results" and ~/.ssh of this test only

    test::RunOptions options(int timeoutMs = 120000) const
    {
        test::RunOptions options;
        options.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("100"));
        options.env.insert(QStringLiteral("HOME"), m_home.path());
        options.env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain, no desktop notifications
        options.timeoutMs = timeoutMs;
        return options;
    }

    test::CliRun cli(const QStringList &args, int timeoutMs = 120000) const
    {
        return test::runCli(m_config.path(), QStringList{QStringLiteral("--json")} + args, options(timeoutMs));
    }

    // A sandbox GPU machine launched as a user does, with its result paths on it. Returns its
    // instance JSON (id, host).
    QJsonObject launch(const QString &name)
    {
        const test::CliRun run = cli({QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("sandbox"), QStringLiteral("--type"),
                                      QStringLiteral("gpu_1x_sandbox"), QStringLiteral("--name"), name, QStringLiteral("--wait")});
        if (run.code != 0) {
            qWarning().noquote() << run.err;
            return {};
        }
        const QJsonObject launched = QJsonDocument::fromJson(run.out).object();
        const QString id = launched.value(QLatin1String("id")).toString();
        const QString outputs = m_config.filePath(QStringLiteral("sandbox/instances/%1/home/outputs").arg(id));
        if (id.isEmpty() || !QDir().mkpath(outputs))
            return {};
        test::writeRandom(outputs + QStringLiteral("/model.pt"), 200000);
        // The instance's host key, as the user's first connection would have trusted it.
        QFile hostKey(m_config.filePath(QStringLiteral("sandbox/instances/%1/host_ed25519.pub").arg(id)));
        QFile knownHosts(m_home.filePath(QStringLiteral(".ssh/known_hosts")));
        if (!hostKey.open(QIODevice::ReadOnly) || !knownHosts.open(QIODevice::Append))
            return {};
        const QList<QByteArray> key = hostKey.readAll().split(' ');
        knownHosts.write("[127.0.0.1]:" + QByteArray::number(launched.value(QLatin1String("ssh_port")).toInt()) + ' ' + key.value(0) + ' '
                         + key.value(1).trimmed() + '\n');
        if (!jobs::ResultPathStore(m_config.path()).setPatterns(launched.value(QLatin1String("host")).toString(), {QStringLiteral("outputs/")}))
            return {};
        return launched;
    }

    // Reads the watcher's lines until one about host is acted or action_failed.
    static QJsonObject outcomeFor(QProcess &watch, const QString &host, QByteArray &seen)
    {
        QDeadlineTimer deadline(150000);
        while (!deadline.hasExpired()) {
            while (watch.canReadLine()) {
                const QByteArray line = watch.readLine();
                seen += line;
                const QJsonObject event = QJsonDocument::fromJson(line).object();
                const QString kind = event.value(QLatin1String("event")).toString();
                if (event.value(QLatin1String("host")).toString() == host && (kind == u"acted" || kind == u"action_failed"))
                    return event;
            }
            if (watch.state() != QProcess::Running || !watch.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
                break;
        }
        seen += watch.readAllStandardError();
        return {};
    }

    // Runs the watcher until it acts on host (or gives up), then stops it as a service manager would.
    QJsonObject watchUntilOutcome(const QString &host, QByteArray &seen)
    {
        QProcess watch;
        auto stop = qScopeGuard([&watch] {
            watch.kill();
            watch.waitForFinished(10000);
        });
        test::startCli(watch, m_config.path(),
                       {QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--provider"), QStringLiteral("sandbox"),
                        QStringLiteral("--idle-action"), QStringLiteral("terminate"), QStringLiteral("--idle-minutes"), QStringLiteral("0.05"),
                        QStringLiteral("--countdown"), QStringLiteral("1")},
                       options());
        if (!watch.waitForStarted(30000))
            return {};
        return outcomeFor(watch, host, seen);
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")))
            GANTRY_REQUIRE_SSHD(QStringLiteral("openssh-server is not installed"));
        QVERIFY(QDir(m_home.path()).mkpath(QStringLiteral(".ssh")));
    }

    void idleMachineIsTerminatedAfterItsResultsComeHome()
    {
        const QJsonObject launched = launch(QStringLiteral("idle-watch"));
        QVERIFY(!launched.isEmpty());
        const QString id = launched.value(QLatin1String("id")).toString();
        const QString host = launched.value(QLatin1String("host")).toString();
        QByteArray seen;
        const QJsonObject acted = watchUntilOutcome(host, seen);
        QVERIFY2(acted.value(QLatin1String("event")).toString() == u"acted", seen.constData());
        QCOMPARE(acted.value(QLatin1String("action")).toString(), QStringLiteral("terminate"));
        QCOMPARE(acted.value(QLatin1String("id")).toString(), id);

        QDirIterator found(m_home.filePath(QStringLiteral("Gantry results/") + host), {QStringLiteral("model.pt")}, QDir::Files,
                           QDirIterator::Subdirectories);
        QVERIFY2(found.hasNext(), seen.constData());
        QCOMPARE(QFileInfo(found.next()).size(), qint64(200000));
        cost::Ledger ledger(cost::Ledger::defaultPath(m_config.path()));
        QVERIFY(ledger.open());
        const Result<cost::LedgerEntry> row = ledger.entry(QStringLiteral("sandbox"), id);
        QVERIFY(row);
        QVERIFY(!row->isOpen());
        QCOMPARE(row->note, QStringLiteral("idle policy"));
        HostStore hosts(m_config.path());
        QVERIFY(hosts.load());
        QVERIFY(!hosts.find(host).has_value());
    }

    // Spending is already far over the day's budget when the watcher starts: one line, at 100 %,
    // naming the instance that bills and its $/h — not three lines for 50, 80 and 100 %.
    void aBudgetFarOverIsSaidOnceWithWhatBills()
    {
        QTemporaryDir config;
        {
            cost::Ledger ledger(cost::Ledger::defaultPath(config.path()));
            QVERIFY(ledger.open());
            providers::Instance trainer;
            trainer.provider = QStringLiteral("lambda");
            trainer.id = QStringLiteral("i-trainer");
            trainer.name = QStringLiteral("trainer-a100");
            trainer.state = providers::InstanceState::Running;
            trainer.createdAt = QDateTime::currentDateTimeUtc().addSecs(-3 * 3600);
            QVERIFY(ledger.recordLaunch(trainer, 50.0));
        }
        QProcess watch;
        auto stop = qScopeGuard([&watch] {
            watch.kill();
            watch.waitForFinished(10000);
        });
        test::startCli(watch, config.path(),
                       {QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--provider"), QStringLiteral("sandbox"),
                        QStringLiteral("--daily-budget"), QStringLiteral("1")},
                       options());
        QVERIFY(watch.waitForStarted(30000));
        QList<QJsonObject> budgetLines;
        QByteArray seen;
        // The budget is checked once at start, before the line that says it is watching ends its start-up.
        QDeadlineTimer deadline(60000);
        while (budgetLines.isEmpty() && !deadline.hasExpired() && watch.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())))) {
            while (watch.canReadLine()) {
                const QByteArray line = watch.readLine();
                seen += line;
                const QJsonObject event = QJsonDocument::fromJson(line).object();
                if (event.value(QLatin1String("event")).toString() == u"budget")
                    budgetLines.append(event);
            }
        }
        watch.kill();
        watch.waitForFinished(10000);
        for (const QByteArray &line : watch.readAllStandardOutput().split('\n')) { // what the same check printed after it
            if (QJsonDocument::fromJson(line).object().value(QLatin1String("event")).toString() == u"budget")
                budgetLines.append(QJsonDocument::fromJson(line).object());
        }
        QCOMPARE(budgetLines.size(), 1);
        QCOMPARE(budgetLines.first().value(QLatin1String("threshold")).toInt(), 100);
        const QString message = budgetLines.first().value(QLatin1String("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("trainer-a100")) && message.contains(QStringLiteral("$50.00/h")), qPrintable(message));
    }

    // The results cannot come home (their local folder is a file): the sandbox cannot stop, so
    // the machine keeps running, the row stays open, the host stays saved, and the line says so.
    void failedDownloadDoesNotTerminate()
    {
        const QJsonObject launched = launch(QStringLiteral("stuck-watch"));
        QVERIFY(!launched.isEmpty());
        const QString id = launched.value(QLatin1String("id")).toString();
        const QString host = launched.value(QLatin1String("host")).toString();
        QVERIFY(QDir(m_home.path()).mkpath(QStringLiteral("Gantry results")));
        QFile blocker(m_home.filePath(QStringLiteral("Gantry results/") + host));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QByteArray seen;
        const QJsonObject failed = watchUntilOutcome(host, seen);
        QVERIFY2(failed.value(QLatin1String("event")).toString() == u"action_failed", seen.constData());
        QCOMPARE(failed.value(QLatin1String("action")).toString(), QStringLiteral("terminate"));
        const QString message = failed.value(QLatin1String("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("could not be brought home")) && message.contains(QStringLiteral("keeps billing")), seen.constData());

        cost::Ledger ledger(cost::Ledger::defaultPath(m_config.path()));
        QVERIFY(ledger.open());
        QVERIFY(ledger.entry(QStringLiteral("sandbox"), id)->isOpen());
        HostStore hosts(m_config.path());
        QVERIFY(hosts.load());
        QVERIFY(hosts.find(host).has_value());
        QVERIFY(QFileInfo::exists(m_config.filePath(QStringLiteral("sandbox/instances/") + id)));
        // Clean up as a user would: terminate it by hand — its results cannot come home, so without
        // them (the guard refused a plain terminate, and the sandbox's sshd outlived the test).
        const test::CliRun terminated = cli({QStringLiteral("terminate"), id, QStringLiteral("--yes"), QStringLiteral("--without-results"),
                                             QStringLiteral("--provider"), QStringLiteral("sandbox")},
                                            60000);
        QVERIFY2(terminated.code == 0, terminated.err.constData());
        QVERIFY(!QFileInfo::exists(m_config.filePath(QStringLiteral("sandbox/instances/%1/sshd.pid").arg(id))));
    }
};

QTEST_GUILESS_MAIN(TestWatchCli)
#include "test_watch_cli.moc"
