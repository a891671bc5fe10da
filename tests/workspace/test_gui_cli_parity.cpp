// The same operation from the GUI's code and from gantry-cli leaves identical rows: the GUI's
// AppServices (gantry_app_gui) with its panels, dialogs, terminate guard and ledger, against the
// RunPod and Lambda emulators, beside a gantry-cli process on the same config directory — for
// instance lifecycle, launch (a lost answer adopted), saved hosts (~/.ssh/config followed),
// clusters (one rule for a partial terminate) and sync pairs (one list, watches owned by the core).
#include "lambdaemulator.h"
#include "runpodemulator.h"

#include "app/gui/appservices.h"
#include "core/cluster/cluster.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/sync/syncpairs.h"
#include "core/sync/syncservice.h"
#include "ui/cluster/clusterspanel.h"
#include "ui/providers/launchdialog.h"
#include "ui/providers/instancespanel.h"
#include "ui/providers/instancesmodel.h"
#include "core/providers/providerhub.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"
#include "core/util/secretstore.h"

#include <QComboBox>
#include <QFile>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

class TestGuiCliParity final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // no keychain, no desktop
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8()); // ~/.ssh/config of this test, for the GUI and gantry-cli alike
        m_runpod.bootMs = 0;
        QVERIFY(m_runpod.listen());
        m_lambda.bootMs = 0;
        QVERIFY(m_lambda.listen());
        // The GUI finds the accounts as a user's environment gives them (before any keychain).
        qputenv("GANTRY_RUNPOD_API_KEY", "test-key");
        qputenv("GANTRY_RUNPOD_ENDPOINT", m_runpod.baseUrl().toUtf8());
        qputenv("GANTRY_LAMBDA_API_KEY", "test-key");
        qputenv("GANTRY_LAMBDA_ENDPOINT", m_lambda.baseUrl().toUtf8());
    }

    // Lambda creates the instance but its answer is lost (a 502 from the gateway after the work
    // was done). The GUI's Launch dialog and gantry-cli launch both find it by its name and adopt
    // it: the same ledger row, and a saved host once it is up — nothing bills unseen.
    void lostLaunchAnswerIsAdoptedAlike()
    {
        QTemporaryDir dir;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(dir.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        auto *services = new app::AppServices(&window, &core);
        services->workspace()->setLaunchTiming(50, 0, 50);
        QVERIFY(services->providers()->provider(QStringLiteral("lambda")));

        services->openLaunchDialog(QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"));
        auto *dialog = window.findChild<ui::LaunchDialog *>();
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &ui::LaunchDialog::loaded);
        QVERIFY(loaded.count() > 0 || loaded.wait(10000));
        QTRY_COMPARE_WITH_TIMEOUT(dialog->findChild<QComboBox *>(QStringLiteral("type"))->currentData().toString(),
                                  QStringLiteral("gpu_1x_a10"), 5000);
        auto *region = dialog->findChild<QComboBox *>(QStringLiteral("region"));
        region->setCurrentIndex(region->findData(QStringLiteral("us-east-1")));
        QCOMPARE(region->currentData().toString(), QStringLiteral("us-east-1"));
        auto *key = dialog->findChild<QComboBox *>(QStringLiteral("sshKey"));
        key->setCurrentIndex(key->findData(QStringLiteral("laptop")));
        dialog->findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("gui-box"));
        m_lambda.addFault(lostLaunchAnswer());
        QSignalSpy launched(dialog, &ui::LaunchDialog::launched);
        QSignalSpy ready(services->workspace(), &workspace::Workspace::instanceReady);
        dialog->launch();
        QVERIFY(launched.wait(15000));
        const auto gui = launched.at(0).at(0).value<workspace::LaunchedInstance>();
        QVERIFY2(gui.adopted, qPrintable(gui.note));
        QVERIFY(ready.wait(15000));

        m_lambda.addFault(lostLaunchAnswer());
        QProcess cli;
        QSignalSpy finished(&cli, &QProcess::finished);
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), dir.path(), QStringLiteral("--json"),
                                                    QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("lambda"),
                                                    QStringLiteral("--type"), QStringLiteral("gpu_1x_a10"), QStringLiteral("--region"),
                                                    QStringLiteral("us-east-1"), QStringLiteral("--ssh-key"), QStringLiteral("laptop"),
                                                    QStringLiteral("--name"), QStringLiteral("cli-box"), QStringLiteral("--wait"),
                                                    QStringLiteral("--timeout"), QStringLiteral("60")});
        QVERIFY(finished.wait(60000)); // the emulator answers from this event loop meanwhile
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, err.constData());
        QVERIFY2(err.contains("adopted"), err.constData());
        const QString cliId = QJsonDocument::fromJson(cli.readAllStandardOutput().trimmed().split('\n').constLast())
                                  .object().value(QStringLiteral("id")).toString();
        QVERIFY(!cliId.isEmpty());
        QCOMPARE(m_lambda.instanceCount(), 2); // one machine each: nothing launched twice

        const Result<cost::LedgerEntry> guiRow = services->ledger()->entry(QStringLiteral("lambda"), gui.instanceId);
        const Result<cost::LedgerEntry> cliRow = services->ledger()->entry(QStringLiteral("lambda"), cliId);
        QVERIFY(guiRow && cliRow);
        QVERIFY(guiRow->isOpen());
        compareRows(*guiRow, *cliRow);
        HostStore hosts(dir.path());
        QVERIFY(hosts.load());
        QCOMPARE(hosts.find(QStringLiteral("gui-box"))->instanceId, gui.instanceId);
        QCOMPARE(hosts.find(QStringLiteral("cli-box"))->instanceId, cliId);
    }

    // A saved host added or removed from either front end is followed by the managed ~/.ssh/config
    // block (gantry-cli hosts add/remove used to leave it stale).
    void hostsFollowSshConfigOnEveryPath()
    {
        QTemporaryDir dir;
        QVERIFY(sshconfig::setSyncEnabled(dir.path(), true));
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(dir.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        new app::AppServices(&window, &core);
        SavedHost gui;
        gui.name = QStringLiteral("gui-host");
        gui.target.host = QStringLiteral("192.0.2.10");
        gui.target.user = QStringLiteral("me");
        QVERIFY(window.hosts()->add(gui));
        QVERIFY2(sshConfig().contains("gui-host"), sshConfig().constData());

        QVERIFY(runCli(dir.path(), {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("cli-host"), QStringLiteral("me@192.0.2.11")}));
        QVERIFY2(sshConfig().contains("cli-host"), sshConfig().constData());
        QVERIFY(runCli(dir.path(), {QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("cli-host")}));
        QVERIFY2(!sshConfig().contains("cli-host"), sshConfig().constData());
        QVERIFY(sshConfig().contains("gui-host"));
    }

    // The folder pairs the Files tab remembers are the application core's: gantry-cli lists what
    // the GUI remembered, the GUI does not bring back what the CLI forgot, and a pair kept in sync
    // is resumed by the core when it opens — before (and without) any Files tab.
    void syncPairsAreOneListForGuiAndCli()
    {
        QTemporaryDir dir, local, other;
        const sync::SyncPair kept{QStringLiteral("gone-box"), QDir(other.path()).canonicalPath(), QStringLiteral("run"), false, true};
        QVERIFY(sync::SyncPairStore(dir.path()).save({kept}));
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(dir.path(), secrets.get());
        core.open();
        // No saved host of that name: the core's watch says so instead of waiting for a tab.
        QTRY_COMPARE(core.syncPairs()->status(kept).state, sync::SyncService::State::Failed);
        QVERIFY2(core.syncPairs()->status(kept).message.contains(QStringLiteral("gone-box")),
                 qPrintable(core.syncPairs()->status(kept).message));

        const sync::SyncPair pair{QStringLiteral("box"), QDir(local.path()).canonicalPath(), QStringLiteral("data"), false, false};
        QVERIFY(core.syncPairs()->remember(pair));
        QByteArray listed;
        QVERIFY(runCli(dir.path(), {QStringLiteral("--json"), QStringLiteral("sync"), QStringLiteral("--list"), QStringLiteral("box")}, &listed));
        const QJsonArray pairs = QJsonDocument::fromJson(listed.trimmed()).object().value(QStringLiteral("pairs")).toArray();
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs.first().toObject().value(QStringLiteral("local")).toString(), pair.localDir);

        QVERIFY(runCli(dir.path(), {QStringLiteral("sync"), QStringLiteral("--forget"), pair.localDir, QStringLiteral("box:data")}));
        QVERIFY(core.syncPairs()->setKeepInSync(kept, false)); // any later save of the GUI's list
        const auto stored = sync::SyncPairStore(dir.path()).load();
        QVERIFY(stored);
        QCOMPARE(stored->size(), 1);
        QVERIFY(stored->first().sameAs(kept));
    }

    // A cluster whose terminate fails on one node: the GUI's Clusters view and gantry-cli cluster
    // terminate keep that node on record (it may still bill) and forget the ones that went.
    void partialClusterTerminateKeepsTheFailedNodeAlike()
    {
        QTemporaryDir dir;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(dir.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        auto *services = new app::AppServices(&window, &core);
        auto *panel = window.findChild<ui::ClustersPanel *>();
        QVERIFY(panel);
        panel->setConfirm([](const QString &) { return true; });
        addKey(*services);
        cluster::ClusterStore store(dir.path());
        QVERIFY(store.load());
        for (const QString &name : {QStringLiteral("gui-c"), QStringLiteral("cli-c")}) {
            const QString id = launchPod(*services, name + QStringLiteral("-0"));
            QVERIFY(!id.isEmpty());
            cluster::Cluster c;
            c.name = name;
            c.provider = QStringLiteral("runpod");
            c.created = QDateTime::currentDateTimeUtc();
            c.nodes = {cluster::ClusterNode{{}, QStringLiteral("runpod"), id, {}, {}, {}, 0.69},
                       cluster::ClusterNode{{}, QStringLiteral("runpod"), QStringLiteral("gone-") + name, {}, {}, {}, 0.69}};
            QVERIFY(store.add(c));
        }
        panel->reload();
        panel->selectCluster(QStringLiteral("gui-c"));
        QCOMPARE(panel->selectedCluster(), QStringLiteral("gui-c"));
        QSignalSpy terminated(panel, &ui::ClustersPanel::terminated);
        panel->terminateSelected();
        QVERIFY(terminated.wait(15000));

        QProcess cli;
        QSignalSpy finished(&cli, &QProcess::finished);
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), dir.path(), QStringLiteral("cluster"),
                                                    QStringLiteral("terminate"), QStringLiteral("cli-c"), QStringLiteral("--yes")});
        QVERIFY(finished.wait(60000));
        QCOMPARE(cli.exitCode(), 5 /* a provider failure: one node is left */);

        cluster::ClusterStore after(dir.path());
        QVERIFY(after.load());
        for (const QString &name : {QStringLiteral("gui-c"), QStringLiteral("cli-c")}) {
            const std::optional<cluster::Cluster> left = after.find(name);
            QVERIFY2(left.has_value(), qPrintable(name));
            QCOMPARE(left->nodes.size(), 1);
            QCOMPARE(left->nodes.first().instanceId, QStringLiteral("gone-") + name);
        }
        QCOMPARE(panel->selectedCluster(), QStringLiteral("gui-c")); // still where the user can try again
    }

    void stopAndTerminateLeaveTheSameRows()
    {
        QTemporaryDir dir;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(dir.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        auto *services = new app::AppServices(&window, &core);
        ui::InstancesPanel *panel = services->instances();
        QVERIFY(services->providers()->provider(QStringLiteral("runpod")));
        panel->setConfirmer([](const QString &, const QString &) { return true; });
        addKey(*services);

        const QString gui = launch(*services, *panel, QStringLiteral("gui-pod"));
        const QString cli = launch(*services, *panel, QStringLiteral("cli-pod"));
        QVERIFY(!gui.isEmpty() && !cli.isEmpty());

        for (const QString &action : {QStringLiteral("stop"), QStringLiteral("terminate")}) {
            const QString wanted = action == QLatin1String("stop") ? QStringLiteral("stopped") : QStringLiteral("terminated");
            QVERIFY(select(*panel, gui));
            panel->act(action);
            QTRY_COMPARE_WITH_TIMEOUT(services->ledger()->entry(QStringLiteral("runpod"), gui)->state, wanted, 15000);
            // --yes: the CLI's answer to the question the GUI's confirmer answered.
            QVERIFY2(runCli(dir.path(), {action, cli, QStringLiteral("--provider"), QStringLiteral("runpod"), QStringLiteral("--yes")}),
                     qPrintable(action));
            compareRows(*services->ledger()->entry(QStringLiteral("runpod"), gui),
                        *services->ledger()->entry(QStringLiteral("runpod"), cli));
        }
        HostStore hosts(dir.path());
        QVERIFY(hosts.load());
        QCOMPARE(hosts.find(QStringLiteral("cli-pod")).has_value(), hosts.find(QStringLiteral("gui-pod")).has_value());
    }

private:
    // As the launch dialog does: the workspace launches, records and follows it into a saved host.
    QString launch(app::AppServices &services, ui::InstancesPanel &panel, const QString &name)
    {
        QSignalSpy ready(&panel, &ui::InstancesPanel::hostReady);
        const QString id = launchPod(services, name);
        if (id.isEmpty() || !ready.wait(30000))
            return {};
        return id;
    }

    QString launchPod(app::AppServices &services, const QString &name)
    {
        providers::LaunchRequest request{QStringLiteral("NVIDIA GeForce RTX 4090"), QStringLiteral("US-KS-2"),
                                         QStringLiteral("laptop"), name, {}, {}, 0, 1};
        workspace::LaunchOptions options;
        options.pricePerHour = 0.69;
        Result<workspace::LaunchedInstance> launched = Error{ErrorCode::Generic, QStringLiteral("no answer")};
        bool answered = false;
        services.workspace()->launch(QStringLiteral("runpod"), request, options, [&](Result<workspace::LaunchedInstance> result) {
            launched = result;
            answered = true;
        });
        if (!QTest::qWaitFor([&answered] { return answered; }, 10000) || !launched) {
            qWarning("launch: %s", qPrintable(launched ? QString() : launched.error().message));
            return {};
        }
        return launched->instanceId;
    }

    static void addKey(app::AppServices &services)
    {
        bool keyed = false;
        services.providers()->provider(QStringLiteral("runpod"))->addSshKey(
            QStringLiteral("laptop"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1 me@laptop"),
            [&keyed](Result<providers::SshKey> added) { keyed = added.ok(); });
        QTRY_VERIFY_WITH_TIMEOUT(keyed, 10000);
    }

    static test::Fault lostLaunchAnswer()
    {
        test::Fault fault;
        fault.pathContains = QStringLiteral("/launch");
        fault.method = "POST";
        fault.status = 502;
        fault.afterHandling = true;
        return fault;
    }

    QByteArray sshConfig() const
    {
        QFile file(m_home.filePath(QStringLiteral(".ssh/config")));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    bool select(ui::InstancesPanel &panel, const QString &id)
    {
        auto *view = panel.findChild<QTableView *>();
        return QTest::qWaitFor([&] {
            QAbstractItemModel *model = view->model();
            for (int row = 0; row < model->rowCount(); ++row) {
                const QModelIndex index = model->index(row, 0);
                if (index.data(ui::InstancesModel::InstanceIdRole).toString() == id) {
                    view->setCurrentIndex(index);
                    return true;
                }
            }
            panel.refresh();
            return false;
        }, 15000);
    }

    bool runCli(const QString &configDir, const QStringList &arguments, QByteArray *output = nullptr)
    {
        QProcess cli;
        QSignalSpy finished(&cli, &QProcess::finished);
        cli.start(QStringLiteral(GANTRY_CLI_PATH), QStringList{QStringLiteral("--config-dir"), configDir} + arguments);
        if (!finished.wait(60000)) // the emulator answers from this event loop meanwhile
            return false;
        if (cli.exitCode() != 0)
            qWarning("%s", cli.readAllStandardError().constData());
        if (output)
            *output = cli.readAllStandardOutput();
        return cli.exitCode() == 0;
    }

    static void compareRows(const cost::LedgerEntry &gui, const cost::LedgerEntry &cli)
    {
        QCOMPARE(cli.state, gui.state);
        QCOMPARE(cli.note, gui.note);
        QCOMPARE(cli.pricePerHour, gui.pricePerHour);
        QCOMPARE(cli.typeName, gui.typeName);
        QCOMPARE(cli.region, gui.region);
        QCOMPARE(cli.billingIncrementSeconds, gui.billingIncrementSeconds);
        QCOMPARE(cli.stoppedAt.isValid(), gui.stoppedAt.isValid());
        QCOMPARE(cli.terminatedAt.isValid(), gui.terminatedAt.isValid());
        QCOMPARE(cli.isOpen(), gui.isOpen());
    }

    QTemporaryDir m_home;
    test::RunPodEmulator m_runpod;
    test::LambdaEmulator m_lambda;
};

QTEST_MAIN(TestGuiCliParity)
#include "test_gui_cli_parity.moc"
