#pragma once

#include "common/detailtab.h"
#include "ssh/connection.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace gantry {
class ConnectionManager;
class HostStore;
class SecretStore;
} // namespace gantry

namespace gantry::ui {

class MachineFilterProxy;
class MachineTableModel;
class OverviewTab;

// The window: a sidebar of sections (Machines, then panels such as Prices, Instances, Transfers,
// Cost, Fleet), the machines table with its detail tabs (Overview, Files, Monitor, Verify, Jobs).
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(const QString &configDir, SecretStore *secrets, QWidget *parent = nullptr);
    ~MainWindow() override;

    AppContext context() const;
    HostStore *hosts() const { return m_hosts; }
    ConnectionManager *connections() const { return m_connections; }
    MachineTableModel *machineModel() const { return m_model; }
    QTableView *machineView() const { return m_view; }

    void addDetailTab(DetailTab *tab);
    // Panels are found by id ("prices", "instances", …), never by their title, which is translated.
    void addPanel(const QString &id, const QString &title, QWidget *panel);
    void showPanel(const QString &id);
    void selectHost(const QString &hostName);
    QString selectedHost() const;

    void connectSelected();
    void disconnectSelected();
    void addHostInteractive();
    void importSshConfig();
    void removeSelected();

    // Asked before closing; panels with pending work (transfers, jobs) register a check that returns
    // a sentence describing it, or an empty string.
    void addCloseGuard(std::function<QString()> guard);

    // Interactive prompts; replaceable for tests.
    std::function<bool(const ssh::HostKeyInfo &)> confirmHostKey;

signals:
    void selectedHostChanged(const QString &hostName);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void addSection(const QString &id, const QString &title);
    void buildActions();
    void updateDetails();
    void onStateChanged(const QString &hostName, ssh::ConnectionState state, const QString &message);
    bool askHostKey(const ssh::HostKeyInfo &info);
    std::optional<QString> askSecret(const QString &prompt);

    QString m_configDir;
    SecretStore *m_secrets;
    HostStore *m_hosts = nullptr;
    ConnectionManager *m_connections = nullptr;
    MachineTableModel *m_model = nullptr;
    MachineFilterProxy *m_proxy = nullptr;
    QListWidget *m_sections = nullptr;
    QStackedWidget *m_stack = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filter = nullptr;
    QTabWidget *m_tabs = nullptr;
    OverviewTab *m_overview = nullptr;
    QList<DetailTab *> m_detailTabs;
    QList<std::function<QString()>> m_closeGuards;
    QLabel *m_stateLabel = nullptr;
};

} // namespace gantry::ui
