// SPDX-License-Identifier: Apache-2.0
#include "core/runs/managedrun.h"

#include "core/hosts/hoststore.h"
#include "core/providers/priceboard.h"
#include "core/providers/providerhub.h"
#include "core/runs/foldermirror.h"
#include "core/runs/remoteattempt.h"
#include "core/runs/runstext.h"
#include "core/util/background.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace gantry::runs {

Result<QList<QPair<QString, QString>>> readRunSecrets(SecretStore *store, const QStringList &names)
{
    QList<QPair<QString, QString>> out;
    for (const QString &name : names) {
        std::optional<QString> value;
        if (store) {
            Result<std::optional<QString>> stored = store->read(runSecretKey(name));
            if (stored)
                value = *stored;
        }
        if (!value && qEnvironmentVariableIsSet(name.toUtf8().constData()))
            value = qEnvironmentVariable(name.toUtf8().constData());
        if (!value)
            return Error{ErrorCode::NotFound, RunsText::tr("The secret %1 is neither in the keychain (as %2) nor in the environment; "
                                                           "export %1 before starting the run.").arg(name, runSecretKey(name))};
        out.append({name, *value});
    }
    return out;
}

ManagedRun::ManagedRun(workspace::AppCore *core, RunSpec spec, QString specPath, Options options, QObject *parent)
    : QObject(parent)
    , m_core(core)
    , m_spec(std::move(spec))
    , m_options(std::move(options))
    , m_store(core->configDir())
    , m_known(std::make_shared<QHash<QString, QString>>())
{
    m_record.name = m_spec.name;
    m_record.specPath = std::move(specPath);
    m_tick.setInterval(m_options.tickMs);
    connect(&m_tick, &QTimer::timeout, this, &ManagedRun::tick);
}

ManagedRun::ManagedRun(workspace::AppCore *core, RunSpec spec, QString specPath, QObject *parent)
    : ManagedRun(core, std::move(spec), std::move(specPath), Options{}, parent)
{
}

ManagedRun::~ManagedRun()
{
    m_cancel.cancel();
}

QString ManagedRun::homeDir() const
{
    return m_options.homeRoot.isEmpty() ? runHomeDir(m_spec.name) : QDir(m_options.homeRoot).filePath(m_spec.name);
}

Result<void> ManagedRun::requestStop(const QString &configDir, const QString &name, bool keepMachine)
{
    const RunStore store(configDir);
    QFile file(store.runDir(name) + QStringLiteral("/stop-request"));
    if (!file.open(QIODevice::WriteOnly))
        return Error{ErrorCode::Io, RunsText::tr("Cannot write %1: %2.").arg(file.fileName(), file.errorString())};
    file.write(keepMachine ? "keep-machine\n" : "terminate\n");
    return {};
}

void ManagedRun::announce(const QString &kind, const QString &message, QJsonObject extra)
{
    m_record.message = message;
    save();
    m_store.appendLog(m_spec.name, now(), message);
    extra.insert(QStringLiteral("event"), kind);
    extra.insert(QStringLiteral("run"), m_spec.name);
    extra.insert(QStringLiteral("state"), runStateName(m_record.state));
    extra.insert(QStringLiteral("attempt"), int(m_record.attempts.size()));
    extra.insert(QStringLiteral("message"), message);
    extra.insert(QStringLiteral("time"), now().toString(Qt::ISODate));
    emit event(extra);
}

void ManagedRun::save()
{
    if (Result<void> saved = m_store.save(m_record); !saved)
        qWarning("%s", qPrintable(saved.error().message));
}

RunAttempt *ManagedRun::current()
{
    if (m_record.attempts.isEmpty() || m_record.attempts.last().ended.isValid())
        return nullptr;
    return &m_record.attempts.last();
}

void ManagedRun::prepare(qint64 ownerPid)
{
    QDir().mkpath(m_store.runDir(m_spec.name));
    QFile::remove(m_store.runDir(m_spec.name) + QStringLiteral("/stop-request"));
    m_record.ownerPid = ownerPid;
    m_record.resultsDir = homeDir();
    m_record.checkpointPath = m_spec.checkpointPath.isEmpty() ? QString() : QDir(homeDir()).filePath(QStringLiteral("checkpoints"));
    *m_known = loadSignatures(m_store.runDir(m_spec.name) + QStringLiteral("/mirror.signatures"));
    m_record.state = RunState::Launching;
    // The spec as it was started: a process that takes the run over reads this copy, not a file
    // the user may have edited since.
    QFile::remove(m_store.runDir(m_spec.name) + QStringLiteral("/spec.yaml"));
    QFile::copy(m_record.specPath, m_store.runDir(m_spec.name) + QStringLiteral("/spec.yaml"));
}

void ManagedRun::start()
{
    prepare(QCoreApplication::applicationPid());
    announce(QStringLiteral("started"), RunsText::tr("Run %1 started.").arg(m_spec.name));
    readSecretsThen([this] { beginAttempt(); });
}

void ManagedRun::detach()
{
    prepare(0);
    announce(QStringLiteral("detached"), RunsText::tr("Run %1 handed to gantry-cli watch, which drives it from now on.").arg(m_spec.name));
}

void ManagedRun::readSecretsThen(std::function<void()> next)
{
    if (m_spec.secrets.isEmpty()) {
        next();
        return;
    }
    // The secrets are read once, on a worker (the keychain blocks), before anything is rented: a
    // missing one fails the run at once. They stay in this process's memory and go to the job only.
    SecretStore *store = m_core->secrets();
    background::run<Result<QList<QPair<QString, QString>>>>(this, [store, names = m_spec.secrets] { return readRunSecrets(store, names); },
                                                            [this, next = std::move(next)](Result<QList<QPair<QString, QString>>> secrets) {
                                                                if (secrets) {
                                                                    m_secrets = *secrets;
                                                                } else if (!current()) {
                                                                    finish(RunState::Failed, secrets.error().message);
                                                                    return;
                                                                } else {
                                                                    // Taken over with a job that runs: it runs on; a
                                                                    // new machine's job would lack them, so none starts.
                                                                    m_secretsError = secrets.error().message;
                                                                    announce(QStringLiteral("warning"), m_secretsError);
                                                                }
                                                                next();
                                                            });
}

void ManagedRun::resume(const RunRecord &record)
{
    const qint64 previous = record.ownerPid;
    m_record = record;
    m_record.ownerPid = QCoreApplication::applicationPid();
    *m_known = loadSignatures(m_store.runDir(m_spec.name) + QStringLiteral("/mirror.signatures"));
    announce(QStringLiteral("taken-over"), RunsText::tr("Run %1 taken over by process %2: the process that drove it (%3) ended.")
                                               .arg(m_spec.name).arg(m_record.ownerPid).arg(previous));
    if (stopAsked()) { // `run stop` while nobody drove it: stopped now, its machine with it
        const RunAttempt *attempt = current();
        if (const std::optional<SavedHost> host = attempt ? m_core->hosts()->find(attempt->hostName) : std::nullopt; host)
            m_remote = makeRemote(*attempt, *host); // the job is stopped and its checkpoint brought home first
        halt(m_keepMachine, RunsText::tr("Run %1 stopped.").arg(m_spec.name));
        if (!attempt)
            finish(RunState::Stopped, m_haltMessage);
        return;
    }
    readSecretsThen([this] { continueAttempt(); });
}

void ManagedRun::continueAttempt()
{
    RunAttempt *attempt = current();
    if (!attempt) { // between machines, or none rented yet
        beginAttempt();
        return;
    }
    if (attempt->hostName.isEmpty()) { // rented, not up yet: followed as the launch would have
        workspace::FollowOptions follow;
        follow.pollMs = m_options.launchPollMs;
        follow.neverUpNote = RunsText::tr("run %1: never came up").arg(m_spec.name);
        m_core->workspace()->follow(attempt->provider, attempt->instance, follow, [this](Result<workspace::ReadyInstance> ready) {
            if (!ready)
                machineLost(QStringLiteral("unreachable"), ready.error().message, false);
            else
                onReady(ready->hostName);
        });
        return;
    }
    if (m_record.state != RunState::Running) { // the job may not have started: prepare it again
        onReady(attempt->hostName);
        return;
    }
    const std::optional<SavedHost> host = m_core->hosts()->find(attempt->hostName);
    if (!host) {
        machineLost(QStringLiteral("unreachable"), RunsText::tr("The machine's host was not saved."), true);
        return;
    }
    m_remote = makeRemote(*attempt, *host);
    m_unreachableSince = {};
    m_lastMirrorMs = m_options.clock->monotonicMs();
    m_tick.start();
}

std::shared_ptr<RemoteAttempt> ManagedRun::makeRemote(const RunAttempt &attempt, const SavedHost &host) const
{
    const int number = int(m_record.attempts.size());
    AttemptPlan plan{m_spec.name, number, m_spec.localWorkdir(), m_spec.checkpointPath, m_record.checkpointPath,
                     m_store.runDir(m_spec.name) + QStringLiteral("/attempt-%1").arg(number), m_spec.setup, m_spec.run, m_spec.env,
                     number > 1};
    return std::make_shared<RemoteAttempt>(host.target, m_store.runDir(m_spec.name) + QStringLiteral("/known_hosts-") + attempt.instance, plan);
}

void ManagedRun::beginAttempt()
{
    if (m_stopping) {
        finish(RunState::Stopped, m_haltMessage);
        return;
    }
    if (overBudget(0)) {
        finish(RunState::Stopped, RunsText::tr("Run %1 stopped: it reached max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    providers::PriceBoard *board = m_core->prices();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(board, &providers::PriceBoard::refreshed, this, [this, once] {
        disconnect(*once);
        pickAndLaunch();
    });
    board->refresh();
}

void ManagedRun::pickAndLaunch()
{
    QList<RunOffer> offers = fittingOffers(m_spec, m_core->prices()->allTypes(), *m_core->providers(), m_badMachines);
    if (offers.isEmpty()) {
        announce(QStringLiteral("waiting"), RunsText::tr("No offer fits the spec now (%1, %2 GPU, spot %3); looking again in %4 s.")
                                                .arg(m_spec.resources.providers.join(QStringLiteral(", ")), m_spec.resources.gpu,
                                                     m_spec.resources.spot ? QStringLiteral("yes") : QStringLiteral("no"))
                                                .arg(m_options.noOfferRetryMs / 1000));
        QTimer::singleShot(m_options.noOfferRetryMs, this, [this] { beginAttempt(); });
        return;
    }
    const RunOffer offer = offers.takeFirst();
    launchOffer(offer, offers);
}

void ManagedRun::launchOffer(const RunOffer &offer, QList<RunOffer> rest)
{
    // Billing starts with the launch: one that could cross max_cost within a minute never starts.
    if (overBudget(offer.pricePerHour / 60.0)) {
        finish(RunState::Stopped, RunsText::tr("Run %1 stopped: another machine would cross max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    providers::LaunchRequest request;
    request.typeName = offer.type.name;
    request.region = offer.type.regionsWithCapacity.isEmpty() ? QString() : offer.type.regionsWithCapacity.first().name;
    request.name = QStringLiteral("gantry-run-%1-%2").arg(m_spec.name).arg(m_record.attempts.size() + 1);
    request.gpuCount = m_spec.resources.count;
    request.bidPerHour = offer.bidPerHour;
    workspace::LaunchOptions options;
    options.pricePerHour = offer.pricePerHour;
    options.pollMs = m_options.launchPollMs;
    options.neverUpNote = RunsText::tr("run %1: never came up").arg(m_spec.name);
    announce(QStringLiteral("launching"), RunsText::tr("Launching %1 on %2 at %3/h.").arg(offer.type.name, offer.provider)
                                              .arg(offer.pricePerHour, 0, 'f', 3));
    m_core->workspace()->launch(
        offer.provider, request, options,
        [this, offer, rest](Result<workspace::LaunchedInstance> launched) {
            if (!launched) {
                announce(QStringLiteral("launch-failed"), launched.error().message);
                if (m_stopping) {
                    finish(RunState::Stopped, m_haltMessage);
                    return;
                }
                if (rest.isEmpty())
                    QTimer::singleShot(m_options.noOfferRetryMs, this, [this] { beginAttempt(); });
                else
                    launchOffer(rest.first(), rest.mid(1));
                return;
            }
            if (!offer.type.machineId.isEmpty())
                m_machine = offer.provider + QLatin1Char('/') + offer.type.machineId;
            RunAttempt attempt;
            attempt.provider = offer.provider;
            attempt.instance = launched->instanceId;
            attempt.type = offer.type.name;
            attempt.pricePerHour = launched->pricePerHour > 0 ? launched->pricePerHour : offer.pricePerHour;
            attempt.started = now();
            attempt.spot = m_spec.resources.spot;
            m_record.attempts.append(attempt);
            announce(QStringLiteral("launched"), RunsText::tr("Attempt %1: %2 on %3 (%4).")
                                                     .arg(m_record.attempts.size()).arg(offer.type.name, offer.provider, launched->instanceId));
        },
        [this](Result<workspace::ReadyInstance> ready) {
            if (!ready) {
                machineLost(QStringLiteral("unreachable"), ready.error().message, false);
                return;
            }
            onReady(ready->hostName);
        });
}

void ManagedRun::onReady(const QString &hostName)
{
    RunAttempt *attempt = current();
    const std::optional<SavedHost> host = m_core->hosts()->find(hostName);
    if (!attempt || !host) {
        machineLost(QStringLiteral("unreachable"), RunsText::tr("The machine's host was not saved."), true);
        return;
    }
    attempt->hostName = hostName;
    if (m_stopping) {
        endAttempt(QStringLiteral("stopped"), [this] { finish(RunState::Stopped, m_haltMessage); });
        return;
    }
    if (!m_secretsError.isEmpty()) {
        halt(false, m_secretsError);
        return;
    }
    if (m_record.state != RunState::Recovering)
        m_record.state = RunState::Syncing;
    const int number = int(m_record.attempts.size());
    m_remote = makeRemote(*attempt, *host);
    announce(QStringLiteral("syncing"), number > 1 ? RunsText::tr("Syncing the workdir and restoring the last checkpoint to %1.").arg(hostName)
                                                   : RunsText::tr("Syncing the workdir to %1.").arg(hostName));
    std::shared_ptr<RemoteAttempt> remote = m_remote;
    const CancelToken cancel = m_cancel;
    const QList<QPair<QString, QString>> secrets = m_secrets;
    background::run<Result<void>>(this, [remote, cancel, secrets] { return remote->prepareAndStart(cancel, secrets); },
                                  [this](Result<void> started) { onStarted(started); });
}

void ManagedRun::onStarted(const Result<void> &started)
{
    if (!started) {
        // A machine that cannot be reached is lost; one that answers but cannot run the job failed.
        askProvider(Seen::JobEnded, -1, started.error().message);
        return;
    }
    m_record.state = RunState::Running;
    m_unreachableSince = {};
    m_lastMirrorMs = m_options.clock->monotonicMs();
    announce(QStringLiteral("running"), RunsText::tr("Attempt %1 running on %2.").arg(m_record.attempts.size()).arg(current() ? current()->hostName : QString()),
             QJsonObject{{QStringLiteral("resumed"), m_record.attempts.size() > 1}});
    m_tick.start();
}

} // namespace gantry::runs
