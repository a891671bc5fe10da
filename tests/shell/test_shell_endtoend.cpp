// What a user does in the first ten minutes, end to end in the real window with the real
// services (AppServices and the shell wiring, as gantry builds them) and the sandbox's real sshd:
// launch a simulated-GPU sandbox → it connects → Ctrl+U uploads a file → Monitor shows the
// simulated GPU → run a job and stop it → terminate it from Instances. Dialogs are the real ones,
// answered by the test as a user would; only the file chooser is injected (a native dialog).
// A stall watchdog runs from start-up on: any wait of the GUI thread over 100 ms fails the test,
// once with a keyring stand-in and once on a desktop where no Secret Service answers.
#include "app/gui/appservices.h"
#include "app/gui/shellwiring.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "ui/jobs/boundedlogview.h"
#include "ui/jobs/joblistmodel.h"
#include "ui/jobs/jobstab.h"
#include "ui/jobs/runjobdialog.h"
#include "ui/monitor/gpunowpanel.h"
#include "ui/monitor/monitortab.h"
#include "ui/providers/instancesmodel.h"
#include "core/providers/await.h"
#include "ui/providers/instancespanel.h"
#include "core/providers/providerhub.h"
#include "ui/shell/machinetablemodel.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/welcomepage.h"
#include "ui/transfer/filestab.h"
#include "core/util/secretstore.h"

#include "stallwatchdog.h"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace gantry;

namespace {

// Answers every modal dialog that comes up while it lives, the way the user in this test would:
// the Run job dialog gets a command, question boxes get Yes. The texts asked are kept.
class DialogAnswerer final : public QObject
{
public:
    explicit DialogAnswerer(QString jobName, QString command) : m_jobName(std::move(jobName)), m_command(std::move(command))
    {
        connect(&m_timer, &QTimer::timeout, this, &DialogAnswerer::answer);
        m_timer.start(20);
    }
    QStringList asked;

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            asked << box->text();
            if (QAbstractButton *yes = box->button(QMessageBox::Yes))
                yes->click();
            else
                box->reject(); // not a question the test expects: the assertions say so
        } else if (auto *run = qobject_cast<ui::RunJobDialog *>(modal)) {
            asked << QStringLiteral("run job");
            run->nameEdit()->setText(m_jobName);
            run->commandEdit()->setPlainText(m_command);
            run->accept();
        }
    }
    QString m_jobName;
    QString m_command;
    QTimer m_timer;
};

template<typename T> T *childOf(QObject *parent)
{
    T *child = parent->findChild<T *>();
    if (!child)
        qFatal("no %s in the window", T::staticMetaObject.className());
    return child;
}

QPushButton *buttonWithText(QWidget *parent, const QString &text)
{
    for (QPushButton *button : parent->findChildren<QPushButton *>()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}

void showTab(ui::MainWindow &window, QWidget *tab)
{
    for (QTabWidget *tabs : window.findChildren<QTabWidget *>()) {
        if (const int index = tabs->indexOf(tab); index >= 0)
            tabs->setCurrentIndex(index);
    }
}

// Leaves no sshd behind when an assertion stops the test half-way (its destructor runs on return).
struct SandboxSweep
{
    providers::Provider *sandbox;
    ~SandboxSweep()
    {
        auto instances = providers::await<QList<providers::Instance>>([this](auto done) { sandbox->listInstances(done); });
        for (const providers::Instance &instance : instances ? *instances : QList<providers::Instance>()) {
            if (!providers::isGone(instance.state))
                (void)providers::await<void>([&](auto done) { sandbox->terminate(instance.id, done); });
        }
    }
};

} // namespace

class TestShellEndToEnd : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // No Secret Service on this session's bus (set before the first sessionBus()).
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/gantry-test-bus");
    }

    void launchUploadMonitorJobTerminate_data()
    {
        QTest::addColumn<bool>("keyring");
        QTest::newRow("keyring stand-in") << true;
        QTest::newRow("no Secret Service") << false;
    }

    void launchUploadMonitorJobTerminate()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("openssh-server is not installed");
        QFETCH(bool, keyring);
        QTemporaryDir config;
        QTemporaryDir local;
        auto secrets = keyring ? makeMemorySecretStore() : makeDesktopSecretStore(config.path());
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        window.confirmHostKey = [](const ssh::HostKeyInfo &) { return true; }; // a fresh sandbox key
        auto *services = new app::AppServices(&window, &core);
        new app::ShellWiring(&window, services, secrets.get());
        auto *ledger = core.ledger();
        SandboxSweep sweep{services->providers()->provider(QStringLiteral("sandbox"))};
        QVERIFY(sweep.sandbox);
        window.resize(1440, 900);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        test::StallWatchdog watchdog; // from here on: start-up is over
        watchdog.start();

        // 1. Launch: the welcome page's one click starts a simulated-GPU sandbox, which connects.
        window.welcomePage()->sandboxButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->rowCount(), 1, 60000);
        const QString host = window.machineModel()->index(0, 0).data(ui::MachineTableModel::HostNameRole).toString();
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->state(host), ssh::ConnectionState::Connected, 60000);
        QCOMPARE(window.selectedHost(), host);
        auto open = ledger->entries();
        QVERIFY(open);
        QCOMPARE(open->size(), 1);
        QVERIFY(open->first().typeName.startsWith(QStringLiteral("gpu_1x_sandbox")));
        QVERIFY(open->first().isOpen());

        // 2. Ctrl+U on the Files tab: the chosen file lands in the listed folder of the instance
        // (the sandbox's sshd is this machine, so its remote paths are local ones).
        auto *files = childOf<ui::FilesTab>(&window);
        QTRY_VERIFY_WITH_TIMEOUT(files->uploadFilesAction()->isEnabled(), 30000); // listed
        const QString payload = local.filePath(QStringLiteral("dataset-e2e.bin"));
        QFile out(payload);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray(300 * 1024, 'g'));
        out.close();
        int chosen = 0;
        files->setFileChooser([&](bool folder) {
            ++chosen;
            return folder ? QStringList() : QStringList{payload};
        });
        QCOMPARE(window.action(QStringLiteral("uploadFiles"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_U));
        QTest::keyClick(&window, Qt::Key_U, Qt::ControlModifier);
        QCOMPARE(chosen, 1);
        const QString landed = files->currentPath() + QStringLiteral("/dataset-e2e.bin");
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(landed).size(), qint64(300 * 1024), 60000);

        // 3. Monitor: the current-values panel names the simulated GPU.
        auto *monitor = childOf<ui::monitor::MonitorTab>(&window);
        showTab(window, monitor);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->gpuPanel()->rowCount() >= 1, 60000);
        QTRY_VERIFY2_WITH_TIMEOUT(monitor->gpuPanel()->rowTexts(0).join(QLatin1Char(' ')).contains(QStringLiteral("(simulated)")),
                                  qPrintable(monitor->gpuPanel()->rowTexts(0).join(QLatin1Char('|'))), 30000);
        QVERIFY(monitor->gpuPanel()->elidedTexts().isEmpty());
        if (const QByteArray dir = qgetenv("GANTRY_E2E_SCREENSHOT"); !dir.isEmpty())
            QVERIFY(window.grab().save(QString::fromLocal8Bit(dir)));

        // 4. Jobs: Run… (the dialog filled in), then Stop, confirmed.
        auto *jobs = childOf<ui::JobsTab>(&window);
        showTab(window, jobs);
        DialogAnswerer answers(QStringLiteral("e2e-train"), QStringLiteral("echo epoch 1; sleep 600"));
        QPushButton *run = buttonWithText(jobs, QStringLiteral("Run…"));
        QVERIFY(run);
        QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), 30000);
        run->click(); // exec() returns once the answerer accepted the dialog
        QCOMPARE(answers.asked, QStringList{QStringLiteral("run job")});
        QTRY_COMPARE_WITH_TIMEOUT(jobs->selectedJob(), QStringLiteral("e2e-train"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(jobs->logView()->toPlainText().contains(QStringLiteral("epoch 1")), 60000);
        QPushButton *stop = buttonWithText(jobs, QStringLiteral("Stop"));
        QTRY_VERIFY_WITH_TIMEOUT(stop && stop->isEnabled(), 30000);
        stop->click();
        QVERIFY2(answers.asked.last().contains(QStringLiteral("e2e-train")), qPrintable(answers.asked.last()));
        QTRY_VERIFY2_WITH_TIMEOUT(jobs->statusText().startsWith(QStringLiteral("e2e-train stopped")), qPrintable(jobs->statusText()), 60000);

        // 5. Terminate from Instances: confirmed; the machine row, the saved host and the
        // ledger's open row all end.
        window.showPanel(QStringLiteral("instances"));
        auto *instances = childOf<ui::InstancesPanel>(&window);
        auto *view = childOf<QTableView>(instances);
        QTRY_COMPARE_WITH_TIMEOUT(instances->model()->rowCount(), 1, 30000);
        view->setCurrentIndex(instances->model()->index(0, 0));
        QPushButton *terminate = buttonWithText(instances, QStringLiteral("Terminate…"));
        QTRY_VERIFY_WITH_TIMEOUT(terminate && terminate->isEnabled(), 30000);
        const int askedBefore = int(answers.asked.size());
        terminate->click();
        QCOMPARE(answers.asked.size(), askedBefore + 1); // one confirmation, no results question
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->rowCount(), 0, 60000);
        QVERIFY(window.hosts()->hosts().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!ledger->entries()->first().isOpen(), 30000);
        QCOMPARE(ledger->entries()->first().state, QStringLiteral("terminated"));
        watchdog.stop();
        qInfo("longest gap of the GUI thread: %lld ms; its CPUs stood still for %lld ms in all", watchdog.longestGapMs(), watchdog.frozenMs());
        QVERIFY2(watchdog.stalls().isEmpty(), qPrintable(QStringLiteral("the GUI thread stalled: ") + watchdog.stalls().join(QStringLiteral(", "))));
    }
};

QTEST_MAIN(TestShellEndToEnd)
#include "test_shell_endtoend.moc"
