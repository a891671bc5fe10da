#include "core/tunnel/tunnelworker.h"

#include "core/ssh/sessionthread.h"

#include <libssh/libssh.h>

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace gantry::tunnel {
namespace {
constexpr int kActivePollMs = 5;
constexpr int kIdlePollMs = 1000;
constexpr qint64 kSocketBacklog = 8 << 20; // stop reading the channel while the browser lags
} // namespace

TunnelWorker::TunnelWorker(ssh::Target target, ssh::ConnectOptions options, QString remoteHost, int remotePort,
                           int localPort, bool probe)
    : m_target(std::move(target)), m_options(std::move(options)), m_remoteHost(std::move(remoteHost)),
      m_remotePort(remotePort), m_localPort(localPort), m_probe(probe), m_timer(this)
{
    connect(&m_timer, &QTimer::timeout, this, &TunnelWorker::pump);
}

TunnelWorker::~TunnelWorker()
{
    stop();
}

QString TunnelWorker::nothingListens() const
{
    return tr("Nothing listens on port %1 on %2; start it first (e.g. `jupyter lab --no-browser --port %1` or "
              "`tensorboard --logdir runs --port %1`).")
        .arg(m_remotePort)
        .arg(m_target.host);
}

void TunnelWorker::start(ssh::Session &session)
{
    m_session = &session;
    m_server = new QTcpServer(this);
    if (!m_server->listen(QHostAddress::LocalHost, quint16(m_localPort))) {
        const QString why = m_server->errorString();
        emit failed(m_localPort > 0
                        ? tr("Local port %1 is in use (%2); pick another one or leave it empty for a free port.").arg(m_localPort).arg(why)
                        : tr("Cannot listen on 127.0.0.1: %1").arg(why));
        return;
    }
    {
        auto connected = ssh::connectIfNeeded(session, m_target, m_options);
        if (!connected) {
            emit failed(connected.error().message);
            m_server->close();
            return;
        }
    }
    if (m_probe) {
        auto probe = m_session->openForward(m_remoteHost, m_remotePort);
        if (!probe) {
            emit failed(nothingListens());
            m_server->close();
            return;
        }
        (*probe)->close();
    }
    connect(m_server, &QTcpServer::newConnection, this, &TunnelWorker::acceptPending);
    m_timer.start(kIdlePollMs);
    emit listening(m_server->serverPort());
    acceptPending();
}

void TunnelWorker::acceptPending()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        auto channel = m_session->openForward(m_remoteHost, m_remotePort, QStringLiteral("127.0.0.1"), socket->peerPort());
        if (!channel) {
            socket->abort();
            socket->deleteLater();
            if (!m_session->isConnected()) {
                dropAll(tr("The SSH connection to %1 was lost.").arg(m_target.host));
                return;
            }
            emit connectionFailed(nothingListens());
            continue;
        }
        m_pairs.push_back(Pair{socket, std::move(*channel)});
        // Deleted only once closed: what was written to it must still reach the browser.
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, &TunnelWorker::pump);
        connect(socket, &QTcpSocket::disconnected, this, &TunnelWorker::pump);
    }
    m_timer.setInterval(m_pairs.empty() ? kIdlePollMs : kActivePollMs);
    emit connectionsChanged(int(m_pairs.size()));
}

bool TunnelWorker::pumpPair(Pair &pair)
{
    ssh_channel channel = pair.channel->handle();
    if (pair.socket->bytesAvailable() > 0) {
        const QByteArray data = pair.socket->readAll();
        if (!pair.channel->write(data))
            return false;
    }
    char buffer[65536];
    while (pair.socket->bytesToWrite() < kSocketBacklog) {
        const int n = ssh_channel_read_nonblocking(channel, buffer, sizeof buffer, 0);
        if (n == SSH_ERROR)
            return false;
        if (n <= 0)
            break;
        pair.socket->write(buffer, n);
    }
    // Drain stderr so the window never stalls (direct-tcpip channels have none, but be safe).
    while (ssh_channel_read_nonblocking(channel, buffer, sizeof buffer, 1) > 0) {
    }
    const bool remoteDone = ssh_channel_is_eof(channel) || ssh_channel_is_closed(channel);
    if (remoteDone && ssh_channel_poll(channel, 0) <= 0) {
        pair.socket->disconnectFromHost();
        return false;
    }
    if (pair.socket->state() != QAbstractSocket::ConnectedState && pair.socket->bytesAvailable() == 0) {
        static_cast<void>(pair.channel->sendEof()); // best effort: the pair is dropped either way
        return false;
    }
    return true;
}

void TunnelWorker::pump()
{
    if (!m_session)
        return;
    const size_t before = m_pairs.size();
    for (auto it = m_pairs.begin(); it != m_pairs.end();) {
        if (pumpPair(*it)) {
            ++it;
            continue;
        }
        it->channel->close();
        it->socket->disconnect(this);
        if (it->socket->state() == QAbstractSocket::UnconnectedState)
            it->socket->deleteLater();
        else
            it->socket->disconnectFromHost(); // flushes, then deleteLater on disconnected
        it = m_pairs.erase(it);
    }
    if (!m_session->isConnected()) {
        dropAll(tr("The SSH connection to %1 was lost; the tunnel to port %2 is closed.").arg(m_target.host).arg(m_remotePort));
        return;
    }
    if (m_pairs.size() != before) {
        m_timer.setInterval(m_pairs.empty() ? kIdlePollMs : kActivePollMs);
        emit connectionsChanged(int(m_pairs.size()));
    }
}

void TunnelWorker::dropAll(const QString &reason)
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_timer.stop();
    for (Pair &pair : m_pairs) {
        pair.channel->close();
        pair.socket->disconnect(this);
        pair.socket->abort();
        pair.socket->deleteLater();
    }
    m_pairs.clear();
    if (m_server)
        m_server->close();
    if (m_session)
        m_session->disconnect();
    m_session = nullptr;
    emit closed(reason);
}

void TunnelWorker::stop()
{
    dropAll(tr("closed"));
}

} // namespace gantry::tunnel
