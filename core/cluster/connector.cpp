#include "core/cluster/connector.h"
#include "core/cluster/clustertext.h"

#include "core/hosts/hoststore.h"

#include <QCoreApplication>

namespace gantry::cluster {
NodeConnector savedHostConnector(const QString &configDir, const ssh::ConnectOptions &options)
{
    return [configDir, options](const ClusterNode &node, int rank) -> Result<std::unique_ptr<ssh::Session>> {
        HostStore store(configDir); // this thread's own copy: HostStore is owner-thread only
        (void)store.load();
        const std::optional<SavedHost> host = store.find(node.hostName);
        if (!host)
            return makeError(ErrorCode::NotFound, ClusterText::tr("rank %1: no saved host \"%2\" (is the node still booting?)").arg(rank).arg(node.hostName));
        auto session = std::make_unique<ssh::Session>();
        if (Result<void> connected = session->connect(host->target, options); !connected)
            return Error{connected.error().code, ClusterText::tr("rank %1 (%2): %3").arg(rank).arg(node.hostName, connected.error().message)};
        return session;
    };
}

} // namespace gantry::cluster
