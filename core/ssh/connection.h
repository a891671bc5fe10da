#pragma once

#include "core/ssh/sessionthread.h"

#include <QObject>

#include <functional>
#include <memory>

namespace gantry::ssh {

enum class ConnectionState
{
    Disconnected,
    Connecting,
    Connected,
    AuthFailed,
    HostKeyUnknown,  // the user declined the new key
    HostKeyChanged,
    Failed,          // cannot connect (refused, timeout, DNS…)
    Lost,            // was connected, then the link broke
};

QString connectionStateName(ConnectionState state);

// One SSH connection on an ssh::SessionThread, for the GUI: every libssh call runs on that
// thread and results come back as queued signals, so the GUI never blocks. Work that needs the
// session is posted with post(); it runs in order on the worker thread.
class Connection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Connection)

public:
    explicit Connection(Target target, QObject *parent = nullptr);
    ~Connection() override;

    const Target &target() const { return m_target; }
    ConnectionState state() const { return m_state; }
    QString lastError() const { return m_lastError; }

    // Options are copied to the worker; their callbacks run on the worker thread (to ask the user
    // from there, post the question and wait for the answer or closing(): never block on the
    // owner's thread, which joins the worker when the connection goes).
    void connectToHost(const ConnectOptions &options);
    void disconnectFromHost();

    // Runs job(session) on the worker thread once connected (queued in order). When the session is
    // not connected the job is still run and must check session.isConnected().
    void post(std::function<void(Session &)> job);

    // Options for another session to the same machine, for an operation that must not wait behind
    // (or hold up) this connection's queue, such as Verify: those of the last connectToHost(), its
    // password and passphrase sources included, without the new-host-key question (the key is on
    // record once this connection is up) and without this connection's cancel flag. Each posted
    // job is cancelled by its own CancelToken, never through the connection.
    ConnectOptions siblingOptions() const;

    // Set when the connection is going away (its destructor): a prompt the connect is waiting on
    // gives up then, so the worker can end and be joined. Valid while the connection lives.
    const std::atomic_bool *closing() const { return &m_cancel; }

signals:
    void stateChanged(gantry::ssh::ConnectionState state, const QString &message);

private:
    void setState(ConnectionState state, const QString &message);
    void startKeepalive(Session &session, int intervalS);
    QString lostMessage() const;

    Target m_target;
    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_lastError;
    ConnectOptions m_options;        // of the last connectToHost(), owner thread only
    std::atomic_bool m_cancel{false}; // cancels connecting; set when closing
    SessionThread m_thread;           // last: it joins before the members above go
};

} // namespace gantry::ssh
