#include "core/providers/launchfailure.h"

#include <QStringList>

namespace gantry::providers {
namespace {

bool mentions(const QString &text, std::initializer_list<const char *> words)
{
    for (const char *word : words) {
        if (text.contains(QLatin1String(word), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace

LaunchFailure classifyLaunchFailure(const Error &error)
{
    const QString &text = error.message;
    if (error.code == ErrorCode::Timeout)
        return LaunchFailure::Transient;
    if (mentions(text, {"Rate limited"}))
        return LaunchFailure::RateLimited;
    if (mentions(text, {"capacity", "no longer any instances available", "no_such_ask", "no rentable"}))
        return LaunchFailure::Capacity;
    if (mentions(text, {"insufficient balance", "insufficient_credit", "add credit", "top up"}))
        return LaunchFailure::Balance;
    if (mentions(text, {"quota"}))
        return LaunchFailure::Quota;
    if (mentions(text, {"API key", "invalid-api-key", "account is inactive", "auth_error"}))
        return LaunchFailure::Auth;
    if (mentions(text, {"bad image", "image not found", "invalid image"}))
        return LaunchFailure::BadImage;
    if (error.code == ErrorCode::ConnectFailed || mentions(text, {"internal error", "try again shortly"}))
        return LaunchFailure::Transient;
    return LaunchFailure::Other;
}

QString launchFailureName(LaunchFailure failure)
{
    switch (failure) {
    case LaunchFailure::Capacity: return QStringLiteral("capacity");
    case LaunchFailure::Quota: return QStringLiteral("quota");
    case LaunchFailure::Auth: return QStringLiteral("auth");
    case LaunchFailure::Balance: return QStringLiteral("insufficient_balance");
    case LaunchFailure::BadImage: return QStringLiteral("bad_image");
    case LaunchFailure::RateLimited: return QStringLiteral("rate_limited");
    case LaunchFailure::Transient: return QStringLiteral("transient");
    case LaunchFailure::Other: break;
    }
    return QStringLiteral("other");
}

bool isRetryable(LaunchFailure failure)
{
    return failure == LaunchFailure::Capacity || failure == LaunchFailure::RateLimited || failure == LaunchFailure::Transient;
}

} // namespace gantry::providers
