#include "clicommand.h"
#include "cliconnect.h"
#include "interruptscope.h"
#include "core/jobs/jobrunner.h"
#include "core/util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cstdio>
#include <limits>

namespace gantry::cli {
namespace {

QJsonObject jobJson(const jobs::JobInfo &job)
{
    QJsonObject o{{QStringLiteral("name"), job.name},
                  {QStringLiteral("state"), jobs::jobStateName(job.state)},
                  {QStringLiteral("exit_code"), job.exitCode ? QJsonValue(*job.exitCode) : QJsonValue()},
                  {QStringLiteral("started"), job.started.isValid() ? QJsonValue(job.started.toString(Qt::ISODate)) : QJsonValue()},
                  {QStringLiteral("command"), job.command}};
    if (!job.signal.isEmpty())
        o.insert(QStringLiteral("signal"), job.signal);
    if (job.ended.isValid())
        o.insert(QStringLiteral("ended"), job.ended.toString(Qt::ISODate));
    o.insert(QStringLiteral("method"), job.method);
    o.insert(QStringLiteral("cwd"), job.workingDir);
    return o;
}

void writeRaw(const QByteArray &data)
{
    fwrite(data.constData(), 1, static_cast<size_t>(data.size()), stdout);
    fflush(stdout);
}

int runJob(Context &context, const Args &args)
{
    jobs::JobSpec spec;
    spec.name = args.value("name");
    spec.workingDir = args.value("cwd");
    spec.venv = args.value("venv");
    spec.condaEnv = args.value("conda");
    for (const QString &assignment : args.values("env")) {
        auto pair = jobs::parseEnvAssignment(assignment);
        if (!pair)
            return context.fail(pair.error());
        spec.env.append(*pair);
    }
    const QString methodName = args.value("method");
    if (!methodName.isEmpty() && jobs::jobMethodFromName(methodName) == jobs::JobMethod::Auto && methodName != u"auto")
        return context.usage(QStringLiteral("--method is tmux, screen, nohup or auto"));
    QStringList words = args.rest();
    // Like `exec`: one word is a shell line, several are quoted one by one.
    if (words.size() == 1) {
        spec.command = words.first();
    } else {
        for (QString &word : words)
            word = ssh::shellQuote(word);
        spec.command = words.join(u' ');
    }
    if (auto valid = jobs::validateSpec(spec); !valid)
        return context.fail(valid.error());
    const QString host = args.arg("HOST");
    auto session = connectHost(context, host, args.host());
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, args.value("jobs-dir"));
    auto started = runner.start(spec, jobs::jobMethodFromName(methodName));
    if (!started)
        return context.fail(started.error());
    const jobs::JobInfo &job = started->info;
    if (context.json) {
        QJsonObject o = jobJson(job);
        if (!started->tail.isEmpty())
            o.insert(QStringLiteral("tail"), started->tail);
        context.printJson(o);
    } else if (job.isActive()) {
        context.out << QStringLiteral("Started job %1 on %2 (in %3). Follow it with: gantry-cli job logs %2 %1 --follow")
                           .arg(text::printable(job.name), host, text::printable(job.method))
                    << Qt::endl;
    } else {
        context.err << QStringLiteral("The job %1 ended at once (%2). Last lines of its log:").arg(text::printable(job.name), text::printable(job.statusText())) << Qt::endl
                    << started->tail;
        context.err.flush();
    }
    if (!job.isActive() && job.exitCode.value_or(1) != 0)
        return ExitFailure;
    return ExitOk;
}

int listJobs(Context &context, const Args &args)
{
    const QString host = args.arg("HOST");
    auto session = connectHost(context, host, args.host());
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, args.value("jobs-dir"));
    auto list = runner.list();
    if (!list)
        return context.fail(list.error());
    if (context.json) {
        QJsonArray array;
        for (const jobs::JobInfo &job : std::as_const(*list))
            array.append(jobJson(job));
        context.out << QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)) << Qt::endl;
        return ExitOk;
    }
    if (list->isEmpty()) {
        context.out << QStringLiteral("No jobs on %1. Start one with: gantry-cli job run %1 -- COMMAND").arg(host) << Qt::endl;
        return ExitOk;
    }
    context.out << QStringLiteral("%1  %2  %3  %4\n")
                       .arg(QStringLiteral("NAME"), -28)
                       .arg(QStringLiteral("STATE"), -18)
                       .arg(QStringLiteral("STARTED"), -20)
                       .arg(QStringLiteral("COMMAND"));
    for (const jobs::JobInfo &job : std::as_const(*list)) {
        // Names, states and command lines are read from files on the host: escaped for the terminal.
        QString command = text::printable(job.command.simplified());
        if (command.size() > 60)
            command = command.left(57) + QStringLiteral("...");
        context.out << QStringLiteral("%1  %2  %3  %4\n")
                           .arg(text::printable(job.name), -28)
                           .arg(text::printable(job.statusText()), -18)
                           .arg(job.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), -20)
                           .arg(command);
    }
    context.out.flush();
    return ExitOk;
}

int jobLogs(Context &context, const Args &args)
{
    const bool follow = args.has("follow");
    const Result<std::optional<qint64>> offsetOption = args.integer("offset", 0, std::numeric_limits<qint64>::max());
    if (!offsetOption)
        return context.usage(QStringLiteral("--offset takes a byte count"));
    qint64 offset = offsetOption->value_or(0);
    const QString host = args.arg("HOST");
    const QString name = args.arg("NAME");
    const QString jobsDir = args.value("jobs-dir");
    auto session = connectHost(context, host, args.host());
    if (!session)
        return context.fail(session.error());
    if (!follow) {
        jobs::JobRunner runner(**session, jobsDir);
        auto log = runner.readLog(name, offset);
        if (!log)
            return context.fail(log.error());
        writeRaw(*log);
        return ExitOk;
    }
    const InterruptScope interrupt;
    // A dropped connection is resumed from the last byte received, a few times, then given up.
    for (int attempt = 0;; ++attempt) {
        jobs::JobRunner runner(**session, jobsDir);
        auto sink = [&offset](const QByteArray &data) {
            writeRaw(data);
            offset += data.size();
        };
        auto end = runner.followLog(name, offset, sink, interrupt.token());
        if (end)
            return interrupt.interrupted() ? interrupt.exitCode() : ExitOk;
        if (end.error().code != ErrorCode::ConnectFailed || attempt >= 4 || interrupt.interrupted())
            return context.fail(end.error());
        context.err << QStringLiteral("gantry-cli: the connection dropped; reconnecting to resume the log…") << Qt::endl;
        QThread::sleep(2);
        session = connectHost(context, host, args.host());
        if (!session)
            return context.fail(session.error());
    }
}

int stopJob(Context &context, const Args &args)
{
    jobs::StopOptions options;
    const Result<std::optional<double>> grace = args.number("grace", 0, 24 * 3600);
    if (!grace)
        return context.usage(QStringLiteral("--grace takes seconds"));
    if (*grace) {
        options.intGraceMs = int(**grace * 1000);
        options.termGraceMs = int(**grace * 500);
    }
    auto session = connectHost(context, args.arg("HOST"), args.host());
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, args.value("jobs-dir"));
    auto stopped = runner.stop(args.arg("NAME"), options);
    if (!stopped)
        return context.fail(stopped.error());
    if (context.json)
        context.printJson(jobJson(*stopped));
    else if (stopped->stopSignal.isEmpty())
        context.out << QStringLiteral("The job %1 had already ended (%2).").arg(text::printable(stopped->name), text::printable(stopped->statusText())) << Qt::endl;
    else
        context.out << QStringLiteral("Stopped %1: %2 after SIG%3.").arg(text::printable(stopped->name), text::printable(stopped->statusText()), text::printable(stopped->stopSignal)) << Qt::endl;
    return ExitOk;
}

int rerunJob(Context &context, const Args &args)
{
    auto session = connectHost(context, args.arg("HOST"), args.host());
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, args.value("jobs-dir"));
    auto started = runner.rerun(args.arg("NAME"));
    if (!started)
        return context.fail(started.error());
    if (context.json)
        context.printJson(jobJson(started->info));
    else
        context.out << QStringLiteral("Started %1 again (%2).").arg(text::printable(started->info.name), text::printable(started->info.statusText())) << Qt::endl;
    return ExitOk;
}

int removeJob(Context &context, const Args &args)
{
    auto session = connectHost(context, args.arg("HOST"), args.host());
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, args.value("jobs-dir"));
    if (auto removed = runner.remove(args.arg("NAME")); !removed)
        return context.fail(removed.error());
    if (!context.json)
        context.out << QStringLiteral("Removed the job %1 and its log.").arg(args.arg("NAME")) << Qt::endl;
    return ExitOk;
}

const Argument kHost{"HOST", Argument::One, Complete::Host};
const Argument kName{"NAME"};

const Registrar registrar(Command{
    .name = "job",
    .summary = "jobs that survive disconnects: run, list, logs, stop, rerun, rm",
    .options = {{.name = "jobs-dir", .value = "DIR", .help = "where the jobs live on the machine (default ~/.gantry/jobs)"}},
    .groups = Connection,
    .subcommands = {
        {.name = "run",
         .summary = "start COMMAND on HOST in tmux, screen or nohup; it keeps running when the connection drops",
         .options = {{.name = "name", .value = "NAME", .help = "the job's name (default: from the command and the time)"},
                     {.name = "cwd", .value = "DIR", .help = "the folder it runs in on the machine"},
                     {.name = "env", .value = "KEY=VALUE", .help = "an environment variable for it (repeatable; not visible in ps)",
                      .repeatable = true},
                     {.name = "venv", .value = "DIR", .help = "activate this Python virtual environment first"},
                     {.name = "conda", .value = "ENV", .help = "activate this conda environment first"},
                     {.name = "method", .value = "METHOD", .help = "tmux, screen, nohup or auto (default: the first there)",
                      .choices = "tmux|screen|nohup|auto"}},
         .arguments = {kHost},
         .rest = "COMMAND…",
         .needsRest = true,
         .notes = {"One word after -- is a shell line; several are quoted one by one."},
         .run = runJob},
        {.name = "list", .summary = "the jobs on HOST with their state", .arguments = {kHost}, .aliases = {"ls"}, .run = listJobs},
        {.name = "logs",
         .summary = "a job's log; --follow streams it until the job ends (Ctrl+C: exit 130)",
         .options = {{.name = "follow", .help = "keep printing what the job writes until it ends", .shortName = 'f'},
                     {.name = "offset", .value = "BYTES", .help = "start at this byte of the log"}},
         .arguments = {kHost, kName},
         .aliases = {"log"},
         .run = jobLogs},
        {.name = "stop",
         .summary = "stop a job: SIGINT, then SIGTERM, then SIGKILL",
         .options = {{.name = "grace", .value = "SECONDS", .help = "wait this long after SIGINT (and half of it after SIGTERM)"}},
         .arguments = {kHost, kName},
         .run = stopJob},
        {.name = "rerun", .summary = "start a job again with the same command and settings", .arguments = {kHost, kName}, .run = rerunJob},
        {.name = "rm", .summary = "remove an ended job and its log", .arguments = {kHost, kName}, .aliases = {"remove"}, .run = removeJob},
    },
});

} // namespace
} // namespace gantry::cli
