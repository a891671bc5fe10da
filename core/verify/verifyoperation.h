#pragma once

#include "core/hosts/hoststore.h"
#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"
#include "core/verify/history.h"
#include "core/verify/remoteverifier.h"
#include "core/verify/reputation.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace gantry::jobs {
class SessionWorker;
}

namespace gantry::verify {

struct AcceptRequest; // acceptance.h
struct Acceptance;

// What one Verify run is asked to do.
struct VerifyRequest
{
    QString hostName;       // the history's key: the saved host's name, or user@host:port
    bool quick = false;
    QString binaryPath;     // local gantry-verify; empty or missing: the plan falls back
    QString sourcesDir;     // kernels/ sources for building on the instance; empty: none
    Advertised advertised;  // what the provider advertised (see advertisedFor)
    QString remoteCacheDir; // empty: RemoteVerifier's default, ~/.cache/gantry
    int timeoutMs = 0;      // for the program's run; 0: RemoteVerifier's default (15 min)
    // false: the run is kept in the history but the machine's reputation is left to the caller,
    // which records it once with its own verdict (the acceptance test) — VerifyRun::reputation.
    bool recordReputation = true;
};

// Called on the thread that runs the operation (VerifyOperation relays them to the application's
// main thread, where it lives).
struct VerifyCallbacks
{
    std::function<void(const Progress &)> onProgress;
    std::function<void(const QString &)> onStatus;
};

// One finished Verify: what ran, its assessment against the spec table, and the host's history.
struct VerifyRun
{
    VerifyOutcome outcome;
    Assessment assessment;
    QList<HistoryEntry> history; // the host's latest runs, newest first, this one included
    QStringList warnings;        // the run happened; recording it did not (one sentence each)
    std::optional<MachineRun> reputation; // what this run counts for the machine (recorded unless the request said not to)
};

// The assessment of a finished run; on a simulated GPU (the sandbox's stand-in nvidia-smi) it is
// never a pass, whatever the report says.
Assessment assessOutcome(const VerifyOutcome &outcome, const SpecTable &specs, const Advertised &advertised);

// The advertised machine completed from its saved host: the provider, and the hourly price when
// none was given.
Advertised advertisedFor(const SavedHost &host, Advertised given);

// Verify and Doctor, each written once for the Verify tab and gantry-cli. Blocking, on the thread
// of the connected session. runVerify runs the doctor, plans (bundled binary, build from sources,
// PyTorch fallback), uploads with the cache, runs, assesses and records the run in
// <configDir>/verify.sqlite (no history when configDir is empty).
Result<VerifyRun> runVerify(ssh::Session &session, const QString &configDir, const VerifyRequest &request,
                            const CancelToken &cancel, const VerifyCallbacks &callbacks);
Result<QList<DoctorCheck>> runDoctor(ssh::Session &session, const CancelToken &cancel);
// A failed doctor marks the machine bad like a failed Verify (its reputation in machines.json);
// a passing one does not clear a failed Verify, so it is not recorded. machine: advertisedFor().
Result<void> recordDoctor(const QString &configDir, const QString &hostName, const Advertised &machine,
                          const QList<DoctorCheck> &checks);

// Verify and Doctor for the GUI, on an SSH session of their own (its own thread and connection),
// so a run of several minutes never holds up the machine's other tabs, and cancelled only through
// the token handed to each call. One run at a time; results come back on this object's thread.
// Destroying it cancels the run in flight and waits for nothing: the run ends on its own thread
// (its records may still be written then) and its results are dropped.
class VerifyOperation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyOperation)

public:
    // options: non-interactive in practice (the machine's key is known by the time Verify runs).
    VerifyOperation(ssh::Target target, ssh::ConnectOptions options, QString configDir, QObject *parent = nullptr);
    ~VerifyOperation() override;

    const ssh::Target &target() const { return m_target; }

    void verify(const VerifyRequest &request, const CancelToken &cancel, VerifyCallbacks callbacks,
                std::function<void(Result<VerifyRun>)> done);
    // Records a failure against hostName's machine (recordDoctor); a record that fails is logged only.
    void doctor(const QString &hostName, const Advertised &machine, const CancelToken &cancel,
                std::function<void(Result<QList<DoctorCheck>>)> done);

    // The acceptance test (runAcceptance): a failing machine is recorded in its reputation.
    void accept(const AcceptRequest &request, const CancelToken &cancel, VerifyCallbacks callbacks,
                std::function<void(Result<Acceptance>)> done);

private:
    VerifyCallbacks relayed(const VerifyCallbacks &callbacks);
    void finished(const CancelToken &cancel);

    ssh::Target m_target;
    QString m_configDir;
    QList<CancelToken> m_inFlight; // the tokens of runs not finished yet, cancelled by the destructor
    std::unique_ptr<jobs::SessionWorker> m_worker;
};

} // namespace gantry::verify
