#pragma once

#include "core/providers/providertypes.h"

#include <QString>
#include <QtGlobal>

namespace gantry::cost {

// How a provider rounds running time (its ProviderInfo says: Lambda per started minute, RunPod per
// second). Hosts without a provider get a plain pro-rata meter.
struct BillingPolicy
{
    int granularitySeconds = 60;
    int minimumSeconds = 0;
};

BillingPolicy billingPolicyFor(const providers::ProviderInfo &provider);
// Elapsed time rounded up to the policy's increment (0 stays 0).
qint64 billedSeconds(qint64 elapsedSeconds, const BillingPolicy &policy);
double costFor(double pricePerHour, qint64 elapsedSeconds, const BillingPolicy &policy);
// "$1.23" (or "$0.004" below a cent so small meters still move).
QString formatUsd(double usd);

} // namespace gantry::cost
