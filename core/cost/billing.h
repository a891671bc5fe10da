#pragma once

#include <QString>
#include <QtGlobal>

namespace gantry::cost {

// How a provider rounds running time: Lambda bills per started minute, RunPod per second.
struct BillingPolicy
{
    int granularitySeconds = 60;
    int minimumSeconds = 0;
};

BillingPolicy billingPolicyFor(const QString &provider);
// Elapsed time rounded up to the policy's increment (0 stays 0).
qint64 billedSeconds(qint64 elapsedSeconds, const BillingPolicy &policy);
double costFor(double pricePerHour, qint64 elapsedSeconds, const BillingPolicy &policy);
// "$1.23" (or "$0.004" below a cent so small meters still move).
QString formatUsd(double usd);

} // namespace gantry::cost
