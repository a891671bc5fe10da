#pragma once

#include "core/cluster/nodeops.h"
#include "core/ssh/session.h"

namespace gantry::cluster {

// Connects to a node by its saved host (hosts.json in configDir, read on the calling worker
// thread), with `options` (known hosts; an unknown host key fails with the usual message rather
// than asking from a worker thread).
NodeConnector savedHostConnector(const QString &configDir, const ssh::ConnectOptions &options);

} // namespace gantry::cluster
