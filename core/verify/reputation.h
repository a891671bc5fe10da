#pragma once

#include "core/util/result.h"
#include "core/verify/verdict.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace gantry::verify {

// One marketplace machine's record across Verify and Doctor runs. Keyed by the provider's machine
// id (Vast.ai: the host machine behind many offers and rentals) when known, else provider + host.
struct MachineRecord
{
    QString provider;
    QString machineId;         // "" when only the host is known
    QString host;              // the last host name it was reached by
    int passes = 0;
    int fails = 0;
    Verdict lastVerdict = Verdict::Pass;
    QString lastProblem;       // the last failure's headline
    QDateTime lastTime;        // UTC
    std::optional<double> bandwidthGbs;      // last measured (mean per GPU) and its spec
    std::optional<double> specBandwidthGbs;
    std::optional<double> tensorTflops;      // last measured (sum) and its spec
    std::optional<double> specTensorTflops;
    std::optional<double> usdPerTflopHour;   // $ per measured tensor TFLOPS-hour

    QString key() const;
    // A machine to keep out of searches: its last run failed. A later pass clears it.
    bool bad() const { return lastVerdict == Verdict::Fail; }
};

QString machineKey(const QString &provider, const QString &machineId, const QString &host);
// The machines to keep out of capacity watches and managed runs: those whose last Verify or
// acceptance test failed, read once from configDir's machines.json (a damaged file flags nothing).
std::function<bool(const QString &provider, const QString &machineId)> flaggedMachines(const QString &configDir);

// As machines.json stores it (and `verify-history --json` prints it, with "key" and "bad").
QJsonObject machineToJson(const MachineRecord &machine);

// One run's result, as the reputation counts it.
struct MachineRun
{
    QString provider;
    QString machineId;
    QString host;
    Verdict verdict = Verdict::Pass; // Error (nothing measured) counts neither way
    QString problem;
    QDateTime time;
    std::optional<double> bandwidthGbs, specBandwidthGbs, tensorTflops, specTensorTflops, usdPerTflopHour;
};

// <configDir>/machines.json: {"schema": 1, "machines": [...]}. Written atomically (QSaveFile); a
// file from a newer Gantry (higher schema) is read but never rewritten; a damaged one is kept
// aside (schema::checkReplaceable) by the next save.
class ReputationStore final
{
public:
    static constexpr int kSchema = 1;

    explicit ReputationStore(QString configDir);

    Result<void> load();           // a missing file is an empty store
    Result<void> record(const MachineRun &run); // load, update, save
    Result<void> forget(const QString &key);
    const QList<MachineRecord> &machines() const { return m_machines; }
    const MachineRecord *find(const QString &key) const;
    // The bad machine of this provider with this machine id, or null.
    const MachineRecord *badMachine(const QString &provider, const QString &machineId) const;
    QString filePath() const;

private:
    Result<void> save();

    QString m_configDir;
    QList<MachineRecord> m_machines;
    bool m_readOnly = false;
};

} // namespace gantry::verify
