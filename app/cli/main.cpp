#include "clicommand.h"
#include "core/util/paths.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

using namespace gantry;

namespace {

void printHelp(QTextStream &out)
{
    // English, as all of gantry-cli's output (scripts parse it).
    out << QStringLiteral(
               "Usage: gantry-cli [--config-dir DIR] [--json] COMMAND [ARGS…]\n"
               "Rent, verify, use and watch cloud GPUs from scripts. HOST is a saved host name or [user@]host[:port].\n"
               "Output is always in English, whatever LANGUAGE/LANG say, so scripts can parse it (the desktop app\n"
               "`gantry` follows the language setting or the system locale).\n"
               "Connection options (any host command): -i KEYFILE, --password-env VAR, --known-hosts FILE,\n"
               "  --accept-new-host-key, --connect-timeout SECONDS, --max-output-mib MIB (default 64: output a\n"
               "  command may send), --max-entries N (default 2000000: names one folder may list)\n"
               "Exit codes: 0 ok, 1 failed, 2 usage, 3 cannot connect/authenticate, 4 host key unknown/changed,\n"
               "  5 provider error; `exec` exits with the remote command's status.\n"
               "`gantry-cli help COMMAND` or `gantry-cli COMMAND --help` shows one command's usage.\n\nCommands:\n");
    QList<cli::Command> sorted = cli::commands();
    std::sort(sorted.begin(), sorted.end(), [](const cli::Command &a, const cli::Command &b) { return a.name < b.name; });
    for (const cli::Command &command : std::as_const(sorted))
        out << "  " << command.synopsis << '\n';
    out.flush();
}

// `gantry-cli COMMAND --help` and `gantry-cli help COMMAND`: that command's usage on stdout, exit 0.
int printCommandHelp(QTextStream &out, QTextStream &err, const QString &name)
{
    for (const cli::Command &command : cli::commands()) {
        if (command.name != name)
            continue;
        out << "Usage: gantry-cli [--config-dir DIR] [--json] " << command.synopsis << "\n"
            << "Connection options, exit codes and every command: gantry-cli --help" << Qt::endl;
        return cli::ExitOk;
    }
    err << "gantry-cli: " << QStringLiteral("unknown command \"%1\" (see gantry-cli --help)").arg(name) << Qt::endl;
    return cli::ExitUsage;
}

// --help among a command's own arguments, not after "--" (where it belongs to a remote command).
bool asksForHelp(const QStringList &args)
{
    for (const QString &arg : args) {
        if (arg == QLatin1String("--"))
            return false;
        if (arg == QLatin1String("--help"))
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gantry"));
    QCoreApplication::setOrganizationName(QStringLiteral("gantry"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GANTRY_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QStringList args = app.arguments().mid(1);
    QString configDir;
    bool json = false;
    while (!args.isEmpty() && args.first().startsWith(QStringLiteral("--"))) {
        const QString option = args.takeFirst();
        if (option == QLatin1StringView("--json")) {
            json = true;
        } else if (option == QLatin1StringView("--config-dir") && !args.isEmpty()) {
            configDir = args.takeFirst();
        } else if (option.startsWith(QStringLiteral("--config-dir="))) {
            configDir = option.section(QLatin1Char('='), 1);
        } else if (option == QLatin1StringView("--help")) {
            printHelp(out);
            return cli::ExitOk;
        } else if (option == QLatin1StringView("--version")) {
            out << "gantry-cli " << GANTRY_VERSION << Qt::endl;
            return cli::ExitOk;
        } else {
            err << "gantry-cli: " << QCoreApplication::translate("cli", "unknown option %1 (see gantry-cli --help)").arg(option) << Qt::endl;
            return cli::ExitUsage;
        }
    }
    if (args.isEmpty()) {
        printHelp(err);
        return cli::ExitUsage;
    }
    // --json may also follow the command name.
    if (args.removeAll(QStringLiteral("--json")) > 0)
        json = true;

    if (args.first() == QLatin1String("help")) {
        if (args.size() == 1) {
            printHelp(out);
            return cli::ExitOk;
        }
        return printCommandHelp(out, err, args.at(1));
    }
    if (asksForHelp(args.mid(1)))
        return printCommandHelp(out, err, args.first());

    cli::Context context{paths::configDir(configDir), json, out, err};
    const QString name = args.takeFirst();
    for (const cli::Command &command : cli::commands()) {
        if (command.name == name) {
            const int code = command.run(context, args);
            out.flush();
            err.flush();
            return code;
        }
    }
    return context.usage(QCoreApplication::translate("cli", "unknown command \"%1\"").arg(name));
}
