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

int runCommand(Context &context, QStringList args);
int torchrunCommand(Context &context, QStringList args);
int logsCommand(Context &context, QStringList args);
int statusCommand(Context &context, QStringList args);
int cancelCommand(Context &context, QStringList args);
int checkCommand(Context &context, QStringList args);

} // namespace gantry::cli::clustercli
