// SPDX-License-Identifier: Apache-2.0
#include "core/runs/runservice.h"

#include "core/providers/priceboard.h"
#include "core/providers/providerhub.h"
#include "core/runs/runstext.h"
#include "core/util/background.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policylock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>

#include <signal.h>

namespace gantry::runs {

RunBook::RunBook(QString configDir) : m_configDir(std::move(configDir)) {}

QStringList RunBook::names() const
{
    return RunStore(m_configDir).names();
}

Result<RunRecord> RunBook::show(const QString &name) const
{
    return RunStore(m_configDir).load(name);
}

QList<RunRecord> RunBook::list(QStringList *warnings) const
{
    const RunStore store(m_configDir);
    QList<RunRecord> out;
    for (const QString &name : store.names()) {
        Result<RunRecord> record = store.load(name);
        if (record)
            out.append(*record);
        else if (warnings)
            warnings->append(record.error().message);
    }
    return out;
}

Result<RunLogChunk> RunBook::readLog(const QString &name, qint64 offset) const
{
    const RunStore store(m_configDir);
    RunLogChunk chunk{{}, offset};
    QFile log(store.logPath(name));
    if (!log.open(QIODevice::ReadOnly)) {
        if (!QFile::exists(store.runDir(name) + QStringLiteral("/run.json")))
            return Error{ErrorCode::NotFound, RunsText::tr("No run named %1; the Runs panel (gantry-cli run list) shows the runs.").arg(name)};
        return chunk; // nothing happened yet
    }
    if (log.size() < offset)
        offset = 0; // the run was started afresh and its log begun again
    log.seek(offset);
    const QByteArray data = log.readAll();
    // Only whole lines: the rest is read again when its end is written.
    const qsizetype end = data.lastIndexOf('\n') + 1;
    for (const QByteArray &line : data.left(end).split('\n')) {
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        chunk.lines.append({QString::fromUtf8(line.left(space)), QString::fromUtf8(line.mid(space + 1))});
    }
    chunk.next = offset + end;
    return chunk;
}

Result<RunBook::StopOutcome> RunBook::requestStop(const QString &name, bool keepMachine) const
{
    Result<RunRecord> record = show(name);
    if (!record)
        return record.error();
    if (isFinal(record->state))
        return StopOutcome::AlreadyEnded;
    // Nobody drives it, but the policy owner (the GUI or `gantry-cli watch`) takes it over at its
    // next tick: the request waits for it there, and the run stops at once instead of resuming.
    if (!ownerAlive(record->ownerPid) && workspace::PolicyLock::livePid(m_configDir) == 0) {
        // Every machine it still holds (a multi-node run holds several), each with its command.
        QStringList held;
        for (const RunAttempt &attempt : record->attempts) {
            if (!attempt.ended.isValid() && !attempt.instance.isEmpty())
                held.append(QStringLiteral("gantry-cli terminate %1 --provider %2").arg(attempt.instance, attempt.provider));
        }
        return Error{ErrorCode::Conflict, held.isEmpty()
            ? RunsText::tr("No process drives run %1 any more, and it holds no machine.").arg(name)
            : RunsText::tr("No process drives run %1; it still holds %n machine(s): terminate them in Instances (%2).", nullptr, int(held.size()))
                  .arg(name, held.join(QStringLiteral("; ")))};
    }
    if (Result<void> asked = ManagedRun::requestStop(m_configDir, name, keepMachine); !asked)
        return asked.error();
    return StopOutcome::Asked;
}

bool RunBook::ownerAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

bool RunBook::settled(const RunRecord &record)
{
    return isFinal(record.state) || !ownerAlive(record.ownerPid);
}

RunService::RunService(workspace::AppCore *core, QObject *parent)
    : QObject(parent)
    , m_core(core)
    , m_book(core->configDir())
{
    if (const int tick = qEnvironmentVariableIntValue("GANTRY_RUN_TICK_MS"); tick > 0)
        m_options.tickMs = tick;
    connect(&m_adopt, &QTimer::timeout, this, [this] {
        if (m_scanning || !m_policyLock || !m_policyLock->tryAcquire())
            return;
        // Every run.json is read on a worker (the GUI's thread only adopts what the scan found).
        m_scanning = true;
        background::run<QStringList>(this, [book = m_book] { return orphans(book); }, [this](const QStringList &names) {
            m_scanning = false;
            adoptOrphans(names);
        });
    });
}

RunService::~RunService()
{
    // The runs go first, while the core's services they use are still there.
    for (const QPointer<ManagedRun> &run : std::as_const(m_runs))
        delete run.data();
}

Result<ManagedRun *> RunService::start(RunSpec spec, const QString &specPath, ManagedRun::Options options)
{
    const QString name = spec.name;
    if (driven(name))
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is already running here; start this one under another name.").arg(name)};
    Result<std::shared_ptr<QLockFile>> claim = claimRun(name);
    if (!claim)
        return claim.error();
    if (Result<RunRecord> previous = m_book.show(name); previous && !isFinal(previous->state) && RunBook::ownerAlive(previous->ownerPid)) {
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is driven by process %2; stop it first, or start this one under another name.")
                                              .arg(name).arg(previous->ownerPid)};
    }
    ManagedRun *run = track(name, new ManagedRun(m_core, std::move(spec), specPath, std::move(options), this), *claim);
    run->start();
    return run;
}

Result<void> RunService::detach(RunSpec spec, const QString &specPath)
{
    const QString name = spec.name;
    if (driven(name))
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is already running here; start this one under another name.").arg(name)};
    Result<std::shared_ptr<QLockFile>> claim = claimRun(name); // held while the record is written, then left to the watcher
    if (!claim)
        return claim.error();
    if (Result<RunRecord> previous = m_book.show(name); previous && !isFinal(previous->state)) {
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 has not ended (%2); stop it first, or start this one under another name.")
                                              .arg(name, runStateName(previous->state))};
    }
    ManagedRun run(m_core, std::move(spec), specPath, m_options);
    run.detach();
    return {};
}

Result<std::shared_ptr<QLockFile>> RunService::claimRun(const QString &name) const
{
    const QString dir = RunStore(m_core->configDir()).runDir(name);
    QDir().mkpath(dir);
    auto claim = std::make_shared<QLockFile>(dir + QStringLiteral("/owner.lock"));
    claim->setStaleLockTime(0); // held for the whole run: only a holder that is gone leaves it stale
    if (claim->tryLock(0))
        return claim;
    qint64 pid = 0;
    QString host, program;
    claim->getLockInfo(&pid, &host, &program);
    return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is driven by process %2 (%3); stop it first, or start this one under another name.")
                                          .arg(name).arg(pid).arg(program)};
}

ManagedRun *RunService::track(const QString &name, ManagedRun *run, std::shared_ptr<QLockFile> claim)
{
    m_runs.insert(name, run);
    m_claims.insert(name, std::move(claim));
    connect(run, &ManagedRun::event, this, [this, name](const QJsonObject &event) { emit runEvent(name, event); });
    connect(run, &ManagedRun::finished, this, [this, name, run](RunState state) {
        if (m_runs.value(name) == run) {
            m_runs.remove(name);
            m_claims.remove(name); // the claim goes with the run
        }
        run->deleteLater();
        emit runFinished(name, state);
    });
    return run;
}

Result<ManagedRun *> RunService::adopt(const QString &name)
{
    if (driven(name))
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is already driven here.").arg(name)};
    Result<std::shared_ptr<QLockFile>> claim = claimRun(name);
    if (!claim)
        return claim.error();
    // Read after the claim: what the last driver wrote before it went is what is taken over.
    Result<RunRecord> record = m_book.show(name);
    if (!record)
        return record.error();
    if (isFinal(record->state))
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 has ended (%2); there is nothing to take over.").arg(name, runStateName(record->state))};
    if (record->ownerPid != QCoreApplication::applicationPid() && RunBook::ownerAlive(record->ownerPid))
        return Error{ErrorCode::Conflict, RunsText::tr("Run %1 is driven by process %2.").arg(name).arg(record->ownerPid)};
    // The spec as the run was started (its copy), read as from its own folder (a relative workdir).
    const QFileInfo original(record->specPath);
    QFile copy(RunStore(m_core->configDir()).runDir(name) + QStringLiteral("/spec.yaml"));
    Result<RunSpec> spec = copy.open(QIODevice::ReadOnly) ? parseRunSpec(copy.readAll(), original.fileName(), original.absolutePath())
                                                          : loadRunSpec(record->specPath);
    if (!spec)
        return Error{spec.error().code, RunsText::tr("Run %1 cannot be taken over: %2").arg(name, spec.error().message)};
    spec->name = name;
    ManagedRun *run = track(name, new ManagedRun(m_core, std::move(*spec), record->specPath, m_options, this), *claim);
    emit runAdopted(name);
    run->resume(*record);
    return run;
}

QStringList RunService::orphans(const RunBook &book)
{
    QStringList names;
    for (const RunRecord &record : book.list()) {
        if (!isFinal(record.state) && !RunBook::ownerAlive(record.ownerPid))
            names.append(record.name);
    }
    return names;
}

QStringList RunService::adoptOrphans(const QStringList &names)
{
    QStringList taken;
    for (const QString &name : names) {
        if (driven(name))
            continue;
        Result<ManagedRun *> run = adopt(name); // adopt() reads the record again under the run's claim
        if (run) {
            taken.append(name);
            m_adoptProblems.remove(name);
        } else if (m_adoptProblems.value(name) != run.error().message) { // said once, not every tick
            m_adoptProblems.insert(name, run.error().message);
            emit runEvent(name, QJsonObject{{QStringLiteral("event"), QStringLiteral("takeover-failed")},
                                            {QStringLiteral("run"), name},
                                            {QStringLiteral("message"), run.error().message}});
        }
    }
    return taken;
}

void RunService::startAdopting(workspace::PolicyLock *lock)
{
    m_policyLock = lock;
    m_adopt.setInterval(m_options.tickMs);
    m_adopt.start();
}

ManagedRun *RunService::driven(const QString &name) const
{
    return m_runs.value(name).data();
}

void RunService::stop(const QString &name, bool keepMachine, std::function<void(Result<RunBook::StopOutcome>)> done)
{
    if (ManagedRun *run = driven(name)) {
        run->stop(keepMachine);
        if (done)
            done(RunBook::StopOutcome::Asked);
        return;
    }
    const RunBook book = m_book;
    background::run<Result<RunBook::StopOutcome>>(this, [book, name, keepMachine] { return book.requestStop(name, keepMachine); },
                                                  [done = std::move(done)](Result<RunBook::StopOutcome> asked) {
                                                      if (done)
                                                          done(std::move(asked));
                                                  });
}

QList<RunOffer> RunService::offersFor(const RunSpec &spec) const
{
    return fittingOffers(spec, m_core->prices()->allTypes(), *m_core->providers());
}

} // namespace gantry::runs
