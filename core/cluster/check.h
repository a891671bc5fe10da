#pragma once

#include "core/cluster/nodeops.h"
#include "core/cluster/probes.h"
#include "core/verify/doctor.h"

#include <QJsonObject>

namespace gantry::cluster {

struct CheckOptions
{
    int masterPort = kDefaultMasterPort;
    int listenTimeoutS = 10;    // how long the head's test listener waits for every node
    int allReduceTimeoutS = 60; // init + all-reduce across all nodes
    qint64 allReduceBytes = 8 << 20;
    bool allReduce = true;
};

// One node's verdict: reachable, same software as the head, reaches the head's port, the
// interface NCCL should use, RDMA presence, and its all-reduce bus bandwidth.
struct NodeCheck
{
    int rank = 0;
    QString hostName;
    std::optional<NodeFacts> facts;
    QString socketIfname;        // the suggestion for NCCL_SOCKET_IFNAME
    double busBandwidthGBps = 0; // 0: no all-reduce result
    QList<verify::DoctorCheck> checks;
    verify::CheckStatus verdict() const;
};

struct ClusterCheck
{
    QString masterAddr;
    int masterPort = 0;
    QList<NodeCheck> nodes;
    verify::CheckStatus verdict() const;
};

// `cluster check`: the whole sequence, blocking (CLI, tests, a worker thread). Every step that
// cannot run because an earlier one failed says so instead of hanging.
ClusterCheck checkCluster(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options);

// The comparisons alone, on facts already gathered (pure; tests feed recorded outputs).
void compareFacts(QList<NodeCheck> &nodes, const QString &masterAddr);

// What failed, one line per failed check ("rank 1 (node-1): …"), whole: for a status line that
// wraps rather than a table cell that cuts the message off.
QStringList failureLines(const ClusterCheck &check);

// {"verdict", "master_addr", "master_port", "nodes": [{rank, host, verdict, socket_ifname,
// bus_bandwidth_gbps, checks: [{id, status, message, fix}]}]}
QJsonObject clusterCheckToJson(const ClusterCheck &check);

} // namespace gantry::cluster
