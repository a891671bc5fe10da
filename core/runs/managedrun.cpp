// SPDX-License-Identifier: Apache-2.0
#include "core/runs/managedrun.h"

#include "core/cluster/wiring.h"
#include "core/hosts/hoststore.h"
#include "core/providers/priceboard.h"
#include "core/providers/providerhub.h"
#include "core/runs/foldermirror.h"
#include "core/runs/remoteattempt.h"
#include "core/runs/runstext.h"
#include "core/storage/buckets.h"
#include "core/storage/copyplan.h"
#include "core/util/background.h"
#include "core/util/secretstore.h"
#include "core/verify/reputation.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QPointer>

namespace gantry::runs {
namespace {

// The lines before a node's job that define GANTRY_TORCHRUN, torchrun with this node's place in
// the group (from the environment above), so `run: $GANTRY_TORCHRUN train.py` needs nothing else:
// a Python with torch (the PATH's first, then the system's, where Debian's python3-torch lives),
// the underscore spellings and --redirects 1 --tee 1, which Debian's torch 1.13 needs and torch 2
// accepts. Nothing of the provider's answers is parsed by the shell here: the values expand once.
const char kTorchrunPrelude[] =
    "GANTRY_PY=python3; for candidate in python3 /usr/bin/python3; do "
    "if \"$candidate\" -c 'import torch' >/dev/null 2>&1; then GANTRY_PY=$candidate; break; fi; done\n"
    "GANTRY_TORCHRUN=\"$GANTRY_PY -m torch.distributed.run --nnodes $NNODES --node_rank $NODE_RANK --nproc_per_node $GPUS_PER_NODE "
    "--rdzv_backend static --master_addr $MASTER_ADDR --master_port $MASTER_PORT --redirects 1 --tee 1\"; export GANTRY_TORCHRUN\n";

} // namespace

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

RunAttempt *ManagedRun::live(int rank)
{
    for (auto it = m_record.attempts.rbegin(); it != m_record.attempts.rend(); ++it) {
        if (it->rank == rank && !it->ended.isValid())
            return &*it;
    }
    return nullptr;
}

QList<int> ManagedRun::liveRanks() const
{
    QList<int> ranks;
    for (const RunAttempt &attempt : m_record.attempts) {
        if (!attempt.ended.isValid() && !ranks.contains(attempt.rank))
            ranks.append(attempt.rank);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

int ManagedRun::startNumber() const
{
    return nodes() > 1 ? m_record.starts : int(m_record.attempts.size());
}

void ManagedRun::prepare(qint64 ownerPid)
{
    QDir().mkpath(m_store.runDir(m_spec.name));
    QFile::remove(m_store.runDir(m_spec.name) + QStringLiteral("/stop-request"));
    m_record.ownerPid = ownerPid;
    m_record.resultsDir = homeDir();
    m_record.checkpointPath = m_spec.checkpointPath.isEmpty() ? QString()
        : !m_spec.checkpointStore.isEmpty()                 ? m_spec.checkpointStore
                                                            : QDir(homeDir()).filePath(QStringLiteral("checkpoints"));
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
    if (m_spec.secrets.isEmpty() && m_spec.checkpointStore.isEmpty()) {
        next();
        return;
    }
    // The secrets are read once, on a worker (the keychain blocks), before anything is rented: a
    // missing one fails the run at once. They stay in this process's memory and go to the job only.
    // The checkpoints' bucket is checked there too: configured, its keys readable.
    SecretStore *store = m_core->secrets();
    const std::optional<storage::BucketPath> bucket = storage::parseBucketPath(m_spec.checkpointStore);
    background::run<Result<QList<QPair<QString, QString>>>>(this, [store, names = m_spec.secrets, bucket, configDir = m_core->configDir()]()
                                                                -> Result<QList<QPair<QString, QString>>> {
        if (bucket) {
            if (Result<storage::S3Client> client = storage::Buckets(configDir, store).client(bucket->name); !client)
                return Error{client.error().code, RunsText::tr("checkpoint.store: %1").arg(client.error().message)};
        }
        return readRunSecrets(store, names);
    },
                                                            [this, next = std::move(next)](Result<QList<QPair<QString, QString>>> secrets) {
                                                                if (secrets) {
                                                                    m_secrets = *secrets;
                                                                } else if (liveRanks().isEmpty()) {
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
    if (stopAsked()) { // `run stop` while nobody drove it: stopped now, its machines with it
        for (const int rank : liveRanks()) { // each job is stopped and the checkpoint brought home first
            const RunAttempt *attempt = live(rank);
            if (const std::optional<SavedHost> host = m_core->hosts()->find(attempt->hostName); host)
                m_remotes.insert(rank, makeRemote(*attempt, *host));
        }
        halt(m_keepMachine, RunsText::tr("Run %1 stopped.").arg(m_spec.name));
        return;
    }
    readSecretsThen([this] { continueAttempt(); });
}

void ManagedRun::continueAttempt()
{
    const QList<int> ranks = liveRanks();
    if (ranks.isEmpty()) { // between machines, or none rented yet
        beginAttempt();
        return;
    }
    bool allUp = true;
    for (const int rank : ranks) {
        const RunAttempt *attempt = live(rank);
        if (!attempt->hostName.isEmpty())
            continue;
        allUp = false; // rented, not up yet: followed as the launch would have
        workspace::FollowOptions follow;
        follow.pollMs = m_options.launchPollMs;
        follow.neverUpNote = RunsText::tr("run %1: never came up").arg(m_spec.name);
        m_core->workspace()->follow(attempt->provider, attempt->instance, follow, [self = QPointer<ManagedRun>(this), this, rank](Result<workspace::ReadyInstance> ready) {
            if (!self || isFinal(m_record.state))
                return;
            if (!ready)
                machineLost({Lost{rank, QStringLiteral("unreachable"), ready.error().message}});
            else
                onReady(rank, ready->hostName);
        });
    }
    if (ranks.size() < nodes()) { // a node was lost: the others wait, stopped, for its replacement
        beginAttempt();
        return;
    }
    if (!allUp)
        return;
    if (m_record.state != RunState::Running) { // the job may not have started: prepare it again
        startAll();
        return;
    }
    for (const int rank : ranks) {
        const RunAttempt *attempt = live(rank);
        const std::optional<SavedHost> host = m_core->hosts()->find(attempt->hostName);
        if (!host) {
            machineLost({Lost{rank, QStringLiteral("unreachable"), RunsText::tr("The machine's host was not saved.")}});
            return;
        }
        m_remotes.insert(rank, makeRemote(*attempt, *host));
    }
    m_unreachableSince = {};
    m_lastMirrorMs = m_options.clock->monotonicMs();
    m_tick.start();
}

std::shared_ptr<RemoteAttempt> ManagedRun::makeRemote(const RunAttempt &attempt, const SavedHost &host) const
{
    const int number = startNumber();
    AttemptPlan plan{m_spec.name, number, m_spec.localWorkdir(), m_spec.checkpointPath, m_record.checkpointPath,
                     m_store.runDir(m_spec.name) + QStringLiteral("/attempt-%1").arg(number), m_spec.setup, m_spec.run, m_spec.env,
                     number > 1, nodes() > 1 ? attempt.rank : -1, {}, {}, {}, {}};
    if (nodes() > 1)
        plan.configDir += QStringLiteral("-r%1").arg(attempt.rank);
    if (const std::optional<storage::BucketPath> store = storage::parseBucketPath(m_spec.checkpointStore); store) {
        plan.bucketClient = [configDir = m_core->configDir(), secrets = m_core->secrets(), name = store->name] {
            return storage::Buckets(configDir, secrets).client(name);
        };
        plan.storePrefix = store->key;
    }
    return std::make_shared<RemoteAttempt>(host.target, m_store.runDir(m_spec.name) + QStringLiteral("/known_hosts-") + attempt.instance, plan);
}

void ManagedRun::beginAttempt()
{
    if (m_stopping) {
        finishStoppedWhenIdle();
        return;
    }
    if (overBudget(0)) {
        halt(false, RunsText::tr("Run %1 stopped: it reached max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    providers::PriceBoard *board = m_core->prices();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(board, &providers::PriceBoard::refreshed, this, [this, once] {
        disconnect(*once);
        // The machines' reputation (machines.json) is read on a worker, fresh for every launch.
        background::run<MachineFilter>(this, [configDir = m_core->configDir()] { return MachineFilter(verify::flaggedMachines(configDir)); },
                                       [this](MachineFilter flagged) {
                                           m_flagged = std::move(flagged);
                                           pickAndLaunch();
                                       });
    });
    board->refresh();
}

void ManagedRun::pickAndLaunch()
{
    QList<int> missing;
    for (int rank = 0; rank < nodes(); ++rank) {
        if (!live(rank) && !m_launching.contains(rank))
            missing.append(rank);
    }
    if (missing.isEmpty() || m_stopping)
        return;
    QList<RunOffer> offers = fittingOffers(m_spec, m_core->prices()->allTypes(), *m_core->providers(), m_badMachines, m_flagged);
    // Every node of a run on one provider (one network, one bill): the others' when some run, else
    // the cheapest offer's; a node waits rather than join from elsewhere.
    if (nodes() > 1 && !offers.isEmpty()) {
        const QList<int> ranks = liveRanks();
        const QString provider = ranks.isEmpty() ? offers.first().provider : live(ranks.first())->provider;
        QList<RunOffer> same;
        std::copy_if(offers.cbegin(), offers.cend(), std::back_inserter(same), [&](const RunOffer &o) { return o.provider == provider; });
        offers = same;
    }
    if (offers.isEmpty()) {
        announce(QStringLiteral("waiting"), RunsText::tr("No offer fits the spec now (%1, %2 GPU, spot %3); looking again in %4 s.")
                                                .arg(m_spec.resources.providers.join(QStringLiteral(", ")), m_spec.resources.gpu,
                                                     m_spec.resources.spot ? QStringLiteral("yes") : QStringLiteral("no"))
                                                .arg(m_options.noOfferRetryMs / 1000));
        QTimer::singleShot(m_options.noOfferRetryMs, this, [this] { beginAttempt(); });
        return;
    }
    for (const int rank : missing)
        launchOffer(offers.first(), offers.mid(1), rank);
}

void ManagedRun::launchOffer(const RunOffer &offer, QList<RunOffer> rest, int rank)
{
    // Billing starts with the launch: one that could cross max_cost within a minute never starts.
    if (overBudget(offer.pricePerHour / 60.0)) {
        halt(false, RunsText::tr("Run %1 stopped: another machine would cross max_cost (%2).").arg(m_spec.name).arg(m_spec.maxCost));
        return;
    }
    providers::LaunchRequest request;
    request.typeName = offer.type.name;
    request.region = offer.type.regionsWithCapacity.isEmpty() ? QString() : offer.type.regionsWithCapacity.first().name;
    request.name = QStringLiteral("gantry-run-%1-%2").arg(m_spec.name).arg(m_record.attempts.size() + 1);
    if (nodes() > 1)
        request.name += QStringLiteral("-r%1").arg(rank);
    request.gpuCount = m_spec.resources.count;
    request.bidPerHour = offer.bidPerHour;
    workspace::LaunchOptions options;
    options.pricePerHour = offer.pricePerHour;
    options.pollMs = m_options.launchPollMs;
    options.neverUpNote = RunsText::tr("run %1: never came up").arg(m_spec.name);
    m_launching.insert(rank);
    announce(QStringLiteral("launching"), RunsText::tr("Launching %1 on %2 at %3/h.").arg(offer.type.name, offer.provider)
                                              .arg(offer.pricePerHour, 0, 'f', 3),
             QJsonObject{{QStringLiteral("rank"), rank}});
    // Guarded: the run may have ended (and gone) before a launch answers.
    const QPointer<ManagedRun> self(this);
    m_core->workspace()->launch(
        offer.provider, request, options,
        [self, this, offer, rest, rank](Result<workspace::LaunchedInstance> launched) {
            if (!self)
                return;
            m_launching.remove(rank);
            if (!launched) {
                announce(QStringLiteral("launch-failed"), launched.error().message);
                if (m_stopping)
                    finishStoppedWhenIdle();
                else if (rest.isEmpty())
                    QTimer::singleShot(m_options.noOfferRetryMs, this, [this] { beginAttempt(); });
                else
                    launchOffer(rest.first(), rest.mid(1), rank);
                return;
            }
            m_machines.insert(rank, offer.type.machineId.isEmpty() ? QString() : offer.provider + QLatin1Char('/') + offer.type.machineId);
            RunAttempt attempt;
            attempt.provider = offer.provider;
            attempt.instance = launched->instanceId;
            attempt.type = offer.type.name;
            attempt.pricePerHour = launched->pricePerHour > 0 ? launched->pricePerHour : offer.pricePerHour;
            attempt.started = now();
            attempt.spot = m_spec.resources.spot;
            attempt.rank = rank;
            m_record.attempts.append(attempt);
            const QString node = nodes() > 1 ? RunsText::tr(" for node %1").arg(rank) : QString();
            announce(QStringLiteral("launched"), RunsText::tr("Attempt %1: %2 on %3 (%4)%5.")
                                                     .arg(m_record.attempts.size()).arg(offer.type.name, offer.provider, launched->instanceId, node),
                     QJsonObject{{QStringLiteral("rank"), rank}});
            if (m_stopping) // stopped while it launched: released at once, not when it is up
                endRanks({{rank, QStringLiteral("stopped")}}, [this] { finishStoppedWhenIdle(); });
        },
        [self, this, rank](Result<workspace::ReadyInstance> ready) {
            if (!self || isFinal(m_record.state))
                return;
            if (!ready && m_stopping) {
                endRanks({{rank, QStringLiteral("stopped")}}, [this] { finishStoppedWhenIdle(); });
                return;
            }
            if (!ready) {
                machineLost({Lost{rank, QStringLiteral("unreachable"), ready.error().message}});
                return;
            }
            onReady(rank, ready->hostName);
        });
}

void ManagedRun::onReady(int rank, const QString &hostName)
{
    if (isFinal(m_record.state))
        return;
    RunAttempt *attempt = live(rank);
    const std::optional<SavedHost> host = m_core->hosts()->find(hostName);
    if (!attempt || !host) {
        machineLost({Lost{rank, QStringLiteral("unreachable"), RunsText::tr("The machine's host was not saved.")}});
        return;
    }
    attempt->hostName = hostName;
    save();
    if (m_stopping) {
        endRanks({{rank, QStringLiteral("stopped")}}, [this] { finishStoppedWhenIdle(); });
        return;
    }
    if (!m_secretsError.isEmpty()) {
        halt(false, m_secretsError);
        return;
    }
    const QList<int> ranks = liveRanks();
    const bool allUp = ranks.size() == nodes()
        && std::all_of(ranks.cbegin(), ranks.cend(), [this](int r) { return !live(r)->hostName.isEmpty(); });
    if (!allUp) {
        announce(QStringLiteral("node-up"), RunsText::tr("Node %1 (%2) is up; waiting for the other nodes.").arg(rank).arg(hostName),
                 QJsonObject{{QStringLiteral("rank"), rank}});
        return;
    }
    startAll();
}

void ManagedRun::startAll()
{
    if (m_record.state != RunState::Recovering)
        m_record.state = RunState::Syncing;
    cluster::Cluster group;
    group.name = m_spec.name;
    QList<SavedHost> hosts;
    for (int rank = 0; rank < nodes(); ++rank) {
        const RunAttempt *attempt = live(rank);
        const std::optional<SavedHost> host = attempt ? m_core->hosts()->find(attempt->hostName) : std::nullopt;
        if (!host) {
            machineLost({Lost{rank, QStringLiteral("unreachable"), RunsText::tr("The machine's host was not saved.")}});
            return;
        }
        hosts.append(*host);
        group.nodes.append(cluster::ClusterNode{host->name, attempt->provider, attempt->instance, host->target.host, {}, {}, attempt->pricePerHour});
    }
    if (nodes() > 1)
        ++m_record.starts; // every node is there: this is the next start
    m_remotes.clear();
    QStringList names;
    for (int rank = 0; rank < nodes(); ++rank) {
        std::shared_ptr<RemoteAttempt> remote = makeRemote(*live(rank), hosts.at(rank));
        if (nodes() > 1)
            remote->setNode(cluster::nodeEnvironment(group, rank, m_spec.resources.masterPort, m_spec.resources.count),
                            QLatin1String(kTorchrunPrelude));
        m_remotes.insert(rank, remote);
        names.append(hosts.at(rank).name);
    }
    const int number = startNumber();
    announce(QStringLiteral("syncing"), number > 1 ? RunsText::tr("Syncing the workdir and restoring the last checkpoint to %1.").arg(names.join(QStringLiteral(", ")))
                                                   : RunsText::tr("Syncing the workdir to %1.").arg(names.join(QStringLiteral(", "))));
    const QMap<int, std::shared_ptr<RemoteAttempt>> remotes = m_remotes;
    const CancelToken cancel = m_cancel;
    const QList<QPair<QString, QString>> secrets = m_secrets;
    // An earlier start of a multi-node run that a takeover found half-begun must not hold the port.
    const int previous = nodes() > 1 ? number - 1 : 0;
    background::run<std::pair<int, Result<void>>>(
        this,
        [remotes, cancel, secrets, previous] {
            // Every node synced and restored first, then every job started: rank 0 does not wait at
            // the rendezvous while the others still fetch the checkpoint.
            for (auto it = remotes.cbegin(); it != remotes.cend(); ++it) {
                if (previous > 0)
                    (void)it.value()->stopJob(previous);
                if (Result<void> prepared = it.value()->prepare(cancel); !prepared)
                    return std::make_pair(it.key(), prepared);
            }
            for (auto it = remotes.cbegin(); it != remotes.cend(); ++it) {
                if (Result<void> started = it.value()->startJob(cancel, secrets); !started)
                    return std::make_pair(it.key(), started);
            }
            return std::make_pair(-1, Result<void>{});
        },
        [this](std::pair<int, Result<void>> started) { onStarted(started.first, started.second); });
}

void ManagedRun::onStarted(int failedRank, const Result<void> &started)
{
    if (m_stopping || isFinal(m_record.state))
        return;
    if (!started) {
        // A machine that cannot be reached is lost; one that answers but cannot run the job failed.
        askProvider(Seen::JobEnded, failedRank, -1, started.error().message);
        return;
    }
    m_record.state = RunState::Running;
    m_unreachableSince = {};
    m_lastMirrorMs = m_options.clock->monotonicMs();
    QStringList names;
    for (const int rank : liveRanks())
        names.append(live(rank)->hostName);
    announce(QStringLiteral("running"), RunsText::tr("Attempt %1 running on %2.").arg(startNumber()).arg(names.join(QStringLiteral(", "))),
             QJsonObject{{QStringLiteral("resumed"), startNumber() > 1}, {QStringLiteral("start"), startNumber()}});
    m_tick.start();
}

} // namespace gantry::runs
