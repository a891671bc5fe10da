#pragma once

#include "ui/common/detailtab.h"
#include "core/handoff/handoff.h"
#include "core/hosts/hoststore.h"

#include <QPointer>

class QLabel;
class QGroupBox;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace gantry::jobs { class JobService; }
namespace gantry::tunnel { class TunnelManager; }

namespace gantry::ui {

class BoundedLogView;
class JobListModel;

// The "Jobs" detail tab: jobs that survive disconnects (run, live log, stop, rerun), tunnels to
// Jupyter/TensorBoard/any port, terminal and VS Code shortcuts, and the result paths to bring
// home before terminating. The JobService and TunnelManager are the app's, shared with the idle
// policy and the notifications.
class JobsTab final : public DetailTab
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobsTab)

public:
    JobsTab(AppContext context, jobs::JobService *jobs, tunnel::TunnelManager *tunnels, QWidget *parent = nullptr);
    ~JobsTab() override;

    QString title() const override { return tr("Jobs"); }
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    JobListModel *model() const { return m_model; }
    BoundedLogView *logView() const { return m_log; }
    QTableView *jobTable() const { return m_table; }
    QListWidget *tunnelList() const { return m_tunnelList; }
    QPlainTextEdit *resultPathsEdit() const { return m_results; }
    QString selectedJob() const;
    QString statusText() const;

    // "Terminal" and "VS Code" of the Open box: core/handoff's command, as `gantry-cli open`.
    void openTerminal();
    void openVsCode();
    // Where those programs are looked up and how they start (tests: a PATH of their own).
    void setDesktop(handoff::Desktop desktop) { m_desktop = std::move(desktop); }

    // Opens a tunnel to remotePort on the current machine and, once open, the browser.
    void openTunnel(int remotePort, const QString &label, bool openBrowser = true);

private:
    QWidget *buildJobsPane();
    QGroupBox *buildTunnelsBox();
    QWidget *buildSidePane();
    void connectJobService();
    void runJob();
    void stopJob();
    void rerunJob();
    void removeJob();
    void followSelected();
    void updateButtons();
    void refreshTunnels();
    void handOff(handoff::Tool tool);
    void saveResultPaths();
    void showStatus(const QString &message, bool error = false);

    AppContext m_context;
    handoff::Desktop m_desktop;
    jobs::JobService *m_jobs;
    tunnel::TunnelManager *m_tunnels;
    SavedHost m_host;
    bool m_hasHost = false;
    QPointer<ssh::Connection> m_connection;
    QString m_followed;
    QString m_justStarted; // started here, not yet in the list: selected when it appears
    QString m_stopping; // the job whose "Stopping …" status shows until it has ended

    JobListModel *m_model;
    QTableView *m_table;
    BoundedLogView *m_log;
    QLabel *m_status;
    QPushButton *m_run;
    QPushButton *m_stop;
    QPushButton *m_rerun;
    QPushButton *m_remove;
    QListWidget *m_tunnelList;
    QPushButton *m_closeTunnel;
    QPlainTextEdit *m_results;
};

} // namespace gantry::ui
