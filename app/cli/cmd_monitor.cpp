#include "clicommand.h"
#include "cliconnect.h"
#include "interruptscope.h"
#include "core/monitor/monitorstream.h"
#include "core/monitor/processkill.h"
#include "core/monitor/samplejson.h"
#include "core/util/printable.h"

#include <cstdio>
#include <unistd.h>

#include <limits>

namespace gantry::cli {
namespace {

int monitorCommand(Context &context, const Args &args)
{
    const Result<std::optional<qint64>> interval = args.integer("interval", 0, std::numeric_limits<int>::max());
    const Result<std::optional<qint64>> limit = args.integer("count", 0, std::numeric_limits<int>::max());
    if (!interval || !limit) {
        return context.usage(!interval ? interval.error().message : limit.error().message);
    }
    const int intervalMs = int(interval->value_or(1000));
    const int count = int(limit->value_or(0));
    if (intervalMs < 100) {
        return context.usage(QStringLiteral("--interval must be at least 100 ms"));
    }
    const QString host = args.arg("HOST");
    auto session = connectHost(context, host, args.host());
    if (!session) {
        return context.fail(session.error());
    }
    // Ctrl+C, SIGTERM or --count samples end the stream (exit 0).
    const InterruptScope interrupt;

    monitor::StreamSettings settings;
    settings.intervalMs = intervalMs;
    settings.processEveryMs = qMax(intervalMs, 5000);
    monitor::MonitorStream stream(**session, host, settings);
    int printed = 0;
    bool warnedNoDriver = false;
    monitor::MonitorStream::Callbacks callbacks;
    callbacks.sample = [&](const monitor::MachineSample &sample) {
        if (sample.driver == monitor::DriverState::NoDriver && !warnedNoDriver && !context.json) {
            warnedNoDriver = true;
            context.err << QStringLiteral("gantry-cli: no NVIDIA driver found on %1 (nvidia-smi missing): host metrics only")
                               .arg(host)
                        << Qt::endl;
        }
        if (context.json) {
            context.printJson(monitor::sampleToJson(sample));
        } else {
            context.out << monitor::sampleToText(sample) << Qt::endl;
        }
        if (count > 0 && ++printed >= count) {
            interrupt.token().cancel();
        }
    };
    callbacks.stale = [&](bool stale) {
        if (stale) {
            context.err << QStringLiteral("gantry-cli: no sample from %1 for 3 intervals").arg(host) << Qt::endl;
        }
    };
    auto result = stream.run(*interrupt.token().flag(), callbacks);
    if (!result) {
        return context.fail(result.error());
    }
    return ExitOk;
}


// Asks on the terminal; false when stdin is not one (scripts pass --yes).
bool confirmOnTerminal(Context &context, const QString &question)
{
    if (!isatty(STDIN_FILENO)) {
        return false;
    }
    const TerminalQuestion asking;
    context.err << question << QStringLiteral(" [y/N] ") << Qt::flush;
    char buffer[16] = {};
    if (!fgets(buffer, sizeof buffer, stdin)) {
        return false;
    }
    return buffer[0] == 'y' || buffer[0] == 'Y';
}

int killProcessCommand(Context &context, const Args &args)
{
    const bool yes = args.has("yes");
    monitor::KillSignal signal = monitor::KillSignal::Term;
    if (const std::optional<QString> name = args.optional("signal")) {
        const auto parsed = monitor::parseKillSignal(*name);
        if (!parsed) {
            return context.usage(QStringLiteral("--signal takes TERM or KILL"));
        }
        signal = *parsed;
    }
    const QString host = args.arg("HOST");
    auto pid = monitor::parsePid(args.arg("PID"));
    if (!pid) {
        return context.fail(pid.error());
    }
    auto session = connectHost(context, host, args.host());
    if (!session) {
        return context.fail(session.error());
    }
    auto process = monitor::describeProcess(**session, host, *pid);
    if (!process) {
        return context.fail(process.error());
    }
    if (!yes && !confirmOnTerminal(context, QStringLiteral("Send SIG%1 to process %2 (%3, user %4) on %5?")
                                                .arg(monitor::killSignalName(signal)).arg(*pid)
                                                .arg(text::printable(process->commandLine), text::printable(process->user), host))) {
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("Not confirmed: re-run with --yes to send SIG%1 to process %2 on %3.")
                                                        .arg(monitor::killSignalName(signal)).arg(*pid).arg(host)});
    }
    if (auto killed = monitor::killProcess(**session, host, *pid, signal); !killed) {
        return context.fail(killed.error());
    }
    if (context.json) {
        context.printJson({{QStringLiteral("host"), host}, {QStringLiteral("pid"), double(*pid)},
                           {QStringLiteral("signal"), monitor::killSignalName(signal)}, {QStringLiteral("user"), process->user},
                           {QStringLiteral("command_line"), process->commandLine}, {QStringLiteral("sent"), true}});
    } else {
        context.out << QStringLiteral("sent SIG%1 to process %2 on %3").arg(monitor::killSignalName(signal)).arg(*pid).arg(host) << Qt::endl;
    }
    return ExitOk;
}

const Registrar monitorRegistrar(Command{
    .name = "monitor",
    .summary = "live GPU and host samples of HOST, one line (with --json one JSON object) per sample",
    .options = {{.name = "interval", .value = "MS", .help = "milliseconds between samples, 100 or more (default 1000)"},
                {.name = "count", .value = "N", .help = "stop after N samples (default: until Ctrl+C or SIGTERM, exit 0)"}},
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .run = monitorCommand,
});
const Registrar killRegistrar(Command{
    .name = "kill",
    .summary = "end a (GPU) process on HOST (asks first unless --yes)",
    .options = {{.name = "signal", .value = "SIGNAL", .help = "TERM (default) or KILL", .choices = "TERM|KILL"},
                {.name = "yes", .help = "do not ask (needed where nobody can answer)"}},
    .arguments = {{"HOST", Argument::One, Complete::Host}, {"PID"}},
    .groups = Connection,
    .run = killProcessCommand,
});

} // namespace
} // namespace gantry::cli
