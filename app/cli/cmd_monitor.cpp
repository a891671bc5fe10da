#include "clicommand.h"
#include "cliconnect.h"
#include "scopedsignal.h"
#include "core/monitor/monitorstream.h"
#include "core/monitor/processkill.h"
#include "core/monitor/samplejson.h"
#include "core/util/printable.h"

#include <QCoreApplication>

#include <cstdio>
#include <unistd.h>

#include <atomic>
#include <csignal>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

std::atomic_bool g_stopMonitor{false};

void onMonitorSigint(int)
{
    g_stopMonitor = true;
}

// Takes "--name VALUE" (or "--name=VALUE") out of args; returns false on a malformed number.
bool takeInt(QStringList &args, const QString &name, int *value, QString *error)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        QString text;
        if (args.at(i) == name && i + 1 < args.size()) {
            text = args.at(i + 1);
            args.remove(i, 2);
        } else if (args.at(i).startsWith(name + QLatin1Char('='))) {
            text = args.at(i).mid(name.size() + 1);
            args.remove(i);
        } else {
            continue;
        }
        bool ok = false;
        *value = text.toInt(&ok);
        if (!ok || *value < 0) {
            *error = CliText::tr("%1 needs a non-negative number, got \"%2\"").arg(name, text);
            return false;
        }
        return true;
    }
    return true;
}

int monitorCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options) {
        return context.fail(options.error());
    }
    int intervalMs = 1000;
    int count = 0;
    QString error;
    if (!takeInt(args, QStringLiteral("--interval"), &intervalMs, &error)
        || !takeInt(args, QStringLiteral("--count"), &count, &error)) {
        return context.usage(error);
    }
    if (args.removeAll(QStringLiteral("--json")) > 0) {
        context.json = true;
    }
    if (args.size() != 1 || args.first().startsWith(QLatin1Char('-'))) {
        return context.usage(CliText::tr("monitor HOST [--interval MS] [--count N] [--json]"));
    }
    if (intervalMs < 100) {
        return context.usage(CliText::tr("--interval must be at least 100 ms"));
    }
    const QString host = args.first();
    auto session = connectHost(context, host, *options);
    if (!session) {
        return context.fail(session.error());
    }
    const ScopedSignal ctrlC(SIGINT, onMonitorSigint);
    const ScopedSignal sigterm(SIGTERM, onMonitorSigint);

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
            context.err << CliText::tr("gantry-cli: no NVIDIA driver found on %1 (nvidia-smi missing): host metrics only")
                               .arg(host)
                        << Qt::endl;
        }
        if (context.json) {
            context.printJson(monitor::sampleToJson(sample));
        } else {
            context.out << monitor::sampleToText(sample) << Qt::endl;
        }
        if (count > 0 && ++printed >= count) {
            g_stopMonitor = true;
        }
    };
    callbacks.stale = [&](bool stale) {
        if (stale) {
            context.err << CliText::tr("gantry-cli: no sample from %1 for 3 intervals").arg(host) << Qt::endl;
        }
    };
    auto result = stream.run(g_stopMonitor, callbacks);
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
    context.err << question << QStringLiteral(" [y/N] ") << Qt::flush;
    char buffer[16] = {};
    if (!fgets(buffer, sizeof buffer, stdin)) {
        return false;
    }
    return buffer[0] == 'y' || buffer[0] == 'Y';
}

int killProcessCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options) {
        return context.fail(options.error());
    }
    const bool yes = args.removeAll(QStringLiteral("--yes")) > 0;
    context.json = args.removeAll(QStringLiteral("--json")) > 0 || context.json;
    monitor::KillSignal signal = monitor::KillSignal::Term;
    if (const qsizetype i = args.indexOf(QStringLiteral("--signal")); i >= 0) {
        const auto parsed = i + 1 < args.size() ? monitor::parseKillSignal(args.at(i + 1)) : std::nullopt;
        if (!parsed) {
            return context.usage(CliText::tr("--signal takes TERM or KILL"));
        }
        signal = *parsed;
        args.remove(i, 2);
    }
    if (args.size() != 2 || args.first().startsWith(QLatin1Char('-'))) {
        return context.usage(CliText::tr("kill HOST PID [--signal TERM|KILL] [--yes] [--json]"));
    }
    const QString host = args.at(0);
    auto pid = monitor::parsePid(args.at(1));
    if (!pid) {
        return context.fail(pid.error());
    }
    auto session = connectHost(context, host, *options);
    if (!session) {
        return context.fail(session.error());
    }
    auto process = monitor::describeProcess(**session, host, *pid);
    if (!process) {
        return context.fail(process.error());
    }
    if (!yes && !confirmOnTerminal(context, CliText::tr("Send SIG%1 to process %2 (%3, user %4) on %5?")
                                                .arg(monitor::killSignalName(signal)).arg(*pid)
                                                .arg(text::printable(process->commandLine), text::printable(process->user), host))) {
        return context.fail(Error{ErrorCode::Usage, CliText::tr("Not confirmed: re-run with --yes to send SIG%1 to process %2 on %3.")
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
        context.out << CliText::tr("sent SIG%1 to process %2 on %3").arg(monitor::killSignalName(signal)).arg(*pid).arg(host) << Qt::endl;
    }
    return ExitOk;
}

const Registrar monitorRegistrar("monitor",
                                 "monitor HOST [--interval MS] [--count N] [--json]   live GPU/host samples, one line "
                                 "(JSON object) per sample",
                                 monitorCommand);
const Registrar killRegistrar("kill",
                              "kill HOST PID [--signal TERM|KILL] [--yes] [--json]   end a GPU process (asks first unless --yes)",
                              killProcessCommand);

} // namespace
} // namespace gantry::cli
