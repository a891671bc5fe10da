#pragma once

#include "core/monitor/alerts.h"
#include "core/workspace/workspace.h"

#include <QObject>

#include <functional>
#include <optional>

namespace gantry::cost { class BudgetMonitor; }
namespace gantry::monitor { class MonitorService; }

namespace gantry::workspace {

class PolicyLock;

// The idle policy and the budget watch, run the same way by the GUI and by `gantry-cli watch`:
// each monitored machine's IdlePolicy asks here, and a stop or terminate is done by the workspace
// unattended (results home first, ledger row, host forgotten) — but only while this process holds
// the policy lock; otherwise it defers to the owner and says so. An action runs once per instance.
class PolicyRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PolicyRunner)

public:
    PolicyRunner(Workspace *workspace, monitor::MonitorService *monitor, PolicyLock *lock, QObject *parent = nullptr);

    // Asked by each machine's policy before it counts down (the GUI's transfer queue and jobs).
    void setTransfersPending(std::function<bool(const QString &host)> predicate) { m_transfersPending = std::move(predicate); }
    void setJobsRunning(std::function<bool(const QString &host)> predicate) { m_jobsRunning = std::move(predicate); }
    // The watcher's command line: every machine gets this action and idle time (0 keeps the default).
    void setIdleOverride(monitor::IdleAction action, double idleMinutes, int countdownSeconds);
    cost::BudgetMonitor *budgets() const { return m_budgets; }
    bool ownsPolicy();

    // An idle policy asked for its action (the IdlePolicy::actionRequested path; tests call it).
    void actionRequested(const QString &hostName, monitor::IdleAction action);

signals:
    void idleNotice(const QString &host, const QString &message);
    void budgetReached(const QString &period, int threshold, double spent, double limit, const QString &text);
    void acted(const QString &host, const gantry::workspace::ActionOutcome &outcome);
    void actionFailed(const QString &host, const QString &action, const QString &message);
    void deferred(const QString &host, const QString &holder);

private:
    void wire(const QString &hostName);

    Workspace *m_workspace;
    monitor::MonitorService *m_monitor;
    PolicyLock *m_lock;
    cost::BudgetMonitor *m_budgets;
    std::function<bool(const QString &)> m_transfersPending;
    std::function<bool(const QString &)> m_jobsRunning;
    std::optional<monitor::IdleAction> m_action;
    double m_idleMinutes = 0;
    int m_countdownSeconds = 0;
};

} // namespace gantry::workspace
