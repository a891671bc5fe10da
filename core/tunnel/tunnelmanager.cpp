#include "core/tunnel/tunnelmanager.h"

namespace gantry::tunnel {

TunnelManager::TunnelManager(QObject *parent) : QObject(parent) {}

TunnelManager::~TunnelManager()
{
    qDeleteAll(m_tunnels);
}

Result<Tunnel *> TunnelManager::open(const ssh::Target &target, const ssh::ConnectOptions &options, const Tunnel::Spec &spec)
{
    if (spec.remotePort <= 0 || spec.remotePort > 65535)
        return makeError(ErrorCode::Usage, tr("%1 is not a port number (1–65535).").arg(spec.remotePort));
    if (spec.localPort < 0 || spec.localPort > 65535)
        return makeError(ErrorCode::Usage, tr("%1 is not a local port number (1–65535, or empty for a free one).").arg(spec.localPort));
    if (Tunnel *existing = find(spec.hostName, spec.remotePort)) {
        return makeError(ErrorCode::Conflict,
                         tr("Port %1 on %2 is already forwarded to http://127.0.0.1:%3/; use that tunnel or close it first.")
                             .arg(spec.remotePort)
                             .arg(spec.hostName)
                             .arg(existing->localPort()));
    }
    if (spec.localPort > 0) {
        for (Tunnel *t : std::as_const(m_tunnels)) {
            if (t->localPort() == spec.localPort)
                return makeError(ErrorCode::Conflict,
                                 tr("Local port %1 already carries the tunnel to %2:%3; pick another local port.")
                                     .arg(spec.localPort)
                                     .arg(t->spec().hostName)
                                     .arg(t->spec().remotePort));
        }
    }
    auto *tunnel = new Tunnel(target, options, spec, this);
    m_tunnels.append(tunnel);
    const QString host = spec.hostName;
    const int port = spec.remotePort;
    auto finish = [this, tunnel, host, port](const QString &message) {
        if (!m_tunnels.removeOne(tunnel))
            return;
        tunnel->deleteLater();
        emit tunnelEnded(host, port, message);
        emit tunnelsChanged();
    };
    connect(tunnel, &Tunnel::failed, this, finish);
    connect(tunnel, &Tunnel::closed, this, finish);
    connect(tunnel, &Tunnel::changed, this, &TunnelManager::tunnelsChanged);
    tunnel->open();
    emit tunnelsChanged();
    return tunnel;
}

QList<Tunnel *> TunnelManager::tunnels(const QString &hostName) const
{
    if (hostName.isEmpty())
        return m_tunnels;
    QList<Tunnel *> list;
    for (Tunnel *t : m_tunnels) {
        if (t->spec().hostName == hostName)
            list.append(t);
    }
    return list;
}

Tunnel *TunnelManager::find(const QString &hostName, int remotePort) const
{
    for (Tunnel *t : m_tunnels) {
        if (t->spec().hostName == hostName && t->spec().remotePort == remotePort)
            return t;
    }
    return nullptr;
}

void TunnelManager::close(Tunnel *tunnel)
{
    if (!m_tunnels.removeOne(tunnel))
        return;
    tunnel->disconnect(this);
    delete tunnel;
    emit tunnelsChanged();
}

void TunnelManager::closeAll(const QString &hostName)
{
    const QList<Tunnel *> list = tunnels(hostName);
    for (Tunnel *t : list)
        close(t);
}

} // namespace gantry::tunnel
