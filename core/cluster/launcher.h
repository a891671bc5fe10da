#pragma once

#include "core/cluster/cluster.h"
#include "core/providers/providertypes.h"
#include "core/workspace/launches.h"

#include <QObject>
#include <QPointer>

namespace gantry::workspace { class Workspace; }
namespace gantry::providers { class Provider; }

namespace gantry::cluster {

struct ClusterLaunchRequest
{
    QString name;                   // the cluster; node i is launched as "<name>-<i>"
    QString provider;
    providers::LaunchRequest base;  // type, region, SSH key, image: the same for every node
    int nodes = 2;
    bool wait = false;              // wait until every node is running and reachable
    bool keepPartial = false;       // --on-partial keep: keep the nodes that came up
    int timeoutMs = 900000;         // per node, when waiting
    double pricePerHour = 0;        // one node's price (for the ledger and $/h)
    int gpusPerNode = -1;
};

struct ClusterLaunchOutcome
{
    Cluster cluster;              // the nodes that are still there
    QStringList failures;         // "node 2: Not enough capacity…", one per node that did not come up
    QStringList terminated;       // instance ids terminated because the launch was partial
    QStringList warnings;         // ledger or saved-host problems: the launch itself happened
    bool partial() const { return !failures.isEmpty(); }
};

// Launches a cluster's nodes in parallel on one provider and region, records each in the ledger,
// and, when not all of them come up, terminates the ones that did (through the Workspace, so the
// ledger rows and saved hosts follow) unless asked to keep them: a half-launched cluster never
// keeps billing unseen. Owner-thread only; callbacks run later on that thread.
class ClusterLauncher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterLauncher)

public:
    explicit ClusterLauncher(workspace::Workspace *workspace, QObject *parent = nullptr);

    // `launched` runs once every launch call has answered, with the nodes that got an id (so the
    // front end can save the cluster before waiting); `done` runs at the end.
    void launch(const ClusterLaunchRequest &request, std::function<void(const Cluster &)> launched,
                providers::Callback<ClusterLaunchOutcome> done);
    // Fills in addresses and saved hosts of nodes that became reachable since; `states` gets each
    // node's provider state by instance id.
    void refresh(const Cluster &cluster, std::function<void(Result<Cluster>, QHash<QString, providers::Instance>)> done);

signals:
    void progress(const QString &message);

private:
    struct Run;
    void allLaunched(const std::shared_ptr<Run> &run);
    void nodeUp(const std::shared_ptr<Run> &run, int rank, Result<workspace::ReadyInstance> result);
    void finish(const std::shared_ptr<Run> &run);
    void terminatePartial(const std::shared_ptr<Run> &run);

    QPointer<workspace::Workspace> m_workspace;
};

} // namespace gantry::cluster
