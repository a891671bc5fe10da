// The ledger's storage periods: what the disk of a stopped instance bills until it is started or
// terminated, and the sums budgets and totals take over compute and storage alike.
#include "core/cost/ledger.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace gantry::cost {
namespace {

// What volumeGb costs an hour stopped: the same rate as the Instances panel's "per day" and the
// storage reminder (providers::storageCostPerDay), so the three never disagree.
double stoppedStoragePerHour(const providers::CostModel &model, int volumeGb)
{
    return providers::storageCostPerDay(model, volumeGb, true) / 24.0;
}

QDateTime fromMs(const QVariant &value)
{
    return value.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

} // namespace

void Ledger::setCostModel(const QString &provider, const providers::CostModel &model)
{
    m_costModels.insert(provider, model);
}

providers::CostModel Ledger::costModel(const QString &provider) const
{
    return m_costModels.contains(provider) ? m_costModels.value(provider) : providers::costModelFor(provider);
}

Result<void> Ledger::openStorage(const LedgerEntry &stopped, qint64 atMs)
{
    const providers::CostModel model = costModel(stopped.provider);
    const double perHour = stoppedStoragePerHour(model, stopped.volumeGb);
    if (perHour <= 0)
        return {}; // nothing bills while stopped (Lambda cannot stop; a hand-added host has no disk price)
    // INSERT OR IGNORE and NOT EXISTS: a stop seen twice (the policy, then a reconcile) is one period.
    return exec(QStringLiteral("INSERT OR IGNORE INTO storage_periods(instance_row, started_at, price_per_hour, volume_gb, "
                               "granularity, currency) SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM storage_periods "
                               "WHERE instance_row = ? AND ended_at IS NULL)"),
                {stopped.row, atMs, perHour, stopped.volumeGb, billingPolicy(stopped.provider).granularitySeconds,
                 model.currency.isEmpty() ? QStringLiteral("USD") : model.currency, stopped.row});
}

Result<void> Ledger::closeStorage(qint64 row, qint64 atMs)
{
    return exec(QStringLiteral("UPDATE storage_periods SET ended_at = MAX(started_at, ?) WHERE instance_row = ? AND ended_at IS NULL"),
                {atMs, row});
}

// Called inside migrate()'s transaction, before billing policies are known: the increment is the
// one the row was written with, the rate the provider's documented one.
Result<void> Ledger::backfillStorage()
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    if (!query.exec(QStringLiteral("SELECT id, provider, volume_gb, stopped_at, granularity FROM instances "
                                   "WHERE state = 'stopped' AND terminated_at IS NULL AND stopped_at IS NOT NULL")))
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    while (query.next()) {
        const providers::CostModel model = providers::costModelFor(query.value(1).toString());
        const double perHour = stoppedStoragePerHour(model, query.value(2).toInt());
        if (perHour <= 0)
            continue;
        if (Result<void> added = exec(QStringLiteral("INSERT OR IGNORE INTO storage_periods(instance_row, started_at, price_per_hour, "
                                                     "volume_gb, granularity, currency) VALUES(?, ?, ?, ?, ?, ?)"),
                                      {query.value(0), query.value(3), perHour, query.value(2), std::max(1, query.value(4).toInt()),
                                       model.currency.isEmpty() ? QStringLiteral("USD") : model.currency});
            !added)
            return added;
    }
    return {};
}

void Ledger::fillStorage(LedgerEntry &entry) const
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT started_at, ended_at, price_per_hour, granularity, currency FROM storage_periods "
                                 "WHERE instance_row = ? ORDER BY started_at"));
    query.addBindValue(entry.row);
    query.exec();
    entry.storageSeconds = 0;
    entry.storageCost = 0;
    entry.storageCurrency = entry.currency; // until a storage period says otherwise
    while (query.next()) {
        const qint64 start = query.value(0).toLongLong();
        const qint64 end = query.value(1).isNull() ? now : query.value(1).toLongLong();
        const BillingPolicy policy{std::max(1, query.value(3).toInt()), 0};
        const qint64 elapsed = std::max<qint64>(0, end - start) / 1000;
        entry.storagePerHour = query.value(2).toDouble();
        entry.storageSeconds += billedSeconds(elapsed, policy);
        entry.storageCost += costFor(entry.storagePerHour, elapsed, policy);
        entry.storageCurrency = query.value(4).toString();
    }
}

Result<QList<StoragePeriod>> Ledger::storagePeriods(const QDateTime &since) const
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral(
        "SELECT i.provider, i.instance_id, i.name, s.started_at, s.ended_at, s.price_per_hour, s.volume_gb, s.granularity, "
        "s.currency FROM storage_periods s JOIN instances i ON i.id = s.instance_row "
        "WHERE i.terminated_at IS NULL OR i.terminated_at >= ? ORDER BY s.started_at, s.id"));
    query.addBindValue(since.isValid() ? since.toMSecsSinceEpoch() : qint64(0));
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    QList<StoragePeriod> periods;
    while (query.next()) {
        StoragePeriod period;
        period.provider = query.value(0).toString();
        period.instanceId = query.value(1).toString();
        period.name = query.value(2).toString();
        period.startedAt = fromMs(query.value(3));
        period.endedAt = fromMs(query.value(4));
        period.pricePerHour = query.value(5).toDouble();
        period.volumeGb = query.value(6).toInt();
        period.billingIncrementSeconds = std::max(1, query.value(7).toInt());
        period.currency = query.value(8).toString();
        const qint64 end = period.isOpen() ? now : period.endedAt.toMSecsSinceEpoch();
        const qint64 elapsed = std::max<qint64>(0, end - period.startedAt.toMSecsSinceEpoch()) / 1000;
        const BillingPolicy policy{period.billingIncrementSeconds, 0};
        period.billedSeconds = billedSeconds(elapsed, policy);
        period.cost = costFor(period.pricePerHour, elapsed, policy);
        periods.append(period);
    }
    return periods;
}

// What intervals (compute, at the instance's price) or storage_periods (at the period's rate)
// billed in `currency` inside [from, to).
Result<double> Ledger::sumBetween(const QString &table, const QDateTime &from, const QDateTime &to, const QString &currency) const
{
    const bool storage = table == QLatin1String("storage_periods");
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(storage ? QStringLiteral("SELECT v.price_per_hour, v.started_at, v.ended_at, v.granularity FROM storage_periods v "
                                           "WHERE v.started_at < ? AND (v.ended_at IS NULL OR v.ended_at > ?) AND v.currency = ?")
                          : QStringLiteral("SELECT i.price_per_hour, v.started_at, v.ended_at, i.granularity FROM intervals v "
                                           "JOIN instances i ON i.id = v.instance_row WHERE v.started_at < ? AND "
                                           "(v.ended_at IS NULL OR v.ended_at > ?) AND i.currency = ?"));
    query.addBindValue(to.toMSecsSinceEpoch());
    query.addBindValue(from.toMSecsSinceEpoch());
    query.addBindValue(currency);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    double total = 0;
    while (query.next()) {
        const qint64 start = std::max(query.value(1).toLongLong(), from.toMSecsSinceEpoch());
        const qint64 end = std::min(query.value(2).isNull() ? now : query.value(2).toLongLong(), to.toMSecsSinceEpoch());
        // Billed as the provider bills (per started minute on Lambda), as Ledger::fill() does: a
        // pro-rata sum here said $0.09 where the row said $0.10 for the same instance.
        const BillingPolicy policy{std::max(1, query.value(3).toInt()), 0};
        if (end > start)
            total += costFor(query.value(0).toDouble(), (end - start) / 1000, policy);
    }
    return total;
}

} // namespace gantry::cost
