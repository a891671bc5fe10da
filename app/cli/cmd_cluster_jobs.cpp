// gantry-cli cluster run|torchrun|logs|status|cancel|check (the lifecycle is in cmd_cluster.cpp).
#include "cmd_cluster.h"

#include "cmd_provider_common.h"
#include "interruptscope.h"

#include "core/util/background.h"
#include "core/cluster/check.h"
#include "core/jobs/jobspec.h"
#include "core/util/printable.h"

#include <QJsonArray>

#include <atomic>
#include <condition_variable>
#include <cstdio>

namespace gantry::cli::clustercli {
namespace {

void writeRaw(const QByteArray &data)
{
    fwrite(data.constData(), 1, size_t(data.size()), stdout);
    fflush(stdout);
}

// The options every job command shares: connection options, --name, and the cluster.
struct JobArgs
{
    HostOptions host;
    cluster::Cluster cluster;
    QString job;          // --name, else the cluster's last job
    QString jobsDir;      // --jobs-dir on every node (like `job --jobs-dir`); empty: ~/.gantry/jobs
    QStringList command;  // after "--"
};

Result<JobArgs> jobArgs(const Context &context, const Args &args, bool wantsCommand)
{
    JobArgs parsed;
    parsed.host = args.host();
    parsed.job = args.value("name");
    parsed.jobsDir = args.value("jobs-dir");
    parsed.command = args.rest();
    Result<cluster::Cluster> c = loadCluster(context, args.arg("NAME"));
    if (!c)
        return c.error();
    parsed.cluster = *c;
    if (parsed.job.isEmpty() && !wantsCommand) {
        if (!c->lastJob)
            return makeError(ErrorCode::NotFound, QStringLiteral("cluster %1 has run no job yet (gantry-cli cluster run %1 -- CMD)").arg(c->name));
        parsed.job = c->lastJob->name;
    }
    return parsed;
}

Result<int> masterPort(const Args &args)
{
    const Result<std::optional<qint64>> port = args.integer("master-port", 1, 65535);
    if (!port)
        return makeError(ErrorCode::Usage, QStringLiteral("--master-port takes a TCP port (1 to 65535)"));
    return int(port->value_or(cluster::kDefaultMasterPort));
}

Result<cluster::RunSpec> runSpec(const Args &args)
{
    cluster::RunSpec spec;
    spec.workingDir = args.value("cwd");
    for (const QString &assignment : args.values("env")) {
        Result<QPair<QString, QString>> pair = jobs::parseEnvAssignment(assignment);
        if (!pair)
            return pair.error();
        spec.env.append(*pair);
    }
    Result<int> port = masterPort(args);
    if (!port)
        return port.error();
    spec.masterPort = *port;
    return spec;
}

// Starts the job on every rank and reports; the cluster remembers it as its last job.
int startEverywhere(Context &context, JobArgs &parsed, cluster::RunSpec spec, const QString &kind,
                    const std::function<QString(int, int)> &line)
{
    cluster::Cluster &c = parsed.cluster;
    if (spec.jobName.isEmpty())
        spec.jobName = jobs::defaultJobName(cluster::commandLine(parsed.command), QDateTime::currentDateTime()).left(56);
    const QList<cluster::StartedRank> started = cluster::startOnAllRanks(c, spec, connector(context, parsed.host), line, parsed.jobsDir);
    QStringList failed;
    QJsonArray ranks;
    for (const cluster::StartedRank &rank : started) {
        if (!rank.started) {
            failed << QStringLiteral("rank %1: %2").arg(rank.rank).arg(rank.started.error().message);
            ranks.append(QJsonObject{{QStringLiteral("rank"), rank.rank}, {QStringLiteral("error"), rank.started.error().message}});
            continue;
        }
        ranks.append(QJsonObject{{QStringLiteral("rank"), rank.rank}, {QStringLiteral("job"), rank.started->info.name},
                                 {QStringLiteral("state"), jobs::jobStateName(rank.started->info.state)}});
    }
    if (!failed.isEmpty()) {
        for (const QString &failure : std::as_const(failed))
            context.warn(failure);
        return context.fail(makeError(ErrorCode::RemoteFailed, QStringLiteral("the job did not start on every node; the ranks that started "
                                                                           "were stopped again (a partial job only waits for its peers)")));
    }
    c.lastJob = cluster::ClusterJob{spec.jobName, kind, QDateTime::currentDateTimeUtc(), spec.masterPort};
    if (Result<void> saved = saveCluster(context, c); !saved)
        context.warn(saved.error().message);
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("cluster"), c.name}, {QStringLiteral("job"), spec.jobName}, {QStringLiteral("ranks"), ranks}});
    } else {
        context.out << QStringLiteral("Started %1 on %2 node(s) of %3 (MASTER_ADDR %4:%5). Follow rank 0: gantry-cli cluster logs %3 --follow; "
                                   "all ranks: gantry-cli cluster status %3")
                           .arg(spec.jobName).arg(c.nodes.size()).arg(c.name, text::printable(cluster::masterAddress(c))).arg(spec.masterPort)
                    << Qt::endl;
    }
    return ExitOk;
}

// While one rank's log is followed, the others are polled: the cluster job fails as soon as any
// rank fails, and following a rank that now waits forever for its lost peer helps nobody.
class FailureWatch
{
public:
    FailureWatch(const Context &context, const JobArgs &parsed, const CancelToken &stopFollow)
    {
        background::start([this, &context, &parsed, stopFollow] {
            poll(connector(context, parsed.host), parsed, stopFollow);
            std::lock_guard lock(m_mutex);
            m_finished = true;
            m_wake.notify_all();
        });
    }
    // The command waits for the poller (it uses the context and the arguments on this stack).
    ~FailureWatch()
    {
        std::unique_lock lock(m_mutex);
        m_done = true;
        m_wake.notify_all();
        m_wake.wait(lock, [this] { return m_finished; });
    }
    QList<cluster::RankStatus> failed()
    {
        std::lock_guard lock(m_mutex);
        return m_failed;
    }

private:
    void poll(const cluster::NodeConnector &connect, const JobArgs &parsed, const CancelToken &stopFollow)
    {
        std::unique_lock lock(m_mutex);
        while (!m_done) {
            lock.unlock();
            const QList<cluster::RankStatus> ranks = cluster::rankStatuses(parsed.cluster, parsed.job, connect, parsed.jobsDir);
            lock.lock();
            if (cluster::clusterJobState(ranks) == cluster::ClusterJobState::Failed) {
                m_failed = ranks;
                stopFollow.cancel();
                return;
            }
            m_wake.wait_for(lock, std::chrono::seconds(2), [this] { return m_done; });
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    bool m_finished = false;
    QList<cluster::RankStatus> m_failed;
};

int reportFailure(const Context &context, const cluster::Cluster &c, const QString &job, const QList<cluster::RankStatus> &ranks)
{
    QStringList running;
    for (const cluster::RankStatus &rank : ranks) {
        if (cluster::rankFailed(rank))
            context.warn(QStringLiteral("rank %1 failed (%2): the cluster job %3 failed").arg(rank.rank).arg(text::printable(rank.job->statusText()), job));
        else if (rank.job && rank.job->isActive())
            running << QString::number(rank.rank);
    }
    if (!running.isEmpty())
        context.warn(QStringLiteral("still running and billing (waiting for the lost peer): rank %1; stop them with gantry-cli cluster cancel %2")
                         .arg(running.join(QStringLiteral(", ")), c.name));
    return ExitFailure;
}

int followRank(Context &context, const JobArgs &parsed, int rank)
{
    Result<std::unique_ptr<ssh::Session>> session = connector(context, parsed.host)(parsed.cluster.nodes.at(rank), rank);
    if (!session)
        return context.fail(session.error());
    // Ctrl+C stops following (exit 130); so does a rank that fails elsewhere (FailureWatch).
    const InterruptScope interrupt;
    QByteArray pending;
    Result<qint64> end = Error{};
    QList<cluster::RankStatus> failed;
    {
        FailureWatch watch(context, parsed, interrupt.token());
        jobs::JobRunner runner(**session, parsed.jobsDir);
        end = runner.followLog(cluster::rankJobName(parsed.job, rank), 0,
                               [&](const QByteArray &data) { writeRaw(cluster::prefixLines(rank, data, &pending)); },
                               interrupt.token());
        failed = watch.failed();
    }
    if (!pending.isEmpty())
        writeRaw(cluster::prefixLines(rank, "\n", &pending));
    if (!end)
        return context.fail(end.error());
    if (interrupt.interrupted())
        return interrupt.exitCode();
    if (failed.isEmpty())
        failed = cluster::rankStatuses(parsed.cluster, parsed.job, connector(context, parsed.host), parsed.jobsDir);
    if (cluster::clusterJobState(failed) == cluster::ClusterJobState::Failed)
        return reportFailure(context, parsed.cluster, parsed.job, failed);
    return ExitOk;
}

} // namespace

int runCommand(Context &context, const Args &args)
{
    Result<cluster::RunSpec> spec = runSpec(args);
    if (!spec)
        return context.fail(spec.error());
    Result<JobArgs> parsed = jobArgs(context, args, true);
    if (!parsed)
        return context.fail(parsed.error());
    spec->jobName = parsed->job;
    spec->command = parsed->command;
    const QString line = cluster::commandLine(parsed->command);
    return startEverywhere(context, *parsed, *spec, QStringLiteral("run"), [line](int, int) { return line; });
}

int torchrunCommand(Context &context, const Args &args)
{
    Result<cluster::RunSpec> spec = runSpec(args);
    if (!spec)
        return context.fail(spec.error());
    cluster::TorchrunSpec torchrun;
    bool ok = true;
    const QString nprocText = args.value("nproc-per-node", QStringLiteral("auto"));
    torchrun.nprocPerNode = nprocText == u"auto" ? 0 : nprocText.toInt(&ok);
    if (!ok || torchrun.nprocPerNode < 0)
        return context.usage(QStringLiteral("--nproc-per-node is auto (the GPU count, 1 on a CPU node) or a number"));
    torchrun.rendezvousTimeoutS = args.value("rdzv-timeout", QStringLiteral("300")).toInt(&ok);
    if (!ok || torchrun.rendezvousTimeoutS < 1)
        return context.usage(QStringLiteral("--rdzv-timeout takes seconds"));
    Result<JobArgs> parsed = jobArgs(context, args, true);
    if (!parsed)
        return context.fail(parsed.error());
    spec->jobName = parsed->job;
    spec->command = parsed->command;
    torchrun.run = *spec;
    const cluster::Cluster c = parsed->cluster;
    return startEverywhere(context, *parsed, *spec, QStringLiteral("torchrun"),
                           [torchrun, c](int rank, int gpus) { return cluster::torchrunLine(torchrun, c, rank, gpus); });
}

int logsCommand(Context &context, const Args &args)
{
    const bool follow = args.has("follow");
    Result<JobArgs> parsed = jobArgs(context, args, false);
    if (!parsed)
        return context.fail(parsed.error());
    bool ok = true;
    const bool all = args.value("rank") == u"all";
    const int rank = all ? 0 : args.value("rank", QStringLiteral("0")).toInt(&ok);
    if (!ok || rank < 0 || rank >= parsed->cluster.nodes.size())
        return context.usage(QStringLiteral("--rank is 0 to %1, or all").arg(parsed->cluster.nodes.size() - 1));
    if (follow && !all)
        return followRank(context, *parsed, rank);
    if (follow)
        return context.usage(QStringLiteral("--follow follows one rank (--rank R); the others are watched for failures"));
    // Every rank's log is read at once; they are printed one after the other, in rank order.
    const std::function<Result<QByteArray>(int, ssh::Session &)> read = [&](int r, ssh::Session &session) {
        return jobs::JobRunner(session, parsed->jobsDir).readLog(cluster::rankJobName(parsed->job, r));
    };
    cluster::Cluster wanted = parsed->cluster;
    if (!all)
        wanted.nodes = {parsed->cluster.nodes.at(rank)};
    const cluster::NodeConnector connect = connector(context, parsed->host);
    const std::vector<Result<QByteArray>> logs = cluster::forEachNode(wanted, [&](const cluster::ClusterNode &node, int r) {
        return connect(node, all ? r : rank);
    }, std::function<Result<QByteArray>(int, ssh::Session &)>([&](int r, ssh::Session &session) { return read(all ? r : rank, session); }));
    int failures = 0;
    for (int i = 0; i < int(logs.size()); ++i) {
        const int r = all ? i : rank;
        if (!logs[i]) {
            ++failures;
            context.warn(logs[i].error().message);
            continue;
        }
        QByteArray pending;
        writeRaw(cluster::prefixLines(r, *logs[i], &pending));
        if (!pending.isEmpty())
            writeRaw(cluster::prefixLines(r, "\n", &pending));
    }
    return failures > 0 ? ExitFailure : ExitOk;
}

int statusCommand(Context &context, const Args &args)
{
    Result<JobArgs> parsed = jobArgs(context, args, false);
    if (!parsed)
        return context.fail(parsed.error());
    const QList<cluster::RankStatus> ranks = cluster::rankStatuses(parsed->cluster, parsed->job, connector(context, parsed->host), parsed->jobsDir);
    const cluster::ClusterJobState state = cluster::clusterJobState(ranks);
    if (context.json) {
        QJsonArray array;
        for (const cluster::RankStatus &rank : ranks) {
            QJsonObject o{{QStringLiteral("rank"), rank.rank}, {QStringLiteral("host"), parsed->cluster.nodes.at(rank.rank).hostName}};
            if (rank.job) {
                o.insert(QStringLiteral("state"), jobs::jobStateName(rank.job->state));
                o.insert(QStringLiteral("exit_code"), rank.job->exitCode ? QJsonValue(*rank.job->exitCode) : QJsonValue());
            } else {
                o.insert(QStringLiteral("error"), rank.error);
            }
            array.append(o);
        }
        context.printJson(QJsonObject{{QStringLiteral("job"), parsed->job}, {QStringLiteral("state"), cluster::clusterJobStateName(state)},
                                      {QStringLiteral("ranks"), array}});
    } else {
        context.out << QStringLiteral("Job %1 on cluster %2: %3").arg(parsed->job, parsed->cluster.name, cluster::clusterJobStateName(state)) << '\n';
        for (const cluster::RankStatus &rank : ranks)
            context.out << QStringLiteral("  rank %1  %2 %3\n").arg(rank.rank)
                               .arg(text::printable(parsed->cluster.nodes.at(rank.rank).hostName).leftJustified(20),
                                    rank.job ? text::printable(rank.job->statusText()) : text::printable(rank.error));
        context.out.flush();
    }
    if (state == cluster::ClusterJobState::Failed)
        return reportFailure(context, parsed->cluster, parsed->job, ranks);
    return state == cluster::ClusterJobState::Unknown ? ExitFailure : ExitOk;
}

int cancelCommand(Context &context, const Args &args)
{
    Result<JobArgs> parsed = jobArgs(context, args, false);
    if (!parsed)
        return context.fail(parsed.error());
    const QList<cluster::RankStatus> ranks = cluster::stopAllRanks(parsed->cluster, parsed->job, connector(context, parsed->host), {}, parsed->jobsDir);
    int failures = 0;
    for (const cluster::RankStatus &rank : ranks) {
        if (!rank.job) {
            ++failures;
            context.warn(rank.error);
        } else if (!context.json) {
            context.out << QStringLiteral("rank %1: %2").arg(rank.rank).arg(text::printable(rank.job->statusText())) << '\n';
        }
    }
    context.out.flush();
    return failures > 0 ? ExitFailure : ExitOk;
}

int checkCommand(Context &context, const Args &args)
{
    Result<int> port = masterPort(args);
    if (!port)
        return context.fail(port.error());
    cluster::CheckOptions options;
    options.masterPort = *port;
    options.allReduce = !args.has("no-all-reduce");
    Result<cluster::Cluster> c = loadCluster(context, args.arg("NAME"));
    if (!c)
        return context.fail(c.error());
    const cluster::ClusterCheck check = cluster::checkCluster(*c, connector(context, args.host()), options);
    if (context.json) {
        context.printJson(cluster::clusterCheckToJson(check));
    } else {
        context.out << QStringLiteral("Cluster %1, rendezvous %2:%3").arg(c->name, text::printable(check.masterAddr)).arg(check.masterPort) << '\n';
        for (const cluster::NodeCheck &node : check.nodes) {
            context.out << QStringLiteral("rank %1 %2 %3\n").arg(node.rank).arg(text::printable(node.hostName),
                                                                                verify::checkStatusName(node.verdict()).toUpper());
            for (const verify::DoctorCheck &item : node.checks) {
                context.out << QStringLiteral("  %1 %2 %3\n").arg(verify::checkStatusName(item.status).leftJustified(4),
                                                                   item.id.leftJustified(16), text::printable(item.message));
                if (!item.fix.isEmpty() && item.status != verify::CheckStatus::Ok)
                    context.out << QStringLiteral("       %1\n").arg(text::printable(item.fix));
            }
        }
        context.out << QStringLiteral("Verdict: %1").arg(verify::checkStatusName(check.verdict())) << Qt::endl;
    }
    return check.verdict() == verify::CheckStatus::Fail ? ExitFailure : ExitOk;
}

std::vector<Command> jobSubcommands()
{
    const Argument name{"NAME"};
    const Option job{.name = "name", .value = "JOB", .help = "the job (default: the cluster's last one)"};
    const Option jobsDir{.name = "jobs-dir", .value = "DIR", .help = "where the jobs live on every node (default ~/.gantry/jobs)"};
    const Option port{.name = "master-port", .value = "PORT", .help = "the rendezvous port on rank 0 (default 29500)"};
    const Option cwd{.name = "cwd", .value = "DIR", .help = "the folder it runs in on every node"};
    const Option env{.name = "env", .value = "KEY=VALUE", .help = "an environment variable for every rank (repeatable)", .repeatable = true};
    const Option runName{.name = "name", .value = "JOB", .help = "the job's name (default: from the command and the time)"};
    return {
        {.name = "check",
         .summary = "every node reachable, GPUs and drivers alike, ranks able to meet (an all-reduce over the rendezvous)",
         .options = {port, {.name = "no-all-reduce", .help = "skip the all-reduce test"}},
         .arguments = {name},
         .groups = Connection,
         .run = checkCommand},
        {.name = "run",
         .summary = "start COMMAND on every rank with MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE set",
         .options = {runName, cwd, env, port, jobsDir},
         .arguments = {name},
         .groups = Connection,
         .rest = "COMMAND…",
         .needsRest = true,
         .run = runCommand},
        {.name = "torchrun",
         .summary = "start torchrun on every rank with the cluster's rendezvous",
         .options = {runName, cwd, env, port, jobsDir,
                     {.name = "nproc-per-node", .value = "N", .help = "processes per node: auto (the GPU count, 1 on a CPU node) or a number"},
                     {.name = "rdzv-timeout", .value = "SECONDS", .help = "how long the ranks wait for each other (default 300)"}},
         .arguments = {name},
         .groups = Connection,
         .rest = "SCRIPT ARGS…",
         .needsRest = true,
         .run = torchrunCommand},
        {.name = "logs",
         .summary = "a job's log on rank 0 (or --rank), each line prefixed with its rank; --follow streams it",
         .options = {{.name = "rank", .value = "RANK", .help = "the rank to show, or all (default 0)"},
                     {.name = "follow", .help = "stream one rank's log until the job ends; the others are watched for failures (Ctrl+C: exit 130)",
                      .shortName = 'f'},
                     job, jobsDir},
         .arguments = {name},
         .groups = Connection,
         .run = logsCommand},
        {.name = "status", .summary = "a job's state on every rank (exit 1 when it failed)", .options = {job, jobsDir}, .arguments = {name},
         .groups = Connection, .run = statusCommand},
        {.name = "cancel", .summary = "stop a job on every rank", .options = {job, jobsDir}, .arguments = {name}, .groups = Connection,
         .run = cancelCommand},
    };
}

} // namespace gantry::cli::clustercli
