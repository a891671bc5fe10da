// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/monitor/usagemeter.h"
#include "core/runs/foldermirror.h"
#include "core/runs/offers.h"
#include "core/runs/runspec.h"
#include "core/runs/runstate.h"
#include "core/util/canceltoken.h"
#include "core/util/clock.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace gantry { class SecretStore; struct SavedHost; }
namespace gantry::workspace { class AppCore; }

namespace gantry::runs {

class RemoteAttempt;
struct AttemptPoll;

// Where a run's secret NAME is kept in the secret store (the keychain): "run-secret/NAME".
inline QString runSecretKey(const QString &name) { return QStringLiteral("run-secret/") + name; }
// The values of a spec's `secrets`: the secret store first, then the environment; an error names
// the first that is in neither. Blocks on the keychain: call it on a worker.
Result<QList<QPair<QString, QString>>> readRunSecrets(SecretStore *store, const QStringList &names);

// A managed run on the application core: the cheapest offer that fits across the allowed
// providers (the core's PriceBoard), launched through Workspace::launch (ledger row, saved host),
// the workdir synced (sync engine), the last complete checkpoint restored, setup then run as a
// job (core/jobs), the checkpoint folder mirrored home every `every` and when the job ends. It
// watches the job, the provider's view of the instance and SSH; a lost machine (preempted, outbid,
// gone, or unreachable past the grace while it still bills — terminated first) is classified by
// asking the provider, recorded, and the run relaunched on the next cheapest offer and resumed. An
// exit 0 brings the results home into ~/Gantry runs/NAME/ and terminates the machine; a non-zero
// exit retries up to max_attempts; max_cost stops it. Nothing of a run keeps billing after it
// ends. With `resources.nodes: N` it rents N machines of one provider (each an attempt with its
// rank), runs `run` on every node with torchrun's environment (the cluster machinery's
// NODE_RANK, MASTER_ADDR, … and GANTRY_TORCHRUN), mirrors the head's checkpoint, and when one
// node is lost stops the others, relaunches that node alone and restarts every rank from the
// last complete checkpoint. Its state is written to <configDir>/runs/NAME/run.json at each change, so another process
// reads it (`gantry-cli run show`) and may ask it to stop (requestStop()). Owner-thread only.
class ManagedRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ManagedRun)

public:
    struct Options
    {
        Clock *clock = &Clock::system();
        int tickMs = 5000;                   // how often the job, SSH and the provider are asked
        int unreachableGraceSeconds = 120;   // SSH down while the provider reports it running
        int providerCheckEveryTicks = 3;     // the provider is asked this often while all is well
        int noOfferRetryMs = 60000;          // no capacity that fits: look again after this
        int launchPollMs = 0;                // the workspace's default when 0
        QString homeRoot;                    // ~/Gantry runs when empty
    };

    ManagedRun(workspace::AppCore *core, RunSpec spec, QString specPath, Options options, QObject *parent = nullptr);
    ManagedRun(workspace::AppCore *core, RunSpec spec, QString specPath, QObject *parent = nullptr);
    ~ManagedRun() override;

    // Starts the run (a run of the same name that has ended is started afresh, its checkpoints kept).
    void start();
    // Takes over a run whose driving process ended, from its run.json: a job another process
    // started is polled where it runs, a machine still coming up is followed, one that was being
    // prepared is prepared again, and a run between machines launches the next. Nothing is
    // launched twice: the record's machine is the run's machine.
    void resume(const RunRecord &record);
    // Writes the run's record for the policy owner (`gantry-cli watch`) to take over and drive;
    // nothing is rented here.
    void detach();
    // Stops the job, mirrors its checkpoint home and, unless keepMachine, terminates the machine.
    void stop(bool keepMachine = false);
    const RunRecord &record() const { return m_record; }
    QString homeDir() const;
    // Asks the process that drives the run `name` to stop it (a file it reads at its next tick).
    static Result<void> requestStop(const QString &configDir, const QString &name, bool keepMachine);

signals:
    // One event: {"event", "run", "state", "attempt", "message", "time", …}; `run start --json`
    // prints each as a line.
    void event(const QJsonObject &event);
    void finished(gantry::runs::RunState state);

private:
    // A machine the provider says is lost (or unreachable past the grace), and why.
    struct Lost
    {
        int rank = 0;
        QString reason;
        QString detail;
    };

    void announce(const QString &kind, const QString &message, QJsonObject extra = {});
    void save();
    QDateTime now() const { return m_options.clock->now(); }
    int nodes() const { return std::max(1, m_spec.resources.nodes); }
    // The rank's machine while it is rented (nullptr between machines); rank 0 is the head.
    RunAttempt *live(int rank);
    RunAttempt *current() { return live(0); }
    QList<int> liveRanks() const;
    // GANTRY_RUN_ATTEMPT: the machine's number for one machine, the start's for several nodes.
    int startNumber() const;

    // managedrun.cpp: from an offer to a running job.
    void prepare(qint64 ownerPid);
    void readSecretsThen(std::function<void()> next);
    void continueAttempt();
    std::shared_ptr<RemoteAttempt> makeRemote(const RunAttempt &attempt, const SavedHost &host) const;
    void beginAttempt();
    void pickAndLaunch();
    void launchOffer(const RunOffer &offer, QList<RunOffer> rest, int rank);
    void onReady(int rank, const QString &hostName);
    void startAll();
    void onStarted(int failedRank, const Result<void> &started);

    // managedrunwatch.cpp: watching, losing, finishing.
    void tick();
    void onPolled(const std::vector<std::pair<int, Result<AttemptPoll>>> &polls);
    void onMirrored(const MirrorOutcome &mirror);
    // Each machine's energy and its money spent on idle GPUs, from the GPUs its poll read.
    void recordUsage(const std::vector<std::pair<int, Result<AttemptPoll>>> &polls);
    enum class Seen { SshDown, JobEnded, Routine };
    void askProvider(Seen seen, int rank, int exitCode, const QString &detail);
    void classify(Seen seen, int rank, int exitCode, const QString &detail,
                  const QList<std::pair<QString, Result<providers::Instance>>> &answers);
    void machineLost(const QList<Lost> &lost);
    void attemptFailed(int exitCode, const QString &detail);
    void succeed();
    void endAttempt(const QString &reason, std::function<void()> then, bool keepMachine = false);
    void endRanks(const QList<QPair<int, QString>> &ranks, std::function<void()> then, bool keepMachine = false);
    void releaseAll(QList<RunAttempt> ended, std::function<void()> then);
    void releaseMachine(const RunAttempt &attempt, const QString &note, std::function<void()> then, int triesLeft = 3);
    void finish(RunState state, const QString &message);
    void finishStoppedWhenIdle();
    void halt(bool keepMachine, const QString &message);
    bool overBudget(double extraCost) const;
    bool stopAsked();

    workspace::AppCore *m_core;
    RunSpec m_spec;
    Options m_options;
    RunStore m_store;
    RunRecord m_record;
    QMap<int, std::shared_ptr<RemoteAttempt>> m_remotes; // by rank, while the job runs
    std::shared_ptr<QHash<QString, QString>> m_known; // the mirror's signatures
    QTimer m_tick;
    bool m_busy = false;
    bool m_stopping = false;
    bool m_keepMachine = false;
    int m_ticks = 0;
    qint64 m_lastMirrorMs = 0;
    QDateTime m_unreachableSince;
    QDateTime m_lastTickAt;
    qint64 m_longestTickMs = 0;
    QSet<QString> m_badMachines;
    MachineFilter m_flagged;        // machines whose acceptance test failed (read at each launch)
    QHash<int, QString> m_machines; // by rank: provider/machine id of the offer ("" when none)
    QSet<int> m_launching;          // ranks whose launch has not answered yet
    QString m_haltMessage;  // why the run stops (stop(), max_cost)
    RunState m_haltAs = RunState::Stopped; // how it ends then (failed: more machines lost than allowed)
    QList<QPair<QString, QString>> m_secrets; // the spec's secrets, read at start()
    QString m_secretsError;  // taken over without them: no new job may start
    QString m_mirrorError;   // the bucket's last refusal, said once
    std::map<QString, monitor::UsageMeter> m_meters; // by instance: each machine integrates its own
    qint64 m_usageSavedMs = 0;                       // run.json is rewritten for usage once a minute
    CancelToken m_cancel;
};

} // namespace gantry::runs
