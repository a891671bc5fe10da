// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/cluster/launcher.h"
#include "core/workspace/workspace.h"

namespace gantry::cluster {

// What stopping or terminating a saved cluster did, node by node.
struct ClusterActionOutcome
{
    QString name;
    workspace::InstanceAction action = workspace::InstanceAction::Stop;
    QStringList done;      // "rank 0: train-0 is stopping; compute billing stops.", one per node acted on
    QStringList failures;  // one per rented node whose action failed: it is kept on record
    QStringList warnings;  // saved hosts left alone, ledger, saved-host or clusters.json problems
    int kept = 0;          // nodes still on record afterwards
    bool forgotten = false; // the record is gone: every node was terminated
};

// A cluster's whole life, written once for the GUI's Clusters view and `gantry-cli cluster`:
// launch (saved in clusters.json as soon as the ids are known, and again at the end) and
// stop/terminate, all nodes at once through the Workspace, with one rule for a partial failure:
// a node whose action failed stays on record (it may still bill), a saved host that is not a
// rented instance is left as it is, and the record is removed only when no node is left. Errors
// of clusters.json are reported in the outcome, never dropped. Owner-thread only.
class ClusterLifecycle final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterLifecycle)

public:
    explicit ClusterLifecycle(workspace::Workspace *workspace, QObject *parent = nullptr);

    void launch(const ClusterLaunchRequest &request, providers::Callback<ClusterLaunchOutcome> done);
    void act(workspace::InstanceAction action, const QString &name, const workspace::ActionOptions &options,
             providers::Callback<ClusterActionOutcome> done);
    ClusterLauncher *launcher() const { return m_launcher; }

signals:
    void progress(const QString &message);

private:
    struct Run;
    void settle(const std::shared_ptr<Run> &run);
    // Adds or replaces the cluster's record; an empty cluster removes it.
    Result<void> save(const Cluster &cluster);

    QPointer<workspace::Workspace> m_workspace;
    ClusterLauncher *m_launcher;
};

} // namespace gantry::cluster
