#include "core/cost/billing.h"
#include "core/cost/money.h"

#include <algorithm>

namespace gantry::cost {

BillingPolicy billingPolicyFor(const providers::ProviderInfo &provider)
{
    return BillingPolicy{std::max(1, provider.billingGranularitySeconds), 0};
}

qint64 billedSeconds(qint64 elapsedSeconds, const BillingPolicy &policy)
{
    if (elapsedSeconds <= 0)
        return 0;
    const qint64 step = std::max(1, policy.granularitySeconds);
    const qint64 rounded = (elapsedSeconds + step - 1) / step * step;
    return std::max<qint64>(rounded, policy.minimumSeconds);
}

double costFor(double pricePerHour, qint64 elapsedSeconds, const BillingPolicy &policy)
{
    return pricePerHour * double(billedSeconds(elapsedSeconds, policy)) / 3600.0;
}

QString formatUsd(double usd)
{
    return moneyText(usd, QStringLiteral("USD"));
}

} // namespace gantry::cost
