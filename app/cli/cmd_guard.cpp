// gantry-cli guard: the idle guard that runs on the instance itself, so a machine stops even when
// the laptop that launched it sleeps.
#include "clicommand.h"
#include "cliconnect.h"
#include "core/guard/guard.h"
#include "core/guard/guardoperation.h"
#include "core/hosts/hoststore.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace gantry::cli {
namespace {

using namespace gantry::guard;

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class GuardCliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

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

Result<QString> takeValue(QStringList &args, const QString &name)
{
    const qsizetype at = args.indexOf(name);
    if (at < 0)
        return QString();
    if (at + 1 >= args.size())
        return Error::make(ErrorCode::Usage, GuardCliText::tr("%1 needs a value").arg(name));
    const QString value = args.at(at + 1);
    args.remove(at, 2);
    return value;
}

Result<GuardArgs> parseGuardArgs(QStringList args)
{
    GuardArgs parsed;
    QString *const targets[] = {&parsed.provider, &parsed.endpoint, &parsed.remoteDir, &parsed.afterIdle};
    const QString names[] = {QStringLiteral("--provider"), QStringLiteral("--endpoint"), QStringLiteral("--remote-dir"),
                             QStringLiteral("--action")};
    for (int i = 0; i < 4; ++i) {
        auto value = takeValue(args, names[i]);
        if (!value)
            return value.error();
        *targets[i] = *value;
    }
    auto minutes = takeValue(args, QStringLiteral("--idle-minutes"));
    if (!minutes)
        return minutes.error();
    if (!minutes->isEmpty()) {
        bool ok = false;
        parsed.idleMinutes = minutes->toInt(&ok);
        if (!ok || parsed.idleMinutes < 1)
            return Error::make(ErrorCode::Usage, GuardCliText::tr("--idle-minutes needs a whole number of minutes, 1 or more"));
    }
    if (!parsed.afterIdle.isEmpty() && parsed.afterIdle != QLatin1StringView("stop") && parsed.afterIdle != QLatin1StringView("terminate"))
        return Error::make(ErrorCode::Usage, GuardCliText::tr("--action is stop or terminate"));
    if (args.size() != 2 || !QStringList{QStringLiteral("install"), QStringLiteral("status"), QStringLiteral("remove")}.contains(args.first()))
        return Error::make(ErrorCode::Usage, {});
    parsed.action = args.at(0);
    parsed.host = args.at(1);
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
        out << GuardCliText::tr("No idle guard is installed on this machine.") << Qt::endl;
        return;
    }
    out << GuardCliText::tr("Idle guard: %1, %2 (stops via %3)")
               .arg(s.running ? GuardCliText::tr("running") : GuardCliText::tr("not running"),
                    s.state.isEmpty() ? GuardCliText::tr("starting") : text::printable(s.state), text::printable(s.method))
        << '\n';
    if (s.reason == QLatin1StringView("idle"))
        out << GuardCliText::tr("Idle for %1 of %2 minutes.").arg(s.idleSeconds / 60).arg(s.thresholdSeconds / 60) << '\n';
    else if (!s.reason.isEmpty())
        out << GuardCliText::tr("Busy: %1.").arg(text::printable(s.reason)) << '\n';
    if (!s.error.isEmpty())
        out << GuardCliText::tr("Last stop attempt failed: %1").arg(text::printableLines(s.error)) << '\n';
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

int guardCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto hostOptions = takeHostOptions(args);
    if (!hostOptions)
        return context.fail(hostOptions.error());
    if (args.removeAll(QStringLiteral("--json")) > 0)
        context.json = true;
    auto parsed = parseGuardArgs(args);
    if (!parsed && parsed.error().message.isEmpty())
        return context.usage(GuardCliText::tr("guard install|status|remove HOST [--idle-minutes M] [--action stop|terminate] [--provider P] [--json]"));
    if (!parsed)
        return context.fail(parsed.error());
    Result<GuardOptions> options = GuardOptions{};
    if (parsed->action == QLatin1StringView("install") && !(options = guardOptionsFor(context, *parsed)))
        return context.fail(options.error());
    auto session = connectHost(context, parsed->host, *hostOptions);
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
        context.out << GuardCliText::tr("The idle guard is removed; `gantry-cli watch` still applies its policy.") << Qt::endl;
    else
        printStatus(context.out, *status);
    return ExitOk;
}

const Registrar guardRegistrar(
    "guard",
    "guard install|status|remove HOST [--idle-minutes M] [--action stop|terminate] [--provider P] [--json]   an idle guard on the instance "
    "itself: stops (or terminates) it with its own scoped key (RunPod, Vast.ai) after M idle minutes (default 30)",
    guardCommand);

} // namespace
} // namespace gantry::cli
