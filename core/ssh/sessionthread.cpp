#include "core/ssh/sessionthread.h"

#include "core/util/background.h"

#include <QCoreApplication>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace gantry::ssh {

SessionThread::SessionThread(const QString &name, QObject *parent)
    : QObject(parent)
{
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.setObjectName(name);
    m_thread.start();
}

SessionThread::~SessionThread()
{
    *m_closing = true;
    // Blocking, not queued-then-quit: quit() may end the loop before a queued teardown ran, and the
    // session must die on the thread that used it. Jobs queued before it are dropped (closing).
    QMetaObject::invokeMethod(m_context, [this] {
        // Adopted workers and a job's timers go before the session they use.
        while (!m_context->children().isEmpty())
            delete m_context->children().constFirst();
        m_session.reset();
    }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

namespace {
// The threads retired and not yet ended: the application's exit waits for them (libcrypto frees
// its locks at exit, and a session still tearing down then would crash), and for nothing else.
struct Retiring
{
    std::mutex mutex;
    std::condition_variable ended;
    int count = 0;
};

Retiring &retiring()
{
    static auto *threads = new Retiring; // outlives every static destructor that might retire
    return *threads;
}
} // namespace

void SessionThread::retire(std::unique_ptr<SessionThread> thread)
{
    if (!thread)
        return;
    *thread->m_closing = true;
    static const bool waitsAtExit = [] {
        qAddPostRoutine([] {
            std::unique_lock lock(retiring().mutex);
            retiring().ended.wait_for(lock, std::chrono::seconds(5), [] { return retiring().count == 0; });
        });
        return true;
    }();
    Q_UNUSED(waitsAtExit);
    {
        const std::lock_guard lock(retiring().mutex);
        ++retiring().count;
    }
    // Deleted by the job itself, never by whichever copy of it goes last (that could be this thread).
    SessionThread *ending = thread.release();
    background::start([ending] {
        delete ending;
        const std::lock_guard lock(retiring().mutex);
        --retiring().count;
        retiring().ended.notify_all();
    });
}

void SessionThread::post(std::function<void(Session &)> job)
{
    QMetaObject::invokeMethod(m_context, [this, job = std::move(job)] {
        if (*m_closing)
            return;
        if (!m_session) {
            m_session = std::make_unique<Session>();
            m_session->setClosing(m_closing.get());
        }
        job(*m_session);
    }, Qt::QueuedConnection);
}

void SessionThread::adopt(QObject *object)
{
    object->moveToThread(&m_thread);
    QMetaObject::invokeMethod(m_context, [this, object] { object->setParent(m_context); }, Qt::QueuedConnection);
}

void SessionThread::adoptSession(std::unique_ptr<Session> connected)
{
    auto holder = std::make_shared<std::unique_ptr<Session>>(std::move(connected));
    QMetaObject::invokeMethod(m_context, [this, holder] {
        m_session = std::move(*holder);
        if (m_session)
            m_session->setClosing(m_closing.get());
    }, Qt::QueuedConnection);
}

Result<void> connectIfNeeded(Session &session, const Target &target, const ConnectOptions &options)
{
    if (session.isConnected())
        return {};
    return session.connect(target, options);
}

} // namespace gantry::ssh
