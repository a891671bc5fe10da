#pragma once

#include "core/providers/provider.h"

#include <QPointer>

namespace gantry::providers {

struct LaunchOutcome
{
    QString id;
    bool adopted = false;   // the launch's answer was lost; this instance was found by its name
    QString note;           // for the user when adopted
};

// A launch that never loses a billing instance. Every launch carries a unique name (Gantry makes
// one when the user gave none). When the answer is lost after the request was sent (a timeout,
// a 5xx), the provider may have created the instance anyway: the attempt looks it up by that name
// a few times and adopts it, or says that none was found, so nothing bills unseen.
class LaunchAttempt final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LaunchAttempt)

public:
    LaunchAttempt(Provider *provider, LaunchRequest request, QObject *parent = nullptr);

    // tries listings, intervalMs apart (the instance may take a moment to show up).
    void setLookup(int tries, int intervalMs);
    const LaunchRequest &request() const { return m_request; }
    // done runs once, on this object's thread.
    void start(Callback<LaunchOutcome> done);

    static QString uniqueName();

private:
    void lookup(const Error &original, int triesLeft);

    QPointer<Provider> m_provider;
    LaunchRequest m_request;
    Callback<LaunchOutcome> m_done;
    int m_tries = 4;
    int m_intervalMs = 3000;
};

} // namespace gantry::providers
