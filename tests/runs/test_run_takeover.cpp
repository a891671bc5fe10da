// SPDX-License-Identifier: Apache-2.0
// A managed run outlives the process that drives it: a `gantry-cli run start` killed mid-run (as a
// closed window or a lost terminal leaves it) is taken over by `gantry-cli watch`, which polls the
// job where it runs — nothing is rented twice — and finishes the run; `run start --detach` hands
// the run to a watcher started for it. On the local sandbox (real sshd), the job released by a
// file the test writes: no sleeps as synchronisation.
#include "clirun.h"

#include "core/runs/runservice.h"
#include "core/runs/runstate.h"
#include "core/workspace/policylock.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using namespace gantry;

class TestRunTakeover final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString config() const { return m_dir.filePath(QStringLiteral("config")); }
    QString go() const { return m_dir.filePath(QStringLiteral("go")); }
    test::RunOptions options() const
    {
        test::RunOptions o;
        o.env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        o.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("50"));
        o.env.insert(QStringLiteral("GANTRY_RUN_TICK_MS"), QStringLiteral("100"));
        o.timeoutMs = 120000;
        return o;
    }
    // A job that waits for the test's go-ahead, then leaves its result.
    QString writeSpec(const QString &name)
    {
        const QString dir = m_dir.filePath(QStringLiteral("work"));
        QDir().mkpath(dir);
        QFile file(dir + QStringLiteral("/%1.yaml").arg(name));
        if (file.open(QIODevice::WriteOnly))
            file.write(QStringLiteral("name: %1\nresources: {providers: [sandbox], gpu: any, spot: true}\nresults: [outputs]\n"
                                      "run: while [ ! -e '%2' ]; do sleep 0.1; done; mkdir -p outputs; echo \"done $GANTRY_RUN_ATTEMPT\" > outputs/done.txt\n")
                           .arg(name, go()).toUtf8());
        return file.fileName();
    }
    runs::RunState stateOf(const QString &name) const
    {
        const Result<runs::RunRecord> record = runs::RunBook(config()).show(name);
        return record ? record->state : runs::RunState::Launching;
    }
    QByteArray result(const QString &name) const
    {
        QFile done(m_dir.filePath(QStringLiteral("home/Gantry runs/%1/outputs/done.txt").arg(name)));
        return done.open(QIODevice::ReadOnly) ? done.readAll() : QByteArray();
    }
    bool nothingRuns() const
    {
        const test::CliRun instances = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"),
                                                               QStringLiteral("sandbox")}, options());
        return instances.code == 0 && instances.json().value(QLatin1String("instances")).toArray().isEmpty();
    }

    // `run start SPEC` killed once its job runs (no goodbye: the record still names it).
    void orphanRun(const QString &spec)
    {
        QProcess driver;
        test::startCli(driver, config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"), spec}, options());
        QByteArray seen;
        QVERIFY2(test::waitForOutput(driver, seen, "\"event\":\"running\"", 60000), seen.constData());
        ::kill(pid_t(driver.processId()), SIGKILL);
        QVERIFY(driver.waitForFinished(10000));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
    }

    void init() { QFile::remove(go()); }

    void killedDriverIsTakenOverByTheWatcher()
    {
        const QString spec = writeSpec(QStringLiteral("orphan"));
        orphanRun(spec);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(stateOf(QStringLiteral("orphan")), runs::RunState::Running);

        QProcess watcher;
        test::startCli(watcher, config(), {QStringLiteral("--json"), QStringLiteral("watch")}, options());
        auto stopWatcher = qScopeGuard([&watcher] {
            watcher.terminate();
            watcher.waitForFinished(10000);
        });
        QByteArray watched;
        QVERIFY2(test::waitForOutput(watcher, watched, "\"run_event\":\"taken-over\"", 30000), watched.constData());
        QFile(go()).open(QIODevice::WriteOnly); // the job may finish now
        QVERIFY2(test::waitForOutput(watcher, watched, "\"run_event\":\"finished\"", 60000), watched.constData());

        const Result<runs::RunRecord> record = runs::RunBook(config()).show(QStringLiteral("orphan"));
        QVERIFY(record);
        QCOMPARE(record->state, runs::RunState::Succeeded);
        QCOMPARE(record->attempts.size(), 1); // the job was polled where it ran, not started again
        QCOMPARE(record->attempts.first().endReason, QStringLiteral("succeeded"));
        QCOMPARE(result(QStringLiteral("orphan")), QByteArray("done 1\n"));
        QVERIFY(nothingRuns());
    }

    // The machine is reclaimed while nobody drives the run (the window closed during a
    // preemption): the watcher that takes the run over asks the provider, records the preemption,
    // rents the next machine and finishes the run there; nothing is left running.
    void machineLostWhileNobodyDrivesIsRecoveredByTheWatcher()
    {
        const QString dir = m_dir.filePath(QStringLiteral("work"));
        QDir().mkpath(dir);
        QFile file(dir + QStringLiteral("/reclaimed.yaml"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("name: reclaimed\nresources: {providers: [sandbox], gpu: any, spot: true}\nresults: [outputs]\n"
                   "run: if [ \"$GANTRY_RUN_ATTEMPT\" = 1 ]; then exec sleep 600; fi; mkdir -p outputs; echo \"done $GANTRY_RUN_ATTEMPT\" > outputs/done.txt\n");
        file.close();
        orphanRun(file.fileName());
        if (QTest::currentTestFailed())
            return;
        const Result<runs::RunRecord> before = runs::RunBook(config()).show(QStringLiteral("reclaimed"));
        QVERIFY(before && before->attempts.size() == 1);
        const test::CliRun preempt = test::runCli(config(), {QStringLiteral("preempt"), before->attempts.first().instance, QStringLiteral("--provider"),
                                                             QStringLiteral("sandbox")}, options());
        QVERIFY2(preempt.code == 0, preempt.err.constData());

        QProcess watcher;
        test::startCli(watcher, config(), {QStringLiteral("--json"), QStringLiteral("watch")}, options());
        auto stopWatcher = qScopeGuard([&watcher] {
            watcher.terminate();
            watcher.waitForFinished(10000);
        });
        QByteArray watched;
        QVERIFY2(test::waitForOutput(watcher, watched, "\"run_event\":\"finished\"", 90000), watched.constData());
        const Result<runs::RunRecord> record = runs::RunBook(config()).show(QStringLiteral("reclaimed"));
        QVERIFY(record);
        QVERIFY2(record->state == runs::RunState::Succeeded, qPrintable(record->message));
        QCOMPARE(record->attempts.size(), 2);
        QCOMPARE(record->attempts.first().endReason, QStringLiteral("preempted"));
        QCOMPARE(record->attempts.last().endReason, QStringLiteral("succeeded"));
        QCOMPARE(result(QStringLiteral("reclaimed")), QByteArray("done 2\n"));
        QVERIFY(nothingRuns());
    }

    // `run stop` on a run nobody drives, while a policy owner lives (here: this test holds the
    // policy lock): the request waits in the run's folder, and the watcher that takes the run over
    // stops it at once — its machine terminated — instead of resuming it.
    void stopOfAnOrphanIsCarriedOutAtTheTakeover()
    {
        const QString spec = writeSpec(QStringLiteral("halted"));
        orphanRun(spec);
        if (QTest::currentTestFailed())
            return;
        {
            workspace::PolicyLock policy(config());
            QVERIFY(policy.tryAcquire());
            const test::CliRun stop = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("stop"), QStringLiteral("halted")}, options());
            QVERIFY2(stop.code == 0, stop.err.constData());
            QVERIFY2(stop.out.contains("takes it over and stops it"), stop.out.constData());
        }
        QProcess watcher;
        test::startCli(watcher, config(), {QStringLiteral("--json"), QStringLiteral("watch")}, options());
        auto stopWatcher = qScopeGuard([&watcher] {
            watcher.terminate();
            watcher.waitForFinished(10000);
        });
        QByteArray watched;
        QVERIFY2(test::waitForOutput(watcher, watched, "\"run_event\":\"finished\"", 60000), watched.constData());
        QCOMPARE(stateOf(QStringLiteral("halted")), runs::RunState::Stopped);
        QVERIFY(result(QStringLiteral("halted")).isEmpty()); // the job never finished
        QVERIFY(nothingRuns());
    }

    // The window drives a run (it took over an orphan, as the policy owner does) and closes: once
    // its event loop has ended it starts `gantry-cli watch`, which takes the run over and finishes
    // it on the same machine. The window runs offscreen and quits by itself (--screenshot).
    void closingTheWindowHandsItsRunsToAWatcher()
    {
#ifndef GANTRY_GUI_PATH
        QSKIP("the window is not built here (headless)");
#else
        const QString spec = writeSpec(QStringLiteral("windowed"));
        orphanRun(spec);
        if (QTest::currentTestFailed())
            return;

        QProcess window;
        QProcessEnvironment env = options().env; // the system's, with this suite's home and timings
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keyring: the window must not wait for one
        window.setProcessEnvironment(env);
        window.start(QStringLiteral(GANTRY_GUI_PATH), {QStringLiteral("--config-dir"), config(), QStringLiteral("--panel"), QStringLiteral("runs"),
                                                         QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("window.png"))});
        QVERIFY(window.waitForStarted(10000));
        const qint64 windowPid = window.processId();
        QVERIFY2(window.waitForFinished(60000), window.readAllStandardError().constData());
        const QByteArray log = [this] {
            QFile file(runs::RunStore(config()).logPath(QStringLiteral("windowed")));
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }();
        QVERIFY2(log.contains(QByteArray("taken over by process ").append(QByteArray::number(windowPid))), log.constData());
        // The watcher the window left behind takes the run over from it.
        const qint64 watcher = [this] {
            QElapsedTimer waited;
            waited.start();
            while (waited.elapsed() < 30000 && workspace::PolicyLock::livePid(config()) == 0)
                QTest::qWait(100);
            return workspace::PolicyLock::livePid(config());
        }();
        auto stopWatcher = qScopeGuard([this, watcher] {
            if (watcher <= 0)
                return;
            ::kill(pid_t(watcher), SIGTERM);
            // Gone before the next case, which needs no policy owner alive.
            QElapsedTimer waited;
            waited.start();
            while (waited.elapsed() < 15000 && workspace::PolicyLock::livePid(config()) != 0)
                QTest::qWait(100);
        });
        QVERIFY2(watcher > 0 && watcher != windowPid, "no watcher took the window's place");
        QTRY_VERIFY_WITH_TIMEOUT(runs::RunBook(config()).show(QStringLiteral("windowed"))->ownerPid == watcher, 30000);
        QFile(go()).open(QIODevice::WriteOnly);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("windowed")), runs::RunState::Succeeded, 60000);
        QCOMPARE(result(QStringLiteral("windowed")), QByteArray("done 1\n")); // the same machine all along
        QVERIFY(nothingRuns());
#endif
    }

    void detachHandsTheRunToAWatcherStartedForIt()
    {
        const QString spec = writeSpec(QStringLiteral("handed"));
        const test::CliRun detached = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"),
                                                              QStringLiteral("--detach"), spec}, options());
        QVERIFY2(detached.code == 0, detached.err.constData());
        const qint64 watcher = qint64(detached.json().value(QLatin1String("watcher_pid")).toDouble());
        QVERIFY2(watcher > 0 && detached.json().value(QLatin1String("watcher_started")).toBool(), detached.out.constData());
        auto stopWatcher = qScopeGuard([watcher] { ::kill(pid_t(watcher), SIGTERM); });

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("handed")), runs::RunState::Running, 60000);
        // A second --detach of a run that has not ended is refused, and names why.
        const test::CliRun again = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--detach"), spec}, options());
        QVERIFY(again.code != 0);
        QVERIFY2(again.err.contains("handed"), again.err.constData());
        QFile(go()).open(QIODevice::WriteOnly);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("handed")), runs::RunState::Succeeded, 60000);
        QCOMPARE(result(QStringLiteral("handed")), QByteArray("done 1\n"));
        QVERIFY(nothingRuns());
        QVERIFY(QFile::exists(QDir(config()).filePath(QStringLiteral("watch.log"))));
    }
};

QTEST_GUILESS_MAIN(TestRunTakeover)
#include "test_run_takeover.moc"
