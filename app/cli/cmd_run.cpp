// SPDX-License-Identifier: Apache-2.0
// gantry-cli run: managed runs (core/runs) — start one from a spec in the foreground, and list,
// show, follow the log of or stop any run, whichever process drives it (they read its state from
// the config directory).
#include "cliworkspace.h"
#include "cmd_provider_common.h"
#include "interruptscope.h"

#include "core/runs/managedrun.h"
#include "core/runs/runfollower.h"
#include "core/runs/runservice.h"
#include "core/runs/runspec.h"
#include "core/runs/runstate.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policylock.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace gantry::cli {
namespace {

using namespace providercli;

// The run is written for the policy owner, which drives it from now on: a `gantry-cli watch` (or a
// window) that runs already, else one started here for it.
int runDetach(Context &context, runs::RunService &service, runs::RunSpec spec, const QString &path)
{
    const QString name = spec.name;
    if (Result<void> detached = service.detach(std::move(spec), path); !detached)
        return context.fail(detached.error());
    Result<qint64> watcher = workspace::PolicyLock::ensureWatcher(context.configDir, QCoreApplication::applicationFilePath());
    if (!watcher)
        return context.fail(watcher.error());
    const qint64 owner = *watcher != 0 ? *watcher : workspace::PolicyLock::livePid(context.configDir);
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("run"), name}, {QStringLiteral("state"), QStringLiteral("launching")},
                                      {QStringLiteral("watcher_pid"), double(owner)}, {QStringLiteral("watcher_started"), *watcher != 0}});
    else
        context.out << (*watcher != 0 ? QStringLiteral("Run %1 handed to gantry-cli watch (pid %2, started for it; its log: %3).")
                                            .arg(name).arg(owner).arg(QDir(context.configDir).filePath(QStringLiteral("watch.log")))
                                      : QStringLiteral("Run %1 handed to the policy owner (pid %2), which drives it.").arg(name).arg(owner))
                    << Qt::endl
                    << QStringLiteral("gantry-cli run logs %1 --follow shows it; gantry-cli run stop %1 ends it.").arg(name) << Qt::endl;
    return ExitOk;
}

int runStart(Context &context, const Args &args)
{
    const QString path = QFileInfo(args.arg("SPEC")).absoluteFilePath();
    Result<runs::RunSpec> spec = runs::loadRunSpec(path);
    if (!spec)
        return context.fail(spec.error());
    if (const std::optional<QString> name = args.optional("name")) {
        if (Result<void> valid = runs::validateRunName(*name); !valid)
            return context.fail(valid.error());
        spec->name = *name;
    }
    ProviderEnv env = makeProviderEnv(context, {});
    const QStringList ids = spec->resources.providers.isEmpty() ? providers::configuredProviderIds(env.settings) : spec->resources.providers;
    CliWorkspace workspace(context, env, ids);
    for (const QString &error : workspace.errors())
        context.warn(error);
    runs::RunService *service = workspace.core()->runs();
    if (args.has("detach"))
        return runDetach(context, *service, std::move(*spec), path);
    QObject::connect(service, &runs::RunService::runEvent, service, [&context](const QString &, const QJsonObject &event) {
        if (context.json)
            context.printJson(event);
        else
            context.out << event.value(QLatin1String("event")).toString() << ": "
                        << text::printableLines(event.value(QLatin1String("message")).toString()) << Qt::endl;
    });
    QEventLoop loop;
    runs::RunState state = runs::RunState::Launching;
    QObject::connect(service, &runs::RunService::runFinished, &loop, [&loop, &state](const QString &, runs::RunState ended) {
        state = ended;
        loop.quit();
    });
    const QString name = spec->name;
    Result<runs::ManagedRun *> started = service->start(std::move(*spec), path);
    if (!started)
        return context.fail(started.error());
    InterruptScope interrupt;
    interrupt.onInterrupt([service, name] { service->stop(name, false); });
    if (service->driven(name))
        loop.exec();
    switch (state) {
    case runs::RunState::Succeeded:
        return ExitOk;
    case runs::RunState::Stopped:
        return interrupt.interrupted() ? ExitInterrupted : ExitFailure;
    default:
        return ExitFailure;
    }
}

QString attemptLine(const runs::RunAttempt &a, const QDateTime &now)
{
    return QStringLiteral("  %1 %2 %3 $%4/h %5 → %6 %7 $%8")
        .arg(a.provider, a.instance, a.type).arg(a.pricePerHour, 0, 'f', 3)
        .arg(a.started.toString(Qt::ISODate), a.ended.isValid() ? a.ended.toString(Qt::ISODate) : QStringLiteral("now"),
             a.endReason.isEmpty() ? QStringLiteral("running") : a.endReason)
        .arg(a.cost(now), 0, 'f', 4);
}

int runList(Context &context, const Args &)
{
    const runs::RunBook book(context.configDir);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList warnings;
    const QList<runs::RunRecord> records = book.list(&warnings);
    for (const QString &warning : warnings)
        context.warn(warning);
    QJsonArray list;
    for (const runs::RunRecord &record : records) {
        if (context.json)
            list.append(record.toJson(now));
        else
            context.out << QStringLiteral("%1  %2  %3 attempt(s)  $%4").arg(record.name, runs::runStateName(record.state))
                               .arg(record.attempts.size()).arg(record.costSoFar(now), 0, 'f', 4) << Qt::endl;
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("runs"), list}});
    else if (records.isEmpty() && warnings.isEmpty())
        context.out << "No runs; start one with gantry-cli run start SPEC.yaml." << Qt::endl;
    return ExitOk;
}

int runShow(Context &context, const Args &args)
{
    Result<runs::RunRecord> record = runs::RunBook(context.configDir).show(args.arg("NAME"));
    if (!record)
        return context.fail(record.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (context.json) {
        context.printJson(record->toJson(now));
        return ExitOk;
    }
    context.out << record->name << ": " << runs::runStateName(record->state) << " — " << text::printableLines(record->message) << Qt::endl;
    const bool nodes = std::any_of(record->attempts.cbegin(), record->attempts.cend(), [](const runs::RunAttempt &a) { return a.rank > 0; });
    for (const runs::RunAttempt &attempt : record->attempts)
        context.out << text::printable((nodes ? QStringLiteral("  node %1").arg(attempt.rank) : QString()) + attemptLine(attempt, now)) << Qt::endl;
    if (!record->checkpointPath.isEmpty())
        context.out << "checkpoint: " << record->checkpointPath
                    << (record->checkpointAt.isValid() ? QStringLiteral(" (%1 s old)").arg(record->checkpointAt.secsTo(now)) : QStringLiteral(" (none yet)"))
                    << Qt::endl;
    context.out << QStringLiteral("cost so far: $%1").arg(record->costSoFar(now), 0, 'f', 4) << Qt::endl;
    const runs::AttemptUsage usage = record->usage();
    if (usage.meteredSeconds > 0)
        context.out << QStringLiteral("GPU energy: %1 kWh").arg(usage.energyKwh, 0, 'f', 3) << Qt::endl;
    if (usage.observedSeconds > 0)
        context.out << QStringLiteral("spent while the GPUs were under 30 %: $%1").arg(usage.underusedUsd, 0, 'f', 4) << Qt::endl;
    return ExitOk;
}

void printLogLines(Context &context, const QList<runs::RunLogLine> &lines)
{
    for (const runs::RunLogLine &line : lines) {
        if (context.json)
            context.printJson(QJsonObject{{QStringLiteral("time"), line.time}, {QStringLiteral("message"), line.message}});
        else
            context.out << text::printable(line.time + QLatin1Char(' ') + line.message) << Qt::endl;
    }
}

// --follow: the lines as they come, until the run ends (or loses its driver) or Ctrl+C.
int followLog(Context &context, const runs::RunBook &book, const QString &name, qint64 offset)
{
    runs::RunFollower follower(book, name, 250);
    QEventLoop loop;
    int code = ExitOk;
    QObject::connect(&follower, &runs::RunFollower::lines, &loop, [&context](const QList<runs::RunLogLine> &lines) { printLogLines(context, lines); });
    QObject::connect(&follower, &runs::RunFollower::ended, &loop, [&loop, &context](const runs::RunRecord &record) {
        if (!runs::isFinal(record.state))
            context.warn(QStringLiteral("no process drives run %1 any more (it was %2)").arg(record.name, runs::runStateName(record.state)));
        loop.quit();
    });
    QObject::connect(&follower, &runs::RunFollower::failed, &loop, [&loop, &context, &code](const QString &message) {
        code = context.fail(Error{ErrorCode::NotFound, message});
        loop.quit();
    });
    InterruptScope interrupt;
    interrupt.onInterrupt([&loop] { loop.quit(); });
    follower.start(offset);
    loop.exec();
    return interrupt.interrupted() ? ExitInterrupted : code;
}

int runLogs(Context &context, const Args &args)
{
    const runs::RunBook book(context.configDir);
    const QString name = args.arg("NAME");
    Result<runs::RunLogChunk> log = book.readLog(name);
    if (!log)
        return context.fail(log.error());
    printLogLines(context, log->lines);
    return args.has("follow") ? followLog(context, book, name, log->next) : ExitOk;
}

int runStop(Context &context, const Args &args)
{
    const runs::RunBook book(context.configDir);
    const QString name = args.arg("NAME");
    Result<runs::RunRecord> record = book.show(name);
    if (!record)
        return context.fail(record.error());
    Result<runs::RunBook::StopOutcome> asked = book.requestStop(name, args.has("keep-machine"));
    if (!asked)
        return context.fail(asked.error());
    if (*asked == runs::RunBook::StopOutcome::AlreadyEnded) {
        context.out << QStringLiteral("Run %1 has already ended (%2).").arg(name, runs::runStateName(record->state)) << Qt::endl;
        return ExitOk;
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("run"), name}, {QStringLiteral("stop_requested"), true},
                                      {QStringLiteral("owner_pid"), double(record->ownerPid)}});
    else if (runs::RunBook::ownerAlive(record->ownerPid))
        context.out << QStringLiteral("Asked process %1 to stop run %2; gantry-cli run show %2 follows it.").arg(record->ownerPid).arg(name)
                    << Qt::endl;
    else
        context.out << QStringLiteral("Nobody drives run %1 now; the policy owner (pid %2) takes it over and stops it. gantry-cli run show %1 "
                                      "follows it.").arg(name).arg(workspace::PolicyLock::livePid(context.configDir))
                    << Qt::endl;
    return ExitOk;
}

const Argument kRunName{"NAME"};

const Registrar runRegistrar(Command{
    .name = "run",
    .summary = "managed runs: a training run that survives losing its machine, on the cheapest offer that fits",
    .subcommands = {
        {.name = "start",
         .summary = "start the run of a spec (YAML) and drive it in the foreground until it ends",
         .options = {{.name = "name", .value = "NAME", .help = "the run's name (default: the spec's name)"},
                     {.name = "detach", .help = "hand the run to gantry-cli watch (started for it when none runs) and return"}},
         .arguments = {{"SPEC", Argument::One, Complete::File}},
         .notes = {"With --json each event is one JSON line. Ctrl+C stops the run: the job is stopped, its checkpoint "
                   "comes home and the machine is terminated.",
                   "A run whose driver ends first (a closed window, a killed command) is taken over by gantry-cli watch; "
                   "with --detach the watcher drives it from the start. Secrets then come from the keychain, or from the "
                   "environment of the watcher."},
         .run = runStart},
        {.name = "list", .summary = "every run with its state, attempts and cost", .run = runList},
        {.name = "show", .summary = "a run's state, attempts, checkpoint and cost so far", .arguments = {kRunName}, .run = runShow},
        {.name = "logs",
         .summary = "a run's events, as they happened",
         .options = {{.name = "follow", .help = "keep printing new events until the run ends (Ctrl+C stops following, not the run)"}},
         .arguments = {kRunName},
         .run = runLogs},
        {.name = "stop",
         .summary = "stop a run: its job stops, its checkpoint comes home, its machine is terminated",
         .options = {{.name = "keep-machine", .help = "leave the machine running (it keeps billing)"}},
         .arguments = {kRunName},
         .run = runStop},
    },
});

} // namespace
} // namespace gantry::cli
