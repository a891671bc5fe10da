#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace gantry::monitor {

// One GPU at one instant. Every measured value is optional: nvidia-smi answers [N/A],
// [Not Supported] and friends for what a board or driver cannot report, and an unknown value must
// never read as 0 (an "idle" GPU that is really "unknown" would trigger a stop).
// What GPU Performance Monitoring (Hopper and later) says of one GPU over its last second:
// the share of time the SMs, and their tensor cores, were busy — what "utilization" (any
// kernel running) cannot tell apart.
struct GpmValues
{
    std::optional<double> smActivity;     // % (GPM metric 2, "smutil")
    std::optional<double> smOccupancy;    // % of the warps an SM can hold (3, "smocc")
    std::optional<double> tensorActivity; // % (5, "mmaact")
    std::optional<double> dramActivity;   // % (10, "dram")

    bool any() const { return smActivity || smOccupancy || tensorActivity || dramActivity; }
};

struct GpuSample
{
    int index = -1;
    QString uuid;
    QString name;
    std::optional<double> utilizationGpu;    // %
    std::optional<double> utilizationMemory; // %
    std::optional<double> memoryUsedMib;
    std::optional<double> memoryTotalMib;
    std::optional<double> temperatureC;
    std::optional<double> powerDrawW;
    std::optional<double> powerLimitW;
    std::optional<double> smClockMhz;
    std::optional<double> smClockMaxMhz;
    QString pstate;                          // "P0"…; empty when unknown
    std::optional<quint64> clocksEventReasons; // bit mask (clocks_event_reasons.active)
    std::optional<int> pcieGen;
    std::optional<int> pcieGenMax;
    std::optional<int> pcieWidth;
    std::optional<int> pcieWidthMax;
    std::optional<qint64> eccUncorrected;    // volatile totals since driver load
    std::optional<qint64> eccCorrected;
    GpmValues gpm;                           // Hopper and later, where nvidia-smi dmon gives them
};

// Bits of clocks_event_reasons.active (nvml's nvmlClocksEventReason*).
namespace reasons {
constexpr quint64 GpuIdle = 0x1;
constexpr quint64 ApplicationsClocksSetting = 0x2;
constexpr quint64 SwPowerCap = 0x4;
constexpr quint64 HwSlowdown = 0x8;
constexpr quint64 SyncBoost = 0x10;
constexpr quint64 SwThermalSlowdown = 0x20;
constexpr quint64 HwThermalSlowdown = 0x40;
constexpr quint64 HwPowerBrakeSlowdown = 0x80;
constexpr quint64 DisplayClockSetting = 0x100;
} // namespace reasons

// Names of the set bits, e.g. "sw_power_cap, hw_thermal_slowdown".
QString describeClocksEventReasons(quint64 mask);

struct GpuProcess
{
    qint64 pid = 0;
    QString gpuUuid;
    int gpuIndex = -1;                  // resolved from the uuid when known
    std::optional<double> usedMemoryMib;
    QString processName;                // as nvidia-smi reports it (may be "[Not Found]")
    QString commandLine;                // from ps, when the pid is visible
    QString user;                       // from ps, when the pid is visible
};

// Host metrics computed from two consecutive /proc snapshots (rates need a previous one).
struct HostMetrics
{
    std::optional<double> uptimeSeconds;    // /proc/uptime: how long the machine has been running
    QList<double> coreBusyPercent;          // per core
    std::optional<double> cpuBusyPercent;   // all cores
    std::optional<double> ioWaitPercent;    // all cores: time idle while waiting for I/O (/proc/stat iowait)
    std::optional<double> memTotalMib;
    std::optional<double> memAvailableMib;
    std::optional<double> load1;
    std::optional<double> load5;
    std::optional<double> load15;
    std::optional<double> netRxBytesPerS;   // all interfaces but lo
    std::optional<double> netTxBytesPerS;
    std::optional<double> diskReadBytesPerS;  // whole disks, not partitions
    std::optional<double> diskWriteBytesPerS;

    std::optional<double> memUsedPercent() const;
    double maxCoreBusyPercent() const;
};

enum class DriverState
{
    Unknown,     // not probed yet
    Ok,
    NoDriver,    // nvidia-smi missing or no devices: host metrics only
    Failed,      // nvidia-smi printed an error (driver stopped responding, GPU lost…)
};

// Whether GPU Performance Monitoring metrics come from this machine.
enum class GpmState
{
    Unknown,     // not known yet (dmon's first seconds, or no GPU)
    Available,
    Unavailable, // the GPU or driver has none (before Hopper, an older driver, a sandbox)
};

// Everything the sampler knows about a machine at one instant.
struct MachineSample
{
    QDateTime time;            // UTC, when the sample arrived
    QString host;
    QList<GpuSample> gpus;
    QList<GpuProcess> processes;
    std::optional<HostMetrics> hostMetrics;
    DriverState driver = DriverState::Unknown;
    QString driverMessage;     // nvidia-smi's own error line when driver != Ok
    GpmState gpm = GpmState::Unknown;
    QString gpmMessage;        // why GPM is unavailable, in nvidia-smi's words where it gave some
};

} // namespace gantry::monitor

Q_DECLARE_METATYPE(gantry::monitor::MachineSample)
