#pragma once

#include "core/cluster/nodeops.h"
#include "core/ssh/session.h"

#include <QSet>

namespace gantry::cluster {

// Connects to a node by its saved host (hosts.json in configDir, read on the calling worker
// thread), with `options` (known hosts; an unknown host key fails with the usual message rather
// than asking from a worker thread). A new key is trusted (and recorded) without a question when
// the node's provider vouches for it (the sandbox's own sshd) or when `trusted` holds it
// (hostKeyId(): the user trusted it after unknownHostKeys()).
NodeConnector savedHostConnector(const QString &configDir, const ssh::ConnectOptions &options,
                                 const QSet<QString> &trusted = {});

// "host:port fingerprint": one key the user trusted for one address.
QString hostKeyId(const ssh::HostKeyInfo &key);

// A node whose host key is not known yet, with the key it presented.
struct NodeHostKey
{
    int rank = 0;
    QString hostName;
    ssh::HostKeyInfo key;
};

// The nodes whose host key is in no known_hosts entry yet (a freshly launched cluster), all at
// once, each asked for its key only (no login). Keys the provider vouches for are not listed:
// the connector trusts them. A node that cannot be reached is left to the check to report.
QList<NodeHostKey> unknownHostKeys(const Cluster &cluster, const QString &configDir, const ssh::ConnectOptions &options);

// The one question for all of them: each node with its key type and fingerprint.
QString trustQuestion(const QList<NodeHostKey> &keys);

} // namespace gantry::cluster
