#include "core/verify/verifyoperation.h"
#include "core/verify/verifytext.h"

#include "core/jobs/sessionworker.h"
#include "core/verify/acceptance.h"
#include "core/verify/reputation.h"

#include <QCoreApplication>
#include <QDateTime>

namespace gantry::verify {
namespace {

// The run as the machine's reputation counts it: measured against the spec, and its cost.
MachineRun machineRun(const VerifyRequest &request, const VerifyRun &run, const HistoryEntry &entry)
{
    MachineRun m;
    m.provider = request.advertised.provider;
    m.machineId = request.advertised.machineId;
    m.host = request.hostName;
    m.verdict = run.assessment.verdict;
    m.problem = run.assessment.headline;
    m.time = entry.time;
    m.bandwidthGbs = entry.bandwidthGbs;
    m.tensorTflops = entry.tensorTflops;
    m.usdPerTflopHour = entry.usdPerTflopHour;
    double specBw = 0, specTensor = 0;
    int bwCount = 0;
    for (const SpecComparison &c : run.assessment.comparisons) {
        if (c.specBandwidthGbs) {
            specBw += *c.specBandwidthGbs;
            ++bwCount;
        }
        specTensor += c.specTensorTflops.value_or(0);
    }
    if (bwCount > 0)
        m.specBandwidthGbs = specBw / bwCount;
    if (specTensor > 0)
        m.specTensorTflops = specTensor;
    return m;
}

// Records the run and reads back the host's latest runs; problems become warnings, because the
// run itself succeeded and its result is still shown.
void recordHistory(const QString &configDir, const VerifyRequest &request, VerifyRun &run)
{
    if (configDir.isEmpty())
        return;
    HistoryStore store(configDir);
    const HistoryEntry entry = HistoryEntry::fromRun(run.outcome.report, run.assessment, request.advertised,
                                                     request.hostName, QDateTime::currentDateTimeUtc());
    if (auto added = store.add(entry); !added)
        run.warnings.append(VerifyText::tr("This run was not saved to the history: %1").arg(added.error().message));
    run.reputation = machineRun(request, run, entry);
    const Result<void> recorded = request.recordReputation ? ReputationStore(configDir).record(*run.reputation) : Result<void>();
    if (!recorded)
        run.warnings.append(VerifyText::tr("This machine's record was not updated: %1").arg(recorded.error().message));
    auto listed = store.list({}, {}, request.hostName, 50);
    if (listed)
        run.history = std::move(listed).value();
    else
        run.warnings.append(VerifyText::tr("The history cannot be read: %1").arg(listed.error().message));
}

Error notConnected(const Error *why)
{
    return why ? *why
               : Error::make(ErrorCode::ConnectFailed,
                             VerifyText::tr("Not connected: connect to the machine first."));
}

} // namespace

Assessment assessOutcome(const VerifyOutcome &outcome, const SpecTable &specs, const Advertised &advertised)
{
    Assessment assessment = assess(outcome.report, specs, advertised);
    if (outcome.probe.simulatedGpu) {
        assessment.verdict = worst(assessment.verdict, Verdict::Error);
        assessment.headline = VerifyText::tr("SIMULATED GPU: nothing was measured. This machine's nvidia-smi is "
                                                      "the Gantry sandbox's stand-in, not a real GPU.");
    }
    return assessment;
}

Advertised advertisedFor(const SavedHost &host, Advertised given)
{
    if (!host.provider.isEmpty())
        given.provider = host.provider;
    if (given.hourlyPriceUsd <= 0 && host.hourlyPriceUsd > 0)
        given.hourlyPriceUsd = host.hourlyPriceUsd;
    // Saved when the instance was launched or listed, so a failed run marks the marketplace machine
    // without the user looking its id up.
    if (given.machineId.isEmpty())
        given.machineId = host.machineId;
    return given;
}

Result<void> recordDoctor(const QString &configDir, const QString &hostName, const Advertised &machine,
                          const QList<DoctorCheck> &checks)
{
    if (!anyFailed(checks))
        return {};
    MachineRun run;
    run.provider = machine.provider;
    run.machineId = machine.machineId;
    run.host = hostName;
    run.time = QDateTime::currentDateTimeUtc();
    run.verdict = Verdict::Fail;
    for (const DoctorCheck &c : checks) {
        if (c.status == CheckStatus::Fail && run.problem.isEmpty())
            run.problem = VerifyText::tr("doctor: %1").arg(c.message);
    }
    return ReputationStore(configDir).record(run);
}

Result<VerifyRun> runVerify(ssh::Session &session, const QString &configDir, const VerifyRequest &request,
                            const CancelToken &cancel, const VerifyCallbacks &callbacks)
{
    RemoteVerifier verifier(session);
    if (!request.remoteCacheDir.isEmpty())
        verifier.setRemoteCacheDir(request.remoteCacheDir);
    VerifyOptions options;
    options.quick = request.quick;
    if (request.timeoutMs > 0)
        options.timeoutMs = request.timeoutMs;
    options.binaryPath = request.binaryPath;
    options.sourcesDir = request.sourcesDir;
    options.cancel = cancel;
    options.onProgress = callbacks.onProgress;
    options.onStatus = callbacks.onStatus;
    auto outcome = verifier.verify(options);
    if (!outcome)
        return outcome.error();
    VerifyRun run;
    run.outcome = std::move(outcome).value();
    run.assessment = assessOutcome(run.outcome, SpecTable::builtIn(), request.advertised);
    recordHistory(configDir, request, run);
    return run;
}

Result<QList<DoctorCheck>> runDoctor(ssh::Session &session, const CancelToken &cancel)
{
    RemoteVerifier verifier(session);
    auto output = verifier.runDoctorScript(cancel);
    if (!output)
        return output.error();
    return evaluateDoctor(*output, SpecTable::builtIn());
}

VerifyOperation::VerifyOperation(ssh::Target target, ssh::ConnectOptions options, QString configDir, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_configDir(std::move(configDir))
{
    // No question can be answered from the operation's thread; the machine's own connection asked.
    options.confirmNewHostKey = nullptr;
    options.acceptNewHostKey = false;
    options.cancel = nullptr; // the worker's own closing flag
    m_worker = std::make_unique<jobs::SessionWorker>(std::move(target), std::move(options));
}

VerifyOperation::~VerifyOperation()
{
    for (const CancelToken &cancel : std::as_const(m_inFlight))
        cancel.cancel();
    m_worker.reset(); // retired, not joined: the task in flight ends on its own; its results are dropped
}

void VerifyOperation::finished(const CancelToken &cancel)
{
    m_inFlight.removeIf([&cancel](const CancelToken &t) { return t.flag() == cancel.flag(); });
}

VerifyCallbacks VerifyOperation::relayed(const VerifyCallbacks &callbacks)
{
    VerifyCallbacks relayed;
    const QPointer<VerifyOperation> self(this);
    if (callbacks.onProgress) {
        relayed.onProgress = [self, onProgress = callbacks.onProgress](const Progress &progress) {
            background::deliver(self, [onProgress, progress] { onProgress(progress); });
        };
    }
    if (callbacks.onStatus) {
        relayed.onStatus = [self, onStatus = callbacks.onStatus](const QString &text) {
            background::deliver(self, [onStatus, text] { onStatus(text); });
        };
    }
    return relayed;
}

void VerifyOperation::verify(const VerifyRequest &request, const CancelToken &cancel, VerifyCallbacks callbacks,
                             std::function<void(Result<VerifyRun>)> done)
{
    m_inFlight.append(cancel);
    const QString configDir = m_configDir;
    m_worker->post([self = QPointer<VerifyOperation>(this), request, cancel, relayed = relayed(callbacks), done, configDir](ssh::Session *session,
                                                                                          const Error *connectError) {
        Result<VerifyRun> result = session ? runVerify(*session, configDir, request, cancel, relayed)
                                           : Result<VerifyRun>(notConnected(connectError));
        background::deliver(self, [self, cancel, done, result = std::move(result)] {
            self->finished(cancel);
            done(result);
        });
    });
}

void VerifyOperation::accept(const AcceptRequest &request, const CancelToken &cancel, VerifyCallbacks callbacks,
                             std::function<void(Result<Acceptance>)> done)
{
    m_inFlight.append(cancel);
    const QString configDir = m_configDir;
    m_worker->post([self = QPointer<VerifyOperation>(this), request, cancel, relayed = relayed(callbacks), done, configDir](ssh::Session *session,
                                                                                          const Error *connectError) {
        Result<Acceptance> result = session ? runAcceptance(*session, configDir, request, cancel, relayed)
                                            : Result<Acceptance>(notConnected(connectError));
        background::deliver(self, [self, cancel, done, result = std::move(result)] {
            self->finished(cancel);
            done(result);
        });
    });
}

void VerifyOperation::doctor(const QString &hostName, const Advertised &machine, const CancelToken &cancel,
                             std::function<void(Result<QList<DoctorCheck>>)> done)
{
    m_inFlight.append(cancel);
    m_worker->post([self = QPointer<VerifyOperation>(this), configDir = m_configDir, hostName, machine, cancel,
                    done](ssh::Session *session, const Error *connectError) {
        Result<QList<DoctorCheck>> result = session ? runDoctor(*session, cancel)
                                                    : Result<QList<DoctorCheck>>(notConnected(connectError));
        // On the worker thread: machines.json is disk work the GUI thread must not wait for.
        if (result && !configDir.isEmpty()) {
            if (auto recorded = recordDoctor(configDir, hostName, machine, *result); !recorded)
                qWarning("%s", qPrintable(recorded.error().message));
        }
        background::deliver(self, [self, cancel, done, result = std::move(result)] {
            self->finished(cancel);
            done(result);
        });
    });
}

} // namespace gantry::verify
