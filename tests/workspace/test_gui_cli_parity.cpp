// The same operation from the GUI's code and from gantry-cli leaves identical ledger rows: the
// GUI's AppServices (gantry_app_gui) with its InstancesPanel, terminate guard and ledger, against
// the RunPod emulator, beside a gantry-cli process on the same config directory.
#include "runpodemulator.h"

#include "app/gui/appservices.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "ui/providers/instancespanel.h"
#include "ui/providers/instancesmodel.h"
#include "core/providers/providerhub.h"
#include "ui/shell/mainwindow.h"
#include "core/util/secretstore.h"

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
        m_runpod.bootMs = 0;
        QVERIFY(m_runpod.listen());
        // The GUI finds the account as a user's environment gives it (before any keychain).
        qputenv("GANTRY_RUNPOD_API_KEY", "test-key");
        qputenv("GANTRY_RUNPOD_ENDPOINT", m_runpod.baseUrl().toUtf8());
    }

    void stopAndTerminateLeaveTheSameRows()
    {
        QTemporaryDir dir;
        auto secrets = makeMemorySecretStore();
        ui::MainWindow window(dir.path(), secrets.get());
        auto *services = new app::AppServices(&window, secrets.get());
        ui::InstancesPanel *panel = services->instances();
        QVERIFY(services->providers()->provider(QStringLiteral("runpod")));
        panel->setConfirmer([](const QString &, const QString &) { return true; });
        bool keyed = false;
        services->providers()->provider(QStringLiteral("runpod"))->addSshKey(
            QStringLiteral("laptop"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1 me@laptop"),
            [&keyed](Result<providers::SshKey> added) { keyed = added.ok(); });
        QTRY_VERIFY_WITH_TIMEOUT(keyed, 10000);

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
    // As the launch dialog does: launch, then the panel tracks it into the ledger and saved hosts.
    QString launch(app::AppServices &services, ui::InstancesPanel &panel, const QString &name)
    {
        providers::LaunchRequest request{QStringLiteral("NVIDIA GeForce RTX 4090"), QStringLiteral("US-KS-2"),
                                         QStringLiteral("laptop"), name, {}, {}, 0, 1};
        Result<QString> id = Error{ErrorCode::Generic, {}};
        bool answered = false;
        services.providers()->provider(QStringLiteral("runpod"))->launch(request, [&](Result<QString> launched) {
            id = launched;
            answered = true;
        });
        if (!QTest::qWaitFor([&answered] { return answered; }, 10000) || !id) {
            qWarning("launch: %s", qPrintable(id ? QString() : id.error().message));
            return {};
        }
        QSignalSpy ready(&panel, &ui::InstancesPanel::hostReady);
        panel.trackLaunch(QStringLiteral("runpod"), *id, 0.69, request);
        if (!ready.wait(15000))
            return {};
        return *id;
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

    bool runCli(const QString &configDir, const QStringList &arguments)
    {
        QProcess cli;
        QSignalSpy finished(&cli, &QProcess::finished);
        cli.start(QStringLiteral(GANTRY_CLI_PATH), QStringList{QStringLiteral("--config-dir"), configDir} + arguments);
        if (!finished.wait(60000)) // the emulator answers from this event loop meanwhile
            return false;
        if (cli.exitCode() != 0)
            qWarning("%s", cli.readAllStandardError().constData());
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

    test::RunPodEmulator m_runpod;
};

QTEST_MAIN(TestGuiCliParity)
#include "test_gui_cli_parity.moc"
