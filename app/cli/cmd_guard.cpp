// gantry-cli guard: the idle guard that runs on the instance itself, so a machine stops even when
// the laptop that launched it sleeps.
#include "clicommand.h"
#include "cliconnect.h"
#include "core/guard/guard.h"
#include "core/guard/guardoperation.h"
#include "core/hosts/hoststore.h"
#include "core/util/printable.h"

#include <QJsonObject>

namespace gantry::cli {
namespace {

using namespace gantry::guard;

struct GuardArgs
{
    QString action;
    QString host;
    QString provider;   // --provider, else the saved host's
    QString endpoint;   // --endpoint: the stop API's base URL (a proxy, an emulator)
    QString remoteDir;  // --remote-dir: where on the machine; default ~/.gantry/guard
    QString afterIdle;  // --action stop|terminate (default stop)
    int idleMinutes = 30;
};

Result<GuardArgs> guardArgs(const Args &args)
{
    GuardArgs parsed;
    parsed.action = QString::fromUtf8(args.command().name);
    parsed.host = args.arg("HOST");
    parsed.provider = args.value("provider");
    parsed.endpoint = args.value("endpoint");
    parsed.remoteDir = args.value("remote-dir");
    parsed.afterIdle = args.value("action");
    if (const std::optional<QString> minutes = args.optional("idle-minutes")) {
        bool ok = false;
        parsed.idleMinutes = minutes->toInt(&ok);
        if (!ok || parsed.idleMinutes < 1)
            return Error::make(ErrorCode::Usage, QStringLiteral("--idle-minutes needs a whole number of minutes, 1 or more"));
    }
    if (!parsed.afterIdle.isEmpty() && parsed.afterIdle != QLatin1StringView("stop") && parsed.afterIdle != QLatin1StringView("terminate"))
        return Error::make(ErrorCode::Usage, QStringLiteral("--action is stop or terminate"));
    return parsed;
}

QJsonObject statusJson(const QString &host, const GuardStatus &s)
{
    return QJsonObject{{QStringLiteral("host"), host},
                       {QStringLiteral("installed"), s.installed},
                       {QStringLiteral("running"), s.running},
                       {QStringLiteral("state"), s.state},
                       {QStringLiteral("reason"), s.reason},
                       {QStringLiteral("idle_seconds"), s.idleSeconds},
                       {QStringLiteral("threshold_seconds"), s.thresholdSeconds},
                       {QStringLiteral("method"), s.method},
                       {QStringLiteral("action"), s.action},
                       {QStringLiteral("error"), s.error}};
}

void printStatus(QTextStream &out, const GuardStatus &s)
{
    if (!s.installed) {
        out << QStringLiteral("No idle guard is installed on this machine.") << Qt::endl;
        return;
    }
    out << QStringLiteral("Idle guard: %1, %2 (stops via %3)")
               .arg(s.running ? QStringLiteral("running") : QStringLiteral("not running"),
                    s.state.isEmpty() ? QStringLiteral("starting") : text::printable(s.state), text::printable(s.method))
        << '\n';
    if (s.reason == QLatin1StringView("idle"))
        out << QStringLiteral("Idle for %1 of %2 minutes.").arg(s.idleSeconds / 60).arg(s.thresholdSeconds / 60) << '\n';
    else if (!s.reason.isEmpty())
        out << QStringLiteral("Busy: %1.").arg(text::printable(s.reason)) << '\n';
    if (!s.error.isEmpty())
        out << QStringLiteral("Last stop attempt failed: %1").arg(text::printableLines(s.error)) << '\n';
    out.flush();
}

// The provider's way to stop the machine, or the error that says there is none (shared with the GUI).
Result<GuardOptions> guardOptionsFor(const Context &context, const GuardArgs &args)
{
    QString provider = args.provider;
    if (provider.isEmpty()) {
        HostStore store(context.configDir);
        if (store.load()) {
            if (const auto saved = store.find(args.host))
                provider = saved->provider;
        }
    }
    return guard::guardOptionsFor(provider, args.idleMinutes, actionFromName(args.afterIdle), args.endpoint);
}

int guardCommand(Context &context, const Args &args)
{
    auto parsed = guardArgs(args);
    if (!parsed)
        return context.fail(parsed.error());
    Result<GuardOptions> options = GuardOptions{};
    if (parsed->action == QLatin1StringView("install") && !(options = guardOptionsFor(context, *parsed)))
        return context.fail(options.error());
    auto session = connectHost(context, parsed->host, args.host());
    if (!session)
        return context.fail(session.error());
    if (parsed->action == QLatin1StringView("install")) {
        if (auto installed = installGuard(**session, *options, parsed->remoteDir); !installed)
            return context.fail(installed.error());
        // So the app's Monitor tab shows this machine's guard on its next connect.
        if (Result<void> remembered = GuardStore(context.configDir).remember(parsed->host, {parsed->idleMinutes, methodName(options->method), options->action});
            !remembered)
            context.warn(remembered.error().message); // installed all the same; the Monitor tab will not show it
    } else if (parsed->action == QLatin1StringView("remove")) {
        if (auto removed = removeGuard(**session, parsed->remoteDir); !removed)
            return context.fail(removed.error());
        if (Result<void> forgotten = GuardStore(context.configDir).forget(parsed->host); !forgotten)
            context.warn(forgotten.error().message);
    }
    auto status = guardStatus(**session, parsed->remoteDir);
    if (!status)
        return context.fail(status.error());
    if (context.json)
        context.printJson(statusJson(parsed->host, *status));
    else if (parsed->action == QLatin1StringView("remove"))
        context.out << QStringLiteral("The idle guard is removed; `gantry-cli watch` still applies its policy.") << Qt::endl;
    else
        printStatus(context.out, *status);
    return ExitOk;
}

const Argument kHost{"HOST", Argument::One, Complete::Host};
const Option kRemoteDir{.name = "remote-dir", .value = "DIR", .help = "where on the machine the guard lives (default ~/.gantry/guard)"};

const Registrar guardRegistrar(Command{
    .name = "guard",
    .summary = "an idle guard on the instance itself: stops (or terminates) it with its own scoped key after M idle minutes",
    .options = {kRemoteDir},
    .groups = Connection,
    .notes = {"It runs where the laptop that launched the machine may sleep (RunPod, Vast.ai: providers that give a scoped key)."},
    .subcommands = {
        {.name = "install",
         .summary = "install (or update) the guard and start it",
         .options = {{.name = "idle-minutes", .value = "M", .help = "idle minutes before it acts (default 30)"},
                     {.name = "action", .value = "WHAT", .help = "stop (default) or terminate", .choices = "stop|terminate"},
                     {.name = "provider", .value = "P", .help = "the provider that stops it (default: the saved host's)", .complete = Complete::Provider},
                     {.name = "endpoint", .value = "URL", .help = "the stop API's base URL (a proxy, an emulator)"}},
         .arguments = {kHost},
         .run = guardCommand},
        {.name = "status", .summary = "whether the guard runs, how long the machine has been idle", .arguments = {kHost}, .run = guardCommand},
        {.name = "remove", .summary = "stop and remove the guard", .arguments = {kHost}, .run = guardCommand},
    },
});

} // namespace
} // namespace gantry::cli
