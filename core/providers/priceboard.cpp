// SPDX-License-Identifier: Apache-2.0
#include "core/providers/priceboard.h"

#include "core/providers/pricecache.h"
#include "core/providers/providerhub.h"
#include "core/util/background.h"

#include <mutex>

namespace gantry::providers {

// Cache writes run on the background pool; the newest generation on disk wins.
struct PriceBoard::CacheOrder
{
    std::mutex mutex;
    quint64 written = 0;
};

PriceBoard::PriceBoard(ProviderHub *hub, QString configDir, QObject *parent)
    : QObject(parent)
    , m_hub(hub)
    , m_configDir(std::move(configDir))
    , m_cacheOrder(std::make_shared<CacheOrder>())
{
}

PriceBoard::~PriceBoard() = default;

void PriceBoard::loadCache()
{
    const PriceSnapshot cached = loadPriceCache(priceCachePath(m_configDir));
    if (!cached.fetchedAt.isValid())
        return;
    QHash<QString, QList<InstanceType>> byProvider;
    QStringList order;
    for (const InstanceType &type : cached.types) {
        if (!byProvider.contains(type.provider))
            order.append(type.provider);
        byProvider[type.provider].append(type);
    }
    m_fetchedAt = cached.fetchedAt;
    for (const QString &id : std::as_const(order))
        store(id, byProvider.value(id));
}

QList<InstanceType> PriceBoard::allTypes() const
{
    QList<InstanceType> all;
    for (const QString &id : m_order)
        all.append(m_types.value(id));
    return all;
}

void PriceBoard::refresh()
{
    if (!m_hub || m_pending > 0)
        return;
    const QStringList ids = m_hub->ids();
    m_errors = m_hub->errors();
    m_pending = int(ids.size()) + 1; // one for the loop below, so an answer given at once cannot finish early
    emit refreshStarted();
    QPointer<PriceBoard> self(this);
    for (const QString &id : ids) {
        m_hub->provider(id)->listInstanceTypes([self, id](Result<QList<InstanceType>> types) {
            if (!self)
                return;
            if (types)
                self->store(id, *types);
            else
                self->m_errors.append(types.error().message);
            self->finishOne();
        });
    }
    finishOne();
}

void PriceBoard::store(const QString &provider, const QList<InstanceType> &types)
{
    if (!m_types.contains(provider))
        m_order.append(provider);
    m_types.insert(provider, types);
    emit typesListed(provider);
}

void PriceBoard::finishOne()
{
    if (--m_pending > 0)
        return;
    m_fetchedAt = QDateTime::currentDateTimeUtc();
    writeCache();
    emit refreshed();
}

void PriceBoard::writeCache()
{
    // Serialising 1 000 offers takes tens of milliseconds: written off the owner thread, newest last.
    ++m_cacheWrites;
    background::run<Result<void>>(this, [path = priceCachePath(m_configDir), snapshot = PriceSnapshot{allTypes(), m_fetchedAt},
                                         order = m_cacheOrder, generation = ++m_cacheGeneration](const CancelToken &) -> Result<void> {
        std::lock_guard lock(order->mutex);
        if (generation < order->written)
            return {}; // a newer snapshot is on disk already
        order->written = generation;
        return savePriceCache(path, snapshot);
    }, [this](Result<void> saved) {
        --m_cacheWrites;
        if (!saved)
            emit cacheWriteFailed(saved.error().message);
    });
}

} // namespace gantry::providers
