#pragma once

#include "core/ssh/sessionthread.h"

#include <QObject>
#include <QUrl>

#include <atomic>
#include <memory>

namespace gantry::tunnel {

class TunnelWorker;

enum class TunnelState
{
    Opening,
    Open,
    Failed,
    Closed,
};

// A local port forward 127.0.0.1:localPort → remoteHost:remotePort as the instance sees it, over
// its own SSH session on its own ssh::SessionThread (the GUI never waits on it). Signals arrive on the thread
// that created the Tunnel.
class Tunnel final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Tunnel)

public:
    struct Spec
    {
        QString hostName;      // the saved host (for lists and messages)
        int remotePort = 0;
        int localPort = 0;     // 0: a free one
        QString remoteHost = QStringLiteral("127.0.0.1");
        bool probe = true;     // fail at once when nothing listens on the remote port
        QString label;         // "Jupyter", "TensorBoard"… for lists
    };

    Tunnel(ssh::Target target, ssh::ConnectOptions options, Spec spec, QObject *parent = nullptr);
    // Uses a session the caller connected (the CLI, after its prompts); it moves to the tunnel's thread.
    Tunnel(std::unique_ptr<ssh::Session> connected, Spec spec, QObject *parent = nullptr);
    ~Tunnel() override;

    void open();
    void close();

    const Spec &spec() const { return m_spec; }
    TunnelState state() const { return m_state; }
    int localPort() const { return m_localPort; }
    int connections() const { return m_connections; }
    QString lastError() const { return m_lastError; }
    QUrl localUrl() const; // http://127.0.0.1:PORT/

signals:
    void opened(int localPort);
    void failed(const QString &message);
    void connectionFailed(const QString &message);
    void closed(const QString &reason);
    void changed();

private:
    void init(ssh::Target target, ssh::ConnectOptions options);

    Spec m_spec;
    std::unique_ptr<ssh::SessionThread> m_thread;
    TunnelWorker *m_worker = nullptr; // adopted by m_thread, which destroys it
    TunnelState m_state = TunnelState::Closed;
    int m_localPort = 0;
    int m_connections = 0;
    QString m_lastError;
};

} // namespace gantry::tunnel
