// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/runstate.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gantry::runs { class RunFollower; }
namespace gantry::workspace { class AppCore; }

namespace gantry::ui {

class BoundedLogView;
class RunAttemptsModel;
class RunListModel;

// The Runs panel: every managed run in the config folder (whichever process drives it — the
// window, a `gantry-cli run start`, the watcher) with its state, attempts, cost so far and
// checkpoint age; for the selected run its attempt timeline and a live tail of its log; Stop, and
// New run…. A view over the core's RunService: the runs it starts live on the core and outlive
// the panel. Each refresh reads the run files on a worker.
class RunsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunsPanel)

public:
    explicit RunsPanel(workspace::AppCore *core, QWidget *parent = nullptr);
    ~RunsPanel() override;

    RunListModel *model() const { return m_model; }
    RunAttemptsModel *attempts() const { return m_attempts; }
    QTableView *runsView() const { return m_runsView; }
    BoundedLogView *log() const { return m_log; }
    QLabel *details() const { return m_details; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *newRunButton() const { return m_newRun; }
    QString selectedRun() const;
    void selectRun(const QString &name);

    // Reads the runs again now (otherwise every second); refreshed() follows.
    void refresh();
    // Stops the selected run without asking (Stop asks first).
    void stopSelected(bool keepMachine);
    // Opens New run… (not modal); the tests reach the dialog through it.
    class NewRunDialog *openNewRun();

signals:
    void refreshed();

private:
    void showRecords(const QList<runs::RunRecord> &records);
    void selectionChanged();
    void showSelected();
    void askStop();

    workspace::AppCore *m_core;
    RunListModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    RunAttemptsModel *m_attempts = nullptr;
    QTableView *m_runsView = nullptr;
    QTableView *m_attemptsView = nullptr;
    BoundedLogView *m_log = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_empty = nullptr;
    QPushButton *m_newRun = nullptr;
    QPushButton *m_stop = nullptr;
    runs::RunFollower *m_follower = nullptr;
    QTimer m_timer;
    QString m_pendingSelect; // a run just started here: selected once it is listed
    bool m_reading = false;
};

} // namespace gantry::ui
