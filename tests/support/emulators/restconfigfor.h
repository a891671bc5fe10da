// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/restprovider.h"
#include "emulatorserver.h"

#include <QUrl>

namespace gantry::test {

// How a provider talks to an emulator in a test: production's retries and timeouts, scaled down so
// a fault costs milliseconds. Suites that count attempts or wait out a timeout set those fields.
struct EmulatorTiming
{
    QString key = QStringLiteral("test-key");
    int maxAttempts = 4;
    int baseDelayMs = 20;
    int maxDelayMs = 100;
    int maxRetryAfterMs = 60000;
    int timeoutMs = 5000;
};

// The fault suites: three attempts, a Retry-After up to 3 s honoured, a 3 s timeout.
inline EmulatorTiming faultTiming(const QString &key = QStringLiteral("test-key"))
{
    EmulatorTiming timing;
    timing.key = key;
    timing.maxAttempts = 3;
    timing.maxRetryAfterMs = 3000;
    timing.timeoutMs = 3000;
    return timing;
}

inline providers::RestConfig restConfigFor(const QString &url, const EmulatorTiming &timing = {})
{
    providers::RestConfig config;
    config.baseUrl = QUrl(url);
    config.apiKey = timing.key;
    config.retry.maxAttempts = timing.maxAttempts;
    config.retry.baseDelayMs = timing.baseDelayMs;
    config.retry.maxDelayMs = timing.maxDelayMs;
    config.retry.maxRetryAfterMs = timing.maxRetryAfterMs;
    config.timeoutMs = timing.timeoutMs;
    return config;
}

inline providers::RestConfig restConfigFor(const EmulatorServer &server, const EmulatorTiming &timing = {})
{
    return restConfigFor(server.baseUrl(), timing);
}

} // namespace gantry::test
