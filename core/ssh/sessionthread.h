#pragma once

#include "core/ssh/session.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::ssh {

// The one way Gantry runs an SSH session on a worker: a thread of its own that owns one
// ssh::Session (created, used and destroyed there, as libssh requires) and runs posted jobs in
// order. ssh::Connection (the GUI's per-host connection), jobs::SessionWorker, tunnel::Tunnel
// and the transfer-less workers are built on it, so start-up, ordering and teardown are written
// once. Cancelling is per operation (a CancelToken the job polls), never through the thread;
// only closing() ends everything, when the owner goes away.
class SessionThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionThread)

public:
    explicit SessionThread(const QString &name, QObject *parent = nullptr);
    // Sets closing(), lets the running job end (its session ends any connect or command at the next
    // poll, whether or not the job passed closing() as a cancel flag), destroys
    // what was adopted and then the session on the worker thread, and joins. It never runs the
    // owner's event loop; a job must not wait for the owner's thread while the owner is closing.
    ~SessionThread() override;

    // Ends thread without waiting for it here: closing() is set at once, and the teardown above
    // (the wait for a running job included) runs on a pool of its own. For owners whose jobs hold
    // only what they share with it (never the owner itself), so that a machine's monitor or check
    // can go on the GUI thread without a join. The application object's destruction waits (a
    // bounded time) for what was retired.
    static void retire(std::unique_ptr<SessionThread> thread);
    // Waits up to ms for every retired thread to end; false when some still run. For the end of a
    // program, before what their jobs' callbacks use (the secret store, the prompts) goes away.
    static bool waitForRetired(int ms);

    // Thread-safe. Runs job(session) on the worker thread, in the order posted; jobs posted after
    // closing began are dropped. The session may be unconnected: see connectIfNeeded().
    void post(std::function<void(Session &)> job);

    // Moves object (no parent) onto the worker thread; it is destroyed there, before the session.
    // For workers that keep sockets or timers beside the session (a tunnel's listener).
    void adopt(QObject *object);

    // A session connected by the caller (the CLI, after its prompts) becomes this thread's session.
    void adoptSession(std::unique_ptr<Session> connected);

    // Set once the owner is closing: hand it to ConnectOptions::cancel / ExecOptions::cancel of
    // whatever must end then (a connect in progress, a streaming command).
    const std::atomic_bool *closing() const { return m_closing.get(); }

    // The worker thread's object, for timers a job makes there (deleted before the session).
    QObject *context() const { return m_context; }

private:
    QThread m_thread;
    QObject *m_context = nullptr; // lives on m_thread; jobs are queued to it
    std::unique_ptr<Session> m_session; // used on m_thread only
    std::shared_ptr<std::atomic_bool> m_closing = std::make_shared<std::atomic_bool>(false);
};

// Connects session to target with options unless it is connected already (again after a broken
// link: a dropped connection costs one job, not the worker). On the session's thread.
Result<void> connectIfNeeded(Session &session, const Target &target, const ConnectOptions &options);

} // namespace gantry::ssh
