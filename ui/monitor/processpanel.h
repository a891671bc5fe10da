#pragma once

#include "core/monitor/processkill.h"
#include "core/monitor/samples.h"

#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gantry::ui::monitor {

class ProcessModel;

// The GPU processes of the machine (PID, user, GPU, memory, full command line) with a Kill
// action: a confirmation names the process and offers SIGTERM or SIGKILL, then killRequested()
// asks the owner to send it over the machine's connection.
class ProcessPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessPanel)

public:
    explicit ProcessPanel(QWidget *parent = nullptr);

    ProcessModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    void setProcesses(const QList<gantry::monitor::GpuProcess> &processes);
    void setMachine(const QString &name) { m_machine = name; }
    // Whether a signal can be sent now (a live connection); Kill is disabled otherwise.
    void setCanKill(bool canKill, const QString &why = {});
    void showResult(const QString &text);
    QString resultText() const;

    // The question before a kill; tests answer it without a dialog. nullopt: cancelled.
    using Confirm = std::function<std::optional<gantry::monitor::KillSignal>(const gantry::monitor::GpuProcess &)>;
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    std::optional<gantry::monitor::GpuProcess> selectedProcess() const;

public slots:
    void killSelected();

signals:
    void killRequested(qint64 pid, gantry::monitor::KillSignal signal);

private:
    std::optional<gantry::monitor::KillSignal> askUser(const gantry::monitor::GpuProcess &process);
    void updateActions();
    void showContextMenu(const QPoint &pos);

    QString m_machine;
    ProcessModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QPushButton *m_kill;
    QLabel *m_result;
    bool m_canKill = false;
    QString m_cannotKillWhy;
    Confirm m_confirm;
};

} // namespace gantry::ui::monitor
