#pragma once

#include "core/tunnel/tunnel.h"
#include "core/util/result.h"

#include <QList>
#include <QObject>

namespace gantry::tunnel {

// The app's active tunnels, per saved host. GUI-thread owned. Close a host's tunnels when its
// connection goes (closeAll) and when the instance is terminated.
class TunnelManager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TunnelManager)

public:
    explicit TunnelManager(QObject *parent = nullptr);
    ~TunnelManager() override;

    // Starts opening a tunnel (watch its opened/failed signals). Refuses a remote port that is
    // already forwarded for that host, and a local port another tunnel holds.
    Result<Tunnel *> open(const ssh::Target &target, const ssh::ConnectOptions &options, const Tunnel::Spec &spec);
    QList<Tunnel *> tunnels(const QString &hostName = {}) const;
    Tunnel *find(const QString &hostName, int remotePort) const;
    void close(Tunnel *tunnel);
    void closeAll(const QString &hostName);

signals:
    void tunnelsChanged();
    // A tunnel closed by itself (the connection dropped) or failed to open.
    void tunnelEnded(const QString &hostName, int remotePort, const QString &message);

private:
    QList<Tunnel *> m_tunnels;
};

} // namespace gantry::tunnel
