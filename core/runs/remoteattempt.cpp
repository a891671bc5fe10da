// SPDX-License-Identifier: Apache-2.0
#include "core/runs/remoteattempt.h"

#include "core/monitor/nvidiasmiparser.h"

#include "core/jobs/jobrunner.h"
#include "core/jobs/jobspec.h"
#include "core/runs/runstext.h"
#include "core/sync/syncengine.h"
#include "core/transfer/sessionfactory.h"

#include <QDir>

namespace gantry::runs {

RemoteAttempt::RemoteAttempt(ssh::Target target, QString knownHostsFile, AttemptPlan plan)
    : m_target(std::move(target))
    , m_knownHosts(std::move(knownHostsFile))
    , m_plan(std::move(plan))
    // Relative to the login folder (the machine's home): every exec, SFTP and the job start there.
    // Known before anything runs, so a process taking a run over polls the job another one started.
    , m_remoteWorkdir(QStringLiteral("gantry-runs/") + m_plan.runName)
{
}

QString RemoteAttempt::jobName(int attempt) const
{
    const QString name = QStringLiteral("run-%1-%2").arg(m_plan.runName).arg(attempt > 0 ? attempt : m_plan.attempt);
    return m_plan.rank < 0 ? name : name + QStringLiteral("-r%1").arg(m_plan.rank);
}

void RemoteAttempt::setNode(QList<QPair<QString, QString>> env, QString prelude)
{
    m_plan.nodeEnv = std::move(env);
    m_plan.prelude = std::move(prelude);
}

ssh::ConnectOptions RemoteAttempt::connectOptions(const CancelToken &cancel) const
{
    ssh::ConnectOptions options;
    options.knownHostsFile = m_knownHosts;
    options.acceptNewHostKey = true; // a machine this run launched: its first key is its key
    options.connectTimeoutMs = 10000;
    options.cancel = cancel.flag();
    return options;
}

Result<ssh::Session *> RemoteAttempt::session(const CancelToken &cancel)
{
    if (m_session && m_session->isConnected())
        return m_session.get();
    m_session = std::make_unique<ssh::Session>();
    if (Result<void> connected = m_session->connect(m_target, connectOptions(cancel)); !connected) {
        m_session.reset();
        return connected.error();
    }
    return m_session.get();
}

Result<void> RemoteAttempt::syncFolder(const QString &local, const QString &remote, const CancelToken &cancel)
{
    sync::SyncOptions options;
    if (!m_plan.checkpointPath.isEmpty()) // restored from the mirror instead
        options.scan.excludes.addPattern({}, QByteArray("/") + m_plan.checkpointPath.toUtf8());
    sync::SyncTarget target{m_target.host, local, remote, m_plan.configDir};
    sync::SyncEngine engine(transfer::makeSessionFactory(m_target, connectOptions(cancel)), target, options,
                            [](const sync::SyncEvent &) {}, cancel);
    return engine.run();
}

Result<BucketCheckpoints *> RemoteAttempt::bucket()
{
    if (!m_bucket) {
        Result<storage::S3Client> client = m_plan.bucketClient();
        if (!client)
            return client.error();
        m_bucket = std::make_unique<BucketCheckpoints>(std::move(*client), m_plan.storePrefix, m_plan.configDir + QStringLiteral("/bucket"));
    }
    return m_bucket.get();
}

QString RemoteAttempt::remoteCheckpoints() const
{
    return m_plan.checkpointPath.isEmpty() ? QString() : QDir::cleanPath(m_remoteWorkdir + QLatin1Char('/') + m_plan.checkpointPath);
}

Result<void> RemoteAttempt::prepare(const CancelToken &cancel)
{
    std::lock_guard lock(m_mutex);
    Result<ssh::Session *> s = session(cancel);
    if (!s)
        return s.error();
    // An empty workdir syncs nothing, and the job would find no folder to start in.
    if (Result<ssh::ExecOutput> made = (*s)->run(QStringLiteral("mkdir -p ") + ssh::shellQuote(m_remoteWorkdir)); !made || made->exitStatus != 0)
        return Error{ErrorCode::Io, RunsText::tr("Cannot create %1 on the machine: %2").arg(m_remoteWorkdir,
                                                                                            made ? QString::fromUtf8(made->err).trimmed() : made.error().message)};
    if (Result<void> synced = syncFolder(m_plan.localWorkdir, m_remoteWorkdir, cancel); !synced)
        return synced;
    const QString checkpoints = remoteCheckpoints();
    if (!checkpoints.isEmpty() && m_plan.bucketClient) { // from the bucket, whichever machine put it there
        Result<BucketCheckpoints *> store = bucket();
        Result<int> restored = store ? (*store)->restore(**s, checkpoints, cancel) : Result<int>(store.error());
        if (!restored)
            return restored.error();
    } else if (!checkpoints.isEmpty()) {
        QDir().mkpath(m_plan.localCheckpoints);
        if (Result<int> restored = restoreFolder(**s, m_plan.localCheckpoints, checkpoints, cancel); !restored)
            return restored.error();
    }
    return {};
}

Result<void> RemoteAttempt::startJob(const CancelToken &cancel, const QList<QPair<QString, QString>> &secrets)
{
    std::lock_guard lock(m_mutex);
    Result<ssh::Session *> s = session(cancel);
    if (!s)
        return s.error();
    jobs::JobSpec spec;
    spec.name = jobName();
    spec.workingDir = QStringLiteral("~/") + m_remoteWorkdir;
    spec.env = m_plan.nodeEnv + m_plan.env;
    spec.env.append({QStringLiteral("GANTRY_RUN_ATTEMPT"), QString::number(m_plan.attempt)});
    spec.env.append({QStringLiteral("GANTRY_RUN_NAME"), m_plan.runName});
    spec.env.append(secrets);
    if (m_plan.resumed)
        spec.env.append({QStringLiteral("GANTRY_RESUMED"), QStringLiteral("1")});
    // setup, then run, in the workdir: a failing setup ends the job with its status. The
    // checkpoint folder's absolute path is known there, without asking the machine first; the
    // prelude (GANTRY_TORCHRUN) follows setup, so it finds a Python that setup installed.
    const QString exportCheckpoints = remoteCheckpoints().isEmpty() ? QString()
        : QStringLiteral("GANTRY_CHECKPOINT_DIR=\"$PWD\"/%1; export GANTRY_CHECKPOINT_DIR\n")
              .arg(ssh::shellQuote(QDir::cleanPath(m_plan.checkpointPath)));
    spec.command = exportCheckpoints + (m_plan.setup.trimmed().isEmpty()
        ? m_plan.prelude + m_plan.run
        : QStringLiteral("{ %1\n} || exit $?\n%2%3").arg(m_plan.setup, m_plan.prelude, m_plan.run));
    jobs::JobRunner runner(**s);
    Result<jobs::StartedJob> started = runner.start(spec);
    if (!started)
        return started.error();
    return {};
}

Result<AttemptPoll> RemoteAttempt::poll(bool mirror, QHash<QString, QString> *known, const CancelToken &cancel)
{
    std::lock_guard lock(m_mutex);
    Result<ssh::Session *> s = session(cancel);
    if (!s)
        return s.error();
    AttemptPoll out;
    // The mirror comes first: a job seen ended after it has written everything it wrote.
    if (mirror && !m_plan.checkpointPath.isEmpty()) {
        const QString folder = remoteCheckpoints();
        if (m_plan.bucketClient) {
            // A bucket that refuses (keys, a full quota, no route from the machine to it) is not a
            // lost machine: the job is still asked about, the error goes with the poll.
            Result<BucketCheckpoints *> store = bucket();
            Result<MirrorOutcome> mirrored = store ? (*store)->mirror(**s, folder, cancel) : Result<MirrorOutcome>(store.error());
            if (mirrored)
                out.mirror = *mirrored;
            else
                out.mirrorError = mirrored.error().message;
        } else {
            Result<MirrorOutcome> mirrored = mirrorFolderHome(**s, folder, m_plan.localCheckpoints, known, cancel);
            if (!mirrored) {
                m_session.reset();
                return mirrored.error();
            }
            out.mirror = *mirrored;
        }
    }
    jobs::JobRunner runner(**s);
    // The GPUs' power and utilization in the same command: a run's energy and its money spent on
    // idle GPUs cost no second shell start-up per poll. nvidia-smi runs aside and is waited for
    // 5 s at most: one stuck on a GPU that fell off the bus (which no signal ends) must not make
    // the job's answer late, or the run would take a working machine for an unreachable one.
    static const QStringList kGpuFields{QStringLiteral("power.draw"), QStringLiteral("utilization.gpu")};
    static const QString kGpuQuery = QStringLiteral(
        "f=$(mktemp) || exit 0; nvidia-smi --query-gpu=%1 --format=csv,noheader,nounits >\"$f\" 2>/dev/null & p=$!; i=0; "
        "while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; cat \"$f\"; rm -f \"$f\"")
                                         .arg(kGpuFields.join(QLatin1Char(',')));
    QString gpuText;
    Result<jobs::JobInfo> job = runner.statusThen(jobName(), kGpuQuery, &gpuText);
    if (!job) {
        m_session.reset();
        return job.error();
    }
    out.job = *job;
    out.gpus = monitor::nvsmi::parseGpuCsv(gpuText, kGpuFields).gpus;
    return out;
}

Result<QStringList> RemoteAttempt::bringHome(const QStringList &paths, const QString &localDir, const CancelToken &cancel)
{
    std::lock_guard lock(m_mutex);
    Result<ssh::Session *> s = session(cancel);
    if (!s)
        return s.error();
    QStringList received;
    for (const QString &path : paths) {
        const QString clean = QDir::cleanPath(path);
        if (QDir::isAbsolutePath(clean) || clean.startsWith(QLatin1String("..")))
            return Error{ErrorCode::Usage, RunsText::tr("results: %1 is outside the workdir; name a path inside it.").arg(path)};
        QHash<QString, QString> known; // results come home whole, once
        Result<MirrorOutcome> got = mirrorFolderHome(**s, m_remoteWorkdir + QLatin1Char('/') + clean,
                                                     QDir(localDir).filePath(clean), &known, cancel);
        if (!got)
            return got.error();
        for (const QString &file : got->received)
            received.append(clean + QLatin1Char('/') + file);
    }
    return received;
}

Result<void> RemoteAttempt::stopJob(int attempt)
{
    std::lock_guard lock(m_mutex);
    Result<ssh::Session *> s = session({});
    if (!s)
        return s.error();
    jobs::StopOptions options;
    options.intGraceMs = 5000;
    options.termGraceMs = 3000;
    jobs::JobRunner runner(**s);
    Result<jobs::JobInfo> stopped = runner.stop(jobName(attempt), options);
    if (!stopped)
        return stopped.error();
    return {};
}

} // namespace gantry::runs
