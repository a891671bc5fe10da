// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gantry::runs {

// Where a run stands; the words are `run show --json`'s "state".
enum class RunState
{
    Launching,
    Syncing,
    Running,
    Recovering,
    Succeeded,
    Failed,
    Stopped,
};
QString runStateName(RunState state);
RunState runStateFromName(const QString &name);
bool isFinal(RunState state);

// What a machine's GPUs used while the run polled it: energy from their summed power draw, and the
// money spent while their mean utilization was under 30 % (paid for, little done).
struct AttemptUsage
{
    double energyKwh = 0;
    double underusedUsd = 0;
    double meteredSeconds = 0;  // how long power was known (0: no reading, the energy is unknown)
    double observedSeconds = 0; // how long utilization was known at a known price (0: underusedUsd unknown)
};

// One machine a run used: from its launch to the moment it was lost, failed, finished or stopped.
struct RunAttempt
{
    QString provider;
    QString instance;
    QString type;
    double pricePerHour = 0;
    QDateTime started;         // UTC
    QDateTime ended;           // invalid while it runs
    QString endReason;         // preempted, outbid, unreachable, failed, succeeded, stopped ("" while it runs)
    QString hostName;          // the saved host while the machine is up
    bool spot = false;
    int rank = 0;              // the node's rank in a multi-node run (0: the head, or the only machine)
    AttemptUsage usage;

    // What it cost until `now` (or its end).
    double cost(const QDateTime &now) const;
};

// A run's live state, written atomically to <configDir>/runs/NAME/run.json at every change so any
// process (`gantry-cli run show`, the GUI) reads what the driving process knows.
struct RunRecord
{
    QString name;
    RunState state = RunState::Launching;
    QString specPath;
    QString message;                 // the last event, for people
    QList<RunAttempt> attempts;
    QString checkpointPath;          // the local mirror ("" when the spec has no checkpoint)
    QDateTime checkpointAt;          // when a changed checkpoint file last came home (invalid: never)
    QString resultsDir;
    int failures = 0;                // attempts that exited non-zero
    int preemptions = 0;             // machines lost
    int starts = 0;                  // times a multi-node run's job started on every node (GANTRY_RUN_ATTEMPT)
    qint64 ownerPid = 0;             // the process driving the run
    bool stopRequested = false;      // `run stop` asked the owner to stop
    bool keepMachine = false;        // … and leave the machine running

    double costSoFar(const QDateTime &now) const;
    // Every machine's usage added up.
    AttemptUsage usage() const;
    // `run show --json`: name, state, attempts, checkpoint {path, age_seconds}, cost_so_far,
    // energy_kwh and underused_usd (null while no power reading came).
    QJsonObject toJson(const QDateTime &now) const;
    // Everything, for run.json.
    QJsonObject toStoreJson() const;
    static RunRecord fromStoreJson(const QJsonObject &object);
};

// <configDir>/runs: one folder per run (run.json, run.log, the mirror's bookkeeping).
class RunStore
{
public:
    explicit RunStore(QString configDir);

    QString runsDir() const;
    QString runDir(const QString &name) const;
    QString logPath(const QString &name) const;
    Result<void> save(const RunRecord &record) const;
    Result<RunRecord> load(const QString &name) const;
    QStringList names() const;
    // Appends one time-stamped line to run.log.
    void appendLog(const QString &name, const QDateTime &at, const QString &line) const;

private:
    QString m_configDir;
};

// ~/Gantry runs/NAME: the mirrored checkpoints and the results of a run.
QString runHomeDir(const QString &name);

} // namespace gantry::runs
