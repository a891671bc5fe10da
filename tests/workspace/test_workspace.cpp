// The one instance lifecycle (core/workspace) against the RunPod and Lambda emulators: the idle
// policy's terminate writes the ledger, honours the results guard and forgets the host; the GUI's
// path and gantry-cli leave the same ledger rows; the policy acts once, and only with the lock.
#include "clirun.h"
#include "restconfigfor.h"
#include "lambdaemulator.h"
#include "sshdfixture.h"
#include "runpodemulator.h"

#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/results.h"
#include "core/monitor/monitorservice.h"
#include "core/providers/instancehosts.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/providerhub.h"
#include "core/providers/runpodprovider.h"
#include "core/transfer/transferqueue.h"
#include "core/workspace/policylock.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/secretprefetch.h"
#include "core/workspace/workspace.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <condition_variable>
#include <mutex>

using namespace gantry;

namespace {


// Everything the GUI's AppServices builds, minus the widgets.
struct Fixture
{
    QTemporaryDir dir;
    ManualClock clock;
    test::RunPodEmulator runpod;
    test::LambdaEmulator lambda;
    providers::ProviderHub hub;
    cost::Ledger ledger{cost::Ledger::defaultPath(dir.path()), clock};
    HostStore hosts{dir.path()};
    ConnectionManager connections{&hosts, nullptr};
    transfer::TransferQueue queue{dir.path(), transfer::TransferQueue::savedHostProvider(&hosts, nullptr)};
    workspace::Workspace workspace{dir.path(), &hub, &ledger, &hosts};

    bool setUp()
    {
        runpod.bootMs = 0;
        lambda.bootMs = 0;
        if (!runpod.listen() || !lambda.listen() || !ledger.open())
            return false;
        (void)hosts.load();
        hub.addProvider(std::make_unique<providers::RunPodProvider>(test::restConfigFor(runpod)));
        hub.addProvider(std::make_unique<providers::LambdaProvider>(test::restConfigFor(lambda)));
        connections.setKnownHostsFile(dir.filePath(QStringLiteral("known_hosts")));
        workspace.setResultsHome(new workspace::ResultsHome(dir.path(), &hosts, &connections, &queue, &workspace));
        bool keyed = false;
        hub.provider(QStringLiteral("runpod"))->addSshKey(QStringLiteral("laptop"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1 me@laptop"),
                                                         [&keyed](Result<providers::SshKey> added) { keyed = added.ok(); });
        return QTest::qWaitFor([&keyed] { return keyed; }, 10000);
    }

    // Launches a running instance, records it like the launch dialog and saves its host.
    QString launch(const QString &provider, const QString &name)
    {
        providers::LaunchRequest request{provider == QLatin1String("runpod") ? QStringLiteral("NVIDIA GeForce RTX 4090") : QStringLiteral("gpu_1x_a10"),
                                         provider == QLatin1String("runpod") ? QStringLiteral("US-KS-2") : QStringLiteral("us-east-1"),
                                         QStringLiteral("laptop"), name, {}, {}, 0, 1};
        Result<QString> id = Error{ErrorCode::Generic, {}};
        hub.provider(provider)->launch(request, [&id](Result<QString> launched) { id = launched; });
        if (!QTest::qWaitFor([&id] { return id.ok(); }, 10000))
            return {};
        Result<providers::Instance> up = Error{ErrorCode::Generic, {}};
        for (int attempt = 0; attempt < 50 && !(up && up->reachable()); ++attempt) {
            bool answered = false;
            hub.provider(provider)->getInstance(*id, [&](Result<providers::Instance> got) { up = got; answered = true; });
            if (!QTest::qWaitFor([&answered] { return answered; }, 5000))
                return {};
        }
        if (!up || !ledger.recordLaunch(*up, 1.0) || !providers::rememberInstanceHost(hosts, *up, dir.path()))
            return {};
        return *id;
    }
};

// A keychain that answers only when the test opens the gate (as a Secret Service waits for an
// unlock prompt).
class GatedSecretStore final : public SecretStore
{
public:
    Result<std::optional<QString>> read(const QString &key) override
    {
        std::unique_lock lock(m_mutex);
        m_opened.wait(lock, [this] { return m_open; });
        return m_values.contains(key) ? std::optional<QString>(m_values.value(key)) : std::optional<QString>();
    }
    Result<void> write(const QString &key, const QString &secret) override
    {
        std::lock_guard lock(m_mutex);
        m_values.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        m_values.remove(key);
        return {};
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_opened.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_opened;
    bool m_open = false;
    QHash<QString, QString> m_values;
};

} // namespace

class TestWorkspace final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // no keychain prompts
    }

    // The start-up never waits for the keychain: a prefetched key reads as "none yet" at once,
    // then from memory, then (after release) from the keychain again.
    void secretPrefetchNeverWaits()
    {
        GatedSecretStore keychain;
        QVERIFY(keychain.write(QStringLiteral("provider/runpod/api-key"), QStringLiteral("old")));
        workspace::SecretPrefetch prefetch(&keychain);
        QSignalSpy ready(&prefetch, &workspace::SecretPrefetch::ready);
        prefetch.prefetch({QStringLiteral("provider/runpod/api-key")});
        QVERIFY(prefetch.isPending());
        Result<std::optional<QString>> early = prefetch.read(QStringLiteral("provider/runpod/api-key"));
        QVERIFY(early && !early->has_value()); // answered although the keychain has not
        keychain.open();
        QVERIFY(ready.wait(10000));
        QVERIFY(!prefetch.isPending());
        QCOMPARE(prefetch.read(QStringLiteral("provider/runpod/api-key"))->value_or(QString()), QStringLiteral("old"));
        QVERIFY(keychain.write(QStringLiteral("provider/runpod/api-key"), QStringLiteral("new")));
        prefetch.release();
        QCOMPARE(prefetch.read(QStringLiteral("provider/runpod/api-key"))->value_or(QString()), QStringLiteral("new"));
    }

    void idleTerminateRecordsAndForgetsTheHost()
    {
        Fixture f;
        QVERIFY(f.setUp());
        const QString id = f.launch(QStringLiteral("lambda"), QStringLiteral("idle-box"));
        QVERIFY2(!id.isEmpty(), "the Lambda emulator did not bring the instance up");
        monitor::MonitorService monitor(nullptr, {}, f.clock);
        workspace::PolicyLock lock(f.dir.path());
        workspace::PolicyRunner runner(&f.workspace, &monitor, &lock);
        runner.setIdleOverride(monitor::IdleAction::Terminate, 0, 5);
        QSignalSpy acted(&runner, &workspace::PolicyRunner::acted);
        monitor.addMachine(QStringLiteral("idle-box"), 1.0);
        monitor::IdlePolicy *policy = monitor.idlePolicy(QStringLiteral("idle-box"));
        QVERIFY(policy);
        f.clock.advanceSeconds(600);
        policy->idleDetected(QStringLiteral("idle for 10 min"));
        f.clock.advanceSeconds(5);
        policy->tick();
        runner.actionRequested(QStringLiteral("idle-box"), monitor::IdleAction::Terminate); // asked twice: acts once
        QVERIFY(acted.wait(10000));
        const auto outcome = acted.at(0).at(1).value<workspace::ActionOutcome>();
        QCOMPARE(outcome.performed, workspace::InstanceAction::Terminate);
        QVERIFY2(outcome.warnings.isEmpty(), qPrintable(outcome.warnings.join(QLatin1Char('\n'))));
        const cost::LedgerEntry entry = *f.ledger.entry(QStringLiteral("lambda"), id);
        QVERIFY(!entry.isOpen());
        QCOMPARE(entry.note, QStringLiteral("idle policy"));
        QCOMPARE(entry.billedSeconds % 60, 0); // per started minute, as Lambda bills
        QVERIFY(!f.hosts.find(QStringLiteral("idle-box")).has_value());
        QCOMPARE(acted.count(), 1);
    }

    // The unattended terminate brings the result paths home over a real SSH session first, then
    // terminates, closes the ledger row and forgets the host.
    void idleTerminateDownloadsResultsFirst()
    {
        test::SshdFixture sshd;
        if (const QString why = sshd.start(); !why.isEmpty()) {
            if (test::SshdFixture::maySkipWithoutSshd())
                QSKIP(qPrintable(why));
            QFAIL(qPrintable(why));
        }
        QTemporaryDir home; // ~/Gantry results and ~/.ssh/known_hosts of this test only
        const QByteArray realHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        auto restoreHome = qScopeGuard([&realHome] { qputenv("HOME", realHome); });
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".ssh")));
        QVERIFY(QFile::copy(sshd.knownHostsPath(), home.filePath(QStringLiteral(".ssh/known_hosts"))));
        const QString outputs = sshd.dir() + QStringLiteral("/outputs");
        QVERIFY(QDir().mkpath(outputs));
        test::writeRandom(outputs + QStringLiteral("/model.pt"), 300000);

        Fixture f;
        QVERIFY(f.setUp());
        f.connections.setKnownHostsFile(sshd.knownHostsPath());
        const QString id = f.launch(QStringLiteral("lambda"), QStringLiteral("results-box"));
        QVERIFY(!id.isEmpty());
        SavedHost saved = *f.hosts.find(QStringLiteral("results-box"));
        saved.target = sshd.target(); // the instance's SSH is the real sshd
        QVERIFY(f.hosts.update(saved));
        QVERIFY(jobs::ResultPathStore(f.dir.path()).setPatterns(QStringLiteral("results-box"), {outputs + QLatin1Char('/')}));

        workspace::ActionOptions unattended;
        unattended.unattended = true;
        unattended.note = QStringLiteral("idle policy");
        Result<workspace::ActionOutcome> outcome = Error{ErrorCode::Generic, {}};
        bool done = false;
        f.workspace.terminate(QStringLiteral("lambda"), id, unattended, [&](Result<workspace::ActionOutcome> r) { outcome = r; done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 60000));
        QVERIFY2(outcome, qPrintable(outcome ? QString() : outcome.error().message));
        QCOMPARE(outcome->performed, workspace::InstanceAction::Terminate);
        const QString home_ = home.filePath(QStringLiteral("Gantry results/results-box"));
        QDirIterator found(home_, {QStringLiteral("model.pt")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY2(found.hasNext(), qPrintable(home_));
        QCOMPARE(QFileInfo(found.next()).size(), qint64(300000));
        QVERIFY(!f.ledger.entry(QStringLiteral("lambda"), id)->isOpen());
        QVERIFY(!f.hosts.find(QStringLiteral("results-box")).has_value());
    }

    void failedResultsDownloadStopsInsteadOfTerminating()
    {
        Fixture f;
        QVERIFY(f.setUp());
        const QString id = f.launch(QStringLiteral("runpod"), QStringLiteral("pod-box"));
        QVERIFY2(!id.isEmpty(), "the RunPod emulator did not bring the pod up");
        // The pod's SSH port has no server: the results cannot come home.
        QVERIFY(jobs::ResultPathStore(f.dir.path()).setPatterns(QStringLiteral("pod-box"), {QStringLiteral("outputs/")}));
        workspace::ActionOptions unattended;
        unattended.unattended = true;
        Result<workspace::ActionOutcome> outcome = Error{ErrorCode::Generic, {}};
        bool done = false;
        f.workspace.terminate(QStringLiteral("runpod"), id, unattended, [&](Result<workspace::ActionOutcome> r) { outcome = r; done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 60000));
        QVERIFY2(outcome, qPrintable(outcome ? QString() : outcome.error().message));
        QCOMPARE(outcome->requested, workspace::InstanceAction::Terminate);
        QCOMPARE(outcome->performed, workspace::InstanceAction::Stop);
        QVERIFY2(outcome->message.contains(QStringLiteral("stopped instead")), qPrintable(outcome->message));
        QCOMPARE(f.ledger.entry(QStringLiteral("runpod"), id)->state, QStringLiteral("stopped"));
        QVERIFY(f.hosts.find(QStringLiteral("pod-box")).has_value()); // kept: the results are still there

        // Lambda cannot stop: nothing happens, and the error says it keeps billing.
        const QString lambdaId = f.launch(QStringLiteral("lambda"), QStringLiteral("lambda-box"));
        QVERIFY(jobs::ResultPathStore(f.dir.path()).setPatterns(QStringLiteral("lambda-box"), {QStringLiteral("outputs/")}));
        done = false;
        f.workspace.terminate(QStringLiteral("lambda"), lambdaId, unattended, [&](Result<workspace::ActionOutcome> r) { outcome = r; done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 60000));
        QVERIFY(!outcome);
        QVERIFY2(outcome.error().message.contains(QStringLiteral("keeps billing")), qPrintable(outcome.error().message));
        QVERIFY(f.ledger.entry(QStringLiteral("lambda"), lambdaId)->isOpen());
    }

    // The watcher a closing window or `run start --detach` leaves behind: a plain detached process,
    // or, where the user's systemd runs, the same command in a named scope of it (one per config
    // folder), which keeps the caller's environment and is stopped with systemctl --user.
    void watcherStartsInAUserScopeWhereSystemdRuns()
    {
        const QStringList plain = workspace::PolicyLock::watcherCommand(QStringLiteral("/home/u/.config/gantry"), QStringLiteral("/usr/bin/gantry-cli"), false);
        QCOMPARE(plain, (QStringList{QStringLiteral("/usr/bin/gantry-cli"), QStringLiteral("--config-dir"), QStringLiteral("/home/u/.config/gantry"),
                                     QStringLiteral("watch")}));
        const QStringList scoped = workspace::PolicyLock::watcherCommand(QStringLiteral("/home/u/.config/gantry"), QStringLiteral("/usr/bin/gantry-cli"), true);
        QCOMPARE(scoped.mid(0, 5), (QStringList{QStringLiteral("systemd-run"), QStringLiteral("--user"), QStringLiteral("--scope"),
                                                QStringLiteral("--quiet"), QStringLiteral("--collect")}));
        QVERIFY2(scoped.at(5).startsWith(QLatin1String("--unit=gantry-watch-")) && scoped.at(5).size() == int(strlen("--unit=gantry-watch-")) + 12,
                 qPrintable(scoped.at(5)));
        QCOMPARE(scoped.mid(scoped.indexOf(QStringLiteral("--")) + 1), plain);
        const QStringList other = workspace::PolicyLock::watcherCommand(QStringLiteral("/tmp/other"), QStringLiteral("/usr/bin/gantry-cli"), true);
        QVERIFY(other.at(5) != scoped.at(5)); // one watcher per config folder
    }

    void policyDefersToTheLockOwner()
    {
        Fixture f;
        QVERIFY(f.setUp());
        const QString id = f.launch(QStringLiteral("lambda"), QStringLiteral("owned-box"));
        QVERIFY(!id.isEmpty());
        workspace::PolicyLock watcher(f.dir.path());
        QVERIFY(watcher.tryAcquire());
        workspace::PolicyLock gui(f.dir.path());
        workspace::PolicyRunner runner(&f.workspace, nullptr, &gui);
        QSignalSpy deferred(&runner, &workspace::PolicyRunner::deferred);
        QSignalSpy acted(&runner, &workspace::PolicyRunner::acted);
        runner.actionRequested(QStringLiteral("owned-box"), monitor::IdleAction::Terminate);
        QCOMPARE(deferred.count(), 1);
        QVERIFY2(deferred.at(0).at(1).toString().contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(deferred.at(0).at(1).toString()));
        QVERIFY(f.ledger.entry(QStringLiteral("lambda"), id)->isOpen());
        watcher.release(); // the watcher exits: the next request is acted on
        runner.actionRequested(QStringLiteral("owned-box"), monitor::IdleAction::Terminate);
        QVERIFY(acted.wait(10000));
        QVERIFY(!f.ledger.entry(QStringLiteral("lambda"), id)->isOpen());
    }

    // gantry-cli watch as a service runs it: one JSON line per event; the first watcher owns the
    // policy, a second one defers to it and says who owns it.
    void watchCliOwnsThePolicyOnce()
    {
        QTemporaryDir dir;
        auto startWatch = [&dir](QProcess &process) -> QJsonObject {
            test::RunOptions options;
            for (const char *name : {"DBUS_SESSION_BUS_ADDRESS", "GANTRY_RUNPOD_API_KEY", "GANTRY_LAMBDA_API_KEY"})
                options.env.remove(QString::fromLatin1(name));
            test::startCli(process, dir.path(), {QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--idle-action"),
                                                 QStringLiteral("stop"), QStringLiteral("--idle-minutes"), QStringLiteral("30")}, options);
            while (!process.canReadLine() && process.waitForReadyRead(30000)) {
            }
            return QJsonDocument::fromJson(process.readLine()).object();
        };
        QProcess first;
        QProcess second;
        auto stop = qScopeGuard([&] {
            for (QProcess *process : {&first, &second}) {
                process->kill();
                process->waitForFinished(10000);
            }
        });
        const QJsonObject owner = startWatch(first);
        QCOMPARE(owner.value(QStringLiteral("event")).toString(), QStringLiteral("watching"));
        QCOMPARE(owner.value(QStringLiteral("owner")).toBool(), true);
        QCOMPARE(owner.value(QStringLiteral("idle_action")).toString(), QStringLiteral("stop"));
        QCOMPARE(owner.value(QStringLiteral("desktop_notifications")).toBool(), false); // no session bus here
        const QJsonObject deferring = startWatch(second);
        QCOMPARE(deferring.value(QStringLiteral("event")).toString(), QStringLiteral("watching"));
        QCOMPARE(deferring.value(QStringLiteral("owner")).toBool(), false);
        QVERIFY2(deferring.value(QStringLiteral("message")).toString().contains(QString::number(first.processId())),
                 qPrintable(deferring.value(QStringLiteral("message")).toString()));
    }

    // The window and gantry-cli save hosts into one hosts.json: a change made through a store that
    // read the file before the other's save keeps what the other saved (the window once wrote its
    // older copy over a host `gantry-cli hosts add` had just saved), and the window then shows it.
    void hostsSavedByAnotherGantryAreKept()
    {
        QTemporaryDir dir;
        HostStore window(dir.path()), cli(dir.path());
        QVERIFY(window.load() && cli.load());
        const auto host = [](const QString &name) {
            SavedHost saved;
            saved.name = name;
            saved.target.host = QStringLiteral("192.0.2.1");
            saved.target.user = QStringLiteral("me");
            return saved;
        };
        QVERIFY(cli.add(host(QStringLiteral("cli-host"))));
        QVERIFY(window.add(host(QStringLiteral("gui-host")))); // its copy predates cli-host
        HostStore after(dir.path());
        QVERIFY(after.load());
        QVERIFY(after.find(QStringLiteral("cli-host")) && after.find(QStringLiteral("gui-host")));
        QVERIFY(window.find(QStringLiteral("cli-host")));
        QVERIFY(cli.remove(QStringLiteral("gui-host"))); // the CLI's copy predates gui-host
        QVERIFY(window.remove(QStringLiteral("cli-host")));
        QVERIFY(after.load());
        QVERIFY(after.hosts().isEmpty());

        // A name taken in the file only is refused by name, and the window shows the file's host.
        QVERIFY(cli.add(host(QStringLiteral("box"))));
        QSignalSpy changed(&window, &HostStore::changed);
        const Result<void> taken = window.add(host(QStringLiteral("box")));
        QVERIFY(!taken);
        QCOMPARE(taken.error().code, ErrorCode::Conflict);
        QVERIFY(window.find(QStringLiteral("box")));
        QCOMPARE(changed.count(), 1);
    }

    void guiPathAndCliLeaveIdenticalRows()
    {
        Fixture f;
        QVERIFY(f.setUp());
        const QString viaWorkspace = f.launch(QStringLiteral("runpod"), QStringLiteral("gui-pod"));
        const QString viaCli = f.launch(QStringLiteral("runpod"), QStringLiteral("cli-pod"));
        QVERIFY(!viaWorkspace.isEmpty() && !viaCli.isEmpty());
        bool done = false;
        f.workspace.stop(QStringLiteral("runpod"), viaWorkspace, {}, [&done](Result<workspace::ActionOutcome>) { done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 10000));

        QProcess cli;
        test::RunOptions options;
        options.env.insert(QStringLiteral("GANTRY_RUNPOD_API_KEY"), QStringLiteral("test-key"));
        options.env.insert(QStringLiteral("GANTRY_RUNPOD_ENDPOINT"), f.runpod.baseUrl());
        options.env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        QSignalSpy finished(&cli, &QProcess::finished);
        test::startCli(cli, f.dir.path(), {QStringLiteral("stop"), viaCli, QStringLiteral("--provider"), QStringLiteral("runpod")}, options);
        QVERIFY(finished.wait(60000)); // the emulator answers from this event loop meanwhile
        const test::CliRun stopped = test::finish(cli);
        QVERIFY2(stopped.code == 0, stopped.err.constData());

        const cost::LedgerEntry gui = *f.ledger.entry(QStringLiteral("runpod"), viaWorkspace);
        const cost::LedgerEntry line = *f.ledger.entry(QStringLiteral("runpod"), viaCli);
        QCOMPARE(line.state, gui.state);
        QCOMPARE(line.note, gui.note);
        QCOMPARE(line.billingIncrementSeconds, gui.billingIncrementSeconds);
        QCOMPARE(line.stoppedAt.isValid(), gui.stoppedAt.isValid());
        QCOMPARE(line.isOpen(), gui.isOpen());
        QCOMPARE(f.hosts.find(QStringLiteral("cli-pod")).has_value(), f.hosts.find(QStringLiteral("gui-pod")).has_value());
    }

    // The host of an instance launched with the user's own key logs in with that key (not with
    // Gantry's, which the instance does not accept); a later listing keeps it so.
    void launchedHostLogsInWithTheChosenKey()
    {
        Fixture f;
        QVERIFY(f.setUp());
        const QString key = f.dir.filePath(QStringLiteral("id_mine"));
        QFile file(key);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        f.workspace.setLaunchTiming(20, 1, 20);
        workspace::LaunchOptions options;
        options.identityFile = key;
        providers::LaunchRequest request;
        request.typeName = QStringLiteral("gpu_1x_a10");
        request.region = QStringLiteral("us-east-1");
        request.sshKeyName = QStringLiteral("laptop");
        request.name = QStringLiteral("mine");
        std::optional<Result<workspace::ReadyInstance>> ready;
        f.workspace.launch(QStringLiteral("lambda"), request, options, [](Result<workspace::LaunchedInstance>) {},
                           [&ready](Result<workspace::ReadyInstance> up) { ready = up; });
        QVERIFY(QTest::qWaitFor([&ready] { return ready.has_value(); }, 20000));
        QVERIFY2(*ready, ready->ok() ? "" : qPrintable(ready->error().message));
        const QString host = (*ready)->hostName;
        QCOMPARE(f.hosts.find(host)->target.identityFiles, QStringList{key});

        f.workspace.reconcile(QStringLiteral("lambda"), {(*ready)->instance});
        QCOMPARE(f.hosts.find(host)->target.identityFiles, QStringList{key});
    }
};

QTEST_MAIN(TestWorkspace)
#include "test_workspace.moc"
