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
    if (m_busy || m_remotes.isEmpty() || m_stopping)
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
    double perHour = 0;
    for (const int rank : liveRanks())
        perHour += live(rank)->pricePerHour;
    if (overBudget(perHour * double(2 * m_longestTickMs) / 3600000.0)) {
        halt(false, RunsText::tr("Run %1 stopped: it reached max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    ++m_ticks;
    const bool mirror = !m_spec.checkpointPath.isEmpty()
        && m_options.clock->monotonicMs() - m_lastMirrorMs >= qint64(m_spec.checkpointEverySeconds) * 1000;
    m_busy = true;
    using Polls = std::vector<std::pair<int, Result<AttemptPoll>>>;
    const QMap<int, std::shared_ptr<RemoteAttempt>> remotes = m_remotes;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    const CancelToken cancel = m_cancel;
    background::run<Polls>(this, [remotes, known, mirror, cancel] {
        Polls polls; // the head's checkpoint is the run's: the other nodes are only asked about their job
        for (auto it = remotes.cbegin(); it != remotes.cend(); ++it)
            polls.emplace_back(it.key(), it.value()->poll(mirror && it.key() == 0, known.get(), cancel));
        return polls;
    }, [this](Polls polls) { onPolled(polls); });
}

void ManagedRun::onMirrored(const MirrorOutcome &mirror)
{
    m_lastMirrorMs = m_options.clock->monotonicMs();
    if (Result<void> kept = saveSignatures(m_store.runDir(m_spec.name) + QStringLiteral("/mirror.signatures"), *m_known); !kept)
        announce(QStringLiteral("warning"), kept.error().message); // the next run of this name copies again
    if (mirror.received.isEmpty())
        return;
    m_record.checkpointAt = now();
    announce(QStringLiteral("checkpoint"), RunsText::tr("Checkpoint home: %1.").arg(mirror.received.join(QStringLiteral(", "))),
             QJsonObject{{QStringLiteral("files"), QJsonArray::fromStringList(mirror.received)}, {QStringLiteral("bytes"), double(mirror.bytes)}});
}

void ManagedRun::onPolled(const std::vector<std::pair<int, Result<AttemptPoll>>> &polls)
{
    m_busy = false;
    if (m_stopping || liveRanks().isEmpty())
        return;
    for (const auto &[rank, poll] : polls) {
        if (poll && poll->mirror)
            onMirrored(*poll->mirror);
        if (poll && !poll->mirrorError.isEmpty() && poll->mirrorError != m_mirrorError) {
            // The bucket refused or could not be reached: the job goes on, the mirror tries again.
            m_mirrorError = poll->mirrorError;
            announce(QStringLiteral("warning"), RunsText::tr("The checkpoint could not go to the bucket (%1); the job goes on and the "
                                                             "next mirror tries again.").arg(poll->mirrorError));
        }
    }
    recordUsage(polls);
    for (const auto &[rank, poll] : polls) {
        if (!poll) {
            askProvider(Seen::SshDown, rank, -1, poll.error().message);
            return;
        }
    }
    m_unreachableSince = {};
    bool allDone = true;
    for (const auto &[rank, poll] : polls) {
        const jobs::JobInfo &job = poll->job;
        if (job.isActive()) {
            allDone = false;
        } else if (job.state != jobs::JobState::Exited || job.exitCode.value_or(-1) != 0) {
            // A job that ended badly may have lost its machine (or a peer's): the provider says which.
            askProvider(Seen::JobEnded, rank, job.exitCode.value_or(-1), job.statusText());
            return;
        }
    }
    if (allDone)
        succeed();
    else if (m_ticks % std::max(1, m_options.providerCheckEveryTicks) == 0)
        askProvider(Seen::Routine, 0, -1, {});
}

void ManagedRun::recordUsage(const std::vector<std::pair<int, Result<AttemptPoll>>> &polls)
{
    // A poll comes every tick plus its own time (a mirror of a large checkpoint can take minutes):
    // between two polls the machine kept working. A gap over half an hour (this computer slept,
    // nobody drove the run) is not counted: nobody knows what the GPUs did in it.
    const qint64 maxGapMs = std::max<qint64>(1800000, 3LL * m_options.tickMs);
    bool metered = false;
    for (const auto &[rank, poll] : polls) {
        RunAttempt *attempt = poll && !poll->gpus.isEmpty() ? live(rank) : nullptr;
        if (!attempt)
            continue;
        monitor::UsageMeter &meter = m_meters.try_emplace(attempt->instance, maxGapMs).first->second;
        const double energy = meter.energyKwh(), idle = meter.underusedUsd(), seconds = meter.meteredSeconds();
        const double observed = meter.observedSeconds();
        monitor::MachineSample sample;
        sample.time = now();
        sample.gpus = poll->gpus;
        meter.add(sample, attempt->pricePerHour);
        attempt->usage.energyKwh += meter.energyKwh() - energy;
        attempt->usage.underusedUsd += meter.underusedUsd() - idle;
        attempt->usage.meteredSeconds += meter.meteredSeconds() - seconds;
        // The money spent on idle GPUs is known only where the machine's price is.
        if (attempt->pricePerHour > 0)
            attempt->usage.observedSeconds += meter.observedSeconds() - observed;
        metered = metered || meter.meteredSeconds() > seconds || meter.observedSeconds() > observed;
    }
    // Every other change saves too; usage alone rewrites run.json once a minute.
    const qint64 nowMs = m_options.clock->monotonicMs();
    if (metered && nowMs - m_usageSavedMs >= 60000) {
        m_usageSavedMs = nowMs;
        save();
    }
}

// Every machine of the run is asked about, whatever was seen on one: a node reclaimed is why its
// peers' jobs failed, and a reclaimed machine is lost (preempted), not a failed attempt.
void ManagedRun::askProvider(Seen seen, int rank, int exitCode, const QString &detail)
{
    using Answers = QList<std::pair<QString, Result<providers::Instance>>>;
    QList<std::pair<QString, QString>> machines; // provider, instance
    for (const int r : liveRanks())
        machines.append({live(r)->provider, live(r)->instance});
    if (machines.isEmpty())
        return;
    m_busy = true;
    auto answers = std::make_shared<Answers>();
    auto pending = std::make_shared<int>(int(machines.size()));
    QPointer<ManagedRun> self(this);
    for (const auto &[providerId, instanceId] : machines) {
        auto take = [self, answers, pending, seen, rank, exitCode, detail, instanceId](Result<providers::Instance> answer) {
            answers->append({instanceId, std::move(answer)});
            if (--*pending == 0 && self)
                self->classify(seen, rank, exitCode, detail, *answers);
        };
        providers::Provider *provider = m_core->providers()->provider(providerId);
        if (!provider)
            take(Error{ErrorCode::Provider, RunsText::tr("The provider %1 is not configured.").arg(providerId)});
        else
            provider->getInstance(instanceId, take);
    }
}

void ManagedRun::classify(Seen seen, int rank, int exitCode, const QString &detail,
                          const QList<std::pair<QString, Result<providers::Instance>>> &answers)
{
    m_busy = false;
    if (m_stopping || liveRanks().isEmpty())
        return;
    QList<Lost> lost;
    for (const auto &[instanceId, answer] : answers) {
        const QList<int> ranks = liveRanks();
        const auto match = std::find_if(ranks.cbegin(), ranks.cend(), [&](int r) { return live(r)->instance == instanceId; });
        if (match == ranks.cend())
            return; // the run moved on while the provider answered
        if (!answer) {
            if (isGoneError(answer.error()))
                lost.append(Lost{*match, QStringLiteral("preempted"), answer.error().message});
            continue; // the provider did not answer: asked again at the next tick
        }
        const providers::InstanceState state = answer->state;
        if (providers::isGone(state) || state == providers::InstanceState::Stopped || state == providers::InstanceState::Stopping) {
            const bool outbid = answer->providerStatus.contains(QLatin1String("outbid"), Qt::CaseInsensitive);
            lost.append(Lost{*match, outbid ? QStringLiteral("outbid") : QStringLiteral("preempted"), answer->providerStatus});
        }
    }
    if (!lost.isEmpty()) {
        machineLost(lost);
    } else if (seen == Seen::JobEnded) {
        attemptFailed(exitCode, detail);
    } else if (seen == Seen::SshDown) {
        if (!m_unreachableSince.isValid()) {
            m_unreachableSince = now();
            announce(QStringLiteral("unreachable"), RunsText::tr("The machine does not answer SSH (%1); waiting up to %2 s.")
                                                        .arg(detail).arg(m_options.unreachableGraceSeconds),
                     QJsonObject{{QStringLiteral("rank"), rank}});
        } else if (m_unreachableSince.secsTo(now()) >= m_options.unreachableGraceSeconds) {
            // It still bills while nobody can reach it: terminated before the relaunch.
            machineLost({Lost{rank, QStringLiteral("unreachable"), detail}});
        }
    }
}

void ManagedRun::machineLost(const QList<Lost> &lost)
{
    // Every lost machine is terminated before the relaunch (a no-op when it is gone already).
    if (m_stopping || isFinal(m_record.state))
        return;
    m_tick.stop();
    QList<QPair<int, QString>> ended;
    for (const Lost &l : lost) {
        m_remotes.remove(l.rank);
        if (const QString machine = m_machines.value(l.rank); !machine.isEmpty())
            m_badMachines.insert(machine); // never the same bad machine again
        ++m_record.preemptions;
        ended.append({l.rank, l.reason});
        const QString node = nodes() > 1 ? RunsText::tr(" (node %1)").arg(l.rank) : QString();
        announce(QStringLiteral("lost"), RunsText::tr("Attempt %1 lost its machine%2: %3 (%4).").arg(m_record.attempts.size()).arg(node, l.reason, l.detail),
                 QJsonObject{{QStringLiteral("reason"), l.reason}, {QStringLiteral("rank"), l.rank}});
    }
    m_record.state = RunState::Recovering;
    auto relaunch = [this, ended] {
        endRanks(ended, [this] {
            if (m_spec.maxPreemptions > 0 && m_record.preemptions > m_spec.maxPreemptions) {
                m_haltAs = RunState::Failed; // the other nodes' machines end with it
                halt(false, RunsText::tr("Run %1 failed: it lost %2 machines, more than max_preemptions (%3).")
                                .arg(m_spec.name).arg(m_record.preemptions).arg(m_spec.maxPreemptions));
                return;
            }
            beginAttempt();
        });
    };
    if (m_remotes.isEmpty()) {
        relaunch();
        return;
    }
    // The other nodes' ranks cannot go on without the lost one: their jobs are stopped (every rank
    // restarts from the checkpoint) and, while the head lives, its last checkpoint comes home first.
    m_busy = true;
    const QMap<int, std::shared_ptr<RemoteAttempt>> survivors = m_remotes;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    background::run<bool>(this, [survivors, known] {
        for (auto it = survivors.cbegin(); it != survivors.cend(); ++it) {
            (void)it.value()->stopJob();
            if (it.key() == 0)
                (void)it.value()->poll(true, known.get(), {});
        }
        return true;
    }, [this, relaunch](bool) {
        m_busy = false;
        m_remotes.clear();
        relaunch();
    });
}

void ManagedRun::attemptFailed(int exitCode, const QString &detail)
{
    m_tick.stop();
    ++m_record.failures;
    announce(QStringLiteral("failed-attempt"), RunsText::tr("Attempt %1 failed: %2.").arg(startNumber()).arg(detail),
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
    m_remotes.clear();
    endAttempt(QStringLiteral("failed"), next);
}

void ManagedRun::succeed()
{
    m_tick.stop();
    m_busy = true;
    announce(QStringLiteral("exited"), RunsText::tr("The job exited 0; bringing the checkpoint and the results home."));
    std::shared_ptr<RemoteAttempt> remote = m_remotes.value(0); // the head's results are the run's
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
            if (m_stopping) {
                // A stop came while the results came home: its own job ends the attempt; the user
                // still learns where the results are, or that they are only on the machine.
                if (home) {
                    m_record.checkpointAt = now();
                    announce(QStringLiteral("results"), RunsText::tr("Results of run %1 in %2.").arg(m_spec.name, homeDir()));
                } else {
                    announce(QStringLiteral("warning"), RunsText::tr("Run %1: the results could not come home (%2).")
                                                            .arg(m_spec.name, home.error().message));
                }
                return;
            }
            if (!home) {
                // The results are only on the machine: it is kept, and the user told which.
                finish(RunState::Failed, RunsText::tr("Run %1: the results could not come home (%2); the machine %3 is kept "
                                                      "so nothing is lost: download them and terminate it.")
                                             .arg(m_spec.name, home.error().message, current() ? current()->instance : QString()));
                return;
            }
            m_record.checkpointAt = now();
            m_remotes.clear();
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
    // The run ends once every machine is released and no launch is still unanswered (its answer
    // releases what it rented and ends the run then).
    if (liveRanks().isEmpty()) {
        finishStoppedWhenIdle();
        return;
    }
    if (m_remotes.isEmpty()) {
        endAttempt(QStringLiteral("stopped"), [this] { finishStoppedWhenIdle(); });
        return;
    }
    const QMap<int, std::shared_ptr<RemoteAttempt>> remotes = m_remotes;
    std::shared_ptr<QHash<QString, QString>> known = m_known;
    const bool keep = keepMachine;
    background::run<bool>(this, [remotes, known, keep] {
        // Best effort: a machine already gone has nothing more to give.
        bool done = true;
        for (auto it = remotes.cbegin(); it != remotes.cend(); ++it) {
            done = (keep || it.value()->stopJob()) && done;
            if (it.key() == 0)
                done = bool(it.value()->poll(true, known.get(), {})) && done; // the last checkpoint home
        }
        return done;
    }, [this](bool) {
        m_remotes.clear();
        endAttempt(QStringLiteral("stopped"), [this] { finishStoppedWhenIdle(); }, m_keepMachine);
    });
}

void ManagedRun::endAttempt(const QString &reason, std::function<void()> then, bool keepMachine)
{
    QList<QPair<int, QString>> ranks;
    for (const int rank : liveRanks())
        ranks.append({rank, reason});
    endRanks(ranks, std::move(then), keepMachine);
}

void ManagedRun::endRanks(const QList<QPair<int, QString>> &ranks, std::function<void()> then, bool keepMachine)
{
    QList<RunAttempt> ended;
    for (const auto &[rank, reason] : ranks) {
        RunAttempt *attempt = live(rank);
        if (!attempt)
            continue;
        attempt->ended = now();
        attempt->endReason = reason;
        ended.append(*attempt);
    }
    save();
    if (keepMachine)
        ended.clear();
    releaseAll(ended, std::move(then));
}

void ManagedRun::releaseAll(QList<RunAttempt> ended, std::function<void()> then)
{
    if (ended.isEmpty()) {
        then();
        return;
    }
    const RunAttempt first = ended.takeFirst();
    releaseMachine(first, RunsText::tr("run %1: %2").arg(m_spec.name, first.endReason),
                   [this, ended, then = std::move(then)] { releaseAll(ended, then); });
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
    if (isFinal(m_record.state))
        return; // a late answer of a launch the stop overtook: its machine is released, the run ended
    m_tick.stop();
    m_record.state = state;
    m_record.ownerPid = 0;
    announce(QStringLiteral("finished"), message, QJsonObject{{QStringLiteral("cost_so_far"), m_record.costSoFar(now())}});
    emit finished(state);
}

void ManagedRun::finishStoppedWhenIdle()
{
    if (m_launching.isEmpty() && liveRanks().isEmpty())
        finish(m_haltAs, m_haltMessage);
}

} // namespace gantry::runs
