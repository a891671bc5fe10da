// SPDX-License-Identifier: Apache-2.0
// What several tests write into their details: sizes in MiB/GiB and the sampler's statistics over
// the test's own time window (clocks, power, temperature, clock-event reasons).
#pragma once

#include "common.hpp"
#include "nvml_api.hpp"
#include "sampler.hpp"

#include <string>

namespace gv {

inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * kMiB;

inline std::string reasons_text(unsigned long long r)
{
    std::string s;
    auto add = [&](unsigned long long bit, const char* n) {
        if (r & bit) s += std::string(s.empty() ? "" : ",") + n;
    };
    add(kReasonGpuIdle, "gpu_idle");
    add(kReasonAppClocks, "applications_clocks_setting");
    add(kReasonSwPowerCap, "sw_power_cap");
    add(kReasonHwSlowdown, "hw_slowdown");
    add(kReasonSyncBoost, "sync_boost");
    add(kReasonSwThermal, "sw_thermal_slowdown");
    add(kReasonHwThermal, "hw_thermal_slowdown");
    add(kReasonHwPowerBrake, "hw_power_brake_slowdown");
    add(kReasonDisplayClock, "display_clock_setting");
    return s;
}

inline void add_window(Json& d, const WindowStats& w)
{
    if (w.sm_median) d.set("sm_clock_mhz_median", *w.sm_median);
    if (w.sm_min) d.set("sm_clock_mhz_min", *w.sm_min);
    if (w.power_median) d.set("power_w_median", *w.power_median);
    if (w.power_max) d.set("power_w_max", *w.power_max);
    if (w.temp_max) d.set("temperature_c_max", *w.temp_max);
    if (w.reasons_known) d.set("clock_event_reasons", reasons_text(w.reasons_or & ~kReasonGpuIdle));
}

} // namespace gv
