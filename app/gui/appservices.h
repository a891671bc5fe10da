#pragma once

#include <QObject>

namespace gantry {
class SecretStore;
namespace cost { class Ledger; }
namespace jobs { class JobService; }
namespace monitor { class MonitorService; }
namespace providers { class ProviderHub; }
namespace transfer { class TransferQueue; }
namespace tunnel { class TunnelManager; }
namespace ui { class MainWindow; class CostPanel; class InstancesPanel; class PricesPanel; class TrayIcon; }
namespace workspace { class AppCore; class PolicyRunner; class Workspace; }
} // namespace gantry

namespace gantry::app {

class ResultsGuard;

// The window's panels and tabs over the application core (workspace::AppCore, which owns every
// store and service) and what the core announces turned into what a desktop user sees: launched
// instances selected and connected, drops queued as uploads, idle and budget notices in the tray,
// and no close or terminate while transfers or results are pending without asking.
class AppServices final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AppServices)

public:
    AppServices(ui::MainWindow *window, workspace::AppCore *core);
    ~AppServices() override;

    workspace::AppCore *core() const { return m_core; }
    providers::ProviderHub *providers() const;
    transfer::TransferQueue *transfers() const;
    monitor::MonitorService *monitor() const;
    cost::Ledger *ledger() const;
    workspace::Workspace *workspace() const;
    workspace::PolicyRunner *policies() const { return m_policies; }
    ui::InstancesPanel *instances() const { return m_instances; }
    ui::PricesPanel *prices() const { return m_prices; }
    ui::CostPanel *costPanel() const { return m_costPanel; }
    ui::TrayIcon *tray() const { return m_tray; } // nullptr where the desktop has no tray

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
    void followLaunchTimes();
    void installTabs();
    void connectInstanceCommands();
    void installPolicies();
    void onHostReady(const QString &hostName);
    void afterLaunchConnected(const QString &hostName);

    ui::MainWindow *m_window;
    workspace::AppCore *m_core;
    ui::InstancesPanel *m_instances = nullptr;
    ui::PricesPanel *m_prices = nullptr;
    ui::CostPanel *m_costPanel = nullptr;
    workspace::PolicyRunner *m_policies = nullptr;
    ResultsGuard *m_results = nullptr;
    ui::TrayIcon *m_tray = nullptr;
};

} // namespace gantry::app
