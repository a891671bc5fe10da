#pragma once

#include "core/sync/syncengine.h"
#include "core/sync/syncpairs.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace gantry {
class ConnectionManager;
class HostStore;
} // namespace gantry

// The remembered folder pairs and their "Keep in sync" watches for the whole app run: one
// SyncWatch per pair that has it on, started again after a restart by resume(). States and
// messages reach the owner thread through queued calls; nothing here blocks on the network.
// The application core owns the one instance, so a watch outlives the tab that started it.
namespace gantry::sync {

class SyncWatch;

class SyncService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SyncService)

public:
    // How to open sessions for a machine by name (TransferQueue::savedHostProvider in the app).
    using FactoryProvider = std::function<Result<transfer::SessionFactory>(const QString &host)>;

    enum class State
    {
        Off,      // remembered, not kept in sync
        Syncing,  // a sync of the watch is running
        Watching, // in sync; waiting for the next change
        Failed,   // the last sync failed (message); the watch goes on
    };
    struct PairStatus
    {
        State state = State::Off;
        QString message;
        QDateTime lastSynced;
    };

    SyncService(QString configDir, FactoryProvider provider, QObject *parent = nullptr);
    // Saved hosts with the connection manager's secrets and known_hosts (what the transfer queue
    // uses); without a host store every machine is refused with a message.
    static FactoryProvider savedHostProvider(HostStore *hosts, ConnectionManager *connections);
    ~SyncService() override;

    // Loads the pairs and starts the watches of those kept in sync; an error names the file.
    Result<void> resume();
    QList<SyncPair> pairs(const QString &host) const;
    // Adds or updates (same host and folders) the pair and saves the list.
    Result<void> remember(const SyncPair &pair);
    Result<void> forget(const SyncPair &pair);
    // Saves the choice and starts or stops the pair's watch.
    Result<void> setKeepInSync(const SyncPair &pair, bool on);
    PairStatus status(const SyncPair &pair) const;

    // Seam for tests: sessions from elsewhere (for watches started after this call).
    void setFactoryProvider(FactoryProvider provider) { m_provider = std::move(provider); }
    QString configDir() const { return m_configDir; }
    Result<transfer::SessionFactory> factoryFor(const QString &host) const { return m_provider(host); }
    SyncTarget targetFor(const SyncPair &pair) const;

signals:
    void pairsChanged(const QString &host);
    void statusChanged(const QString &host);
    // After each watch sync that succeeded (remoteDir: where it wrote on the host).
    void synced(const QString &host, const QString &localDir, const QString &remoteDir);

private:
    QString keyOf(const SyncPair &pair) const;
    Result<void> startWatch(const SyncPair &pair);
    void stopWatch(const SyncPair &pair);
    void reapFinished();
    void setStatus(const SyncPair &pair, State state, const QString &message = {}, bool force = false);
    void reloadPairs();
    Result<void> save();

    QString m_configDir;
    FactoryProvider m_provider;
    SyncPairStore m_store;
    QList<SyncPair> m_pairs;
    std::map<QString, std::unique_ptr<SyncWatch>> m_watches;
    // Watches turned off, still ending their sync in flight: destroyed once finished, so turning
    // Keep in sync off never waits on the GUI thread.
    std::vector<std::unique_ptr<SyncWatch>> m_retiring;
    QTimer m_reaper;
    QHash<QString, PairStatus> m_status;
};

} // namespace gantry::sync
