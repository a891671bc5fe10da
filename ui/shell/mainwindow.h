#pragma once

#include "ui/common/detailtab.h"
#include "core/ssh/connection.h"

#include <QHash>
#include <QKeySequence>
#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;
class QListWidget;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace gantry {
class ConnectionManager;
class HostStore;
class SecretStore;
namespace workspace { class AppCore; }
} // namespace gantry

namespace gantry::ui {

class HandoffActions;
class HelpWindow;
class MachineFilterProxy;
class MachineTableModel;
class OverviewTab;
class SelectionKeeper;
class WelcomePage;

// The window: a sidebar of sections (Machines, then panels such as Prices, Instances, Transfers,
// Cost, Fleet), the machines table with its detail tabs (Overview, Files, Monitor, Verify, Jobs),
// a welcome page while there are no machines, the menu bar, and in-window banners. Geometry,
// splitter sizes and the last panel are kept in <configDir>/window.ini. A view over the application
// core (workspace::AppCore): the hosts, connections and every operation on them are the core's.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(workspace::AppCore *core, QWidget *parent = nullptr);
    ~MainWindow() override;

    AppContext context() const;
    workspace::AppCore *core() const { return m_core; }
    HostStore *hosts() const { return m_hosts; }
    ConnectionManager *connections() const { return m_connections; }
    MachineTableModel *machineModel() const { return m_model; }
    QTableView *machineView() const { return m_view; }
    // Open in VS Code / Cursor / terminal and the edits of remote files (Machine menu, Files tab's Edit).
    HandoffActions *handoff() const { return m_handoff; }
    // What a right click on a machine opens; the caller owns it.
    QMenu *machineContextMenu(QWidget *parent);

    void addDetailTab(DetailTab *tab);
    // Brings a detail tab to the front (Transfers' "Show on the machine" opens Files).
    void showDetailTab(DetailTab *tab);
    // Panels are found by id ("prices", "instances", …), never by their title, which is translated.
    void addPanel(const QString &id, const QString &title, QWidget *panel);
    void showPanel(const QString &id);
    void selectHost(const QString &hostName);
    QString selectedHost() const;

    void connectSelected();
    void disconnectSelected();
    void addHostInteractive(const QString &loginCommand = {});
    void importSshConfig();
    void removeSelected();

    // Menu-bar and toolbar commands, by id ("quit", "refresh", "uploadFiles", "launch", …): tests
    // and the app wiring reach them here. Null for an unknown id.
    QAction *action(const QString &id) const;
    QList<QAction *> allActions() const;
    // F5: the current panel's or detail tab's refresh()/reload() slot.
    void refreshCurrentView();
    // Ctrl+U / Ctrl+Shift+U and Machine → Verify GPU / Doctor: a detail tab's own action (objectName
    // "uploadFilesAction", "verifyAction"…, or its slot of that name), shown for the selected machine.
    bool triggerTabCommand(const QString &actionName, const char *slot = nullptr);
    void focusFilter();
    void nextDetailTab(int step);
    QString currentPanel() const;
    // A dismissable coloured strip above the views, for alerts where the desktop has no tray or
    // notification service (and for budget crossings in any case). level: "warning" or "error".
    void showBanner(const QString &text, const QString &level = QStringLiteral("warning"));
    QString bannerText() const;
    WelcomePage *welcomePage() const { return m_welcome; }
    // Writes the report on a thread; diagnosticReportSaved() says where (or why not).
    void saveDiagnosticReport(const QString &path);
    // The manual's section for the view the user is in (F1): "files", "prices", "start"…
    QString helpTopic() const;
    // F1: the manual at helpTopic(), in a window of its own.
    void showHelp();

    // Asked before closing; panels with pending work (transfers, jobs) register a check that returns
    // a sentence describing it, or an empty string.
    void addCloseGuard(std::function<QString()> guard);

    // Interactive prompts; replaceable for tests.
    std::function<bool(const ssh::HostKeyInfo &)> confirmHostKey;

signals:
    void selectedHostChanged(const QString &hostName);
    // Handled by the app wiring, which owns the providers and the ledger.
    void launchRequested();
    void sandboxRequested();
    void settingsRequested(const QString &page); // "accounts", "general"
    void diagnosticReportSaved(const QString &message);
    // Machine → Stop/Start/Restart/Terminate on the selected machine's cloud instance: the app
    // wiring has the Instances view ask and act. action: "stop", "start", "restart", "terminate".
    void instanceActionRequested(const QString &hostName, const QString &action);

protected:
    void closeEvent(QCloseEvent *event) override;
    // The window's shortcuts win over a text field that would take the key (QLineEdit takes
    // Ctrl+U on X11), and typing in the machines table types into its filter.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void addSection(const QString &id, const QString &title);
    void terminateInstanceOf(const SavedHost &host);
    void buildActions();
    void buildMenus();
    QWidget *buildBanner(QWidget *parent);
    QWidget *buildMachinesPage(QWidget *parent);
    void connectWelcome();
    void connectMenus();
    void connectHandoffs();
    void addPanelAction(const QString &id, const QString &title);
    void adoptTabShortcuts(DetailTab *tab);
    // The Machine menu's commands for what is selected: instance actions only for a cloud instance.
    void updateMachineCommands();
    void requestInstanceAction(const QString &verb);
    QAction *addCommand(const QString &id, const QString &text, const QList<QKeySequence> &keys);
    void updateWelcome();
    void restoreWindowState();
    void saveWindowState() const;
    void updateDetails();
    void onStateChanged(const QString &hostName, ssh::ConnectionState state, const QString &message);
    // On a connection's worker thread (or the GUI thread): asks on the GUI thread and waits for
    // the answer or for the connection's closing flag. `window` was taken on the GUI thread and is
    // only looked at there: a worker may still ask after the window is gone (no answer then).
    static bool askHostKey(const QPointer<MainWindow> &window, const ssh::HostKeyInfo &info, const std::atomic_bool *closing);
    static std::optional<QString> askSecret(const QPointer<MainWindow> &window, const QString &prompt,
                                            const std::atomic_bool *closing);

    workspace::AppCore *m_core;
    QString m_configDir;
    SecretStore *m_secrets;
    HostStore *m_hosts = nullptr;
    ConnectionManager *m_connections = nullptr;
    MachineTableModel *m_model = nullptr;
    MachineFilterProxy *m_proxy = nullptr;
    SelectionKeeper *m_keeper = nullptr;
    QListWidget *m_sections = nullptr;
    QStackedWidget *m_stack = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filter = nullptr;
    QTabWidget *m_tabs = nullptr;
    OverviewTab *m_overview = nullptr;
    QList<DetailTab *> m_detailTabs;
    QList<std::function<QString()>> m_closeGuards;
    QLabel *m_stateLabel = nullptr;
    QStackedWidget *m_machinesStack = nullptr; // the welcome page, or the table with its tabs
    WelcomePage *m_welcome = nullptr;
    QSplitter *m_splitter = nullptr;
    QWidget *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_panelsMenu = nullptr;
    QPointer<HelpWindow> m_help;
    QHash<QString, QAction *> m_actions;
    HandoffActions *m_handoff = nullptr;
};

} // namespace gantry::ui
