#include "core/sync/syncwatch.h"
#include "core/sync/synctext.h"

#include "core/transfer/transferjob.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <chrono>
#include <unistd.h>
#ifdef Q_OS_LINUX
#include <sys/inotify.h>
#endif

namespace gantry::sync {

SyncWatch::SyncWatch(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, SyncEventSink sink,
                     std::function<void(const Error &)> onError, int debounceMs, QObject *parent)
    : QObject(parent), m_factory(std::move(factory)), m_target(std::move(target)), m_options(std::move(options)),
      m_sink(std::move(sink)), m_onError(std::move(onError))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(debounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &SyncWatch::markDirty);
}

SyncWatch::~SyncWatch()
{
    stop();
    if (m_fd >= 0) ::close(m_fd);
}

Result<void> SyncWatch::start()
{
#ifdef Q_OS_LINUX
    m_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
    if (m_fd < 0) {
        return Error{ErrorCode::Generic, SyncText::tr("Cannot watch %1 for changes on this system. Run the sync without --watch "
                                                      "when files change.").arg(m_target.localDir)};
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SyncWatch::onInotify);
    m_dirty = true; // the first sync
    m_thread = std::thread([this] {
        loop();
        m_finished = true;
    });
    return {};
}

void SyncWatch::requestStop()
{
    m_cancel.cancel();
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

void SyncWatch::stop()
{
    if (!m_thread.joinable()) return;
    requestStop();
    m_thread.join();
}

void SyncWatch::onInotify()
{
#ifdef Q_OS_LINUX
    alignas(inotify_event) char buf[16384];
    bool any = false;
    for (ssize_t n; (n = ::read(m_fd, buf, sizeof buf)) > 0;) {
        for (char *p = buf; p < buf + n;) {
            const auto *ev = reinterpret_cast<const inotify_event *>(p);
            if (ev->mask & IN_IGNORED) { // the folder went away: its watch did too
                m_watched.remove(m_byWatch.take(ev->wd));
            } else {
                any = true;
            }
            p += sizeof(inotify_event) + ev->len;
        }
    }
    if (any) m_debounce.start(); // restarted by every event: waits for the burst to settle
#endif
}

void SyncWatch::markDirty()
{
    {
        std::lock_guard lock(m_mutex);
        m_dirty = true;
    }
    m_wake.notify_all();
}

void SyncWatch::addWatches(const QList<QByteArray> &dirs)
{
#ifdef Q_OS_LINUX
    const QByteArray root = nativePath(m_target.localDir);
    bool added = false;
    for (const QByteArray &d : dirs) {
        if (m_watched.contains(d)) continue;
        const QByteArray abs = d.isEmpty() ? root : root + '/' + d;
        const int wd = inotify_add_watch(m_fd, abs.constData(),
                                         IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM
                                             | IN_MOVED_TO | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW);
        if (wd < 0) continue; // gone since the scan, or the watch limit: the parent's events still come
        m_watched.insert(d);
        m_byWatch.insert(wd, d);
        added = true;
    }
    // A file written into a new folder between the scan and its watch sent no event: look again.
    if (added) m_debounce.start();
#else
    Q_UNUSED(dirs);
#endif
}

// Waits 1 s, 2 s, 4 s… up to 30 s before trying a dropped link again; false when stopped.
void SyncWatch::waitRetry(int attempt)
{
    const int seconds = std::min(30, 1 << std::min(attempt, 5));
    m_sink(SyncEvent::reconnecting(m_target.host, seconds));
    std::unique_lock lock(m_mutex);
    m_wake.wait_for(lock, std::chrono::seconds(seconds), [this] { return m_stop; });
    m_dirty = true;
}

void SyncWatch::loop()
{
    SyncEngine engine(m_factory, m_target, m_options, m_sink, m_cancel);
    int failures = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_dirty || m_stop; });
            if (m_stop) return;
            m_dirty = false;
        }
        const auto r = engine.run();
        const QList<QByteArray> dirs = engine.lastDirs();
        QMetaObject::invokeMethod(this, [this, dirs] { addWatches(dirs); }, Qt::QueuedConnection);
        if (r) {
            failures = 0;
            m_runs += 1;
            QMetaObject::invokeMethod(this, &SyncWatch::synced, Qt::QueuedConnection);
            continue;
        }
        if (m_cancel.isCancelled()) return;
        if (transfer::isTransient(r.error()) || !engine.connected()) {
            engine.disconnect();
            waitRetry(failures++);
        } else {
            m_onError(r.error());
        }
    }
}

} // namespace gantry::sync
