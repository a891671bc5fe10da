#include "app/gui/appservices.h"
#include "app/gui/shellwiring.h"
#include "app/gui/translations.h"

#include "core/diagnostics/cloudproviders.h"
#include "core/diagnostics/logfile.h"

#include "ui/shell/appidentity.h"
#include "ui/shell/mainwindow.h"

#include "core/util/paths.h"
#include "core/util/secretstore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

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

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        fprintf(stderr, "gantry: no display found (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                        "Run it in a desktop session, under `xvfb-run -a gantry`, or use gantry-cli for scripts.\n");
        return 1;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gantry"));
    QApplication::setOrganizationName(QStringLiteral("gantry"));
    QApplication::setApplicationVersion(QStringLiteral(GANTRY_VERSION));
    ui::applyAppIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Rent, verify, use and watch cloud GPUs."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(QStringLiteral("config-dir"), QApplication::translate("main", "Configuration directory."),
                                          QStringLiteral("DIR"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QApplication::translate("main", "Save a screenshot of the window to FILE and quit."),
                                              QStringLiteral("FILE"));
    const QCommandLineOption selectOption(QStringLiteral("select"), QApplication::translate("main", "Select (and connect) a saved host."),
                                          QStringLiteral("NAME"));
    const QCommandLineOption panelOption(QStringLiteral("panel"), QApplication::translate("main", "Open a panel: %1.").arg(app::AppServices::panelIds().join(QStringLiteral(", "))),
                                         QStringLiteral("PANEL"));
    const QCommandLineOption tabOption(QStringLiteral("tab"),
                                       QApplication::translate("main", "Show a tab of the selected machine: overview, files, monitor, verify or jobs."),
                                       QStringLiteral("TAB"));
    parser.addOption(tabOption);
    const QCommandLineOption sizeOption(QStringLiteral("size"), QApplication::translate("main", "Window size, e.g. 1024x700 (for screenshots)."),
                                        QStringLiteral("WxH"));
    parser.addOption(sizeOption);
    parser.addOption(panelOption);
    parser.addOption(configOption);
    parser.addOption(screenshotOption);
    parser.addOption(selectOption);
    parser.process(app);

    const QString configDir = paths::configDir(parser.value(configOption));
    diagnostics::installLogFile(configDir); // for Help → Save diagnostic report
    appsettings::exportEndpointOverrides(configDir, diagnostics::cloudProviderIds());
    app::installTranslators(configDir);
    std::unique_ptr<SecretStore> secrets = makeKeychainSecretStore();
    ui::MainWindow window(configDir, secrets.get());
    auto *services = new app::AppServices(&window, secrets.get()); // owned by the window
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
    return app.exec();
}
