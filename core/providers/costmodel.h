#pragma once

#include <QString>

namespace gantry::providers {

// What a provider charges besides the hourly compute price of a type, so a launch can estimate
// compute + storage and a stopped instance can say what it still costs per day.
struct CostModel
{
    double storagePerGbMonthRunning = 0;  // disk beyond what the hourly price includes (0: included)
    double storagePerGbMonthStopped = 0;  // disk while stopped (0: nothing, or no stop at all)
    bool interruptible = false;           // bids or spot instances exist (they may be stopped or reclaimed)
    int billingIncrementSeconds = 60;
    QString currency = QStringLiteral("USD");
    QString storageNote;                  // one sentence for the UI
};

// Per provider id ("lambda", "runpod", "vast", "shadeform"; anything else: no storage charge).
// Vast prices disks per offer: its figure is a typical rate, and an offer's own storage_cost wins.
CostModel costModelFor(const QString &providerId);
// Dollars a day for volumeGb at the running or stopped storage rate.
double storageCostPerDay(const CostModel &model, int volumeGb, bool stopped);

} // namespace gantry::providers
