#pragma once

#include "core/cluster/check.h"
#include "core/cluster/cluster.h"
#include "core/cluster/lifecycle.h"
#include "core/cluster/connector.h"
#include "core/cluster/nodeops.h"
#include "core/providers/providertypes.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace gantry::workspace { class Workspace; }


namespace gantry::ui {

// Clusters: the list (nodes, state, total $/h), a Launch cluster dialog, Check with per-node
// verdicts, a torchrun dialog and each rank's log. Everything goes through core/cluster, the
// same code gantry-cli cluster runs; SSH work runs on pool threads, never on the GUI thread.
class ClustersPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClustersPanel)

public:
    explicit ClustersPanel(workspace::Workspace *workspace, QWidget *parent = nullptr);

    void setKnownHostsFile(const QString &path) { m_knownHosts = path; }
    // Tests answer the terminate question without a dialog.
    void setConfirm(std::function<bool(const QString &)> confirm) { m_confirm = std::move(confirm); }

    QString selectedCluster() const;
    void selectCluster(const QString &name);
    QString statusText() const;
    QTreeWidget *clusterList() const { return m_list; }
    QTreeWidget *nodeList() const { return m_nodes; }
    QString logText() const;
    QPushButton *stopOthersButton() const { return m_stopOthers; }

public slots:
    void reload();
    void launchCluster();
    // "New cluster from saved hosts…": groups machines already in the list (gantry-cli cluster add).
    void newClusterFromHosts();
    void checkSelected();
    void torchrunSelected();
    void showLog();
    void terminateSelected();
    // Every rank's state of the last job, read on the nodes (off the GUI thread).
    void refreshJobStatus();
    // After a rank failed, the others only wait for it (and bill): stop them, once confirmed.
    void stopOtherRanks();

signals:
    void checked(const QString &cluster);
    void jobStarted(const QString &cluster);
    void logShown();
    void launchFinished(const QString &cluster);
    // A cluster of saved hosts was written (or refused: the status says why).
    void clusterCreated(const QString &cluster);
    void terminated(const QString &cluster);
    void jobStatusShown(const QString &cluster);
    void ranksStopped(const QString &cluster);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    std::optional<cluster::Cluster> current() const;
    void showNodes();
    void refreshStates(const cluster::Cluster &cluster);
    void startTorchrun(const cluster::Cluster &cluster, const cluster::TorchrunSpec &spec);
    void createFromHosts(const QString &name, const QStringList &hosts);
    void finishLaunch(const Result<cluster::ClusterLaunchOutcome> &outcome, const QString &name);
    void finishTerminate(const Result<cluster::ClusterActionOutcome> &outcome, const QString &name);
    void setStatus(const QString &text);
    void fitStatus();
    void showJobStatus(const cluster::Cluster &cluster, const QList<cluster::RankStatus> &ranks);
    void updateStopOthers();
    cluster::NodeConnector connector(const QSet<QString> &trustedKeys = {}) const;
    void runCheck(const cluster::Cluster &cluster, const QSet<QString> &trustedKeys);

    workspace::Workspace *m_workspace;
    cluster::ClusterLifecycle *m_lifecycle;
    QString m_knownHosts;
    std::function<bool(const QString &)> m_confirm;
    QList<cluster::Cluster> m_clusters;
    QHash<QString, providers::Instance> m_states;
    QHash<QString, cluster::ClusterCheck> m_checks;
    QHash<QString, QList<cluster::RankStatus>> m_jobs; // by cluster: its last job's ranks
    QTreeWidget *m_list;
    QTreeWidget *m_nodes;
    QComboBox *m_rank;
    QPlainTextEdit *m_log;
    QLabel *m_status;
    QPushButton *m_check;
    QPushButton *m_torchrun;
    QPushButton *m_terminate;
    QPushButton *m_jobStatus;
    QPushButton *m_stopOthers;
};

} // namespace gantry::ui
