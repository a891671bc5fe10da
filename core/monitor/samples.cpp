#include "core/monitor/samples.h"

#include <QStringList>

#include <algorithm>

namespace gantry::monitor {

QString describeClocksEventReasons(quint64 mask)
{
    static const struct
    {
        quint64 bit;
        const char *name;
    } names[] = {
        {reasons::GpuIdle, "gpu_idle"},
        {reasons::ApplicationsClocksSetting, "applications_clocks_setting"},
        {reasons::SwPowerCap, "sw_power_cap"},
        {reasons::HwSlowdown, "hw_slowdown"},
        {reasons::SyncBoost, "sync_boost"},
        {reasons::SwThermalSlowdown, "sw_thermal_slowdown"},
        {reasons::HwThermalSlowdown, "hw_thermal_slowdown"},
        {reasons::HwPowerBrakeSlowdown, "hw_power_brake_slowdown"},
        {reasons::DisplayClockSetting, "display_clock_setting"},
    };
    QStringList out;
    for (const auto &n : names) {
        if (mask & n.bit) {
            out.append(QString::fromLatin1(n.name));
        }
    }
    return out.join(QStringLiteral(", "));
}

std::optional<double> HostMetrics::memUsedPercent() const
{
    if (!memTotalMib || !memAvailableMib || *memTotalMib <= 0) {
        return std::nullopt;
    }
    return 100.0 * (*memTotalMib - *memAvailableMib) / *memTotalMib;
}

double HostMetrics::maxCoreBusyPercent() const
{
    double m = 0;
    for (double v : coreBusyPercent) {
        m = std::max(m, v);
    }
    return m;
}

} // namespace gantry::monitor
