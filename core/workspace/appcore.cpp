// SPDX-License-Identifier: Apache-2.0
#include "core/workspace/appcore.h"

#include "core/cost/ledger.h"
#include "core/guard/machineguards.h"
#include "core/handoff/editsession.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/jobservice.h"
#include "core/monitor/monitorservice.h"
#include "core/providers/priceboard.h"
#include "core/providers/providerdescriptor.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "core/runs/runservice.h"
#include "core/storage/buckets.h"
#include "core/storage/copyjobs.h"
#include "core/sync/syncservice.h"
#include "core/transfer/remotefiles.h"
#include "core/transfer/transferqueue.h"
#include "core/tunnel/tunnelmanager.h"
#include "core/util/clock.h"
#include "core/verify/machinechecks.h"
#include "core/workspace/policylock.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/secretprefetch.h"
#include "core/workspace/workspace.h"

namespace gantry::workspace {

AppCore::AppCore(QString configDir, SecretStore *secrets, QObject *parent)
    : AppCore(std::move(configDir), secrets, Options{}, parent)
{
}

AppCore::AppCore(QString configDir, SecretStore *secrets, Options options, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
    , m_secrets(secrets)
    , m_options(std::move(options))
{
    m_hosts = new HostStore(m_configDir, this);
    m_connections = new ConnectionManager(m_hosts, secrets, this);
    const QString knownHosts = m_connections->knownHostsFile();

    if (m_options.accounts) {
        m_hub = new providers::ProviderHub(*m_options.accounts, m_options.providerIds, this);
    } else {
        providers::ProviderSettings settings;
        settings.configDir = m_configDir;
        settings.secrets = prefetchProviderKeys();
        m_hub = new providers::ProviderHub(settings, this);
    }
    m_prices = new providers::PriceBoard(m_hub, m_configDir, this);
    m_ledger = new cost::Ledger(cost::Ledger::defaultPath(m_configDir), Clock::system(), this);
    const auto savedHostSessions = transfer::TransferQueue::savedHostProvider(m_hosts, secrets, knownHosts);
    const QString transfersDir = m_options.transfersDir.isEmpty() ? m_configDir : m_options.transfersDir;
    m_transfers = new transfer::TransferQueue(transfersDir, savedHostSessions, this);
    m_remoteFiles = new transfer::RemoteFiles(savedHostSessions, this);
    // A host's address or user may have changed: no idle session to the old one is reused.
    connect(m_hosts, &HostStore::changed, m_remoteFiles, &transfer::RemoteFiles::closeIdle);
    m_edits = new handoff::EditSessions(m_remoteFiles, this);
    m_monitor = new monitor::MonitorService(secrets, knownHosts, Clock::system(), this);
    m_jobs = new jobs::JobService(m_hosts, secrets, knownHosts, this);
    m_tunnels = new tunnel::TunnelManager(this);
    m_checks = new verify::MachineChecks(m_configDir, this);
    m_guards = new guard::MachineGuards(m_configDir, this);
    m_sync = new sync::SyncService(m_configDir, sync::SyncService::savedHostProvider(m_hosts, m_connections), this);
    m_buckets = std::make_unique<storage::Buckets>(m_configDir, secrets);
    m_copies = new storage::CopyJobs(this);
    m_workspace = new Workspace(m_configDir, m_hub, m_ledger, m_hosts, this);
    m_results = new ResultsHome(m_configDir, m_hosts, m_connections, m_transfers, m_workspace);
    m_results->setCopiesRunning([this](const QString &host) { return m_copies->hasRunning(host); });
    m_workspace->setResultsHome(m_results);
    // A job is watched on every machine the monitor follows, so its end is announced.
    connect(m_monitor, &monitor::MonitorService::machineAdded, m_jobs, &jobs::JobService::watch);
    m_runs = new runs::RunService(this, this);
}

AppCore::~AppCore()
{
    // Copies use the buckets (a unique_ptr, gone before the QObject children): stopped first.
    for (const storage::CopyJob &job : m_copies->jobs())
        job.token.cancel();
    delete m_copies;
    m_copies = nullptr;
    delete m_runs; // the runs stop using the services below before those go
    // Before the connections whose closing they listen for.
    delete m_checks;
    delete m_guards;
}

void AppCore::open()
{
    if (Result<void> loaded = m_hosts->load(); !loaded)
        reportOpen(Store::Hosts, loaded.error().message);
    m_prices->loadCache();
    Result<void> opened = m_ledger->open();
    m_ledgerOpen = bool(opened);
    if (!opened)
        reportOpen(Store::Ledger, opened.error().message);
    if (!m_options.resumeWork)
        return;
    if (Result<void> restored = m_transfers->restore(); !restored)
        reportOpen(Store::Transfers, restored.error().message);
    if (Result<void> resumed = m_sync->resume(); !resumed)
        reportOpen(Store::SyncPairs, resumed.error().message);
}

PolicyRunner *AppCore::startPolicies()
{
    if (m_policies)
        return m_policies;
    m_policyLock = std::make_unique<PolicyLock>(m_configDir);
    m_policies = new PolicyRunner(m_workspace, m_monitor, m_policyLock.get(), this);
    // A machine is not idle while its data is still moving or a job of Gantry's runs there.
    m_policies->setTransfersPending([this](const QString &host) { return m_transfers->hasPendingTransfers(host) || m_copies->hasRunning(host); });
    m_policies->setJobsRunning([this](const QString &host) { return m_jobs->hasRunningJobs(host); });
    // The policy owner also takes over the managed runs nobody drives (a closed window, a killed CLI).
    m_runs->startAdopting(m_policyLock.get());
    return m_policies;
}

namespace {

QStringList providerKeyNames()
{
    QStringList keys;
    for (const QString &id : providers::knownProviderIds()) {
        if (providers::providerNeedsApiKey(id))
            keys.append(providers::apiKeySecretName(id));
    }
    return keys;
}

} // namespace

SecretStore *AppCore::prefetchProviderKeys()
{
    // The keychain is read on a worker: the window opens with the sandbox (and any key from the
    // environment), and the clouds whose keys the keychain holds join when it has answered.
    m_prefetch = new SecretPrefetch(m_secrets, this);
    connect(m_prefetch, &SecretPrefetch::ready, this, &AppCore::keysRead);
    m_prefetch->prefetch(providerKeyNames());
    return m_prefetch;
}

void AppCore::reloadProviders()
{
    if (!m_prefetch) { // the accounts were given: nothing to read again
        m_hub->reload();
        emit providersReloaded();
        return;
    }
    m_reloadWanted = true;
    if (!m_prefetch->isPending())
        startReload();
}

void AppCore::startReload()
{
    m_reloadWanted = false;
    m_reloading = true;
    m_prefetch->prefetch(providerKeyNames());
}

void AppCore::keysRead()
{
    if (m_prefetch->isPending())
        return; // the answer of an earlier read, queued before a newer one started
    if (m_reloading) {
        m_reloading = false;
        m_hub->reload(); // every key from memory: the worker has just read them
        emit providersReloaded();
    } else {
        addMissingProviders();
    }
    m_prefetch->release(); // later reads (a host's password) ask the keychain again
    if (m_reloadWanted) // asked for while these keys were read: they may predate the change
        startReload();
}

void AppCore::addMissingProviders()
{
    for (const QString &id : providers::configuredProviderIds(m_hub->settings())) {
        if (m_hub->provider(id))
            continue;
        Result<std::unique_ptr<providers::Provider>> created = providers::createProvider(id, m_hub->settings());
        if (created)
            m_hub->addProvider(std::move(*created));
        else
            report(Store::Providers, created.error().message);
    }
}

void AppCore::reportOpen(Store store, const QString &message)
{
    m_openProblems.append(message);
    report(store, message);
}

void AppCore::report(Store store, const QString &message)
{
    QMetaObject::invokeMethod(this, [this, store, message] { emit problem(store, message); }, Qt::QueuedConnection);
}

QStringList AppCore::whatTerminateEnds(const QString &provider, const QString &instanceId) const
{
    const QString host = m_workspace->hostNameFor(provider, instanceId);
    if (host.isEmpty())
        return {};
    QStringList running;
    for (const jobs::JobInfo &job : m_jobs->jobs(host)) {
        if (job.isActive())
            running << job.name;
    }
    QStringList synced;
    for (const sync::SyncPair &pair : m_sync->pairs(host)) {
        if (pair.keepInSync)
            synced << QStringLiteral("  %1 ↔ %2").arg(pair.localDir, pair.remoteDir);
    }
    QStringList lines;
    if (!running.isEmpty())
        lines << tr("Running jobs that end with it: %1.").arg(running.join(QStringLiteral(", ")));
    if (!synced.isEmpty())
        lines << tr("Folders kept in sync with it, which lose their machine:") + QLatin1Char('\n') + synced.join(QLatin1Char('\n'));
    return lines;
}

} // namespace gantry::workspace

