// SPDX-License-Identifier: Apache-2.0
#include "core/runs/managedrun.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/provider.h"
#include "core/providers/providerhub.h"
#include "core/runs/remoteattempt.h"
#include "core/runs/runstext.h"
#include "core/util/background.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QPointer>

// The watching half of a managed run: the tick, the provider's word on a lost machine, the end
// of an attempt and of the run.
namespace gantry::runs {
namespace {

// The provider no longer knows the instance: reclaimed and removed, or never there.
bool isGoneError(const Error &error)
{
    return error.code == ErrorCode::NotFound || error.message.contains(QLatin1String("does-not-exist"))
        || error.message.contains(QLatin1String("does not exist"), Qt::CaseInsensitive)
        || error.message.contains(QLatin1String("not found"), Qt::CaseInsensitive);
}

} // namespace

bool ManagedRun::overBudget(double extraCost) const
{
    return m_spec.maxCost > 0 && m_record.costSoFar(now()) + extraCost >= m_spec.maxCost;
}

bool ManagedRun::stopAsked()
{
    QFile file(m_store.runDir(m_spec.name) + QStringLiteral("/stop-request"));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    m_keepMachine = file.readAll().startsWith("keep");
    file.remove();
    return true;
}

void ManagedRun::tick()
{
    if (m_busy || !m_remote || m_stopping)
        return;
    if (stopAsked()) {
        halt(m_keepMachine, RunsText::tr("Run %1 stopped.").arg(m_spec.name));
        return;
    }
    // Stopped before it crosses max_cost: by the next tick after this one — twice the longest
    // interval between ticks so far (a poll on a slow link delays the next) — it would be too late.
    const QDateTime at = now();
    m_longestTickMs = std::max<qint64>({m_longestTickMs, m_options.tickMs, m_lastTickAt.isValid() ? m_lastTickAt.msecsTo(at) : 0});
    m_lastTickAt = at;
    if (overBudget(current() ? current()->pricePerHour * double(2 * m_longestTickMs) / 3600000.0 : 0)) {
        halt(false, RunsText::tr("Run %1 stopped: it reached max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    ++m_ticks;
    const bool mirror = !m_spec.checkpointPath.isEmpty()
        && m_options.clock->monotonicMs() - m_lastMirrorMs >= qint64(m_spec.checkpointEverySeconds) * 1000;
    m_busy = true;
    std::shared_ptr<RemoteAttempt> remote = m_remote;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    const CancelToken cancel = m_cancel;
    background::run<Result<AttemptPoll>>(this, [remote, known, mirror, cancel] { return remote->poll(mirror, known.get(), cancel); },
                                         [this](Result<AttemptPoll> poll) { onPolled(poll); });
}

void ManagedRun::onPolled(const Result<AttemptPoll> &poll)
{
    m_busy = false;
    if (m_stopping || !current())
        return;
    if (!poll) {
        askProvider(Seen::SshDown, -1, poll.error().message);
        return;
    }
    m_unreachableSince = {};
    if (poll->mirror) {
        m_lastMirrorMs = m_options.clock->monotonicMs();
        if (Result<void> kept = saveSignatures(m_store.runDir(m_spec.name) + QStringLiteral("/mirror.signatures"), *m_known); !kept)
            announce(QStringLiteral("warning"), kept.error().message); // the next run of this name copies again
        if (!poll->mirror->received.isEmpty()) {
            m_record.checkpointAt = now();
            announce(QStringLiteral("checkpoint"), RunsText::tr("Checkpoint home: %1.").arg(poll->mirror->received.join(QStringLiteral(", "))),
                     QJsonObject{{QStringLiteral("files"), QJsonArray::fromStringList(poll->mirror->received)},
                                 {QStringLiteral("bytes"), double(poll->mirror->bytes)}});
        }
    }
    const jobs::JobInfo &job = poll->job;
    if (job.isActive()) {
        if (m_ticks % std::max(1, m_options.providerCheckEveryTicks) == 0)
            askProvider(Seen::Routine, -1, {});
        return;
    }
    if (job.state == jobs::JobState::Exited && job.exitCode.value_or(-1) == 0) {
        succeed();
        return;
    }
    // A job that ended badly may have lost its machine: the provider says which.
    askProvider(Seen::JobEnded, job.exitCode.value_or(-1), job.statusText());
}

void ManagedRun::askProvider(Seen seen, int exitCode, const QString &detail)
{
    RunAttempt *attempt = current();
    providers::Provider *provider = attempt ? m_core->providers()->provider(attempt->provider) : nullptr;
    if (!provider) {
        if (attempt)
            attemptFailed(exitCode, detail);
        return;
    }
    m_busy = true;
    QPointer<ManagedRun> self(this);
    const QString instanceId = attempt->instance;
    provider->getInstance(instanceId, [self, seen, exitCode, detail, instanceId](Result<providers::Instance> answer) {
        if (!self)
            return;
        self->m_busy = false;
        if (self->m_stopping || !self->current() || self->current()->instance != instanceId)
            return;
        if (!answer) {
            if (isGoneError(answer.error()))
                self->machineLost(QStringLiteral("preempted"), answer.error().message, false);
            else if (seen == Seen::JobEnded)
                self->attemptFailed(exitCode, detail);
            return; // the provider did not answer: asked again at the next tick
        }
        const providers::InstanceState state = answer->state;
        if (providers::isGone(state) || state == providers::InstanceState::Stopped || state == providers::InstanceState::Stopping) {
            const bool outbid = answer->providerStatus.contains(QLatin1String("outbid"), Qt::CaseInsensitive);
            self->machineLost(outbid ? QStringLiteral("outbid") : QStringLiteral("preempted"),
                              answer->providerStatus, state != providers::InstanceState::Terminated);
            return;
        }
        if (seen == Seen::JobEnded) {
            self->attemptFailed(exitCode, detail);
        } else if (seen == Seen::SshDown) {
            if (!self->m_unreachableSince.isValid()) {
                self->m_unreachableSince = self->now();
                self->announce(QStringLiteral("unreachable"), RunsText::tr("The machine does not answer SSH (%1); waiting up to %2 s.")
                                                                  .arg(detail).arg(self->m_options.unreachableGraceSeconds));
            } else if (self->m_unreachableSince.secsTo(self->now()) >= self->m_options.unreachableGraceSeconds) {
                // It still bills while nobody can reach it: terminated before the relaunch.
                self->machineLost(QStringLiteral("unreachable"), detail, true);
            }
        }
    });
}

void ManagedRun::machineLost(const QString &reason, const QString &detail, bool terminateFirst)
{
    Q_UNUSED(terminateFirst) // every lost machine is terminated before the relaunch (a no-op when gone)
    m_tick.stop();
    m_remote.reset();
    if (!m_machine.isEmpty())
        m_badMachines.insert(m_machine); // never the same bad machine again
    ++m_record.preemptions;
    m_record.state = RunState::Recovering;
    announce(QStringLiteral("lost"), RunsText::tr("Attempt %1 lost its machine: %2 (%3).").arg(m_record.attempts.size()).arg(reason, detail),
             QJsonObject{{QStringLiteral("reason"), reason}});
    endAttempt(reason, [this] {
        if (m_spec.maxPreemptions > 0 && m_record.preemptions > m_spec.maxPreemptions) {
            finish(RunState::Failed, RunsText::tr("Run %1 failed: it lost %2 machines, more than max_preemptions (%3).")
                                         .arg(m_spec.name).arg(m_record.preemptions).arg(m_spec.maxPreemptions));
            return;
        }
        beginAttempt();
    });
}

void ManagedRun::attemptFailed(int exitCode, const QString &detail)
{
    m_tick.stop();
    ++m_record.failures;
    announce(QStringLiteral("failed-attempt"), RunsText::tr("Attempt %1 failed: %2.").arg(m_record.attempts.size()).arg(detail),
             QJsonObject{{QStringLiteral("exit_code"), exitCode}});
    auto next = [this, exitCode] {
        if (m_spec.retry == RetryPolicy::Never || m_record.failures >= m_spec.maxAttempts) {
            finish(RunState::Failed, RunsText::tr("Run %1 failed: the job exited %2 on %3 of %4 allowed attempts.")
                                         .arg(m_spec.name).arg(exitCode).arg(m_record.failures).arg(m_spec.maxAttempts));
            return;
        }
        m_record.state = RunState::Recovering;
        beginAttempt();
    };
    endAttempt(QStringLiteral("failed"), next);
}

void ManagedRun::succeed()
{
    m_tick.stop();
    m_busy = true;
    announce(QStringLiteral("exited"), RunsText::tr("The job exited 0; bringing the checkpoint and the results home."));
    std::shared_ptr<RemoteAttempt> remote = m_remote;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    const QStringList results = m_spec.results;
    const QString home = homeDir();
    const CancelToken cancel = m_cancel;
    background::run<Result<QStringList>>(
        this,
        [remote, known, results, home, cancel]() -> Result<QStringList> {
            if (Result<AttemptPoll> last = remote->poll(true, known.get(), cancel); !last)
                return last.error();
            return remote->bringHome(results, home, cancel);
        },
        [this](Result<QStringList> home) {
            m_busy = false;
            if (!home) {
                // The results are only on the machine: it is kept, and the user told which.
                finish(RunState::Failed, RunsText::tr("Run %1: the results could not come home (%2); the machine %3 is kept "
                                                      "so nothing is lost: download them and terminate it.")
                                             .arg(m_spec.name, home.error().message, current() ? current()->instance : QString()));
                return;
            }
            m_record.checkpointAt = now();
            endAttempt(QStringLiteral("succeeded"), [this] {
                finish(RunState::Succeeded, RunsText::tr("Run %1 succeeded; results in %2.").arg(m_spec.name, homeDir()));
            });
        });
}

void ManagedRun::stop(bool keepMachine)
{
    halt(keepMachine, RunsText::tr("Run %1 stopped.").arg(m_spec.name));
}

void ManagedRun::halt(bool keepMachine, const QString &message)
{
    if (isFinal(m_record.state) || m_stopping)
        return;
    m_stopping = true;
    m_keepMachine = keepMachine;
    m_haltMessage = message;
    m_tick.stop();
    announce(QStringLiteral("stopping"), message);
    if (!current())
        return; // a launch in flight: its answer sees m_stopping and ends the run
    if (!m_remote) {
        endAttempt(QStringLiteral("stopped"), [this] { finish(RunState::Stopped, m_haltMessage); });
        return;
    }
    std::shared_ptr<RemoteAttempt> remote = m_remote;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    const bool keep = keepMachine;
    background::run<bool>(this, [remote, known, keep] {
        // Best effort: a machine already gone has nothing more to give.
        const bool jobStopped = keep || remote->stopJob();
        const bool mirrored = bool(remote->poll(true, known.get(), {})); // the last checkpoint home
        return jobStopped && mirrored;
    }, [this](bool) {
        endAttempt(QStringLiteral("stopped"), [this] { finish(RunState::Stopped, m_haltMessage); }, m_keepMachine);
    });
}

void ManagedRun::endAttempt(const QString &reason, std::function<void()> then, bool keepMachine)
{
    RunAttempt *attempt = current();
    if (!attempt) {
        then();
        return;
    }
    attempt->ended = now();
    attempt->endReason = reason;
    save();
    const RunAttempt ended = *attempt;
    if (keepMachine) {
        then();
        return;
    }
    releaseMachine(ended, RunsText::tr("run %1: %2").arg(m_spec.name, reason), std::move(then));
}

void ManagedRun::releaseMachine(const RunAttempt &attempt, const QString &note, std::function<void()> then, int triesLeft)
{
    workspace::ActionOptions options;
    options.resultsAcknowledged = true; // the run brought home what it keeps
    options.note = note;
    QPointer<ManagedRun> self(this);
    m_core->workspace()->terminate(attempt.provider, attempt.instance, options,
                                   [self, attempt, note, then, triesLeft](Result<workspace::ActionOutcome> done) {
        if (!self)
            return;
        if (!done && !isGoneError(done.error()) && triesLeft > 1) {
            QTimer::singleShot(self->m_options.tickMs, self, [self, attempt, note, then, triesLeft] {
                if (self)
                    self->releaseMachine(attempt, note, then, triesLeft - 1);
            });
            return;
        }
        if (!done) {
            // Gone at the provider already: its ledger row closes and its host is forgotten here.
            if (isGoneError(done.error())) {
                if (self->m_core->ledgerOpen())
                    (void)self->m_core->ledger()->recordTerminated(attempt.provider, attempt.instance, note);
                if (!attempt.hostName.isEmpty() && self->m_core->hosts()->find(attempt.hostName))
                    (void)self->m_core->workspace()->removeHost(attempt.hostName, nullptr);
            } else {
                self->announce(QStringLiteral("warning"), RunsText::tr("Could not terminate %1 on %2 (%3); it may still bill: "
                                                                       "terminate it with gantry-cli terminate %1 --provider %2.")
                                                              .arg(attempt.instance, attempt.provider, done.error().message));
            }
        }
        then();
    });
}

void ManagedRun::finish(RunState state, const QString &message)
{
    m_tick.stop();
    m_record.state = state;
    m_record.ownerPid = 0;
    announce(QStringLiteral("finished"), message, QJsonObject{{QStringLiteral("cost_so_far"), m_record.costSoFar(now())}});
    emit finished(state);
}

} // namespace gantry::runs
