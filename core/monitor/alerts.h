#pragma once

#include "core/monitor/samples.h"
#include "core/util/clock.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

class QTimer;

namespace gantry::monitor {

enum class AlertKind
{
    GpuIdle,             // the whole machine idle while billing
    DataLoaderBottleneck,
    MemoryNearFull,
    ThermalThrottle,
    PowerBrake,
    PcieDowngraded,
    EccErrors,
    DriverNotResponding,
    LowUtilization,      // a job runs but keeps the GPUs mostly waiting, whatever the cause
};
QString alertKindName(AlertKind kind); // "gpu_idle", …

enum class AlertSeverity
{
    Hint,
    Warning,
    Critical,
};

struct Alert
{
    AlertKind kind = AlertKind::GpuIdle;
    AlertSeverity severity = AlertSeverity::Warning;
    int gpu = -1;        // -1: the machine
    QString host;
    QString message;     // one or two sentences with the next step
    QDateTime since;     // when the condition started
};

struct AlertThresholds
{
    double idleMinutes = 15; // fractions for tests and demos: gantry-cli watch --idle-minutes 0.05
    double idleUtilizationPercent = 5;   // at or below: idle
    double idlePowerFraction = 0.30;     // draw at or below this share of the limit: idle
    int bottleneckSeconds = 60;
    double bottleneckGpuPercent = 40;    // GPU below this…
    double bottleneckCorePercent = 90;   // …while one core is at or above this
    // A job that keeps the GPUs below this for lowUtilMinutes: input-bound (a data loader spread over
    // several workers, disk or network), too small a batch, or waiting on the host. No pegged core
    // needed, so a starved training run is reported whatever starves it.
    double lowUtilPercent = 50;
    double lowUtilMinutes = 5;
    double memoryFullFraction = 0.95;
    int memoryFullSeconds = 10;
    int throttleSeconds = 10;
    int pcieSeconds = 30;
    double pcieLoadPercent = 50;         // links downshift when idle: only judge them under load
};

// Evaluates each sample of one machine and raises/clears alerts. A condition must hold for its
// duration (by the injected clock) before it is raised, and it is raised once until it clears.
// Unknown values never satisfy a condition.
class AlertEngine final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertEngine)

public:
    explicit AlertEngine(QString host, const Clock &clock = Clock::system(), QObject *parent = nullptr);

    void setThresholds(const AlertThresholds &thresholds) { m_thresholds = thresholds; }
    const AlertThresholds &thresholds() const { return m_thresholds; }
    // Idle alerts only matter when the machine costs money.
    void setBilling(bool billing) { m_billing = billing; }
    bool billing() const { return m_billing; }

    void evaluate(const MachineSample &sample);
    QList<Alert> active() const;

    // Whether a GPU counts as idle (exposed for the UI's idle badge and tests).
    static bool gpuIdle(const GpuSample &gpu, const AlertThresholds &t);

signals:
    void raised(const gantry::monitor::Alert &alert);
    void cleared(gantry::monitor::AlertKind kind, int gpu);

private:
    struct State
    {
        qint64 sinceMs = -1;
        bool raised = false;
        Alert alert;
    };
    // holds: condition true now; sustainMs: how long before raising.
    void track(AlertKind kind, int gpu, bool holds, qint64 sustainMs, AlertSeverity severity,
               const std::function<QString()> &message);
    void evaluateIdle(const MachineSample &sample);
    // Returns whether the data-loader condition holds now.
    bool evaluateBottleneck(const MachineSample &sample);
    void evaluateLowUtilization(const MachineSample &sample, bool bottleneck);
    static QString likelyCause(const MachineSample &sample);
    void evaluateGpu(const GpuSample &gpu);
    void evaluateEcc(const GpuSample &gpu);

    QString m_host;
    const Clock &m_clock;
    AlertThresholds m_thresholds;
    bool m_billing = true;
    QHash<quint64, State> m_states;
    QHash<int, qint64> m_eccBaseline;
};

enum class IdleAction
{
    Notify,
    Stop,
    Terminate,
};
QString idleActionName(IdleAction action);

// What to do when a billing machine has been idle: notify only, or request a stop/terminate after
// a visible, cancellable countdown. It never acts itself (the providers area stops instances) and
// never requests an action while transfers are pending or jobs run.
class IdlePolicy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IdlePolicy)

public:
    explicit IdlePolicy(QString host, const Clock &clock = Clock::system(), QObject *parent = nullptr);

    void setAction(IdleAction action) { m_action = action; }
    IdleAction action() const { return m_action; }
    void setCountdownSeconds(int seconds) { m_countdownS = qMax(1, seconds); }
    int countdownSeconds() const { return m_countdownS; }
    // Predicates asked at the start and at the end of a countdown.
    void setTransfersPending(std::function<bool()> predicate) { m_transfersPending = std::move(predicate); }
    void setJobsRunning(std::function<bool()> predicate) { m_jobsRunning = std::move(predicate); }

    // The machine has been idle long enough (AlertEngine raised GpuIdle).
    void idleDetected(const QString &reason);
    // The GPUs are busy again: a running countdown ends without action.
    void activityDetected();
    // The user pressed Cancel.
    void cancel();
    // Advances the countdown by the clock; a 1 s timer calls it while counting (tests call it).
    void tick();

    bool counting() const { return m_deadlineMs >= 0; }
    int remainingSeconds() const;

signals:
    void notify(const QString &host, const QString &message);
    void countdownStarted(const QString &host, gantry::monitor::IdleAction action, int seconds);
    void countdownChanged(const QString &host, int remainingSeconds);
    void countdownCancelled(const QString &host, const QString &reason);
    void actionBlocked(const QString &host, const QString &reason);
    void actionRequested(const QString &host, gantry::monitor::IdleAction action);

private:
    QString blocker() const;
    void stopCountdown();

    QString m_host;
    const Clock &m_clock;
    IdleAction m_action = IdleAction::Notify;
    int m_countdownS = 60;
    qint64 m_deadlineMs = -1;
    int m_lastAnnounced = -1;
    std::function<bool()> m_transfersPending;
    std::function<bool()> m_jobsRunning;
    QTimer *m_timer = nullptr;
};

} // namespace gantry::monitor

Q_DECLARE_METATYPE(gantry::monitor::Alert)
Q_DECLARE_METATYPE(gantry::monitor::AlertKind)
Q_DECLARE_METATYPE(gantry::monitor::IdleAction)
