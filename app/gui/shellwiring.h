#pragma once

#include <QObject>
#include <QPointer>

namespace gantry {
class SecretStore;
namespace cost { class Ledger; }
namespace providers { class ProviderHub; }
namespace ui { class MainWindow; class PricesPanel; class InstancesPanel; class CostPanel; class TrayIcon; }
namespace workspace { class PolicyRunner; }
} // namespace gantry

namespace gantry::app {

class AppServices;

// The shell's commands that need the app's services: Settings, Launch… with the cheapest type,
// the welcome page's one-click sandbox, the Prices hint for a missing account, budget banners and
// the tray's running $/h, the idle defaults, and the panels' column layout for narrow windows.
// The services and panels come from AppServices' accessors (the core's services behind them).
class ShellWiring final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShellWiring)

public:
    ShellWiring(ui::MainWindow *window, AppServices *services, SecretStore *secrets);

    void openSettings(const QString &page);
    void openLaunch();
    void launchSandbox();
    void applyIdleDefaults();
    // The cheapest type with capacity now in the Prices table ({provider, type}; empty when none).
    QPair<QString, QString> cheapestAvailable() const;

private:
    void installPricesHint();
    void installBudgetAlerts();
    void installTrayMeter();
    void fitTables();
    void sandboxFailed(const QString &message);

    ui::MainWindow *m_window;
    AppServices *m_services;
    SecretStore *m_secrets;
    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    workspace::PolicyRunner *m_policies;
    ui::PricesPanel *m_prices;
    ui::InstancesPanel *m_instances;
    ui::CostPanel *m_cost;
    ui::TrayIcon *m_tray;
    bool m_idleApplied = false;
};

} // namespace gantry::app
