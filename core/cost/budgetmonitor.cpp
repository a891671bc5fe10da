#include "core/cost/budgetmonitor.h"

#include "core/cost/billing.h"
#include "core/providers/providerregistry.h"

#include <algorithm>

namespace gantry::cost {

BudgetMonitor::BudgetMonitor(Ledger *ledger, QObject *parent)
    : QObject(parent)
    , m_ledger(ledger)
{
    connect(&m_timer, &QTimer::timeout, this, &BudgetMonitor::check);
}

void BudgetMonitor::setInterval(int intervalMs)
{
    if (intervalMs <= 0) {
        m_timer.stop();
        return;
    }
    m_timer.start(intervalMs);
}

QDateTime BudgetMonitor::periodStart(const QString &period) const
{
    const QDateTime local = m_ledger->clock().now().toLocalTime();
    QDate day = local.date();
    if (period == QLatin1String("monthly"))
        day = QDate(day.year(), day.month(), 1);
    return QDateTime(day, QTime(0, 0), Qt::LocalTime);
}

Result<BudgetMonitor::Status> BudgetMonitor::status(const QString &period) const
{
    Status status;
    status.period = period;
    Result<double> limit = m_ledger->budget(period);
    if (!limit)
        return limit.error();
    status.limit = *limit;
    Result<double> spent = m_ledger->spentBetween(periodStart(period), m_ledger->clock().now().addSecs(1));
    if (!spent)
        return spent.error();
    status.spent = *spent;
    return status;
}

QString BudgetMonitor::alertText(const QString &period, int threshold, double spent, double limit, const QString &billing)
{
    const QString text = threshold >= 100
        ? tr("You have spent %1 of your %2 budget of %3. Stop or terminate instances to stop the bill growing.")
              .arg(formatUsd(spent), period, formatUsd(limit))
        : tr("%1 % of your %2 budget used (%3 of %4).").arg(threshold).arg(period, formatUsd(spent), formatUsd(limit));
    return billing.isEmpty() ? text : text + QLatin1Char(' ') + billing;
}

QString BudgetMonitor::billingNow() const
{
    Result<QList<LedgerEntry>> entries = m_ledger->entries(QDateTime());
    if (!entries)
        return {};
    QList<std::pair<double, QString>> billing; // $/h, "name (provider) $x/h"
    for (const LedgerEntry &entry : *entries) {
        const QString name = entry.name.isEmpty() ? entry.instanceId : entry.name;
        const QString where = providers::providerDisplayName(entry.provider);
        if (entry.isOpen() && entry.isRunning() && entry.pricePerHour > 0)
            billing.append({entry.pricePerHour, tr("%1 (%2) %3/h").arg(name, where, formatUsd(entry.pricePerHour))});
        else if (entry.isBillingStorage())
            billing.append({entry.storagePerHour, tr("%1 (%2, stopped disk) %3/h").arg(name, where, formatUsd(entry.storagePerHour))});
    }
    if (billing.isEmpty())
        return {};
    std::stable_sort(billing.begin(), billing.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    constexpr qsizetype kNamed = 5; // a notification has room for a few; the Cost tab lists them all
    QStringList named;
    for (qsizetype i = 0; i < std::min(kNamed, billing.size()); ++i)
        named.append(billing.at(i).second);
    if (billing.size() > kNamed)
        named.append(tr("%n more", nullptr, int(billing.size() - kNamed)));
    return tr("Billing now: %1.").arg(named.join(QStringLiteral(", ")));
}

void BudgetMonitor::check()
{
    for (const QString &period : {QStringLiteral("daily"), QStringLiteral("monthly")}) {
        Result<Status> now = status(period);
        if (!now || now->limit <= 0)
            continue;
        const QString key = period + QLatin1Char(':') + periodStart(period).date().toString(Qt::ISODate);
        int highestNew = 0; // every crossed threshold is marked; only the highest new one is said
        for (int threshold : thresholds()) {
            if (now->spent * 100.0 < now->limit * threshold)
                continue;
            Result<bool> first = m_ledger->markAlert(key, threshold);
            if (first && *first)
                highestNew = threshold;
        }
        if (highestNew > 0)
            emit thresholdReached(period, highestNew, now->spent, now->limit);
    }
}

} // namespace gantry::cost
