#include "core/cluster/connector.h"
#include "core/cluster/clustertext.h"

#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/util/printable.h"

#include <QCoreApplication>

#include <mutex>
#include <thread>

namespace gantry::cluster {

QString hostKeyId(const ssh::HostKeyInfo &key)
{
    return QStringLiteral("%1:%2 %3").arg(key.host).arg(key.port).arg(key.fingerprint);
}

NodeConnector savedHostConnector(const QString &configDir, const ssh::ConnectOptions &options, const QSet<QString> &trusted)
{
    return [configDir, options, trusted](const ClusterNode &node, int rank) -> Result<std::unique_ptr<ssh::Session>> {
        HostStore store(configDir); // this thread's own copy: HostStore is owner-thread only
        (void)store.load();
        const std::optional<SavedHost> host = store.find(node.hostName);
        if (!host)
            return makeError(ErrorCode::NotFound, ClusterText::tr("rank %1: no saved host \"%2\" (is the node still booting?)").arg(rank).arg(node.hostName));
        ssh::ConnectOptions nodeOptions = options;
        const auto confirm = options.confirmNewHostKey;
        nodeOptions.confirmNewHostKey = [saved = *host, trusted, confirm](const ssh::HostKeyInfo &key) {
            return vouchedHostKey(saved, key) || trusted.contains(hostKeyId(key)) || (confirm && confirm(key));
        };
        auto session = std::make_unique<ssh::Session>();
        if (Result<void> connected = session->connect(host->target, nodeOptions); !connected)
            return Error{connected.error().code, ClusterText::tr("rank %1 (%2): %3").arg(rank).arg(node.hostName, connected.error().message)};
        return session;
    };
}

QList<NodeHostKey> unknownHostKeys(const Cluster &cluster, const QString &configDir, const ssh::ConnectOptions &options)
{
    HostStore store(configDir);
    (void)store.load();
    std::mutex mutex;
    QList<NodeHostKey> unknown;
    std::vector<std::thread> threads;
    for (int rank = 0; rank < cluster.nodes.size(); ++rank) {
        const std::optional<SavedHost> host = store.find(cluster.nodes.at(rank).hostName);
        if (!host)
            continue;
        threads.emplace_back([&, rank, saved = *host] {
            // The question is answered "no" so the session stops before logging in; the key it
            // was shown is what the user will be asked about.
            std::optional<ssh::HostKeyInfo> shown;
            ssh::ConnectOptions probe = options;
            probe.acceptNewHostKey = false;
            probe.password = nullptr;
            probe.passphrase = nullptr;
            probe.confirmNewHostKey = [&](const ssh::HostKeyInfo &key) {
                if (!vouchedHostKey(saved, key))
                    shown = key;
                return false;
            };
            ssh::Session session;
            (void)session.connect(saved.target, probe);
            if (!shown)
                return;
            std::lock_guard lock(mutex);
            unknown.append(NodeHostKey{rank, saved.name, *shown});
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    std::sort(unknown.begin(), unknown.end(), [](const NodeHostKey &a, const NodeHostKey &b) { return a.rank < b.rank; });
    return unknown;
}

QString trustQuestion(const QList<NodeHostKey> &keys)
{
    QStringList lines;
    for (const NodeHostKey &node : keys)
        lines << ClusterText::tr("rank %1  %2 (%3:%4)\n    %5 %6")
                     .arg(node.rank)
                     .arg(text::printable(node.hostName), text::printable(node.key.host))
                     .arg(node.key.port)
                     .arg(node.key.keyType, node.key.fingerprint);
    return ClusterText::tr("This is the first connection to %n node(s) of the cluster. Compare these host key "
                           "fingerprints with the ones your provider shows (console or boot log):\n\n%1\n\n"
                           "Trust them all and check the cluster? They will be recorded in %2.",
                           nullptr, int(keys.size()))
        .arg(lines.join(QLatin1Char('\n')), keys.isEmpty() ? QString() : keys.first().key.knownHostsFile);
}

} // namespace gantry::cluster
