#include "jobs/sessionworker.h"

namespace gantry::jobs {

SessionWorker::SessionWorker(ssh::Target target, ssh::ConnectOptions options, QObject *parent)
    : QObject(parent), m_target(std::move(target)), m_options(std::move(options))
{
    if (!m_options.cancel)
        m_options.cancel = &m_closing;
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("jobs:") + m_target.host);
    m_thread.start();
}

SessionWorker::~SessionWorker()
{
    m_closing = true;
    m_cancel = true;
    // The session must be torn down on the thread that used it.
    QMetaObject::invokeMethod(m_context, [this] { m_session.reset(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void SessionWorker::post(Task task)
{
    QMetaObject::invokeMethod(m_context, [this, task = std::move(task)] { run(task); }, Qt::QueuedConnection);
}

void SessionWorker::run(const Task &task)
{
    if (m_closing)
        return;
    if (!m_session || !m_session->isConnected()) {
        m_session = std::make_unique<ssh::Session>();
        auto connected = m_session->connect(m_target, m_options);
        if (!connected) {
            m_session.reset();
            const Error error = connected.error();
            task(nullptr, &error);
            return;
        }
    }
    task(m_session.get(), nullptr);
}

} // namespace gantry::jobs
