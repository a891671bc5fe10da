#pragma once

#include "core/sync/syncengine.h"
#include "core/util/canceltoken.h"

#include <QObject>
#include <QSet>
#include <QTimer>

#include <condition_variable>
#include <mutex>
#include <thread>

class QSocketNotifier;

// Keeps a folder in sync: watches every folder of the tree (inotify on Linux: a folder's watch
// also reports writes to the files in it, which QFileSystemWatcher's does not), waits for a burst
// of changes to settle (debounce) and runs a sync on its own thread. A dropped link is retried
// with a growing pause and the sync resumes; other errors are reported and the watch goes on
// (the user may fix the permission or free the disk). Lives on the thread that created it.
namespace gantry::sync {

class SyncWatch final : public QObject
{
    Q_OBJECT

public:
    // sink and onError are called on the sync thread.
    SyncWatch(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, SyncEventSink sink,
              std::function<void(const Error &)> onError, int debounceMs = 200, QObject *parent = nullptr);
    ~SyncWatch() override;

    // Runs a first sync at once, then one after each settled burst of changes.
    Result<void> start();
    // Cancels a running sync and ends the thread (blocks until it has ended).
    void stop();
    int syncsRun() const { return m_runs.load(); }
    // Asks the watch to end (the sync in flight is cancelled) without waiting for its thread, so
    // the GUI thread never waits on a transfer; destroy it once finished() (the join is then
    // immediate).
    void requestStop();
    bool finished() const { return m_finished.load(); }

signals:
    void synced(); // after each sync that succeeded, on this object's thread


private:
    void onInotify();
    void markDirty();
    void addWatches(const QList<QByteArray> &dirs);
    void loop();
    void waitRetry(int attempt);

    transfer::SessionFactory m_factory;
    SyncTarget m_target;
    SyncOptions m_options;
    SyncEventSink m_sink;
    std::function<void(const Error &)> m_onError;
    QTimer m_debounce;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QSet<QByteArray> m_watched;
    QHash<int, QByteArray> m_byWatch;

    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_dirty = false;
    bool m_stop = false;
    CancelToken m_cancel; // stops the watch and the sync in flight
    std::atomic_int m_runs{0};
    std::atomic_bool m_finished{false};
};

} // namespace gantry::sync
