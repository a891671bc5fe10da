#include "core/cost/budgetmonitor.h"

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

QString BudgetMonitor::alertText(const QString &period, int threshold, double spent, double limit)
{
    return threshold >= 100
        ? tr("You have spent %1 of your %2 budget of %3. Stop or terminate instances to stop the bill growing.")
              .arg(formatUsd(spent), period, formatUsd(limit))
        : tr("%1 % of your %2 budget used (%3 of %4).").arg(threshold).arg(period, formatUsd(spent), formatUsd(limit));
}

void BudgetMonitor::check()
{
    for (const QString &period : {QStringLiteral("daily"), QStringLiteral("monthly")}) {
        Result<Status> now = status(period);
        if (!now || now->limit <= 0)
            continue;
        const QString key = period + QLatin1Char(':') + periodStart(period).date().toString(Qt::ISODate);
        for (int threshold : thresholds()) {
            if (now->spent * 100.0 < now->limit * threshold)
                continue;
            Result<bool> first = m_ledger->markAlert(key, threshold);
            if (first && *first)
                emit thresholdReached(period, threshold, now->spent, now->limit);
        }
    }
}

} // namespace gantry::cost
