#pragma once

#include "core/ssh/sessionthread.h"
#include "core/util/background.h"

#include <QObject>

#include <functional>

namespace gantry::jobs {

// An ssh::SessionThread that connects on first use and again after the connection broke, so a
// dropped link costs one failed task, not the worker. Used by JobService (one for commands, one
// for the long-running log follow) and VerifyOperation. Each task is cancelled by the token its
// poster handed it; the worker only ends everything when it is destroyed — and then waits for
// nothing: its thread is retired (ssh::SessionThread::retire), so a task may outlive its poster
// and must hand its results back through background::deliver().
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

private:
    ssh::Target m_target;
    ssh::ConnectOptions m_options;
    std::unique_ptr<ssh::SessionThread> m_thread;
};

} // namespace gantry::jobs
