#include "core/verify/verdict.h"

#include <algorithm>

namespace gantry::verify {

QString verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass: return QStringLiteral("pass");
    case Verdict::Skip: return QStringLiteral("skip");
    case Verdict::Warn: return QStringLiteral("warn");
    case Verdict::Fail: return QStringLiteral("fail");
    case Verdict::Error: return QStringLiteral("error");
    }
    return QStringLiteral("error");
}

std::optional<Verdict> verdictFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1StringView("pass") || n == QLatin1StringView("ok"))
        return Verdict::Pass;
    if (n == QLatin1StringView("skip"))
        return Verdict::Skip;
    if (n == QLatin1StringView("warn"))
        return Verdict::Warn;
    if (n == QLatin1StringView("fail"))
        return Verdict::Fail;
    if (n == QLatin1StringView("error"))
        return Verdict::Error;
    return std::nullopt;
}

Verdict worst(Verdict a, Verdict b)
{
    return std::max(a, b);
}

std::optional<Thresholds> thresholdsFor(const QString &testId)
{
    if (testId == QLatin1StringView("device_bandwidth"))
        return Thresholds{0.80, 0.65};
    if (testId == QLatin1StringView("fp32_fma"))
        return Thresholds{0.85, 0.70};
    if (testId == QLatin1StringView("tensor_bf16") || testId == QLatin1StringView("tensor_fp16"))
        return Thresholds{0.60, 0.40};
    if (testId == QLatin1StringView("host_device_bandwidth"))
        return Thresholds{0.70, 0.50};
    return std::nullopt;
}

Verdict verdictForRatio(double ratio, Thresholds thresholds)
{
    if (ratio >= thresholds.pass)
        return Verdict::Pass;
    if (ratio >= thresholds.warn)
        return Verdict::Warn;
    return Verdict::Fail;
}

} // namespace gantry::verify
