#pragma once

#include "core/ssh/session.h"

#include <QObject>
#include <QTimer>

#include <list>
#include <memory>

class QTcpServer;
class QTcpSocket;

namespace gantry::tunnel {

// Lives on the tunnel's ssh::SessionThread: uses that thread's session, owns the local listening
// socket and one direct-tcpip channel per accepted connection, and pumps bytes both ways by polling the channels
// without blocking (one libssh session serves many channels, on this thread only).
class TunnelWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TunnelWorker)

public:
    TunnelWorker(ssh::Target target, ssh::ConnectOptions options, QString remoteHost, int remotePort, int localPort,
                 bool probe);
    ~TunnelWorker() override;

    // On the tunnel's thread, with its session (connected here unless the caller connected it).
    void start(ssh::Session &session);
    void stop();

signals:
    void listening(int localPort);
    void failed(const QString &message);
    void connectionFailed(const QString &message);
    void connectionsChanged(int count);
    void closed(const QString &reason);

private:
    struct Pair
    {
        QTcpSocket *socket = nullptr;
        std::unique_ptr<ssh::Channel> channel;
    };

    void acceptPending();
    void pump();
    bool pumpPair(Pair &pair); // false: the pair is finished
    void dropAll(const QString &reason);
    QString nothingListens() const;

    ssh::Target m_target;
    ssh::ConnectOptions m_options;
    QString m_remoteHost;
    int m_remotePort;
    int m_localPort;
    bool m_probe;
    ssh::Session *m_session = nullptr; // the thread's, from start(); outlives this worker
    QTcpServer *m_server = nullptr;
    QTimer m_timer;
    std::list<Pair> m_pairs;
    bool m_stopped = false;
};

} // namespace gantry::tunnel
