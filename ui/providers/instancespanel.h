#pragma once

#include "core/providers/providerhub.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gantry {
class HostStore;
namespace cost { class Ledger; }
namespace workspace { class Workspace; }
} // namespace gantry

namespace gantry::ui {

class InstancesModel;

// What a confirmation says before an action: what is lost and what keeps billing.
QString confirmationText(const providers::ProviderInfo &info, const providers::Instance &instance, const QString &action);

// The Instances view: instances of every provider with Stop/Start/Restart/Terminate. Every action
// is confirmed with exactly what is lost and what keeps billing, then done by the workspace (which
// records it). Refreshes on a timer, keeps the cost ledger in step, and turns instances that come up
// into saved SSH hosts (hostReady()).
class InstancesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InstancesPanel)

public:
    explicit InstancesPanel(workspace::Workspace *workspace, QWidget *parent = nullptr);

    InstancesModel *model() const { return m_model; }
    // Tests answer confirmations without a dialog.
    void setLaunchPollMs(int ms) { m_launchPollMs = ms; }
    void setConfirmer(std::function<bool(const QString &title, const QString &text)> confirmer) { m_confirm = std::move(confirmer); }
    // Asked before the terminate confirmation (results home, transfers pending); false stops it,
    // true means the user settled the results question.
    void setTerminateGuard(std::function<bool(const providers::Instance &)> guard) { m_terminateGuard = std::move(guard); }

public slots:
    void refresh();
    // Call after a launch (LaunchDialog::launched): records the cost and watches it come up.
    void trackLaunch(const QString &provider, const QString &instanceId, double pricePerHour,
                     const gantry::providers::LaunchRequest &request);
    void act(const QString &action); // "stop", "start", "restart", "terminate" on the selection

signals:
    void hostReady(const QString &hostName);
    void message(const QString &text);

private:
    void updateButtons();
    void remember(const providers::Instance &instance);

    workspace::Workspace *m_workspace;
    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    HostStore *m_hosts;
    QString m_configDir;
    InstancesModel *m_model;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_stop;
    QPushButton *m_start;
    QPushButton *m_restart;
    QPushButton *m_terminate;
    QTimer m_timer;
    int m_launchPollMs = 0; // 0: the provider's statusPollMs
    std::function<bool(const QString &, const QString &)> m_confirm;
    std::function<bool(const providers::Instance &)> m_terminateGuard;
};

} // namespace gantry::ui
