#include "core/jobs/sessionworker.h"

namespace gantry::jobs {

SessionWorker::SessionWorker(ssh::Target target, ssh::ConnectOptions options, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_options(std::move(options))
    , m_thread(std::make_unique<ssh::SessionThread>(QStringLiteral("jobs:") + m_target.host))
{
    if (!m_options.cancel)
        m_options.cancel = m_thread->closing(); // lives with the thread, which outlives its tasks
}

SessionWorker::~SessionWorker()
{
    ssh::SessionThread::retire(std::move(m_thread));
}

void SessionWorker::post(Task task)
{
    // The task is given copies: it may still run while the retired thread ends.
    m_thread->post([target = m_target, options = m_options, task = std::move(task)](ssh::Session &session) {
        if (auto connected = ssh::connectIfNeeded(session, target, options); !connected) {
            session.disconnect();
            const Error error = connected.error();
            task(nullptr, &error);
            return;
        }
        task(&session, nullptr);
    });
}

} // namespace gantry::jobs
