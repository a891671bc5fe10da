// The shell at desktop grade: menu bar and shortcuts, welcome page, banners, Settings/Accounts
// against the Lambda emulator, the diagnostic report's redaction (GUI and CLI), budgets that agree
// with the ledger rows, and renders at 1024×700 / 1440×900, light and dark.
#include "lambdaemulator.h"

#include "ui/common/detailtab.h"
#include "ui/common/tablelayout.h"
#include "ui/common/themecolors.h"
#include "core/cost/budgetmonitor.h"
#include "ui/cost/costpanel.h"
#include "core/cost/ledger.h"
#include "core/diagnostics/diagnosticreport.h"
#include "core/diagnostics/logfile.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerregistry.h"
#include "ui/shell/accountspage.h"
#include "ui/shell/addhostdialog.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/welcomepage.h"
#include "core/util/appsettings.h"
#include "core/util/clock.h"
#include "core/util/secretstore.h"

#include "darkpalette.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;

namespace {

// A detail tab like the Files tab: an upload action the menu bar's Ctrl+U must reach.
class UploadTab final : public DetailTab
{
public:
    explicit UploadTab(QWidget *parent = nullptr)
        : DetailTab(parent)
        , upload(new QAction(QStringLiteral("Upload files…"), this))
    {
        upload->setObjectName(QStringLiteral("uploadFilesAction"));
        upload->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_U)); // as a tab might: must not make Ctrl+U ambiguous
        addAction(upload);
        connect(upload, &QAction::triggered, this, [this] { ++uploads; });
    }
    QString title() const override { return QStringLiteral("Files"); }
    void setMachine(const SavedHost &, ssh::Connection *) override {}
    void clearMachine() override {}

    QAction *upload;
    int uploads = 0;
};

bool inMenu(const QMenu *menu, const QAction *action)
{
    for (const QAction *entry : menu->actions()) {
        if (entry == action || (entry->menu() && inMenu(entry->menu(), action)))
            return true;
    }
    return false;
}

void saveRender(QWidget *widget, const QString &name)
{
    const QString dir = QStringLiteral(GANTRY_RENDER_DIR);
    QDir().mkpath(dir);
    const QString scale = widget->devicePixelRatio() > 1 ? QStringLiteral("@%1x").arg(widget->devicePixelRatio()) : QString();
    QVERIFY(widget->grab().save(dir + QLatin1Char('/') + name + scale + QStringLiteral(".png")));
}

SavedHost localHost(const QString &name)
{
    SavedHost host;
    host.name = name;
    host.target.host = QStringLiteral("127.0.0.1");
    host.target.port = 2222;
    host.target.user = QStringLiteral("root");
    return host;
}

double contrast(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a) + 0.05;
    const double lb = luminance(b) + 0.05;
    return std::max(la, lb) / std::min(la, lb);
}

} // namespace

class TestShellDesktop : public QObject
{
    Q_OBJECT

private slots:
    void everyActionHasAShortcutOrMenuEntry()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        window.addPanel(QStringLiteral("prices"), QStringLiteral("Prices"), new QWidget);
        const QList<QPair<QString, QKeySequence>> standard{
            {QStringLiteral("quit"), QKeySequence(Qt::CTRL | Qt::Key_Q)},
            {QStringLiteral("refresh"), QKeySequence(Qt::Key_F5)},
            {QStringLiteral("focusFilter"), QKeySequence(Qt::CTRL | Qt::Key_L)},
            {QStringLiteral("nextTab"), QKeySequence(Qt::CTRL | Qt::Key_Tab)},
            {QStringLiteral("nextTab"), QKeySequence(Qt::CTRL | Qt::Key_PageDown)},
            {QStringLiteral("settings"), QKeySequence(Qt::CTRL | Qt::Key_Comma)},
            {QStringLiteral("help"), QKeySequence(Qt::Key_F1)},
            {QStringLiteral("remove"), QKeySequence(Qt::Key_Delete)},
            {QStringLiteral("uploadFiles"), QKeySequence(Qt::CTRL | Qt::Key_U)},
            {QStringLiteral("uploadFolder"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U)},
        };
        for (const auto &[id, key] : standard) {
            QAction *action = window.action(id);
            QVERIFY2(action, qPrintable(id));
            QVERIFY2(action->shortcuts().contains(key), qPrintable(id + QStringLiteral(" lacks ") + key.toString()));
        }
        QVERIFY(window.action(QStringLiteral("launch")));
        QVERIFY(window.action(QStringLiteral("diagnostics")));
        // Every command is reachable: a shortcut or an entry in the menu bar, and no two share a key
        // (Qt would call that ambiguous and run neither).
        QHash<QString, QString> owners;
        const QList<QAction *> all = window.findChildren<QAction *>();
        for (QAction *action : all) {
            if (action->text().isEmpty() || action->isSeparator() || action->menu() || action->parent()->inherits("QToolBar"))
                continue; // the toolbar's own show/hide toggle is Qt's
            bool listed = false;
            for (const QAction *top : window.menuBar()->actions())
                listed = listed || (top->menu() && inMenu(top->menu(), action));
            QVERIFY2(listed || !action->shortcut().isEmpty(), qPrintable(action->text()));
            for (const QKeySequence &key : action->shortcuts()) {
                QVERIFY2(!owners.contains(key.toString()), qPrintable(key.toString() + QStringLiteral(": ") + owners.value(key.toString())
                                                                     + QStringLiteral(" and ") + action->text()));
                owners.insert(key.toString(), action->text());
            }
        }
        QVERIFY(owners.size() >= 12);
        // Launch… is on the toolbar too.
        bool onToolbar = false;
        for (QObject *object : window.action(QStringLiteral("launch"))->associatedObjects())
            onToolbar = onToolbar || object->inherits("QToolBar");
        QVERIFY(onToolbar);
    }

    void shortcutsReachTheirTargets()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        auto *files = new UploadTab;
        window.addDetailTab(files);
        QVERIFY(files->upload->shortcut().isEmpty()); // adopted by the menu bar
        QVERIFY(window.hosts()->add(localHost(QStringLiteral("box"))).ok());
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.selectHost(QStringLiteral("box"));

        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QTRY_VERIFY(window.findChild<QLineEdit *>(QStringLiteral("machineFilter"))->hasFocus());
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("machineTabs"));
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(&window, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 1);
        QTest::keyClick(&window, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 0); // wraps
        QTest::keyClick(&window, Qt::Key_U, Qt::ControlModifier);
        QCOMPARE(files->uploads, 1);
        QCOMPARE(tabs->currentWidget(), files); // the upload shows where it goes

        QSignalSpy settings(&window, &MainWindow::settingsRequested);
        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        QCOMPARE(settings.size(), 1);
        QSignalSpy launch(&window, &MainWindow::launchRequested);
        window.action(QStringLiteral("launch"))->trigger();
        QCOMPARE(launch.size(), 1);
    }

    void welcomePageWhileThereAreNoMachines()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        WelcomePage *welcome = window.welcomePage();
        QVERIFY(welcome->isVisible());
        for (const char *name : {"trySandbox", "addSshHost", "importSshConfig", "connectCloud"}) {
            auto *button = welcome->findChild<QPushButton *>(QString::fromLatin1(name));
            QVERIFY2(button && button->isVisible(), name);
            QVERIFY2(button->width() >= button->sizeHint().width(), name); // not clipped at 1024 px
        }
        saveRender(&window, QStringLiteral("welcome-1024x700"));
        QSignalSpy sandbox(&window, &MainWindow::sandboxRequested);
        QSignalSpy settings(&window, &MainWindow::settingsRequested);
        welcome->findChild<QPushButton *>(QStringLiteral("trySandbox"))->click();
        welcome->findChild<QPushButton *>(QStringLiteral("connectCloud"))->click();
        QCOMPARE(sandbox.size(), 1);
        QCOMPARE(settings.size(), 1);
        QCOMPARE(settings.first().first().toString(), QStringLiteral("accounts"));

        // A pasted login command fills the Add SSH host dialog (the user still confirms it there).
        SavedHost proposed;
        QTimer::singleShot(0, this, [&proposed] {
            auto *dialog = qobject_cast<AddHostDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            proposed = dialog->host();
            dialog->reject();
        });
        welcome->sshCommandEdit()->setText(QStringLiteral("ssh -p 23456 root@connect.westb.example.com"));
        welcome->findChild<QPushButton *>(QStringLiteral("addSshHost"))->click();
        QCOMPARE(proposed.target.port, 23456);
        QCOMPARE(proposed.target.user, QStringLiteral("root"));
        QCOMPARE(proposed.target.host, QStringLiteral("connect.westb.example.com"));

        QVERIFY(window.hosts()->add(localHost(QStringLiteral("box"))).ok());
        QVERIFY(!welcome->isVisible());
        QVERIFY(window.machineView()->isVisible());
        QVERIFY(window.hosts()->remove(QStringLiteral("box")).ok());
        QVERIFY(welcome->isVisible());
    }

    void bannerAndWindowStatePersist()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        {
            gantry::workspace::AppCore core(config.path(), secrets.get());
            core.open();
            MainWindow window(&core);
            window.addPanel(QStringLiteral("cost"), QStringLiteral("Cost"), new QWidget);
            window.resize(1100, 720);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.showBanner(QStringLiteral("Daily budget reached"), QStringLiteral("error"));
            QCOMPARE(window.bannerText(), QStringLiteral("Daily budget reached"));
            window.showPanel(QStringLiteral("cost"));
            window.close();
        }
        gantry::workspace::AppCore againCore(config.path(), secrets.get());
        againCore.open();
        MainWindow again(&againCore);
        again.addPanel(QStringLiteral("cost"), QStringLiteral("Cost"), new QWidget);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTRY_COMPARE(again.currentPanel(), QStringLiteral("cost"));
        QCOMPARE(again.size(), QSize(1100, 720));
    }

    void columnWidthsTheUserDragsAreKept()
    {
        QTemporaryDir config;
        QStandardItemModel model(3, 4);
        for (int c = 0; c < 4; ++c)
            model.setHorizontalHeaderItem(c, new QStandardItem(QStringLiteral("Column %1").arg(c)));
        int dragged = 0;
        {
            QTableView view;
            view.setModel(&model);
            TableLayout::fitToWidth(&view);
            TableLayout::persist(view.horizontalHeader(), config.path(), QStringLiteral("test"));
            view.resize(600, 300);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QHeaderView *header = view.horizontalHeader();
            const int before = header->sectionSize(0);
            // Drag the right edge of the first column 60 px to the right, as a user would.
            const QPoint edge(header->sectionViewportPosition(0) + before - 1, header->height() / 2);
            QTest::mousePress(header->viewport(), Qt::LeftButton, {}, edge);
            QTest::mouseMove(header->viewport(), edge + QPoint(60, 0));
            QTest::mouseRelease(header->viewport(), Qt::LeftButton, {}, edge + QPoint(60, 0));
            dragged = header->sectionSize(0);
            QVERIFY2(dragged > before + 30, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(dragged)));
            QTRY_VERIFY(QSettings(QDir(config.path()).filePath(QStringLiteral("window.ini")), QSettings::IniFormat)
                            .contains(QStringLiteral("columns/test")));
        }
        QTableView again;
        again.setModel(&model);
        TableLayout::fitToWidth(&again);
        TableLayout::persist(again.horizontalHeader(), config.path(), QStringLiteral("test"));
        // Content that fits does not undo the user's wider column (a restored width only grows to
        // what the header and the content need: TestShellTables).
        model.setItem(0, 0, new QStandardItem(QStringLiteral("short")));
        QApplication::processEvents();
        QCOMPARE(again.horizontalHeader()->sectionSize(0), dragged);
    }

    void accountsTestKeysBeforeTheKeychain()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        emulator.setApiKey(QStringLiteral("secret_right_key_123"));
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        SettingsDialog dialog(config.path(), secrets.get(), nullptr);
        AccountsPage *accounts = dialog.accounts();
        // The provider list comes from the registry: every cloud has a box.
        for (const QString &id : providers::knownProviderIds()) {
            if (providers::providerNeedsApiKey(id))
                QVERIFY2(accounts->keyEdit(id), qPrintable(id));
        }
        QLineEdit *key = accounts->keyEdit(QStringLiteral("lambda"));
        accounts->endpointEdit(QStringLiteral("lambda"))->setText(emulator.baseUrl());
        QCOMPARE(key->echoMode(), QLineEdit::Password);

        key->setText(QStringLiteral("wrong_key"));
        accounts->testAndSave(QStringLiteral("lambda"));
        QTRY_VERIFY_WITH_TIMEOUT(!accounts->isBusy(QStringLiteral("lambda")), 20000);
        QVERIFY2(accounts->statusText(QStringLiteral("lambda")).contains(QStringLiteral("not saved")),
                 qPrintable(accounts->statusText(QStringLiteral("lambda"))));
        QVERIFY(!secrets->read(providers::apiKeySecretName(QStringLiteral("lambda")))->has_value());

        QSignalSpy changed(accounts, &AccountsPage::accountsChanged);
        key->setText(QStringLiteral("secret_right_key_123"));
        accounts->testAndSave(QStringLiteral("lambda"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 20000);
        QCOMPARE(**secrets->read(providers::apiKeySecretName(QStringLiteral("lambda"))), QStringLiteral("secret_right_key_123"));
        QVERIFY(key->text().isEmpty()); // never shown again
        QCOMPARE(appsettings::value(config.path(), QStringLiteral("endpoint.lambda")), emulator.baseUrl());
        dialog.resize(1024 * 2 / 3, 560);
        dialog.show();
        saveRender(&dialog, QStringLiteral("settings-accounts"));

        accounts->removeKey(QStringLiteral("lambda"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 10000);
        QVERIFY(!secrets->read(providers::apiKeySecretName(QStringLiteral("lambda")))->has_value());

        // A changed endpoint is announced when Settings saves it (the window then makes the
        // providers again with it); saving it unchanged announces nothing.
        QCOMPARE(accounts->saveEndpoints(), QString());
        QCOMPARE(changed.size(), 2);
        accounts->endpointEdit(QStringLiteral("lambda"))->setText(QStringLiteral("http://127.0.0.1:9/"));
        QCOMPARE(accounts->saveEndpoints(), QString());
        QCOMPARE(changed.size(), 3);
        QCOMPARE(appsettings::value(config.path(), QStringLiteral("endpoint.lambda")), QStringLiteral("http://127.0.0.1:9/"));
    }

    // A desktop with no keyring (i3, WSL, X forwarding): the page says so once, at once, instead of
    // "Checking the keychain…" for a minute; a key is not stored until the user chooses the private
    // file, and then it is.
    void accountsWithoutAKeyringOfferTheFile()
    {
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/gantry-test-bus");
        if (keychainAvailable())
            QSKIP("a keyring answers on this desktop");
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        emulator.setApiKey(QStringLiteral("secret_right_key_123"));
        QTemporaryDir config;
        auto secrets = makeDesktopSecretStore(config.path());
        SettingsDialog dialog(config.path(), secrets.get(), nullptr);
        AccountsPage *accounts = dialog.accounts();
        QTRY_VERIFY_WITH_TIMEOUT(accounts->keyringNote().startsWith(QStringLiteral("No keyring found on this desktop")), 5000);
        for (const QString &id : providers::cloudProviderIds())
            QTRY_COMPARE_WITH_TIMEOUT(accounts->statusText(id), QStringLiteral("No key yet."), 5000); // said once, not per box
        auto *file = accounts->findChild<QCheckBox *>(QStringLiteral("secretsFile"));
        QVERIFY(file && !file->isHidden() && !file->isChecked());

        accounts->endpointEdit(QStringLiteral("lambda"))->setText(emulator.baseUrl());
        accounts->keyEdit(QStringLiteral("lambda"))->setText(QStringLiteral("secret_right_key_123"));
        accounts->testAndSave(QStringLiteral("lambda"));
        QTRY_VERIFY_WITH_TIMEOUT(!accounts->isBusy(QStringLiteral("lambda")), 20000);
        QCOMPARE(accounts->statusText(QStringLiteral("lambda")), QStringLiteral("Not saved: there is no keyring (see above)."));
        QVERIFY(!secretsFileEnabled(config.path()));
        dialog.resize(1024 * 2 / 3, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // The offer is read whole, not cut at the dialog's edge.
        QVERIFY2(file->width() >= file->sizeHint().width(), qPrintable(file->text()));
        saveRender(&dialog, QStringLiteral("settings-accounts-nokeyring"));

        file->setChecked(true);
        QVERIFY(secretsFileEnabled(config.path()));
        QVERIFY(accounts->keyringNote().isEmpty());
        accounts->keyEdit(QStringLiteral("lambda"))->setText(QStringLiteral("secret_right_key_123"));
        accounts->testAndSave(QStringLiteral("lambda"));
        QTRY_COMPARE_WITH_TIMEOUT(accounts->statusText(QStringLiteral("lambda")), QStringLiteral("The key works and is stored in the file."), 20000);
        QCOMPARE(secrets->read(providers::apiKeySecretName(QStringLiteral("lambda")))->value_or(QString()), QStringLiteral("secret_right_key_123"));
    }

    void generalSettingsAreTheCliSettings()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        ManualClock clock;
        cost::Ledger ledger(cost::Ledger::defaultPath(config.path()), clock);
        QVERIFY(ledger.open().ok());
        {
            SettingsDialog dialog(config.path(), secrets.get(), &ledger);
            dialog.showPage(QStringLiteral("general"));
            dialog.findChild<QComboBox *>(QStringLiteral("idleAction"))->setCurrentIndex(1); // idle: stop
            dialog.findChild<QDoubleSpinBox *>(QStringLiteral("dailyBudget"))->setValue(25);
            auto *afterLaunch = dialog.findChild<QComboBox *>(QStringLiteral("afterLaunch"));
            QCOMPARE(afterLaunch->currentData().toString(), QStringLiteral("offer")); // the default: offered, not run
            afterLaunch->setCurrentIndex(afterLaunch->findData(QStringLiteral("run")));
            dialog.show();
            saveRender(&dialog, QStringLiteral("settings-general"));
            QCOMPARE(dialog.save(), QString());
        }
        QCOMPARE(ledger.budget(QStringLiteral("daily")).valueOr(0), 25.0);
        QCOMPARE(appsettings::value(config.path(), QStringLiteral("accept.after_launch")), QStringLiteral("run"));
        QProcess cli;
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), config.path(), QStringLiteral("--json"),
                                                    QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("idle.action")});
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(QJsonDocument::fromJson(cli.readAllStandardOutput()).object().value(QStringLiteral("value")).toString(), QStringLiteral("stop"));
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), config.path(), QStringLiteral("settings"),
                                                    QStringLiteral("set"), QStringLiteral("idle.action"), QStringLiteral("sometimes")});
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 2); // a usage error names the choices
        QVERIFY(cli.readAllStandardError().contains("notify, stop, terminate"));
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), config.path(), QStringLiteral("settings"),
                                                    QStringLiteral("set"), QStringLiteral("budget.monthly"), QStringLiteral("300")});
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(ledger.budget(QStringLiteral("monthly")).valueOr(0), 300.0);
    }

    void diagnosticReportHoldsNoSecret()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        const QString apiKey = QStringLiteral("secret_0a1b2c3d4e5f60718293a4b5c6d7e8f9");
        const QString password = QStringLiteral("hunter2-Passw0rd!");
        const QString token = QStringLiteral("tok_9f8e7d6c5b4a");
        QVERIFY(secrets->write(providers::apiKeySecretName(QStringLiteral("lambda")), apiKey).ok());
        QVERIFY(secrets->write(hostSecretKey(QStringLiteral("box"), QStringLiteral("password")), password).ok());
        {
            HostStore hosts(config.path());
            QVERIFY(hosts.load().ok());
            QVERIFY(hosts.add(localHost(QStringLiteral("box"))).ok());
        }
        // Secrets that leaked where they should not be: settings and the log.
        QSettings ini(QDir(config.path()).filePath(QStringLiteral("gantry.ini")), QSettings::IniFormat);
        ini.setValue(QStringLiteral("misc/api_token"), token);
        ini.sync();
        QDir().mkpath(diagnostics::logDir(config.path()));
        QFile log(QDir(diagnostics::logDir(config.path())).filePath(QStringLiteral("gantry.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write(QStringLiteral("warning http: GET /instances Authorization: Bearer %1\nwarning login password=%2 for box\n"
                                 "info provider said {\"token\": \"%3\"}\nwarning connected to box fine\n").arg(apiKey, password, token).toUtf8());
        log.close();

        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        const QString path = config.path() + QStringLiteral("/report.txt");
        QSignalSpy saved(&window, &MainWindow::diagnosticReportSaved);
        window.saveDiagnosticReport(path);
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 20000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString report = QString::fromUtf8(file.readAll());
        for (const QString &secret : {apiKey, password, token})
            QVERIFY2(!report.contains(secret), qPrintable(secret));
        QVERIFY(report.contains(QStringLiteral("connected to box fine"))); // the rest of the log is kept
        QVERIFY(report.contains(QStringLiteral("hosts.json")));
        QVERIFY(report.contains(QStringLiteral("[redacted]")));

        // The CLI writes the same report; the patterns hold without the keychain's values too.
        const QString cliPath = config.path() + QStringLiteral("/cli-report.txt");
        QProcess cli;
        cli.start(QStringLiteral(GANTRY_CLI_PATH), {QStringLiteral("--config-dir"), config.path(), QStringLiteral("diagnostics"),
                                                    QStringLiteral("--output"), cliPath});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QFile cliFile(cliPath);
        QVERIFY(cliFile.open(QIODevice::ReadOnly));
        const QString cliReport = QString::fromUtf8(cliFile.readAll());
        for (const QString &secret : {apiKey, password, token})
            QVERIFY2(!cliReport.contains(secret), qPrintable(secret));
    }

    void budgetLineAgreesWithTheRows()
    {
        // Lambda bills per started minute: 7 min 10 s at $0.75/h is billed as 8 min = $0.10, where a
        // pro-rata budget line said $0.09.
        QTemporaryDir config;
        ManualClock clock(QDateTime::currentDateTimeUtc().addSecs(-3600));
        cost::Ledger ledger(cost::Ledger::defaultPath(config.path()), clock);
        QVERIFY(ledger.open().ok());
        ledger.setBillingPolicy(QStringLiteral("lambda"), cost::BillingPolicy{60, 0}); // as Workspace sets it
        providers::Instance instance;
        instance.provider = QStringLiteral("lambda");
        instance.id = QStringLiteral("i-1");
        instance.typeName = QStringLiteral("gpu_1x_a10");
        QVERIFY(ledger.recordLaunch(instance, 0.75).ok());
        clock.advanceSeconds(7 * 60 + 10);
        const Result<cost::LedgerEntry> entry = ledger.entry(QStringLiteral("lambda"), QStringLiteral("i-1"));
        QVERIFY(entry);
        const double spent = ledger.spentBetween(clock.now().addDays(-1), clock.now().addSecs(1)).valueOr(-1);
        QCOMPARE(cost::formatUsd(entry->cost), QStringLiteral("$0.10"));
        QCOMPARE(cost::formatUsd(spent), cost::formatUsd(entry->cost));

        // Crossing a budget: a coloured banner in Cost, and the alert for the notification.
        QVERIFY(ledger.setBudget(QStringLiteral("daily"), 0.15).ok());
        CostPanel panel(&ledger); // its first reload announces the crossing (once: the ledger remembers)
        panel.resize(1024, 600);
        panel.show();
        panel.reload();
        QVERIFY2(panel.bannerText().contains(QStringLiteral("50")), qPrintable(panel.bannerText()));
        saveRender(&panel, QStringLiteral("cost-budget-banner"));
    }

    void rendersFitNarrowWindowsInLightAndDark()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        ManualClock clock;
        cost::Ledger ledger(cost::Ledger::defaultPath(config.path()), clock);
        QVERIFY(ledger.open().ok());
        for (int i = 0; i < 6; ++i) {
            providers::Instance instance;
            instance.provider = i % 2 ? QStringLiteral("runpod") : QStringLiteral("lambda");
            instance.id = QStringLiteral("0123456789abcdef%1").arg(i);
            instance.name = QStringLiteral("training-run-%1").arg(i);
            instance.typeName = QStringLiteral("gpu_8x_h100_sxm5");
            instance.region = QStringLiteral("us-east-1");
            QVERIFY(ledger.recordLaunch(instance, 23.92).ok());
        }
        clock.advanceSeconds(5400);
        for (const QPalette &palette : {QApplication::palette(), darkPalette()}) {
            const bool dark = isDarkPalette(palette);
            for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
                gantry::workspace::AppCore core(config.path(), secrets.get());
                core.open();
                MainWindow window(&core);
                window.setPalette(palette);
                auto *costPanel = new CostPanel(&ledger);
                auto *view = costPanel->findChild<QTableView *>();
                window.addPanel(QStringLiteral("cost"), QStringLiteral("Cost"), costPanel);
                window.resize(size);
                window.show();
                QVERIFY(QTest::qWaitForWindowExposed(&window));
                window.showPanel(QStringLiteral("cost"));
                window.showBanner(QStringLiteral("80 % of your daily budget used ($40.00 of $50.00)."));
                QApplication::processEvents();
                // No horizontal scrolling, no elided header at 1024 px.
                QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
                QHeaderView *header = view->horizontalHeader();
                for (int i = 0; i < header->count(); ++i)
                    QVERIFY2(header->sectionSize(i) >= header->sectionSizeHint(i),
                             qPrintable(view->model()->headerData(i, Qt::Horizontal).toString()));
                // Banner text stays readable on its tint in either theme.
                auto *banner = window.findChild<QWidget *>(QStringLiteral("banner"));
                QVERIFY(contrast(banner->palette().color(QPalette::Window), banner->palette().color(QPalette::WindowText)) >= 4.5);
                QVERIFY(contrast(toneColor(Tone::Error, window.palette()), window.palette().color(QPalette::Window)) >= 3.0);
                saveRender(&window, QStringLiteral("cost-%1x%2%3").arg(size.width()).arg(size.height()).arg(dark ? QStringLiteral("-dark") : QString()));
                window.showPanel(QStringLiteral("machines"));
                saveRender(&window, QStringLiteral("machines-%1x%2%3").arg(size.width()).arg(size.height()).arg(dark ? QStringLiteral("-dark") : QString()));
            }
        }
    }
};

QTEST_MAIN(TestShellDesktop)
#include "test_shell_desktop.moc"
