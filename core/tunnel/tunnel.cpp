#include "tunnel/tunnel.h"

#include "tunnel/tunnelworker.h"

namespace gantry::tunnel {

Tunnel::Tunnel(ssh::Target target, ssh::ConnectOptions options, Spec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec))
{
    init(std::move(target), std::move(options), {});
}

Tunnel::Tunnel(std::unique_ptr<ssh::Session> connected, Spec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec))
{
    const ssh::Target target = connected->target();
    init(target, {}, std::move(connected));
}

void Tunnel::init(ssh::Target target, ssh::ConnectOptions options, std::unique_ptr<ssh::Session> session)
{
    if (!options.cancel)
        options.cancel = &m_cancel;
    m_worker = new TunnelWorker(std::move(target), std::move(options), m_spec.remoteHost, m_spec.remotePort,
                                m_spec.localPort, m_spec.probe, std::move(session));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TunnelWorker::listening, this, [this](int port) {
        m_localPort = port;
        m_state = TunnelState::Open;
        emit opened(port);
        emit changed();
    });
    connect(m_worker, &TunnelWorker::failed, this, [this](const QString &message) {
        m_lastError = message;
        m_state = TunnelState::Failed;
        emit failed(message);
        emit changed();
    });
    connect(m_worker, &TunnelWorker::connectionFailed, this, &Tunnel::connectionFailed);
    connect(m_worker, &TunnelWorker::connectionsChanged, this, [this](int count) {
        m_connections = count;
        emit changed();
    });
    connect(m_worker, &TunnelWorker::closed, this, [this](const QString &reason) {
        if (m_state == TunnelState::Failed)
            return;
        m_state = TunnelState::Closed;
        m_connections = 0;
        emit closed(reason);
        emit changed();
    });
    m_thread.setObjectName(QStringLiteral("tunnel:") + m_spec.hostName + u':' + QString::number(m_spec.remotePort));
    m_thread.start();
}

Tunnel::~Tunnel()
{
    // The worker's session and sockets must go away on their own thread.
    m_cancel = true;
    QMetaObject::invokeMethod(m_worker, &TunnelWorker::stop, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void Tunnel::open()
{
    m_state = TunnelState::Opening;
    m_lastError.clear();
    QMetaObject::invokeMethod(m_worker, &TunnelWorker::start, Qt::QueuedConnection);
    emit changed();
}

void Tunnel::close()
{
    QMetaObject::invokeMethod(m_worker, &TunnelWorker::stop, Qt::QueuedConnection);
}

QUrl Tunnel::localUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_localPort);
    url.setPath(QStringLiteral("/"));
    return url;
}

} // namespace gantry::tunnel
