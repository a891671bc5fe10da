#include "app/gui/appservices.h"
#include "app/gui/shellwiring.h"
#include "app/gui/translations.h"

#include "core/diagnostics/crashtrace.h"
#include "core/diagnostics/logfile.h"

#include "ui/shell/appidentity.h"
#include "ui/shell/mainwindow.h"

#include "core/ssh/sessionthread.h"
#include "core/util/background.h"
#include "core/util/paths.h"
#include "core/util/secretstore.h"
#include "core/runs/runservice.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policylock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QScopeGuard>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <optional>

using namespace gantry;

namespace {

// Detail tabs by the name of their class ("monitor" is ui::monitor::MonitorTab): stable ids,
// where the titles are translated.
void showDetailTab(ui::MainWindow &window, const QString &name)
{
    const QString wanted = name.toLower() + QStringLiteral("tab");
    for (QTabWidget *tabs : window.findChildren<QTabWidget *>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            const QString type = QString::fromLatin1(tabs->widget(i)->metaObject()->className()).section(QStringLiteral("::"), -1);
            if (type.toLower() == wanted)
                tabs->setCurrentIndex(i);
        }
    }
}

// The command line, parsed the same way whether or not a display is there.
struct Options
{
    QCommandLineOption config{QStringLiteral("config-dir"), QCoreApplication::translate("main", "Configuration directory."), QStringLiteral("DIR")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"), QCoreApplication::translate("main", "Save a screenshot of the window to FILE and quit."),
                                  QStringLiteral("FILE")};
    QCommandLineOption select{QStringLiteral("select"), QCoreApplication::translate("main", "Select (and connect) a saved host."), QStringLiteral("NAME")};
    QCommandLineOption panel{QStringLiteral("panel"),
                             QCoreApplication::translate("main", "Open a panel: %1.").arg(app::AppServices::panelIds().join(QStringLiteral(", "))),
                             QStringLiteral("PANEL")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QCoreApplication::translate("main", "Show a tab of the selected machine: overview, files, monitor, verify or jobs."),
                           QStringLiteral("TAB")};
    QCommandLineOption size{QStringLiteral("size"), QCoreApplication::translate("main", "Window size, e.g. 1024x700 (for screenshots)."),
                            QStringLiteral("WxH")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(QCoreApplication::translate("main", "Rent, verify, use and watch cloud GPUs."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({tab, size, panel, config, screenshot, select});
    }
};

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("gantry"));
    QCoreApplication::setOrganizationName(QStringLiteral("gantry"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GANTRY_VERSION));
}

// --help, --version and a wrong option are answered without a display (from a terminal over SSH,
// by packaging checks, by help2man): only a window needs one.
std::optional<int> answerWithoutDisplay(int argc, char *argv[])
{
    QCoreApplication core(argc, argv);
    setIdentity();
    QCommandLineParser parser;
    Options options;
    options.addTo(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        fprintf(stderr, "gantry: %s\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        printf("gantry %s\n", GANTRY_VERSION);
        return 0;
    }
    return std::nullopt;
}

// The runs this window drove go on after it: a `gantry-cli watch` takes them over once it has gone
// (one started for them when none runs).
void handOffRuns(workspace::AppCore &core, const QString &configDir)
{
    if (core.runs()->drivenNames().isEmpty())
        return;
    const QString cli = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("gantry-cli"));
    if (Result<qint64> watcher = workspace::PolicyLock::ensureWatcher(configDir, cli); !watcher)
        qWarning("%s", qPrintable(watcher.error().message));
}

int runWindow(QApplication &app)
{
    QCommandLineParser parser;
    const Options options;
    options.addTo(parser);
    parser.process(app);
    const QCommandLineOption &configOption = options.config, &screenshotOption = options.screenshot, &selectOption = options.select,
                             &panelOption = options.panel, &tabOption = options.tab, &sizeOption = options.size;

    const QString configDir = paths::configDir(parser.value(configOption));
    diagnostics::installLogFile(configDir); // for Help → Save diagnostic report
    app::installTranslators(configDir);
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(configDir);
    // Runs after the core and the window are gone, before the secret store is: an SSH worker they
    // retired may still be connecting, and its password or passphrase question reads the store.
    const auto workersEnded = qScopeGuard([] { ssh::SessionThread::waitForRetired(5000); });
    // The application core comes first and outlives the window: the window is a view over it.
    workspace::AppCore core(configDir, secrets.get());
    core.open();
    ui::MainWindow window(&core);
    auto *services = new app::AppServices(&window, &core); // owned by the window
    new app::ShellWiring(&window, services, secrets.get());     // owned by the window
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        if (wh.size() == 2 && wh.at(0).toInt() > 0 && wh.at(1).toInt() > 0)
            window.resize(wh.at(0).toInt(), wh.at(1).toInt());
    }
    window.show();

    if (parser.isSet(selectOption)) {
        window.selectHost(parser.value(selectOption));
        window.connectSelected();
    }
    if (parser.isSet(panelOption))
        window.showPanel(parser.value(panelOption));
    if (parser.isSet(tabOption))
        showDetailTab(window, parser.value(tabOption));
    if (parser.isSet(screenshotOption)) {
        const QString file = parser.value(screenshotOption);
        // Give connections and panels a moment to fill in, then capture and quit.
        QTimer::singleShot(parser.isSet(selectOption) ? 15000 : 2000, &window, [&window, file] {
            const bool saved = window.grab().save(file);
            fprintf(stderr, saved ? "gantry: screenshot saved to %s\n" : "gantry: cannot write %s\n", qPrintable(file));
            QApplication::exit(saved ? 0 : 1);
        });
    }
    const int code = app.exec();
    handOffRuns(core, configDir);
    return code;
}

} // namespace

int main(int argc, char *argv[])
{
    diagnostics::installCrashTrace("gantry");
    if (std::optional<int> answered = answerWithoutDisplay(argc, argv))
        return *answered;
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        fprintf(stderr, "gantry: no display found (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                        "Run it in a desktop session, under `xvfb-run -a gantry`, or use gantry-cli for scripts.\n");
        return 1;
    }
    QApplication app(argc, argv);
    setIdentity();
    ui::applyAppIdentity();
    // The window and the core are gone when runWindow returns; what they handed to workers ends here.
    return background::leaveAfterWork(runWindow(app));
}
