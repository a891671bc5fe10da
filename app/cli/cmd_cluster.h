#pragma once

#include "cliconnect.h"
#include "core/cluster/cluster.h"
#include "core/cluster/nodeops.h"

namespace gantry::cli::clustercli {

// Shared by cmd_cluster.cpp (lifecycle) and cmd_cluster_jobs.cpp (jobs and check).

// The cluster NAME from the store, or the error that says how to list them.
Result<cluster::Cluster> loadCluster(const Context &context, const QString &name);
Result<void> saveCluster(const Context &context, const cluster::Cluster &cluster);
// Connects to a node by its saved host with the command's connection options (the same for all).
cluster::NodeConnector connector(const Context &context, const HostOptions &options);

// check, run, torchrun, logs, status, cancel (cmd_cluster_jobs.cpp).
std::vector<Command> jobSubcommands();

} // namespace gantry::cli::clustercli
