#include "core/ssh/sessionthread.h"

#include <QCoreApplication>
#include <QThreadPool>

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
// The threads retired and not yet ended. Their teardown waits for the job in flight (a connect's
// authentication against a hung server can take its timeout), so it runs on a pool of its own,
// never holding up the background pool's keychain, SQLite and disk work.
struct Retiring
{
    std::mutex mutex;
    std::condition_variable ended;
    int count = 0;
    QThreadPool pool;
};

Retiring &retiring()
{
    static auto *threads = [] {
        auto *created = new Retiring; // lives as long as the process: a teardown may run at exit
        created->pool.setMaxThreadCount(256);
        created->pool.setExpiryTimeout(5000);
        return created;
    }();
    return *threads;
}
} // namespace

void SessionThread::retire(std::unique_ptr<SessionThread> thread)
{
    if (!thread)
        return;
    *thread->m_closing = true;
    static const bool waitsAtExit = [] {
        // libcrypto frees its locks at exit: a session still tearing down then would crash.
        qAddPostRoutine([] { waitForRetired(5000); });
        return true;
    }();
    Q_UNUSED(waitsAtExit);
    {
        const std::lock_guard lock(retiring().mutex);
        ++retiring().count;
    }
    // Deleted by the job itself, never by whichever copy of it goes last (that could be this thread).
    SessionThread *ending = thread.release();
    retiring().pool.start([ending] {
        delete ending;
        const std::lock_guard lock(retiring().mutex);
        --retiring().count;
        retiring().ended.notify_all();
    });
}

bool SessionThread::waitForRetired(int ms)
{
    std::unique_lock lock(retiring().mutex);
    return retiring().ended.wait_for(lock, std::chrono::milliseconds(ms), [] { return retiring().count == 0; });
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
