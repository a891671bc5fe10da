#include "core/tunnel/tunnel.h"

#include "core/tunnel/tunnelworker.h"

namespace gantry::tunnel {

namespace {
QString threadName(const Tunnel::Spec &spec)
{
    return QStringLiteral("tunnel:") + spec.hostName + u':' + QString::number(spec.remotePort);
}
} // namespace

Tunnel::Tunnel(ssh::Target target, ssh::ConnectOptions options, Spec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_thread(std::make_unique<ssh::SessionThread>(threadName(m_spec)))
{
    init(std::move(target), std::move(options));
}

Tunnel::Tunnel(std::unique_ptr<ssh::Session> connected, Spec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_thread(std::make_unique<ssh::SessionThread>(threadName(m_spec)))
{
    const ssh::Target target = connected->target();
    m_thread->adoptSession(std::move(connected));
    init(target, {});
}

void Tunnel::init(ssh::Target target, ssh::ConnectOptions options)
{
    if (!options.cancel)
        options.cancel = m_thread->closing(); // ends a connect in progress when the tunnel goes away
    m_worker = new TunnelWorker(std::move(target), std::move(options), m_spec.remoteHost, m_spec.remotePort,
                                m_spec.localPort, m_spec.probe);
    m_thread->adopt(m_worker);
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
}

// The worker, its sockets and the session go away on their own thread: the retired m_thread
// destroys the adopted worker (which closes everything) before the session. Nothing waits here;
// the worker's signals to this tunnel end with it (Qt drops a destroyed receiver's connections).
Tunnel::~Tunnel()
{
    ssh::SessionThread::retire(std::move(m_thread));
}

void Tunnel::open()
{
    m_state = TunnelState::Opening;
    m_lastError.clear();
    TunnelWorker *worker = m_worker;
    m_thread->post([worker](ssh::Session &session) { worker->start(session); });
    emit changed();
}

void Tunnel::close()
{
    TunnelWorker *worker = m_worker;
    m_thread->post([worker](ssh::Session &) { worker->stop(); });
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
