#pragma once

#include "core/providers/provider.h"

#include <QPointer>
#include <QTimer>

namespace gantry::providers {

// Polls a freshly launched instance until it is running and reachable. When it does not come up
// within the timeout it is terminated (so it cannot keep billing unseen) and the result is a
// Timeout error; when it vanishes or fails, the provider's error is passed on.
class LaunchWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LaunchWatcher)

public:
    LaunchWatcher(Provider *provider, QString instanceId, int timeoutMs, int pollMs = 3000, QObject *parent = nullptr);

    // done runs once, on this object's thread; the watcher may be deleted from inside it.
    void start(Callback<Instance> done);

signals:
    void progress(const gantry::providers::Instance &instance);

private:
    void poll();
    void finish(Result<Instance> result);

    QPointer<Provider> m_provider;
    QString m_id;
    int m_timeoutMs;
    int m_pollMs;
    qint64 m_deadline = 0;
    Callback<Instance> m_done;
    QTimer m_timer;
};

} // namespace gantry::providers
