#pragma once

#include <QObject>

#include <memory>

class QSystemTrayIcon;

namespace gantry {
class SecretStore;
namespace cost { class Ledger; }
namespace jobs { class JobService; }
namespace monitor { class MonitorService; }
namespace providers { class ProviderHub; }
namespace transfer { class TransferQueue; }
namespace tunnel { class TunnelManager; }
namespace ui { class MainWindow; class InstancesPanel; }
namespace workspace { class PolicyLock; class PolicyRunner; class Workspace; }
} // namespace gantry

namespace gantry::app {

class ResultsGuard;

// The app-wide services behind the panels and tabs, and the wiring between them: launched
// instances become hosts, drops become uploads, idle machines are stopped, and nothing is closed or
// terminated while transfers or jobs are pending without asking.
class AppServices final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AppServices)

public:
    AppServices(ui::MainWindow *window, SecretStore *secrets);
    ~AppServices() override;

    providers::ProviderHub *providers() const { return m_hub; }
    transfer::TransferQueue *transfers() const { return m_transfers; }
    monitor::MonitorService *monitor() const { return m_monitor; }
    cost::Ledger *ledger() const { return m_ledger; }
    workspace::Workspace *workspace() const { return m_workspace; }
    ui::InstancesPanel *instances() const { return m_instances; }

    // The ids installPanels() registers, after the window's own "machines", in sidebar order: what
    // `gantry --panel` accepts and its --help lists (before any window exists).
    static QStringList panelIds();

    // The Launch dialog, on the provider and type given (the Prices row, the cheapest); the launch
    // is the workspace's, and the Instances panel follows it.
    void openLaunchDialog(const QString &provider, const QString &typeName);

    // Desktop notification (tray balloon where there is a tray, else the status bar).
    void notify(const QString &title, const QString &text);

private:
    void installPanels();
    void installTabs();
    void installPolicies();
    SecretStore *prefetchProviderKeys(SecretStore *secrets);

    ui::MainWindow *m_window;
    SecretStore *m_secrets;
    providers::ProviderHub *m_hub = nullptr;
    cost::Ledger *m_ledger = nullptr;
    transfer::TransferQueue *m_transfers = nullptr;
    monitor::MonitorService *m_monitor = nullptr;
    jobs::JobService *m_jobs = nullptr;
    tunnel::TunnelManager *m_tunnels = nullptr;
    ui::InstancesPanel *m_instances = nullptr;
    workspace::Workspace *m_workspace = nullptr;
    std::unique_ptr<workspace::PolicyLock> m_policyLock;
    workspace::PolicyRunner *m_policies = nullptr;
    ResultsGuard *m_results = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
};

} // namespace gantry::app
