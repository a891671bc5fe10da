#include "core/jobs/sessionworker.h"

namespace gantry::jobs {

SessionWorker::SessionWorker(ssh::Target target, ssh::ConnectOptions options, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_options(std::move(options))
    , m_thread(QStringLiteral("jobs:") + m_target.host)
{
    if (!m_options.cancel)
        m_options.cancel = m_thread.closing();
}

void SessionWorker::post(Task task)
{
    m_thread.post([this, task = std::move(task)](ssh::Session &session) {
        if (auto connected = ssh::connectIfNeeded(session, m_target, m_options); !connected) {
            session.disconnect();
            const Error error = connected.error();
            task(nullptr, &error);
            return;
        }
        task(&session, nullptr);
    });
}

} // namespace gantry::jobs
