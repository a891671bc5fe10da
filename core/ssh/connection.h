#pragma once

#include "core/ssh/sessionthread.h"

#include <QObject>
#include <QPointer>

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
// session is posted with post(); it runs in order on the worker thread. The connection goes
// without waiting for its worker (SessionThread::retire): its jobs hold only copies and shared
// flags, and its state reaches it only while it lives.
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
    // owner's thread).
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
    // gives up then, so the worker can end. Valid while the connection lives and, for its jobs and
    // the callbacks of its connect, until they return.
    // Also set by disconnectFromHost(): a question open for this connection goes away then too.
    const std::atomic_bool *closing() const { return m_cancel.get(); }
    // The same flag, kept alive by whoever holds it (a question handed on to sibling sessions).
    std::shared_ptr<const std::atomic_bool> closingFlag() const { return m_cancel; }

signals:
    void stateChanged(gantry::ssh::ConnectionState state, const QString &message);

private:
    // On the worker thread: the state is published on the owner's thread, if it still lives.
    static void publish(const QPointer<Connection> &self, ConnectionState state, const QString &message);
    static void startKeepalive(const QPointer<Connection> &self, QObject *context, const Target &target, Session &session,
                               int intervalS);
    static QString lostMessage(const Target &target);

    Target m_target;
    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_lastError;
    ConnectOptions m_options; // of the last connectToHost(), owner thread only
    std::shared_ptr<std::atomic_bool> m_cancel = std::make_shared<std::atomic_bool>(false); // cancels connecting
    std::unique_ptr<SessionThread> m_thread;
};

} // namespace gantry::ssh
