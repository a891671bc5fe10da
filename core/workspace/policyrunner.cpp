#include "core/workspace/policyrunner.h"

#include "core/cost/budgetmonitor.h"
#include "core/hosts/hoststore.h"
#include "core/monitor/monitorservice.h"
#include "core/workspace/policylock.h"

#include <QPointer>

namespace gantry::workspace {

PolicyRunner::PolicyRunner(Workspace *workspace, monitor::MonitorService *monitor, PolicyLock *lock, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_monitor(monitor)
    , m_lock(lock)
    , m_budgets(new cost::BudgetMonitor(workspace->ledger(), this))
{
    m_lock->tryAcquire();
    connect(m_budgets, &cost::BudgetMonitor::thresholdReached, this, [this](const QString &period, int threshold, double spent, double limit) {
        emit budgetReached(period, threshold, spent, limit, cost::BudgetMonitor::alertText(period, threshold, spent, limit, m_budgets->billingNow()));
    });
    if (m_monitor) {
        connect(m_monitor, &monitor::MonitorService::machineAdded, this, &PolicyRunner::wire);
        for (const QString &name : m_monitor->machines())
            wire(name);
    }
}

bool PolicyRunner::ownsPolicy()
{
    return m_lock->tryAcquire();
}

void PolicyRunner::setIdleOverride(monitor::IdleAction action, double idleMinutes, int countdownSeconds)
{
    m_action = action;
    m_idleMinutes = idleMinutes;
    m_countdownSeconds = countdownSeconds;
    if (m_monitor) {
        for (const QString &name : m_monitor->machines())
            wire(name);
    }
}

void PolicyRunner::wire(const QString &hostName)
{
    monitor::IdlePolicy *policy = m_monitor->idlePolicy(hostName);
    if (!policy)
        return;
    if (m_action)
        policy->setAction(*m_action);
    if (m_countdownSeconds > 0)
        policy->setCountdownSeconds(m_countdownSeconds);
    if (monitor::AlertEngine *alerts = m_monitor->alerts(hostName); alerts && m_idleMinutes > 0) {
        monitor::AlertThresholds thresholds = alerts->thresholds();
        thresholds.idleMinutes = m_idleMinutes;
        alerts->setThresholds(thresholds);
    }
    policy->setTransfersPending([this, hostName] { return m_transfersPending && m_transfersPending(hostName); });
    policy->setJobsRunning([this, hostName] { return m_jobsRunning && m_jobsRunning(hostName); });
    disconnect(policy, nullptr, this, nullptr); // wired again after an override: once
    connect(policy, &monitor::IdlePolicy::notify, this, &PolicyRunner::idleNotice);
    connect(policy, &monitor::IdlePolicy::actionRequested, this, &PolicyRunner::actionRequested);
}

void PolicyRunner::actionRequested(const QString &hostName, monitor::IdleAction action)
{
    if (action == monitor::IdleAction::Notify)
        return;
    if (!m_lock->tryAcquire()) {
        emit deferred(hostName, m_lock->holder());
        return;
    }
    const InstanceAction wanted = action == monitor::IdleAction::Terminate ? InstanceAction::Terminate : InstanceAction::Stop;
    const std::optional<SavedHost> host = m_workspace->hosts() ? m_workspace->hosts()->find(hostName) : std::nullopt;
    if (!host || host->provider.isEmpty() || host->instanceId.isEmpty()) {
        emit actionFailed(hostName, instanceActionName(wanted),
                          tr("Gantry cannot stop this machine: it was not launched through a provider Gantry manages. Stop it in "
                             "your provider's console."));
        return;
    }
    if (m_workspace->busy(host->provider, host->instanceId))
        return; // the first request is being acted on; record it once
    ActionOptions options;
    options.unattended = true;
    options.note = tr("idle policy");
    QPointer<PolicyRunner> self(this);
    m_workspace->act(wanted, host->provider, host->instanceId, options, [self, hostName, wanted](Result<ActionOutcome> outcome) {
        if (!self)
            return;
        if (outcome)
            emit self->acted(hostName, *outcome);
        else
            emit self->actionFailed(hostName, instanceActionName(wanted), outcome.error().message);
    });
}

} // namespace gantry::workspace
