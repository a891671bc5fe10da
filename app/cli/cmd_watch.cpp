// gantry-cli watch: the GUI's idle policy and budget watch, without a display (a home server, a
// small VM). It acts only while it holds the policy lock; otherwise it reports who does and defers.
#include "cliworkspace.h"
#include "cmd_provider_common.h"

#include "core/cost/budgetmonitor.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/monitor/monitorservice.h"
#include "core/runs/runservice.h"
#include "core/workspace/desktopnotifier.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policylock.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/workspace.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QEventLoop>
#include <QTimer>

namespace gantry::cli {
namespace {

using namespace providercli;

struct WatchOptions
{
    monitor::IdleAction action = monitor::IdleAction::Notify;
    double idleMinutes = 0; // fractions allowed: 0.05 is 3 s, for a test or a demo
    int countdownSeconds = 60;
    double dailyBudget = -1;
    double monthlyBudget = -1;
};

Result<WatchOptions> watchOptions(const Args &args)
{
    WatchOptions options;
    bool ok = true;
    if (const std::optional<QString> countdown = args.optional("countdown");
        countdown && ((options.countdownSeconds = countdown->toInt(&ok)) <= 0 || !ok))
        return Error{ErrorCode::Usage, QStringLiteral("%1 takes a positive whole number").arg(QStringLiteral("--countdown"))};
    if (const std::optional<QString> minutes = args.optional("idle-minutes"); minutes && ((options.idleMinutes = minutes->toDouble(&ok)) <= 0 || !ok))
        return Error{ErrorCode::Usage, QStringLiteral("--idle-minutes takes a positive number of minutes (0.5 is 30 s)")};
    for (const auto &[flag, target] : {std::pair{"daily-budget", &options.dailyBudget}, std::pair{"monthly-budget", &options.monthlyBudget}}) {
        if (const std::optional<QString> value = args.optional(flag); value && ((*target = value->toDouble(&ok)) < 0 || !ok))
            return Error{ErrorCode::Usage, QStringLiteral("--%1 takes an amount in USD (0 removes the budget)").arg(QString::fromUtf8(flag))};
    }
    const QString name = args.value("idle-action", QStringLiteral("notify"));
    const QList<monitor::IdleAction> all{monitor::IdleAction::Notify, monitor::IdleAction::Stop, monitor::IdleAction::Terminate};
    const auto found = std::find_if(all.cbegin(), all.cend(), [&name](monitor::IdleAction a) { return monitor::idleActionName(a) == name; });
    if (found == all.cend())
        return Error{ErrorCode::Usage, QStringLiteral("--idle-action is notify, stop or terminate")};
    options.action = *found;
    return options;
}

// One event per line: JSON with --json (for scripts and journald), else readable text.
void report(const Context &context, const QString &event, const QString &host, const QString &message, QJsonObject extra = {})
{
    if (context.json) {
        extra.insert(QStringLiteral("event"), event);
        extra.insert(QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
        if (!host.isEmpty())
            extra.insert(QStringLiteral("host"), host);
        extra.insert(QStringLiteral("message"), message);
        context.printJson(extra);
        return;
    }
    context.out << event << (host.isEmpty() ? QString() : QStringLiteral(" ") + text::printable(host)) << ": " << text::printableLines(message)
                << Qt::endl;
}

// Every saved host of a managed instance is sampled; hosts saved later are picked up on the next
// pass. A hosts.json that cannot be read is reported; machines already sampled stay sampled.
void monitorInstances(const Context &context, monitor::MonitorService &monitor, HostStore *hosts)
{
    if (Result<void> loaded = hosts->load(); !loaded)
        report(context, QStringLiteral("warning"), {}, loaded.error().message);
    for (const SavedHost &host : hosts->hosts()) {
        if (!host.provider.isEmpty() && !host.instanceId.isEmpty() && !monitor.isMonitoring(host.name))
            monitor.startMonitoring(host);
    }
}

// What a user must see reaches the desktop too, where there is one (the line is the record).
void connectReports(const Context &context, workspace::PolicyRunner &runner, const workspace::DesktopNotifier &desktop)
{
    QObject::connect(&runner, &workspace::PolicyRunner::idleNotice, &runner, [&context, &desktop](const QString &host, const QString &message) {
        report(context, QStringLiteral("idle"), host, message);
        desktop.notify(QStringLiteral("Idle GPU on %1").arg(host), message);
    });
    QObject::connect(&runner, &workspace::PolicyRunner::budgetReached, &runner,
                     [&context, &desktop](const QString &period, int threshold, double spent, double limit, const QString &text) {
                         desktop.notify(QStringLiteral("Budget"), text);
                         report(context, QStringLiteral("budget"), {}, text,
                                {{QStringLiteral("period"), period}, {QStringLiteral("threshold"), threshold},
                                 {QStringLiteral("spent"), spent}, {QStringLiteral("limit"), limit}});
                     });
    QObject::connect(&runner, &workspace::PolicyRunner::acted, &runner, [&context, &desktop](const QString &host, const workspace::ActionOutcome &outcome) {
        const QString message = (QStringList{outcome.message} + outcome.warnings).join(QLatin1Char(' '));
        desktop.notify(QStringLiteral("Idle GPU on %1").arg(host), message);
        report(context, QStringLiteral("acted"), host, message,
               {{QStringLiteral("provider"), outcome.provider}, {QStringLiteral("id"), outcome.instanceId},
                {QStringLiteral("requested"), workspace::instanceActionName(outcome.requested)},
                {QStringLiteral("action"), workspace::instanceActionName(outcome.performed)}});
    });
    QObject::connect(&runner, &workspace::PolicyRunner::actionFailed, &runner,
                     [&context, &desktop](const QString &host, const QString &action, const QString &message) {
                         desktop.notify(QStringLiteral("Idle GPU on %1").arg(host), message);
                         report(context, QStringLiteral("action_failed"), host, message, {{QStringLiteral("action"), action}});
                     });
    QObject::connect(&runner, &workspace::PolicyRunner::deferred, &runner, [&context](const QString &host, const QString &holder) {
        report(context, QStringLiteral("deferred"), host, QStringLiteral("%1 owns the idle policy; leaving the action to it.").arg(holder),
               {{QStringLiteral("owner"), holder}});
    });
}

int watchCommand(Context &context, const Args &args)
{
    const ProviderOptions chosen = providerOptions(args);
    Result<WatchOptions> options = watchOptions(args);
    if (!options)
        return context.usage(options.error().message);
    ProviderEnv env = makeProviderEnv(context, chosen);
    const QStringList ids = chosen.provider.isEmpty() ? providers::configuredProviderIds(env.settings) : QStringList{chosen.provider};
    CliWorkspace workspace(context, env, ids);
    for (const QString &error : workspace.errors())
        report(context, QStringLiteral("provider_error"), {}, error);
    if (!workspace.ledger())
        return context.fail(Error{ErrorCode::Io, QStringLiteral("the cost ledger cannot be opened; the watcher needs it to record its actions")});
    for (const auto &[period, limit] : {std::pair{QStringLiteral("daily"), options->dailyBudget},
                                        std::pair{QStringLiteral("monthly"), options->monthlyBudget}}) {
        if (limit >= 0) {
            if (Result<void> set = workspace.ledger()->setBudget(period, limit); !set)
                return context.fail(set.error());
        }
    }
    monitor::MonitorService &monitor = *workspace.core()->monitor();
    workspace::PolicyRunner &runner = *workspace.core()->startPolicies();
    const workspace::PolicyLock &lock = *workspace.core()->policyLock();
    runner.setIdleOverride(options->action, options->idleMinutes, options->countdownSeconds);
    const workspace::DesktopNotifier desktop;
    connectReports(context, runner, desktop);
    // The managed runs it takes over (nobody else drove them) report here, one line per event.
    QObject::connect(workspace.core()->runs(), &runs::RunService::runEvent, &runner, [&context](const QString &name, const QJsonObject &event) {
        report(context, QStringLiteral("run"), {}, event.value(QLatin1String("message")).toString(),
               {{QStringLiteral("run"), name}, {QStringLiteral("run_event"), event.value(QLatin1String("event")).toString()}});
    });
    report(context, QStringLiteral("watching"), {},
           runner.ownsPolicy() ? QStringLiteral("watching; idle action %1").arg(monitor::idleActionName(options->action))
                               : QStringLiteral("%1 owns the idle policy; notifying only until it exits.").arg(lock.holder()),
           {{QStringLiteral("owner"), runner.ownsPolicy()}, {QStringLiteral("idle_action"), monitor::idleActionName(options->action)},
            {QStringLiteral("desktop_notifications"), desktop.isAvailable()}});
    monitorInstances(context, monitor, workspace.get()->hosts());
    QTimer rescan;
    QObject::connect(&rescan, &QTimer::timeout, &rescan, [&] {
        monitorInstances(context, monitor, workspace.get()->hosts());
        runner.ownsPolicy(); // takes over once the other owner is gone
    });
    rescan.start(60000);
    runner.budgets()->setInterval(60000);
    runner.budgets()->check();
    QEventLoop loop; // until the service manager stops the process
    return loop.exec();
}

const Registrar watchRegistrar(Command{
    .name = "watch",
    .summary = "run the GUI's idle policy and budget watch headless (results home before any terminate), until stopped",
    .options = {{.name = "idle-minutes", .value = "M", .help = "a GPU idle this long is acted on (fractions allowed; default: the settings')"},
                {.name = "idle-action", .value = "ACTION", .help = "notify (default), stop or terminate", .choices = "notify|stop|terminate"},
                {.name = "countdown", .value = "SECONDS", .help = "the warning before it acts (default 60)"},
                {.name = "daily-budget", .value = "USD", .help = "set the daily budget (0 removes it)"},
                {.name = "monthly-budget", .value = "USD", .help = "set the monthly budget (0 removes it)"}},
    .groups = Provider,
    .notes = {"It acts only while it holds the policy lock (a running GUI holds it): otherwise it reports who does and defers."},
    .run = watchCommand,
});

} // namespace
} // namespace gantry::cli
