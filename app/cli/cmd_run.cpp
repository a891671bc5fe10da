// SPDX-License-Identifier: Apache-2.0
// gantry-cli run: managed runs (core/runs) — start one from a spec in the foreground, and list,
// show, follow the log of or stop any run, whichever process drives it (they read its state from
// the config directory).
#include "cliworkspace.h"
#include "cmd_provider_common.h"
#include "interruptscope.h"

#include "core/runs/managedrun.h"
#include "core/runs/runspec.h"
#include "core/runs/runstate.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <signal.h>

namespace gantry::cli {
namespace {

using namespace providercli;

// The process that drives the run is alive (a pid that ended, or was reused by another program
// without the run's lock, reads as gone).
bool ownerAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
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
    const runs::RunStore store(context.configDir);
    if (Result<runs::RunRecord> previous = store.load(spec->name); previous && !runs::isFinal(previous->state) && ownerAlive(previous->ownerPid)) {
        return context.fail(Error{ErrorCode::Conflict, QStringLiteral("run %1 is driven by process %2; stop it with gantry-cli run stop %1, "
                                                                      "or start this one with --name").arg(spec->name).arg(previous->ownerPid)});
    }
    ProviderEnv env = makeProviderEnv(context, {});
    const QStringList ids = spec->resources.providers.isEmpty() ? providers::configuredProviderIds(env.settings) : spec->resources.providers;
    CliWorkspace workspace(context, env, ids);
    for (const QString &error : workspace.errors())
        context.warn(error);
    runs::ManagedRun::Options options;
    if (const int tick = qEnvironmentVariableIntValue("GANTRY_RUN_TICK_MS"); tick > 0)
        options.tickMs = tick; // tests and demos: a fast watch
    runs::ManagedRun run(workspace.core(), *spec, path, options);
    QObject::connect(&run, &runs::ManagedRun::event, &run, [&context](const QJsonObject &event) {
        if (context.json)
            context.printJson(event);
        else
            context.out << event.value(QLatin1String("event")).toString() << ": "
                        << text::printableLines(event.value(QLatin1String("message")).toString()) << Qt::endl;
    });
    InterruptScope interrupt;
    interrupt.onInterrupt([&run] { run.stop(false); });
    QEventLoop loop;
    QObject::connect(&run, &runs::ManagedRun::finished, &loop, &QEventLoop::quit);
    run.start();
    if (!runs::isFinal(run.record().state))
        loop.exec();
    switch (run.record().state) {
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
    const runs::RunStore store(context.configDir);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonArray list;
    for (const QString &name : store.names()) {
        Result<runs::RunRecord> record = store.load(name);
        if (!record) {
            context.warn(record.error().message);
            continue;
        }
        if (context.json)
            list.append(record->toJson(now));
        else
            context.out << QStringLiteral("%1  %2  %3 attempt(s)  $%4").arg(name, runs::runStateName(record->state))
                               .arg(record->attempts.size()).arg(record->costSoFar(now), 0, 'f', 4) << Qt::endl;
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("runs"), list}});
    else if (list.isEmpty() && store.names().isEmpty())
        context.out << "No runs; start one with gantry-cli run start SPEC.yaml." << Qt::endl;
    return ExitOk;
}

int runShow(Context &context, const Args &args)
{
    Result<runs::RunRecord> record = runs::RunStore(context.configDir).load(args.arg("NAME"));
    if (!record)
        return context.fail(record.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (context.json) {
        context.printJson(record->toJson(now));
        return ExitOk;
    }
    context.out << record->name << ": " << runs::runStateName(record->state) << " — " << text::printableLines(record->message) << Qt::endl;
    for (const runs::RunAttempt &attempt : record->attempts)
        context.out << text::printable(attemptLine(attempt, now)) << Qt::endl;
    if (!record->checkpointPath.isEmpty())
        context.out << "checkpoint: " << record->checkpointPath
                    << (record->checkpointAt.isValid() ? QStringLiteral(" (%1 s old)").arg(record->checkpointAt.secsTo(now)) : QStringLiteral(" (none yet)"))
                    << Qt::endl;
    context.out << QStringLiteral("cost so far: $%1").arg(record->costSoFar(now), 0, 'f', 4) << Qt::endl;
    return ExitOk;
}

int runLogs(Context &context, const Args &args)
{
    const runs::RunStore store(context.configDir);
    const QString name = args.arg("NAME");
    if (Result<runs::RunRecord> record = store.load(name); !record)
        return context.fail(record.error());
    QFile log(store.logPath(name));
    if (!log.open(QIODevice::ReadOnly))
        return ExitOk; // nothing happened yet
    const QList<QByteArray> lines = log.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.isEmpty())
            continue;
        if (context.json) {
            const qsizetype space = line.indexOf(' ');
            context.printJson(QJsonObject{{QStringLiteral("time"), QString::fromUtf8(line.left(space))},
                                          {QStringLiteral("message"), QString::fromUtf8(line.mid(space + 1))}});
        } else {
            context.out << text::printable(QString::fromUtf8(line)) << Qt::endl;
        }
    }
    return ExitOk;
}

int runStop(Context &context, const Args &args)
{
    const runs::RunStore store(context.configDir);
    const QString name = args.arg("NAME");
    Result<runs::RunRecord> record = store.load(name);
    if (!record)
        return context.fail(record.error());
    if (runs::isFinal(record->state)) {
        context.out << QStringLiteral("Run %1 has already ended (%2).").arg(name, runs::runStateName(record->state)) << Qt::endl;
        return ExitOk;
    }
    if (!ownerAlive(record->ownerPid)) {
        return context.fail(Error{ErrorCode::Conflict, QStringLiteral("no process drives run %1; its last machine is %2 on %3: "
                                                                      "terminate it with gantry-cli terminate")
                                                           .arg(name, record->attempts.isEmpty() ? QStringLiteral("none") : record->attempts.last().instance,
                                                                record->attempts.isEmpty() ? QString() : record->attempts.last().provider)});
    }
    if (Result<void> asked = runs::ManagedRun::requestStop(context.configDir, name, args.has("keep-machine")); !asked)
        return context.fail(asked.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("run"), name}, {QStringLiteral("stop_requested"), true},
                                      {QStringLiteral("owner_pid"), double(record->ownerPid)}});
    else
        context.out << QStringLiteral("Asked process %1 to stop run %2; gantry-cli run show %2 follows it.").arg(record->ownerPid).arg(name)
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
         .options = {{.name = "name", .value = "NAME", .help = "the run's name (default: the spec's name)"}},
         .arguments = {{"SPEC", Argument::One, Complete::File}},
         .notes = {"With --json each event is one JSON line. Ctrl+C stops the run: the job is stopped, its checkpoint "
                   "comes home and the machine is terminated."},
         .run = runStart},
        {.name = "list", .summary = "every run with its state, attempts and cost", .run = runList},
        {.name = "show", .summary = "a run's state, attempts, checkpoint and cost so far", .arguments = {kRunName}, .run = runShow},
        {.name = "logs", .summary = "a run's events, as they happened", .arguments = {kRunName}, .run = runLogs},
        {.name = "stop",
         .summary = "stop a run: its job stops, its checkpoint comes home, its machine is terminated",
         .options = {{.name = "keep-machine", .help = "leave the machine running (it keeps billing)"}},
         .arguments = {kRunName},
         .run = runStop},
    },
});

} // namespace
} // namespace gantry::cli
