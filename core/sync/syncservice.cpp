#include "core/sync/syncservice.h"

#include "core/hosts/connectionmanager.h"
#include "core/sync/syncwatch.h"
#include "core/transfer/transferqueue.h"

namespace gantry::sync {

SyncService::SyncService(QString configDir, FactoryProvider provider, QObject *parent)
    : QObject(parent), m_configDir(std::move(configDir)), m_provider(std::move(provider)), m_store(m_configDir)
{
}

SyncService::FactoryProvider SyncService::savedHostProvider(HostStore *hosts, ConnectionManager *connections)
{
    if (!hosts) {
        return [](const QString &host) -> Result<transfer::SessionFactory> {
            return Error{ErrorCode::NotFound, tr("No saved host named %1; add it again to continue.").arg(host)};
        };
    }
    return transfer::TransferQueue::savedHostProvider(hosts, connections ? connections->secrets() : nullptr,
                                                      connections ? connections->knownHostsFile() : QString());
}

SyncService::~SyncService()
{
    m_watches.clear(); // each stops its thread before the sinks that point here go away
    m_retiring.clear();
}

void SyncService::reapFinished()
{
    std::erase_if(m_retiring, [](const std::unique_ptr<SyncWatch> &watch) { return watch->finished(); });
    if (m_retiring.empty())
        m_reaper.stop();
}

Result<void> SyncService::resume()
{
    auto loaded = m_store.load();
    if (!loaded) return loaded.error();
    m_pairs = *loaded;
    Result<void> outcome;
    for (const SyncPair &p : std::as_const(m_pairs)) {
        if (!p.keepInSync) continue;
        if (auto r = startWatch(p); !r) {
            setStatus(p, State::Failed, r.error().message, true);
            if (outcome) outcome = r.error();
        }
    }
    return outcome;
}

QList<SyncPair> SyncService::pairs(const QString &host) const
{
    QList<SyncPair> out;
    for (const SyncPair &p : m_pairs) {
        if (p.host == host) out.append(p);
    }
    return out;
}

Result<void> SyncService::remember(const SyncPair &pair)
{
    reloadPairs();
    auto it = std::find_if(m_pairs.begin(), m_pairs.end(), [&](const SyncPair &p) { return p.sameAs(pair); });
    if (it != m_pairs.end()) {
        *it = pair;
    } else {
        m_pairs.append(pair);
    }
    emit pairsChanged(pair.host);
    return save();
}

Result<void> SyncService::forget(const SyncPair &pair)
{
    reloadPairs();
    stopWatch(pair);
    m_pairs.removeIf([&](const SyncPair &p) { return p.sameAs(pair); });
    m_status.remove(keyOf(pair));
    emit pairsChanged(pair.host);
    return save();
}

Result<void> SyncService::setKeepInSync(const SyncPair &pair, bool on)
{
    SyncPair updated = pair;
    updated.keepInSync = on;
    if (auto r = remember(updated); !r) return r;
    if (!on) {
        stopWatch(updated);
        setStatus(updated, State::Off);
        return {};
    }
    if (m_watches.count(keyOf(updated))) return {};
    auto r = startWatch(updated);
    if (!r) setStatus(updated, State::Failed, r.error().message, true);
    return r;
}

SyncService::PairStatus SyncService::status(const SyncPair &pair) const
{
    return m_status.value(keyOf(pair));
}

SyncTarget SyncService::targetFor(const SyncPair &pair) const
{
    return SyncTarget{pair.host, pair.localDir, pair.remoteDir, m_configDir};
}

QString SyncService::keyOf(const SyncPair &pair) const
{
    return pair.host + QLatin1Char('\n') + pair.localDir + QLatin1Char('\n') + pair.remoteDir;
}

Result<void> SyncService::startWatch(const SyncPair &pair)
{
    auto factory = m_provider(pair.host);
    if (!factory) return factory.error();
    SyncOptions options;
    options.deleteGone = pair.deleteGone;
    // The sinks run on the watch's thread; the watch is stopped (joined) before this object goes.
    const auto sink = [this, pair](const SyncEvent &e) {
        if (e.kind != SyncEvent::Scan) return;
        QMetaObject::invokeMethod(this, [this, pair] { setStatus(pair, State::Syncing); }, Qt::QueuedConnection);
    };
    const auto onError = [this, pair](const Error &e) {
        QMetaObject::invokeMethod(this, [this, pair, message = e.message] { setStatus(pair, State::Failed, message); },
                                  Qt::QueuedConnection);
    };
    auto watch = std::make_unique<SyncWatch>(*factory, targetFor(pair), options, sink, onError);
    connect(watch.get(), &SyncWatch::synced, this, [this, pair] {
        m_status[keyOf(pair)].lastSynced = QDateTime::currentDateTime();
        setStatus(pair, State::Watching);
        emit synced(pair.host, pair.localDir, pair.remoteDir);
    });
    if (auto r = watch->start(); !r) return r;
    m_watches[keyOf(pair)] = std::move(watch);
    setStatus(pair, State::Syncing);
    return {};
}

void SyncService::stopWatch(const SyncPair &pair)
{
    const auto it = m_watches.find(keyOf(pair));
    if (it == m_watches.end())
        return;
    it->second->requestStop();
    m_retiring.push_back(std::move(it->second));
    m_watches.erase(it);
    if (!m_reaper.isActive()) {
        m_reaper.setInterval(100);
        connect(&m_reaper, &QTimer::timeout, this, &SyncService::reapFinished, Qt::UniqueConnection);
        m_reaper.start();
    }
}

void SyncService::setStatus(const SyncPair &pair, State state, const QString &message, bool force)
{
    PairStatus &s = m_status[keyOf(pair)];
    // A stopped watch may still have a queued update on its way: it must not turn the pair back on.
    if (!force && state != State::Off && !m_watches.count(keyOf(pair))) return;
    s.state = state;
    s.message = message;
    emit statusChanged(pair.host);
}

void SyncService::reloadPairs()
{
    // `gantry-cli sync --forget` may have changed the file since: start from it, so saving this
    // change does not bring a forgotten pair back. An unreadable file keeps the list in memory.
    if (auto fresh = m_store.load(); fresh)
        m_pairs = *fresh;
}

Result<void> SyncService::save()
{
    return m_store.save(m_pairs);
}

} // namespace gantry::sync
