#include "clicommand.h"
#include "clihelp.h"

#include "core/diagnostics/crashtrace.h"
#include "core/util/background.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

using namespace gantry;

namespace {

// The streams are flushed when this returns, before main waits for background work.
int runCommandLine(const QCoreApplication &app)
{
    QTextStream out(stdout);
    QTextStream err(stderr);

    // The global options before the command (the command's parser takes them after it too).
    cli::Context context{QString(), false, out, err};
    QStringList args = app.arguments().mid(1);
    bool help = false;
    while (!args.isEmpty() && args.first().startsWith(QLatin1Char('-')) && args.first() != QLatin1String("-")) {
        const QString option = args.takeFirst();
        if (option == QLatin1String("--json")) {
            context.json = true;
        } else if (option == QLatin1String("--config-dir") && !args.isEmpty()) {
            context.configDir = args.takeFirst();
        } else if (option.startsWith(QLatin1String("--config-dir="))) {
            context.configDir = option.section(QLatin1Char('='), 1);
        } else if (option == QLatin1String("--help") || option == QLatin1String("-h")) {
            help = true;
        } else if (option == QLatin1String("--version")) {
            out << "gantry-cli " << GANTRY_VERSION << Qt::endl;
            return cli::ExitOk;
        } else {
            return context.usage(QStringLiteral("unknown option %1").arg(option));
        }
    }
    if (help) {
        if (context.json)
            out << QString::fromUtf8(QJsonDocument(cli::tablesJson()).toJson(QJsonDocument::Compact)) << Qt::endl;
        else
            out << cli::mainHelp() << Qt::flush;
        return cli::ExitOk;
    }
    if (args.isEmpty()) {
        err << cli::mainHelp() << Qt::flush;
        return cli::ExitUsage;
    }
    const QString name = args.takeFirst();
    if (const cli::Command *command = cli::findCommand(name))
        return cli::runCommand(context, *command, args);
    return context.usage(QStringLiteral("unknown command \"%1\"").arg(name));
}

} // namespace

int main(int argc, char *argv[])
{
    diagnostics::installCrashTrace("gantry-cli");
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gantry"));
    QCoreApplication::setOrganizationName(QStringLiteral("gantry"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GANTRY_VERSION));
    return background::leaveAfterWork(runCommandLine(app));
}
