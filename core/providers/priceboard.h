// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>

namespace gantry::providers {

class ProviderHub;

// Every provider's instance types with price and capacity, as the user last saw them: the snapshot
// on disk (<configDir>/cache/prices.json) at once, then a refresh that asks every provider of the
// hub, and the new snapshot written back off the owner thread (a write older than one already on
// disk is skipped). The application core owns one; the Prices panel is a view of it. Owner-thread
// only; provider answers arrive on it.
class PriceBoard final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PriceBoard)

public:
    // hub may be null (the table then holds the cache only).
    PriceBoard(ProviderHub *hub, QString configDir, QObject *parent = nullptr);
    ~PriceBoard() override;

    ProviderHub *hub() const { return m_hub; }
    QString configDir() const { return m_configDir; }

    // Reads the cached snapshot (a small file; missing or damaged is an empty table) and announces
    // each of its providers with typesListed().
    void loadCache();
    // Asks every provider; a refresh under way is not started twice.
    void refresh();
    bool isRefreshing() const { return m_pending > 0; }
    bool isWritingCache() const { return m_cacheWrites > 0; }

    QDateTime fetchedAt() const { return m_fetchedAt; } // UTC; invalid before any table
    QStringList errors() const { return m_errors; }     // the last refresh's, one sentence each
    QStringList providerIds() const { return m_order; } // in the order they first answered
    QList<InstanceType> types(const QString &provider) const { return m_types.value(provider); }
    QList<InstanceType> allTypes() const;

signals:
    // A provider's list, as listed (a marketplace's offers ungrouped): from the cache or a refresh.
    void typesListed(const QString &provider);
    void refreshStarted();
    // Every provider has answered (errors() says which failed); the snapshot is being written.
    void refreshed();
    // The snapshot could not be written: the table is current, only the next start shows an older one.
    void cacheWriteFailed(const QString &message);

private:
    void store(const QString &provider, const QList<InstanceType> &types);
    void finishOne();
    void writeCache();

    QPointer<ProviderHub> m_hub;
    QString m_configDir;
    QHash<QString, QList<InstanceType>> m_types;
    QStringList m_order;
    QDateTime m_fetchedAt;
    QStringList m_errors;
    int m_pending = 0;
    int m_cacheWrites = 0;
    quint64 m_cacheGeneration = 0;
    struct CacheOrder;
    std::shared_ptr<CacheOrder> m_cacheOrder;
};

} // namespace gantry::providers
