#pragma once

#include "core/util/result.h"

#include <QString>

namespace gantry::providers {

// What went wrong with a launch, read from the provider's error (each provider's httpError()
// words these the same way), so a watcher knows whether to try the next type, wait, or stop.
enum class LaunchFailure
{
    Capacity,      // the type or offer is gone: try another, or wait
    Quota,         // an account limit: the user must act
    Auth,          // the API key or account
    Balance,       // not enough credit
    BadImage,      // the image cannot be used
    RateLimited,   // slow down and retry
    Transient,     // a timeout or a 5xx: retry later
    Other,
};

LaunchFailure classifyLaunchFailure(const Error &error);
QString launchFailureName(LaunchFailure failure);   // stable: "capacity", "quota", …
// Worth another try later without the user doing anything.
bool isRetryable(LaunchFailure failure);

} // namespace gantry::providers
