// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/managedrun.h"
#include "core/runs/offers.h"
#include "core/runs/runspec.h"
#include "core/runs/runstate.h"
#include "core/util/result.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

class QLockFile;

namespace gantry::workspace { class AppCore; class PolicyLock; }

namespace gantry::runs {

// One line of run.log: when, and what happened.
struct RunLogLine
{
    QString time;    // ISO 8601, UTC
    QString message;
};

// New lines of run.log from a byte offset: only whole lines; `next` is where the next read starts.
struct RunLogChunk
{
    QList<RunLogLine> lines;
    qint64 next = 0;
};

// The runs kept in a config folder, whichever process drives them: what `gantry-cli run
// list|show|logs|stop` and the Runs panel read. Every call reads or writes small files in
// <configDir>/runs, so a GUI calls it on background::run; it holds nothing but the folder, so
// it may be copied to a worker.
class RunBook
{
public:
    explicit RunBook(QString configDir);

    QString configDir() const { return m_configDir; }
    QStringList names() const;
    Result<RunRecord> show(const QString &name) const;
    // Every run (oldest name first); one whose run.json cannot be read adds its message to `warnings`.
    QList<RunRecord> list(QStringList *warnings = nullptr) const;
    Result<RunLogChunk> readLog(const QString &name, qint64 offset = 0) const;

    enum class StopOutcome
    {
        AlreadyEnded,
        Asked,          // the driving process was asked and stops it at its next tick
    };
    // Asks the process that drives `name` to stop it; an error when no live process drives it
    // (it names the machine left to terminate).
    Result<StopOutcome> requestStop(const QString &name, bool keepMachine) const;

    // The process that drives a run is alive (a pid that ended reads as gone).
    static bool ownerAlive(qint64 pid);
    // Ended, or nobody drives it any more: nothing will change it.
    static bool settled(const RunRecord &record);

private:
    QString m_configDir;
};

// The managed runs of the application core, for both front ends: it starts and drives runs in
// this process (they live as long as the core, not a panel or a command), stops them, whether this
// process or another drives them, and says which offers a spec would pick now. Owner-thread only.
class RunService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunService)

public:
    explicit RunService(workspace::AppCore *core, QObject *parent = nullptr);
    ~RunService() override;

    const RunBook &book() const { return m_book; }
    // Starts driving the spec's run here. Refused when another live process drives a run of the
    // same name or this process already does (start it under another name). Reads run.json: a
    // GUI calls it after the spec was read on a worker, once; it returns at once.
    Result<ManagedRun *> start(RunSpec spec, const QString &specPath, ManagedRun::Options options);
    // … with runOptions().
    Result<ManagedRun *> start(RunSpec spec, const QString &specPath) { return start(std::move(spec), specPath, m_options); }
    // What start() drives runs with when the caller names nothing: the defaults, with the watch's
    // tick from GANTRY_RUN_TICK_MS when set (tests and demos watch fast).
    const ManagedRun::Options &runOptions() const { return m_options; }
    void setRunOptions(ManagedRun::Options options) { m_options = std::move(options); }
    // The run of that name this process drives (nullptr: another process, or none).
    ManagedRun *driven(const QString &name) const;
    QStringList drivenNames() const { return m_runs.keys(); }
    // Stops a run driven here at once; one driven elsewhere is asked through the book, on a
    // worker. `done` runs on this thread (it may be empty).
    void stop(const QString &name, bool keepMachine, std::function<void(Result<RunBook::StopOutcome>)> done = {});
    // The offers the spec would pick right now from the price board's table, cheapest first.
    QList<RunOffer> offersFor(const RunSpec &spec) const;

    // Hands the spec's run to the policy owner (`gantry-cli watch`): its record is written for
    // adoptOrphans(names) there; nothing is rented by this process. Refused as start() refuses.
    Result<void> detach(RunSpec spec, const QString &specPath);
    // Takes over the run `name` when the process that drove it ended before the run did (a closed
    // window, a killed `run start`): refused while it lives, for an ended run, and while another
    // process holds the run's claim (runs/NAME/owner.lock; one driver at a time).
    Result<ManagedRun *> adopt(const QString &name);
    // Takes over each of `names` (found by orphans() on a worker: startAdopting()); returns the
    // names taken.
    QStringList adoptOrphans(const QStringList &names);
    // The runs that have not ended and whose driver is gone. Disk work: any thread.
    static QStringList orphans(const RunBook &book);
    // From now on, every tick: while this process owns the policy (the GUI, or `gantry-cli watch`
    // when no GUI runs), it takes over the runs nobody drives.
    void startAdopting(workspace::PolicyLock *lock);

signals:
    // A run was taken over here (adopt()); its events follow as runEvent.
    void runAdopted(const QString &name);
    // A run driven here announced an event (ManagedRun::event) or ended.
    void runEvent(const QString &name, const QJsonObject &event);
    void runFinished(const QString &name, gantry::runs::RunState state);

private:
    // The run's claim for this process (runs/NAME/owner.lock, held while it drives the run).
    Result<std::shared_ptr<QLockFile>> claimRun(const QString &name) const;
    // Drives `run` here under `claim`, which goes when the run finishes.
    ManagedRun *track(const QString &name, ManagedRun *run, std::shared_ptr<QLockFile> claim);

    workspace::AppCore *m_core;
    RunBook m_book;
    ManagedRun::Options m_options;
    QHash<QString, QPointer<ManagedRun>> m_runs;
    QHash<QString, std::shared_ptr<QLockFile>> m_claims;
    QTimer m_adopt;
    workspace::PolicyLock *m_policyLock = nullptr;
    QHash<QString, QString> m_adoptProblems; // what a failed takeover said last, by run
    bool m_scanning = false; // a worker reads the runs for orphans
};

} // namespace gantry::runs
