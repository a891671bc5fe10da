#pragma once

#include "core/cost/ledger.h"

#include <QObject>
#include <QTimer>

namespace gantry::cost {

// Watches daily and monthly spending (compute, and the disks of stopped instances: whatever
// Ledger::spentBetween counts) against the budgets in the ledger and announces the 50/80/100 %
// thresholds once per period (remembered in the ledger, so a restart does not repeat them): when a
// check finds several crossed at once (spending already far over), only the highest is announced.
// Periods follow the local calendar of the injected clock.
class BudgetMonitor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BudgetMonitor)

public:
    explicit BudgetMonitor(Ledger *ledger, QObject *parent = nullptr);

    static QList<int> thresholds() { return {50, 80, 100}; }
    // Checks every intervalMs (0 stops); check() can also be called directly (tests, after changes).
    void setInterval(int intervalMs);
    void check();

    struct Status
    {
        QString period;     // "daily", "monthly"
        double limit = 0;   // 0: no budget
        double spent = 0;
        int percent() const { return limit > 0 ? int(spent * 100.0 / limit) : 0; }
    };
    Result<Status> status(const QString &period) const;
    // What a threshold is announced with (the GUI's notification, the watcher's line); billing is
    // billingNow()'s sentence, so the reader knows what to stop.
    static QString alertText(const QString &period, int threshold, double spent, double limit, const QString &billing = {});
    // The instances billing now, the dearest first, with their $/h ("Billing now: trainer (Lambda)
    // $3.29/h, …"); empty when none does or the ledger cannot be read.
    QString billingNow() const;

signals:
    void thresholdReached(const QString &period, int threshold, double spent, double limit);

private:
    QDateTime periodStart(const QString &period) const;

    Ledger *m_ledger;
    QTimer m_timer;
};

} // namespace gantry::cost
