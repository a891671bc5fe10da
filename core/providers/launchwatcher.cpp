#include "core/providers/launchwatcher.h"

#include <QDateTime>

namespace gantry::providers {

LaunchWatcher::LaunchWatcher(Provider *provider, QString instanceId, int timeoutMs, int pollMs, QObject *parent)
    : QObject(parent)
    , m_provider(provider)
    , m_id(std::move(instanceId))
    , m_timeoutMs(timeoutMs)
    , m_pollMs(pollMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &LaunchWatcher::poll);
}

void LaunchWatcher::start(Callback<Instance> done)
{
    m_done = std::move(done);
    m_deadline = QDateTime::currentMSecsSinceEpoch() + m_timeoutMs;
    poll();
}

void LaunchWatcher::poll()
{
    if (!m_provider)
        return finish(Error{ErrorCode::Cancelled, tr("The provider went away while waiting for the instance.")});
    QPointer<LaunchWatcher> self(this);
    m_provider->getInstance(m_id, [self](Result<Instance> instance) {
        if (!self)
            return;
        if (!instance)
            return self->finish(instance.error());
        emit self->progress(*instance);
        if (instance->reachable())
            return self->finish(*instance);
        if (isGone(instance->state) || instance->state == InstanceState::Error) {
            return self->finish(Error{ErrorCode::Provider, tr("Instance %1 ended up %2 instead of running.")
                                                               .arg(self->m_id, instanceStateName(instance->state))});
        }
        if (QDateTime::currentMSecsSinceEpoch() >= self->m_deadline) {
            const QString id = self->m_id;
            const int seconds = self->m_timeoutMs / 1000;
            self->m_provider->terminate(id, [self, id, seconds](Result<void> terminated) {
                if (!self)
                    return;
                const QString cleanup = terminated
                    ? tr("Gantry terminated it so it does not keep billing.")
                    : tr("Terminating it failed too (%1): terminate it yourself, it may be billing.").arg(terminated.error().message);
                self->finish(Error{ErrorCode::Timeout, tr("Instance %1 did not become active within %2 s. %3").arg(id).arg(seconds).arg(cleanup)});
            });
            return;
        }
        self->m_timer.start(self->m_pollMs);
    });
}

void LaunchWatcher::finish(Result<Instance> result)
{
    m_timer.stop();
    if (m_done) {
        Callback<Instance> done = std::move(m_done);
        m_done = nullptr;
        done(std::move(result));
    }
}

} // namespace gantry::providers
