#include "core/monitor/alerts.h"

#include <QTimer>

namespace gantry::monitor {
namespace {
quint64 stateKey(AlertKind kind, int gpu)
{
    return (quint64(kind) << 32) | quint32(gpu + 1);
}
} // namespace

QString alertKindName(AlertKind kind)
{
    switch (kind) {
    case AlertKind::GpuIdle: return QStringLiteral("gpu_idle");
    case AlertKind::DataLoaderBottleneck: return QStringLiteral("data_loader_bottleneck");
    case AlertKind::MemoryNearFull: return QStringLiteral("memory_near_full");
    case AlertKind::ThermalThrottle: return QStringLiteral("thermal_throttle");
    case AlertKind::PowerBrake: return QStringLiteral("power_brake");
    case AlertKind::PcieDowngraded: return QStringLiteral("pcie_downgraded");
    case AlertKind::EccErrors: return QStringLiteral("ecc_errors");
    case AlertKind::DriverNotResponding: return QStringLiteral("driver_not_responding");
    case AlertKind::LowUtilization: return QStringLiteral("low_utilization");
    }
    return QStringLiteral("unknown");
}

QString idleActionName(IdleAction action)
{
    switch (action) {
    case IdleAction::Notify: return QStringLiteral("notify");
    case IdleAction::Stop: return QStringLiteral("stop");
    case IdleAction::Terminate: return QStringLiteral("terminate");
    }
    return QStringLiteral("notify");
}

AlertEngine::AlertEngine(QString host, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_clock(clock)
{
}

bool AlertEngine::gpuIdle(const GpuSample &gpu, const AlertThresholds &t)
{
    const bool powerKnown = gpu.powerDrawW && gpu.powerLimitW && *gpu.powerLimitW > 0;
    const bool powerIdle = powerKnown && *gpu.powerDrawW <= t.idlePowerFraction * *gpu.powerLimitW;
    if (gpu.utilizationGpu) {
        return *gpu.utilizationGpu <= t.idleUtilizationPercent && (!powerKnown || powerIdle);
    }
    return powerIdle; // MIG reports no utilization: judge by power alone, never by "unknown"
}

void AlertEngine::track(AlertKind kind, int gpu, bool holds, qint64 sustainMs, AlertSeverity severity,
                        const std::function<QString()> &message)
{
    const quint64 key = stateKey(kind, gpu);
    const qint64 now = m_clock.monotonicMs();
    if (!holds) {
        auto it = m_states.find(key);
        if (it != m_states.end()) {
            const bool wasRaised = it->raised;
            m_states.erase(it);
            if (wasRaised) {
                emit cleared(kind, gpu);
            }
        }
        return;
    }
    State &s = m_states[key];
    if (s.sinceMs < 0) {
        s.sinceMs = now;
        s.alert.since = m_clock.now();
    }
    if (!s.raised && now - s.sinceMs >= sustainMs) {
        s.raised = true;
        s.alert.kind = kind;
        s.alert.gpu = gpu;
        s.alert.host = m_host;
        s.alert.severity = severity;
        s.alert.message = message();
        emit raised(s.alert);
    }
}

void AlertEngine::evaluate(const MachineSample &sample)
{
    // Driver
    const bool driverFailed = sample.driver == DriverState::Failed;
    track(AlertKind::DriverNotResponding, -1, driverFailed, 0, AlertSeverity::Critical, [&] {
        return tr("nvidia-smi stopped responding: %1. Check `dmesg` for Xid errors; a reboot of the "
                  "instance usually recovers the GPU.")
            .arg(sample.driverMessage.isEmpty() ? tr("no details") : sample.driverMessage);
    });
    if (sample.gpus.isEmpty()) {
        return; // the GPU conditions below keep their state until GPUs report again
    }
    evaluateIdle(sample);
    evaluateLowUtilization(sample, evaluateBottleneck(sample));
    for (const GpuSample &g : sample.gpus) {
        evaluateGpu(g);
        evaluateEcc(g);
    }
}

// Idle machine: every GPU idle while billing.
void AlertEngine::evaluateIdle(const MachineSample &sample)
{
    const AlertThresholds &t = m_thresholds;
    bool allIdle = m_billing;
    for (const GpuSample &g : sample.gpus) {
        allIdle = allIdle && gpuIdle(g, t);
    }
    track(AlertKind::GpuIdle, -1, allIdle, qint64(t.idleMinutes * 60000), AlertSeverity::Warning, [&] {
        return tr("All %n GPU(s) have been idle for %1 minutes while the machine is billing. Stop it if "
                  "you are done.", nullptr, int(sample.gpus.size()))
            .arg(t.idleMinutes);
    });
}

namespace {
// The average utilization of the GPUs that report one, and whether the GPUs are doing anything
// (a GPU above idle, or a process on one).
struct GpuLoad
{
    int reporting = 0;
    double average = 100;
    bool working = false;
};

GpuLoad gpuLoad(const MachineSample &sample, const AlertThresholds &t)
{
    GpuLoad load;
    double sum = 0;
    bool anyBusy = false;
    for (const GpuSample &g : sample.gpus) {
        if (g.utilizationGpu) {
            sum += *g.utilizationGpu;
            ++load.reporting;
            anyBusy = anyBusy || *g.utilizationGpu > t.idleUtilizationPercent;
        }
    }
    if (load.reporting)
        load.average = sum / load.reporting;
    load.working = anyBusy || !sample.processes.isEmpty();
    return load;
}
} // namespace

// Data loading bottleneck: GPUs starved while one core is pegged.
bool AlertEngine::evaluateBottleneck(const MachineSample &sample)
{
    const AlertThresholds &t = m_thresholds;
    const GpuLoad load = gpuLoad(sample, t);
    const double avgUtil = load.average;
    const double maxCore = sample.hostMetrics ? sample.hostMetrics->maxCoreBusyPercent() : 0;
    const bool bottleneck = load.reporting > 0 && load.working && avgUtil < t.bottleneckGpuPercent
                            && maxCore >= t.bottleneckCorePercent;
    track(AlertKind::DataLoaderBottleneck, -1, bottleneck, qint64(t.bottleneckSeconds) * 1000,
          AlertSeverity::Hint, [&] {
              return tr("Data loading is the bottleneck: GPU utilization averages %1 % while a CPU core is "
                        "at %2 %. Raise DataLoader num_workers or move preprocessing to the GPU or offline.")
                  .arg(qRound(avgUtil))
                  .arg(qRound(maxCore));
          });
    return bottleneck;
}

// A job keeps the GPUs mostly waiting for minutes. While a pegged core explains it, the data-loader
// hint says so instead; an idle machine is the idle alert's.
void AlertEngine::evaluateLowUtilization(const MachineSample &sample, bool bottleneck)
{
    const AlertThresholds &t = m_thresholds;
    const GpuLoad load = gpuLoad(sample, t);
    const bool low = load.reporting > 0 && load.working && load.average < t.lowUtilPercent && !bottleneck;
    track(AlertKind::LowUtilization, -1, low, qint64(t.lowUtilMinutes * 60000), AlertSeverity::Warning, [&] {
        QString message = tr("GPU utilization has stayed below %1 % for %2 minutes (now %3 %) while a job runs: the GPUs "
                  "mostly wait. Usual causes are input loading (more DataLoader workers, faster storage, data "
                  "on the instance's own disk) or too small a batch.")
                   .arg(qRound(t.lowUtilPercent))
                   .arg(t.lowUtilMinutes)
                   .arg(qRound(load.average));
        message += QLatin1Char(' ');
        message += likelyCause(sample);
        return message;
    });
}

// What the host's CPUs were doing while the GPUs waited (from /proc/stat): a pegged core means
// a CPU-bound process feeds them; a high I/O wait, that the job waits for its disk or network
// storage. Neither: said, rather than guessed.
QString AlertEngine::likelyCause(const MachineSample &sample)
{
    const auto &h = sample.hostMetrics;
    if (h && !h->coreBusyPercent.isEmpty() && h->maxCoreBusyPercent() >= 90) {
        return tr("Likely cause: a CPU-bound process (one core at %1 %).").arg(qRound(h->maxCoreBusyPercent()));
    }
    if (h && h->ioWaitPercent && *h->ioWaitPercent >= 20) {
        return tr("Likely cause: I/O wait (the CPUs spend %1 % of their time waiting for the disk or network "
                  "storage).").arg(qRound(*h->ioWaitPercent));
    }
    return tr("No CPU-bound process or I/O wait is visible on the host.");
}

// Conditions of one GPU that must hold for a while: memory, throttling, power brake, PCIe link.
void AlertEngine::evaluateGpu(const GpuSample &g)
{
    const AlertThresholds &t = m_thresholds;
    const int i = g.index;
        const bool memFull = g.memoryUsedMib && g.memoryTotalMib && *g.memoryTotalMib > 0
                             && *g.memoryUsedMib >= t.memoryFullFraction * *g.memoryTotalMib;
        track(AlertKind::MemoryNearFull, i, memFull, qint64(t.memoryFullSeconds) * 1000, AlertSeverity::Warning, [&] {
            return tr("GPU %1 memory is %2 % full (%3 of %4 MiB): the next allocation may fail with CUDA out "
                      "of memory. Lower the batch size or enable gradient checkpointing.")
                .arg(i)
                .arg(qRound(100.0 * *g.memoryUsedMib / *g.memoryTotalMib))
                .arg(qRound(*g.memoryUsedMib))
                .arg(qRound(*g.memoryTotalMib));
        });
        const quint64 r = g.clocksEventReasons.value_or(0);
        const bool thermal = r & (reasons::SwThermalSlowdown | reasons::HwThermalSlowdown | reasons::HwSlowdown);
        track(AlertKind::ThermalThrottle, i, thermal, qint64(t.throttleSeconds) * 1000, AlertSeverity::Warning, [&] {
            return tr("GPU %1 is throttling (%2) at %3 °C: clocks are reduced. Report it to the provider if it "
                      "persists.")
                .arg(i)
                .arg(describeClocksEventReasons(r))
                .arg(g.temperatureC ? QString::number(*g.temperatureC) : QStringLiteral("?"));
        });
        const bool brake = r & reasons::HwPowerBrakeSlowdown;
        track(AlertKind::PowerBrake, i, brake, qint64(t.throttleSeconds) * 1000, AlertSeverity::Warning, [&] {
            return tr("GPU %1 is held back by the power brake (external power supply limit): clocks are "
                      "reduced. Report it to the provider.")
                .arg(i);
        });
        const bool loaded = g.utilizationGpu && *g.utilizationGpu >= t.pcieLoadPercent;
        const bool genLow = g.pcieGen && g.pcieGenMax && *g.pcieGen < *g.pcieGenMax;
        const bool widthLow = g.pcieWidth && g.pcieWidthMax && *g.pcieWidth < *g.pcieWidthMax;
        track(AlertKind::PcieDowngraded, i, loaded && (genLow || widthLow), qint64(t.pcieSeconds) * 1000,
              AlertSeverity::Warning, [&] {
                  return tr("GPU %1 PCIe link runs at Gen%2 x%3 under load, below its maximum Gen%4 x%5: "
                            "host-to-GPU copies are slower. Ask the provider or pick another instance.")
                      .arg(i)
                      .arg(g.pcieGen.value_or(0))
                      .arg(g.pcieWidth.value_or(0))
                      .arg(g.pcieGenMax.value_or(0))
                      .arg(g.pcieWidthMax.value_or(0));
              });
}

// New uncorrected ECC errors raise at once; the first count seen is the baseline.
void AlertEngine::evaluateEcc(const GpuSample &g)
{
    const int i = g.index;
    if (g.eccUncorrected) {
        auto base = m_eccBaseline.find(i);
        if (base == m_eccBaseline.end()) {
            m_eccBaseline.insert(i, *g.eccUncorrected);
        } else if (*g.eccUncorrected > *base) {
            const qint64 added = *g.eccUncorrected - *base;
            *base = *g.eccUncorrected;
            Alert a;
            a.kind = AlertKind::EccErrors;
            a.severity = AlertSeverity::Critical;
            a.gpu = i;
            a.host = m_host;
            a.since = m_clock.now();
            a.message = tr("GPU %1 reported %n new uncorrected ECC error(s): results may be wrong. Save "
                           "your work and ask the provider for another GPU.", nullptr, int(added))
                            .arg(i);
            State &s = m_states[stateKey(AlertKind::EccErrors, i)];
            s.sinceMs = m_clock.monotonicMs();
            s.raised = true;
            s.alert = a;
            emit raised(a);
        }
    }
}

QList<Alert> AlertEngine::active() const
{
    QList<Alert> out;
    for (const State &s : m_states) {
        if (s.raised) {
            out.append(s.alert);
        }
    }
    return out;
}

IdlePolicy::IdlePolicy(QString host, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_clock(clock)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &IdlePolicy::tick);
}

QString IdlePolicy::blocker() const
{
    if (m_transfersPending && m_transfersPending()) {
        return tr("transfers are still running");
    }
    if (m_jobsRunning && m_jobsRunning()) {
        return tr("jobs are still running");
    }
    return {};
}

int IdlePolicy::remainingSeconds() const
{
    if (m_deadlineMs < 0) {
        return 0;
    }
    const qint64 left = m_deadlineMs - m_clock.monotonicMs();
    return left <= 0 ? 0 : int((left + 999) / 1000);
}

void IdlePolicy::idleDetected(const QString &reason)
{
    emit notify(m_host, reason);
    if (m_action == IdleAction::Notify || counting()) {
        return;
    }
    const QString blockedBy = blocker();
    if (!blockedBy.isEmpty()) {
        emit actionBlocked(m_host, tr("Not going to %1 %2: %3.").arg(idleActionName(m_action), m_host, blockedBy));
        return;
    }
    m_deadlineMs = m_clock.monotonicMs() + qint64(m_countdownS) * 1000;
    m_lastAnnounced = m_countdownS;
    m_timer->start();
    emit countdownStarted(m_host, m_action, m_countdownS);
}

void IdlePolicy::stopCountdown()
{
    m_deadlineMs = -1;
    m_lastAnnounced = -1;
    m_timer->stop();
}

void IdlePolicy::activityDetected()
{
    if (!counting()) {
        return;
    }
    stopCountdown();
    emit countdownCancelled(m_host, tr("the GPUs are busy again"));
}

void IdlePolicy::cancel()
{
    if (!counting()) {
        return;
    }
    stopCountdown();
    emit countdownCancelled(m_host, tr("cancelled"));
}

void IdlePolicy::tick()
{
    if (!counting()) {
        return;
    }
    const int remaining = remainingSeconds();
    if (remaining != m_lastAnnounced) {
        m_lastAnnounced = remaining;
        emit countdownChanged(m_host, remaining);
    }
    if (remaining > 0) {
        return;
    }
    const IdleAction action = m_action;
    stopCountdown();
    const QString blockedBy = blocker();
    if (!blockedBy.isEmpty()) {
        emit actionBlocked(m_host, tr("Not going to %1 %2: %3.").arg(idleActionName(action), m_host, blockedBy));
        return;
    }
    emit actionRequested(m_host, action);
}

} // namespace gantry::monitor
