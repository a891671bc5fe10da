// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providerregistry.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace gantry {
class ConnectionManager;
class HostStore;
class SecretStore;
namespace cost { class Ledger; }
namespace handoff { class EditSessions; }
namespace jobs { class JobService; }
namespace monitor { class MonitorService; }
namespace providers { class PriceBoard; class ProviderHub; }
namespace runs { class RunService; }
namespace storage { class Buckets; class CopyJobs; }
namespace sync { class SyncService; }
namespace transfer { class RemoteFiles; class TransferQueue; }
namespace tunnel { class TunnelManager; }
namespace verify { class MachineChecks; }
namespace guard { class MachineGuards; }
} // namespace gantry

namespace gantry::workspace {

class PolicyLock;
class PolicyRunner;
class ResultsHome;
class SecretPrefetch;
class Workspace;

// Gantry's application core, after qBittorrent's BitTorrent::Session: created before any window,
// it owns every store and service of a run — the saved hosts and their connections, the providers
// and their price table, the cost ledger, the transfer queue, the sync pairs and their watches, the monitors, jobs,
// tunnels, the results home and the workspace whose operations both front ends drive. Windows,
// panels and tabs are views over it: they get what they show from here and never make a second
// store of their own, so a watch or a transfer outlives the tab that started it and the GUI and
// gantry-cli meet the same rules. Owner-thread only (the GUI thread in the app).
class AppCore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AppCore)

public:
    // The stores whose files open() reads; a problem names one of them.
    enum class Store
    {
        Hosts,
        Ledger,
        Transfers,
        SyncPairs,
        Providers,
    };
    Q_ENUM(Store)

    // What a front end changes. The window takes the defaults; gantry-cli makes one core per command
    // with the accounts it has already resolved and without resuming the window's background work.
    struct Options
    {
        // The accounts to act on, keys and endpoints included, and the clouds a command names:
        // these are created at once and no key is read later. Unset: every configured cloud,
        // its key read on a worker.
        std::optional<providers::ProviderSettings> accounts;
        QStringList providerIds;
        // Where the transfer queue is kept (the config folder when empty): the CLI keeps its own so it
        // never rewrites the window's queue.
        QString transfersDir;
        // open() restores the queued transfers and resumes the sync watches (the window's work).
        bool resumeWork = true;
    };

    // Everything is created here; open() reads the files. The providers' keys are asked for at
    // once, on a worker (SecretPrefetch), and each cloud joins the hub when its key is in: nothing
    // waits for the keychain. `secrets` is the desktop's store (keychain, the opted-in file or the
    // environment); it must outlive the core.
    AppCore(QString configDir, SecretStore *secrets, QObject *parent = nullptr);
    AppCore(QString configDir, SecretStore *secrets, Options options, QObject *parent = nullptr);
    ~AppCore() override;

    // Loads the saved hosts and the cached price table, opens the ledger, restores the transfer
    // queue and resumes the sync watches. What cannot be read is announced by problem() once the caller's event loop runs (so a
    // window made after open() still hears it); the rest opens regardless.
    void open();
    // What open() could not read (each message names the file and the next step), for a front end
    // that reports before any event loop runs; problem() announces the same.
    QStringList openProblems() const { return m_openProblems; }
    // open() opened the ledger: costs are recorded.
    bool ledgerOpen() const { return m_ledgerOpen; }
    // The idle and budget policies (PolicyRunner), run by one Gantry process at a time
    // (PolicyLock): a second window or watcher defers to the holder.
    PolicyRunner *startPolicies();
    // The accounts changed (a key or an endpoint in Settings): the keys are read again on a worker
    // and the hub rebuilt from them; providersReloaded() follows. Never reads the keychain on the
    // caller's thread, and a reload asked for while keys are still being read runs after them.
    void reloadProviders();

    QString configDir() const { return m_configDir; }
    SecretStore *secrets() const { return m_secrets; }
    HostStore *hosts() const { return m_hosts; }
    ConnectionManager *connections() const { return m_connections; }
    providers::ProviderHub *providers() const { return m_hub; }
    providers::PriceBoard *prices() const { return m_prices; }
    cost::Ledger *ledger() const { return m_ledger; }
    transfer::TransferQueue *transfers() const { return m_transfers; }
    // The Files tab's operations on a machine's files, each on a session of its own.
    transfer::RemoteFiles *remoteFiles() const { return m_remoteFiles; }
    // Remote files open in a local editor, uploaded after each save (they outlive the Files tab).
    handoff::EditSessions *edits() const { return m_edits; }
    monitor::MonitorService *monitor() const { return m_monitor; }
    jobs::JobService *jobs() const { return m_jobs; }
    tunnel::TunnelManager *tunnels() const { return m_tunnels; }
    // Verify, Doctor and the acceptance test of each machine: they belong to the machine, not to
    // the tab that started them.
    verify::MachineChecks *checks() const { return m_checks; }
    // The idle guards' Install, Remove and Check of each machine, likewise.
    guard::MachineGuards *guards() const { return m_guards; }
    sync::SyncService *syncPairs() const { return m_sync; }
    // The configured S3-compatible buckets (storage.json, their keys in the secret store): add,
    // list, remove and clients. Its calls block on the network and the keychain: run them on
    // background::run, never on the GUI thread.
    storage::Buckets *buckets() const { return m_buckets.get(); }
    // Copies through a bucket or between machines (the Storage panel starts them, the Transfers queue shows them).
    storage::CopyJobs *copies() const { return m_copies; }
    ResultsHome *resultsHome() const { return m_results; }
    // The managed runs this process drives, and the book of every run in the config folder.
    runs::RunService *runs() const { return m_runs; }
    Workspace *workspace() const { return m_workspace; }
    PolicyRunner *policies() const { return m_policies; }
    PolicyLock *policyLock() const { return m_policyLock.get(); }
    // What terminating the instance also ends, one line each for its Terminate question: the
    // running jobs Gantry knows on its machine and the folders kept in sync with it ("" none).
    QStringList whatTerminateEnds(const QString &provider, const QString &instanceId) const;

signals:
    // A store could not be read or a provider not created; message names the file or the cloud
    // and the next step. Queued: emitted from the event loop, never from inside open().
    void problem(gantry::workspace::AppCore::Store store, const QString &message);
    // The hub was rebuilt after reloadProviders() (its errors() say which accounts failed).
    void providersReloaded();

private:
    SecretStore *prefetchProviderKeys();
    void keysRead();
    void addMissingProviders();
    void startReload();
    void report(Store store, const QString &message);
    void reportOpen(Store store, const QString &message);

    QString m_configDir;
    SecretStore *m_secrets;
    Options m_options;
    QStringList m_openProblems;
    bool m_ledgerOpen = false;
    SecretPrefetch *m_prefetch = nullptr;
    bool m_reloadWanted = false; // reloadProviders() was called while keys were being read
    bool m_reloading = false;    // the keys being read are for a reload
    HostStore *m_hosts = nullptr;
    ConnectionManager *m_connections = nullptr;
    providers::ProviderHub *m_hub = nullptr;
    providers::PriceBoard *m_prices = nullptr;
    cost::Ledger *m_ledger = nullptr;
    transfer::TransferQueue *m_transfers = nullptr;
    storage::CopyJobs *m_copies = nullptr;
    transfer::RemoteFiles *m_remoteFiles = nullptr;
    handoff::EditSessions *m_edits = nullptr;
    monitor::MonitorService *m_monitor = nullptr;
    jobs::JobService *m_jobs = nullptr;
    tunnel::TunnelManager *m_tunnels = nullptr;
    verify::MachineChecks *m_checks = nullptr;
    guard::MachineGuards *m_guards = nullptr;
    sync::SyncService *m_sync = nullptr;
    ResultsHome *m_results = nullptr;
    Workspace *m_workspace = nullptr;
    std::unique_ptr<PolicyLock> m_policyLock;
    std::unique_ptr<storage::Buckets> m_buckets;
    PolicyRunner *m_policies = nullptr;
    runs::RunService *m_runs = nullptr;
};

} // namespace gantry::workspace
