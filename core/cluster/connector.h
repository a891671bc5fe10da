#pragma once

#include "core/cluster/nodeops.h"
#include "core/ssh/session.h"
#include "core/util/runinbackground.h"

namespace gantry::cluster {

// Connects to a node by its saved host (hosts.json in configDir, read on the calling worker
// thread), with `options` (known hosts; an unknown host key fails with the usual message rather
// than asking from a worker thread).
NodeConnector savedHostConnector(const QString &configDir, const ssh::ConnectOptions &options);

// Runs the blocking `work` (SSH to every node) on a pool thread and `done(value)` on `context`'s
// thread: how the GUI drives checkCluster(), startOnAllRanks() and logs without blocking.
using gantry::runInBackground;

} // namespace gantry::cluster
