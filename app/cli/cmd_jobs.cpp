#include "clicommand.h"
#include "cliconnect.h"
#include "scopedsignal.h"
#include "core/jobs/jobrunner.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <csignal>
#include <cstdio>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

std::atomic_bool g_jobInterrupted{false};

void onJobSigint(int)
{
    g_jobInterrupted = true;
}

// Removes "--name VALUE" / "--name=VALUE" (before a "--") and returns the values in order.
Result<QStringList> takeOption(QStringList &args, const QString &name)
{
    QStringList values;
    for (qsizetype i = 0; i < args.size();) {
        const QString &arg = args[i];
        if (arg == u"--")
            break;
        if (arg == name) {
            if (i + 1 >= args.size() || args[i + 1] == u"--")
                return makeError(ErrorCode::Usage, CliText::tr("%1 needs a value").arg(name));
            values << args[i + 1];
            args.remove(i, 2);
            continue;
        }
        if (arg.startsWith(name + u'=')) {
            values << arg.mid(name.size() + 1);
            args.remove(i);
            continue;
        }
        ++i;
    }
    return values;
}

bool takeFlag(QStringList &args, const QString &name)
{
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    const qsizetype at = args.indexOf(name);
    if (at < 0 || (dashes >= 0 && at > dashes))
        return false;
    args.remove(at);
    return true;
}

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

struct Common
{
    HostOptions host;
    QString jobsDir;
};

Result<Common> takeCommon(QStringList &args)
{
    Common common;
    auto host = takeHostOptions(args);
    if (!host)
        return host.error();
    common.host = *host;
    auto dir = takeOption(args, QStringLiteral("--jobs-dir"));
    if (!dir)
        return dir.error();
    common.jobsDir = dir->value(0);
    return common;
}

int runJob(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    jobs::JobSpec spec;
    auto name = takeOption(args, QStringLiteral("--name"));
    auto cwd = takeOption(args, QStringLiteral("--cwd"));
    auto env = takeOption(args, QStringLiteral("--env"));
    auto venv = takeOption(args, QStringLiteral("--venv"));
    auto conda = takeOption(args, QStringLiteral("--conda"));
    auto method = takeOption(args, QStringLiteral("--method"));
    for (const auto *r : {&name, &cwd, &env, &venv, &conda, &method}) {
        if (!*r)
            return context.fail(r->error());
    }
    spec.name = name->value(0);
    spec.workingDir = cwd->value(0);
    spec.venv = venv->value(0);
    spec.condaEnv = conda->value(0);
    for (const QString &assignment : std::as_const(*env)) {
        auto pair = jobs::parseEnvAssignment(assignment);
        if (!pair)
            return context.fail(pair.error());
        spec.env.append(*pair);
    }
    const QString methodName = method->value(0);
    if (!methodName.isEmpty() && jobs::jobMethodFromName(methodName) == jobs::JobMethod::Auto && methodName != u"auto")
        return context.usage(CliText::tr("--method is tmux, screen, nohup or auto"));
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    if (dashes != 1 || dashes + 1 >= args.size())
        return context.usage(CliText::tr("job run HOST [--name N] [--cwd DIR] [--env K=V…] -- COMMAND…"));
    QStringList words = args.mid(dashes + 1);
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
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, common->jobsDir);
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
        context.out << CliText::tr("Started job %1 on %2 (in %3). Follow it with: gantry-cli job logs %2 %1 --follow")
                           .arg(text::printable(job.name), args.first(), text::printable(job.method))
                    << Qt::endl;
    } else {
        context.err << CliText::tr("The job %1 ended at once (%2). Last lines of its log:").arg(text::printable(job.name), text::printable(job.statusText())) << Qt::endl
                    << started->tail;
        context.err.flush();
    }
    if (!job.isActive() && job.exitCode.value_or(1) != 0)
        return ExitFailure;
    return ExitOk;
}

int listJobs(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    if (args.size() != 1)
        return context.usage(CliText::tr("job list HOST"));
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, common->jobsDir);
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
        context.out << CliText::tr("No jobs on %1. Start one with: gantry-cli job run %1 -- COMMAND").arg(args.first()) << Qt::endl;
        return ExitOk;
    }
    context.out << QStringLiteral("%1  %2  %3  %4\n")
                       .arg(CliText::tr("NAME"), -28)
                       .arg(CliText::tr("STATE"), -18)
                       .arg(CliText::tr("STARTED"), -20)
                       .arg(CliText::tr("COMMAND"));
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

int jobLogs(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    const bool follow = takeFlag(args, QStringLiteral("--follow")) || takeFlag(args, QStringLiteral("-f"));
    auto offsetOption = takeOption(args, QStringLiteral("--offset"));
    if (!offsetOption)
        return context.fail(offsetOption.error());
    bool offsetOk = true;
    qint64 offset = offsetOption->isEmpty() ? 0 : offsetOption->first().toLongLong(&offsetOk);
    if (!offsetOk || offset < 0)
        return context.usage(CliText::tr("--offset takes a byte count"));
    if (args.size() != 2)
        return context.usage(CliText::tr("job logs HOST NAME [--follow] [--offset BYTES]"));
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    if (!follow) {
        jobs::JobRunner runner(**session, common->jobsDir);
        auto log = runner.readLog(args[1], offset);
        if (!log)
            return context.fail(log.error());
        writeRaw(*log);
        return ExitOk;
    }
    const ScopedSignal ctrlC(SIGINT, onJobSigint);
    // A dropped connection is resumed from the last byte received, a few times, then given up.
    for (int attempt = 0;; ++attempt) {
        jobs::JobRunner runner(**session, common->jobsDir);
        auto sink = [&offset](const QByteArray &data) {
            writeRaw(data);
            offset += data.size();
        };
        auto end = runner.followLog(args[1], offset, sink, &g_jobInterrupted);
        if (end)
            return g_jobInterrupted ? 130 : ExitOk;
        if (end.error().code != ErrorCode::ConnectFailed || attempt >= 4 || g_jobInterrupted)
            return context.fail(end.error());
        context.err << CliText::tr("gantry-cli: the connection dropped; reconnecting to resume the log…") << Qt::endl;
        QThread::sleep(2);
        session = connectHost(context, args.first(), common->host);
        if (!session)
            return context.fail(session.error());
    }
}

int stopJob(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    auto grace = takeOption(args, QStringLiteral("--grace"));
    if (!grace)
        return context.fail(grace.error());
    jobs::StopOptions options;
    if (!grace->isEmpty()) {
        bool ok = false;
        const double seconds = grace->first().toDouble(&ok);
        if (!ok || seconds < 0)
            return context.usage(CliText::tr("--grace takes seconds"));
        options.intGraceMs = int(seconds * 1000);
        options.termGraceMs = int(seconds * 500);
    }
    if (args.size() != 2)
        return context.usage(CliText::tr("job stop HOST NAME [--grace SECONDS]"));
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, common->jobsDir);
    auto stopped = runner.stop(args[1], options);
    if (!stopped)
        return context.fail(stopped.error());
    if (context.json)
        context.printJson(jobJson(*stopped));
    else if (stopped->stopSignal.isEmpty())
        context.out << CliText::tr("The job %1 had already ended (%2).").arg(text::printable(stopped->name), text::printable(stopped->statusText())) << Qt::endl;
    else
        context.out << CliText::tr("Stopped %1: %2 after SIG%3.").arg(text::printable(stopped->name), text::printable(stopped->statusText()), text::printable(stopped->stopSignal)) << Qt::endl;
    return ExitOk;
}

int rerunJob(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    if (args.size() != 2)
        return context.usage(CliText::tr("job rerun HOST NAME"));
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, common->jobsDir);
    auto started = runner.rerun(args[1]);
    if (!started)
        return context.fail(started.error());
    if (context.json)
        context.printJson(jobJson(started->info));
    else
        context.out << CliText::tr("Started %1 again (%2).").arg(text::printable(started->info.name), text::printable(started->info.statusText())) << Qt::endl;
    return ExitOk;
}

int removeJob(Context &context, QStringList args)
{
    auto common = takeCommon(args);
    if (!common)
        return context.fail(common.error());
    if (args.size() != 2)
        return context.usage(CliText::tr("job rm HOST NAME"));
    auto session = connectHost(context, args.first(), common->host);
    if (!session)
        return context.fail(session.error());
    jobs::JobRunner runner(**session, common->jobsDir);
    if (auto removed = runner.remove(args[1]); !removed)
        return context.fail(removed.error());
    if (!context.json)
        context.out << CliText::tr("Removed the job %1 and its log.").arg(args[1]) << Qt::endl;
    return ExitOk;
}

int jobCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    const QString sub = args.isEmpty() ? QString() : args.takeFirst();
    if (sub == u"run")
        return runJob(context, args);
    if (sub == u"list" || sub == u"ls")
        return listJobs(context, args);
    if (sub == u"logs" || sub == u"log")
        return jobLogs(context, args);
    if (sub == u"stop")
        return stopJob(context, args);
    if (sub == u"rerun")
        return rerunJob(context, args);
    if (sub == u"rm" || sub == u"remove")
        return removeJob(context, args);
    return context.usage(CliText::tr("job run|list|logs|stop|rerun|rm HOST …"));
}

const Registrar registrar("job",
                          "job run HOST [--name N] [--cwd DIR] [--env K=V…] [--venv DIR|--conda ENV] -- CMD…; "
                          "job list|logs [--follow]|stop|rerun|rm HOST [NAME]: jobs that survive disconnects",
                          jobCommand);

} // namespace
} // namespace gantry::cli
