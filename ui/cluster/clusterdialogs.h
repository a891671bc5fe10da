#pragma once

#include "core/cluster/launcher.h"
#include "core/cluster/wiring.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QListWidget;
class QSpinBox;

namespace gantry::providers { class ProviderHub; }

namespace gantry::ui {

// N nodes of one type in one region: provider → type → region → node count → SSH key, with the
// cluster's total price per hour. The launch itself is the panel's (ClusterLauncher).
class ClusterLaunchDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterLaunchDialog)

public:
    // configDir: where Gantry's own key pair is (keys/), offered with the user's ~/.ssh pairs.
    ClusterLaunchDialog(providers::ProviderHub *hub, QString configDir = {}, QWidget *parent = nullptr);
    cluster::ClusterLaunchRequest request() const;
    QString estimateText() const;
    void setNodes(int nodes);

signals:
    void typesLoaded();
    void keysLoaded();

private:
    void providerChanged();
    void typeChanged();
    void updateEstimate();
    void loadKeys(providers::Provider *provider);

    providers::ProviderHub *m_hub;
    QList<providers::InstanceType> m_types;
    QLineEdit *m_name;
    QComboBox *m_provider;
    QComboBox *m_type;
    QComboBox *m_region;
    QSpinBox *m_nodes;
    QString m_configDir;
    QComboBox *m_sshKey; // the account's keys, the one Gantry can log in with first; another name may be typed
    QLabel *m_estimate;
};

// "New cluster from saved hosts…": a name and the saved hosts to group, ticked in rank order
// (the first ticked is rank 0, the head). What `gantry-cli cluster add NAME HOST…` does.
class ClusterFromHostsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterFromHostsDialog)

public:
    ClusterFromHostsDialog(const QStringList &hostNames, QWidget *parent = nullptr);
    QString name() const;
    QStringList hosts() const; // the ticked ones, in rank order
    void setName(const QString &name);
    void setChecked(const QString &host, bool checked);
    QListWidget *hostList() const { return m_hosts; }
    QPushButton *okButton() const { return m_ok; }
    QString hintText() const;

private:
    void updateState();

    QLineEdit *m_name;
    QListWidget *m_hosts;
    QLabel *m_hint;
    QPushButton *m_ok;
    QStringList m_order; // ticked hosts, in the order they were ticked
};

// Script, arguments, environment, processes per node (auto: the GPU count) and the port.
class TorchrunDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TorchrunDialog)

public:
    TorchrunDialog(const cluster::Cluster &cluster, QWidget *parent = nullptr);
    // The spec, or why the fields do not make one.
    Result<cluster::TorchrunSpec> spec() const;
    void setScript(const QString &script, const QString &arguments);

private:
    QLineEdit *m_script;
    QLineEdit *m_arguments;
    QLineEdit *m_workingDir;
    QLineEdit *m_env;
    QSpinBox *m_nproc;
    QSpinBox *m_port;
};

} // namespace gantry::ui
