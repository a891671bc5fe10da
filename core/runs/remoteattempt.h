// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/jobs/jobinfo.h"
#include "core/monitor/samples.h"
#include "core/runs/bucketcheckpoints.h"
#include "core/runs/foldermirror.h"
#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>

namespace gantry::runs {

// What the machine of one attempt is asked to do, and where.
struct AttemptPlan
{
    QString runName;
    int attempt = 1;
    QString localWorkdir;        // synced to the machine
    QString checkpointPath;      // relative to the workdir ("" none)
    QString localCheckpoints;    // the mirror at home, restored to the machine
    QString configDir;           // the sync manifests and journals of this run (per attempt)
    QString setup;
    QString run;
    QList<QPair<QString, QString>> env;
    bool resumed = false;        // GANTRY_RESUMED=1: an earlier attempt ran
    int rank = -1;               // the node's rank in a multi-node run (-1: the run's only machine)
    QList<QPair<QString, QString>> nodeEnv; // NODE_RANK, MASTER_ADDR, … (nodes > 1)
    QString prelude;             // shell lines before setup (nodes > 1: GANTRY_TORCHRUN)
    // Checkpoints kept in a bucket (checkpoint.store): its client (blocks on the keychain) and the
    // prefix; localCheckpoints is unused then.
    std::function<Result<storage::S3Client>()> bucketClient;
    QString storePrefix;
};

// One poll of the attempt: the job as the machine reports it, and what the mirror brought home.
struct AttemptPoll
{
    jobs::JobInfo job;
    std::optional<MirrorOutcome> mirror;
    QString mirrorError; // the bucket's refusal (checkpoint.store); the poll itself stands
    // The machine's GPUs (power draw, utilization) asked in the same command as the job; empty
    // where nvidia-smi answered nothing usable.
    QList<monitor::GpuSample> gpus;
};

// The SSH side of one attempt on one machine, blocking: each call runs on a worker, one at a time
// (the run engine starts the next only after the last answered), on one session kept between
// calls and connected again after a drop. The machine is one the run launched itself, so its
// host key is trusted on first use into a known_hosts file of that instance alone.
class RemoteAttempt
{
public:
    RemoteAttempt(ssh::Target target, QString knownHostsFile, AttemptPlan plan);

    // Syncs the workdir and restores the last complete checkpoint (from home, or from the bucket).
    Result<void> prepare(const CancelToken &cancel);
    // Runs setup then run as a job (core/jobs: tmux where there is one) in the workdir with
    // GANTRY_RUN_ATTEMPT, GANTRY_CHECKPOINT_DIR and GANTRY_RESUMED set, and `secrets` (name, value)
    // in its environment: they travel in the launch script on the session's stdin into the job's
    // 0600 script, never in a command line.
    Result<void> startJob(const CancelToken &cancel, const QList<QPair<QString, QString>> &secrets = {});
    // The job's state, and with `mirror` the checkpoint folder brought home.
    Result<AttemptPoll> poll(bool mirror, QHash<QString, QString> *known, const CancelToken &cancel);
    // Brings `paths` (relative to the workdir) home into `localDir`.
    Result<QStringList> bringHome(const QStringList &paths, const QString &localDir, const CancelToken &cancel);
    // Stops the job (SIGINT, then TERM, then KILL); with `attempt`, that earlier start's job.
    Result<void> stopJob(int attempt = 0);

    QString jobName(int attempt = 0) const;
    // A node of a multi-node run: its environment and the lines before its job (before it starts).
    void setNode(QList<QPair<QString, QString>> env, QString prelude);
    QString remoteWorkdir() const { return m_remoteWorkdir; }

private:
    Result<ssh::Session *> session(const CancelToken &cancel);
    ssh::ConnectOptions connectOptions(const CancelToken &cancel) const;
    Result<void> syncFolder(const QString &local, const QString &remote, const CancelToken &cancel);
    QString remoteCheckpoints() const; // the checkpoint folder on the machine ("" none)
    // The bucket that keeps the checkpoints (nullptr and an error when its keys cannot be read).
    Result<BucketCheckpoints *> bucket();

    ssh::Target m_target;
    QString m_knownHosts;
    AttemptPlan m_plan;
    std::mutex m_mutex; // one call at a time, whatever thread it runs on
    std::unique_ptr<ssh::Session> m_session;
    QString m_remoteWorkdir;
    std::unique_ptr<BucketCheckpoints> m_bucket;
};

} // namespace gantry::runs
