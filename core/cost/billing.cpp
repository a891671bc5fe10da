#include "cost/billing.h"

#include <algorithm>

namespace gantry::cost {

BillingPolicy billingPolicyFor(const QString &provider)
{
    if (provider == QLatin1String("runpod"))
        return BillingPolicy{1, 0}; // docs disagree (second vs minute); the pricing page says per second
    if (provider == QLatin1String("lambda") || provider == QLatin1String("sandbox"))
        return BillingPolicy{60, 0};
    return BillingPolicy{1, 0};     // saved hosts with an hourly price: a plain pro-rata meter
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
    if (usd > 0 && usd < 0.01)
        return QStringLiteral("$%1").arg(usd, 0, 'f', 4);
    return QStringLiteral("$%1").arg(usd, 0, 'f', 2);
}

} // namespace gantry::cost
