#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QCoreApplication>
#include <QString>

#include <optional>

namespace gantry::cluster {

// One machine of a cluster. Its rank is its index in Cluster::nodes (rank 0 is the head).
struct ClusterNode
{
    QString hostName;        // the saved host (hosts.json) Gantry connects with
    QString provider;        // "" for `cluster add` of an existing machine
    QString instanceId;
    QString address;         // the SSH address (public) when known
    QString privateAddress;  // the provider's private address, when it reports one
    QString region;
    double pricePerHour = 0;
    bool operator==(const ClusterNode &) const = default;
};

// The last job started on every node by `cluster run`/`cluster torchrun`: each rank runs it as
// "<name>-r<rank>", so nodes that share a home (or a tmux server) never collide.
struct ClusterJob
{
    QString name;
    QString kind;        // "run" or "torchrun"
    QDateTime started;   // UTC
    int masterPort = 0;
    bool operator==(const ClusterJob &) const = default;
};

struct Cluster
{
    QString name;
    QString provider;      // the provider all nodes were launched on ("" for `cluster add`)
    QString typeName;
    QString region;
    int gpusPerNode = -1;  // -1: unknown (asked on the node when a job starts)
    QString masterAddr;    // an explicit rendezvous address (cluster add --master-addr)
    QDateTime created;     // UTC
    QList<ClusterNode> nodes;
    std::optional<ClusterJob> lastJob;
    bool operator==(const Cluster &) const = default;

    double pricePerHour() const;
    // Whether every node reported the same region (a private address only works inside one).
    bool oneRegion() const;
};

// The rank's job name for a cluster job: "train-r0", "train-r1", ….
QString rankJobName(const QString &job, int rank);
// Cluster names are file and tag names: [A-Za-z0-9][A-Za-z0-9._-]{0,39}.
Result<void> validateClusterName(const QString &name);

// Groups saved hosts into a new cluster in <configDir>/clusters.json, rank i being hostNames[i]
// (rented ones keep their provider, instance id and price): `gantry-cli cluster add` and the
// Clusters view's "New cluster from saved hosts…" both call it. Disk work: not on the GUI thread.
Result<Cluster> addClusterOfSavedHosts(const QString &configDir, const QString &name, const QStringList &hostNames,
                                       const QString &masterAddr = {});

// clusters.json in the config dir, with a "schema" version; written atomically (QSaveFile), and
// never over a file written by a newer Gantry. Owner-thread only (it is a plain file store).
class ClusterStore final
{
    Q_DECLARE_TR_FUNCTIONS(gantry::cluster::ClusterStore)

public:
    explicit ClusterStore(QString configDir);

    Result<void> load();
    const QList<Cluster> &clusters() const { return m_clusters; }
    std::optional<Cluster> find(const QString &name) const;
    Result<void> add(const Cluster &cluster);   // fails when the name is taken
    Result<void> update(const Cluster &cluster); // by name
    Result<void> remove(const QString &name);
    QString filePath() const;

private:
    Result<void> save();

    QString m_configDir;
    QList<Cluster> m_clusters;
    bool m_readOnly = false; // the file came from a newer Gantry: never rewrite it
};

} // namespace gantry::cluster
