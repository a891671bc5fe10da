// SPDX-License-Identifier: Apache-2.0
// The ledger's volumes: a provider volume bills its $/GB-month for as long as it exists, whether an
// instance uses it or not, so budgets and totals count it from creation (or first sight) to delete.
#include "core/cost/ledger.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <limits>

namespace gantry::cost {
namespace {

// Hours in an average month (365 × 24 / 12): $/GB-month to $/hour.
constexpr double kHoursPerMonth = 730.0;

QDateTime fromMs(const QVariant &value)
{
    return value.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

double costOver(double perHour, qint64 fromMs, qint64 toMs)
{
    return toMs > fromMs ? perHour * double(toMs - fromMs) / 3600000.0 : 0.0;
}

} // namespace

Result<void> Ledger::recordVolume(const providers::Filesystem &volume)
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT id FROM volumes WHERE provider = ? AND volume_id = ? AND deleted_at IS NULL"));
    query.addBindValue(volume.provider);
    query.addBindValue(volume.id);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    if (query.next())
        return {}; // already billing
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    // A volume Gantry did not create bills from when the provider says it was made, if it says.
    const qint64 since = volume.createdAt.isValid() ? std::min(now, volume.createdAt.toMSecsSinceEpoch()) : now;
    const double perHour = volume.pricePerMonth() / kHoursPerMonth;
    Result<void> done = exec(QStringLiteral("INSERT INTO volumes(provider, volume_id, name, region, size_gb, price_per_hour, currency, "
                                            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                             {volume.provider, volume.id, volume.name, volume.region, volume.billedGb(), perHour,
                              costModel(volume.provider).currency, since});
    if (done)
        emit changed();
    return done;
}

Result<void> Ledger::recordVolumeDeleted(const QString &provider, const QString &volumeId)
{
    Result<void> done = exec(QStringLiteral("UPDATE volumes SET deleted_at = ? WHERE provider = ? AND volume_id = ? AND deleted_at IS NULL"),
                             {m_clock.now().toMSecsSinceEpoch(), provider, volumeId});
    if (done)
        emit changed();
    return done;
}

qint64 Ledger::volumeDeletedAt(const QString &provider, const QString &volumeId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT MAX(deleted_at) FROM volumes WHERE provider = ? AND volume_id = ?"));
    query.addBindValue(provider);
    query.addBindValue(volumeId);
    return query.exec() && query.next() ? query.value(0).toLongLong() : 0;
}

Result<void> Ledger::reconcileVolumes(const QString &provider, const QList<providers::Filesystem> &live, const QDateTime &listedAt)
{
    Result<QList<VolumeEntry>> known = volumes(m_clock.now());
    if (!known)
        return known.error();
    const qint64 asked = listedAt.isValid() ? listedAt.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    return transact([&]() -> Result<void> {
        for (const VolumeEntry &entry : std::as_const(*known)) {
            const bool listed = std::any_of(live.cbegin(), live.cend(), [&](const providers::Filesystem &v) { return v.id == entry.volumeId; });
            // One created after the listing was asked for is not in it yet.
            if (entry.provider == provider && entry.isOpen() && !listed && entry.createdAt.toMSecsSinceEpoch() <= asked) {
                if (Result<void> closed = recordVolumeDeleted(provider, entry.volumeId); !closed)
                    return closed;
            }
        }
        for (const providers::Filesystem &volume : live) {
            // One deleted after the listing was asked for is still in it: it is gone, not new.
            if (listedAt.isValid() && volumeDeletedAt(provider, volume.id) > asked)
                continue;
            if (Result<void> opened = recordVolume(volume); !opened)
                return opened;
        }
        return {};
    });
}

Result<QList<VolumeEntry>> Ledger::volumes(const QDateTime &since) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT provider, volume_id, name, region, size_gb, price_per_hour, currency, created_at, deleted_at "
                                 "FROM volumes WHERE deleted_at IS NULL OR deleted_at >= ? ORDER BY created_at"));
    query.addBindValue(since.isValid() ? since.toMSecsSinceEpoch() : qint64(0));
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QList<VolumeEntry> list;
    while (query.next()) {
        VolumeEntry entry;
        entry.provider = query.value(0).toString();
        entry.volumeId = query.value(1).toString();
        entry.name = query.value(2).toString();
        entry.region = query.value(3).toString();
        entry.sizeGb = query.value(4).toDouble();
        entry.pricePerHour = query.value(5).toDouble();
        entry.currency = query.value(6).toString();
        entry.createdAt = fromMs(query.value(7));
        entry.deletedAt = fromMs(query.value(8));
        entry.cost = costOver(entry.pricePerHour, query.value(7).toLongLong(), query.value(8).isNull() ? now : query.value(8).toLongLong());
        list.append(entry);
    }
    return list;
}

Result<double> Ledger::volumesPerHourNow(const QString &currency) const
{
    Result<QList<VolumeEntry>> all = volumes(m_clock.now());
    if (!all)
        return all.error();
    double total = 0;
    for (const VolumeEntry &entry : std::as_const(*all))
        total += entry.isOpen() && entry.currency == currency ? entry.pricePerHour : 0;
    return total;
}

Result<double> Ledger::volumeCostBetween(const QDateTime &from, const QDateTime &to, const QString &currency) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT price_per_hour, created_at, deleted_at FROM volumes "
                                 "WHERE created_at < ? AND (deleted_at IS NULL OR deleted_at > ?) AND currency = ?"));
    query.addBindValue(to.toMSecsSinceEpoch());
    query.addBindValue(from.toMSecsSinceEpoch());
    query.addBindValue(currency);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    double total = 0;
    while (query.next()) {
        const qint64 start = std::max(query.value(1).toLongLong(), from.toMSecsSinceEpoch());
        const qint64 end = std::min(query.value(2).isNull() ? now : query.value(2).toLongLong(), to.toMSecsSinceEpoch());
        total += costOver(query.value(0).toDouble(), start, end);
    }
    return total;
}

} // namespace gantry::cost
