#pragma once

#include <QString>

namespace gantry::providers {

// What a stop does to an instance's disks, in the provider's own terms (the Stop question and
// the Instances view read these, never the provider's id). Untranslated in the descriptor
// (context "gantry::providers"); costModelFor() translates them.
struct StopTerms
{
    QString lost;             // what a stop loses on disk ("" when nothing is lost)
    QString kept;             // what a stop keeps, with %1 for its size in GB ("" when nothing)
    QString keptUnsized;      // the same without a size, when the listing does not give one
    bool mayNotRestart = false; // the GPU can be rented by someone else while stopped
};

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
    StopTerms stop;                       // what a stop keeps and loses (providers that can stop)
};

// Per provider id ("lambda", "runpod", "vast", "shadeform"; anything else: no storage charge).
// Vast prices disks per offer: its figure is a typical rate, and an offer's own storage_cost wins.
CostModel costModelFor(const QString &providerId);
// Dollars a day a stopped instance's disk costs: its own rate per GB-month (a marketplace offer's)
// when above 0, else the provider's stopped rate.
double stoppedStorageCostPerDay(const CostModel &model, int volumeGb, double ownPerGbMonth = 0);
// Dollars a day for volumeGb at the running or stopped storage rate.
double storageCostPerDay(const CostModel &model, int volumeGb, bool stopped);

} // namespace gantry::providers
