#pragma once

#include "ssh/session.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::jobs {

// A background SSH session on its own thread that runs posted work in order. It connects on
// first use and again after the connection broke, so a dropped link costs one failed task, not
// the worker. Used by JobService (one for commands, one for the long-running log follow).
class SessionWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionWorker)

public:
    using Task = std::function<void(ssh::Session *session, const Error *connectError)>;

    SessionWorker(ssh::Target target, ssh::ConnectOptions options, QObject *parent = nullptr);
    ~SessionWorker() override;

    // Thread-safe. The task gets the connected session, or nullptr and why it could not connect.
    void post(Task task);
    const std::atomic_bool *cancelFlag() const { return &m_cancel; }
    void setCancel(bool cancel) { m_cancel = cancel; }

private:
    void run(const Task &task);

    ssh::Target m_target;
    ssh::ConnectOptions m_options;
    QThread m_thread;
    QObject *m_context = nullptr; // lives on m_thread; tasks are queued to it
    std::unique_ptr<ssh::Session> m_session; // used on m_thread only
    std::atomic_bool m_cancel{false};
    std::atomic_bool m_closing{false};
};

} // namespace gantry::jobs
