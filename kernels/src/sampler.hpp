// Background NVML telemetry: one thread per GPU samples clocks, power, temperature, clock-event
// reasons and the PCIe link every 50 ms; tests ask for statistics over their own time window.
#pragma once

#include "nvml_api.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace gv {

inline double now_s()
{
    static const auto t0 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Sample {
    double t = 0;
    std::optional<double> sm_mhz, mem_mhz, power_w, temp_c;
    std::optional<unsigned long long> reasons;
    std::optional<unsigned> pcie_gen, pcie_width;
};

struct WindowStats {
    int count = 0;
    std::optional<double> sm_median, sm_min, sm_max, power_median, power_max, temp_max;
    std::optional<unsigned> pcie_gen_min, pcie_width_min, pcie_gen_max_seen, pcie_width_max_seen;
    unsigned long long reasons_or = 0;
    bool reasons_known = false;
};

class Sampler {
public:
    Sampler(const NvmlApi& nv, nvmlDevice_t dev) : nv_(nv), dev_(dev) {}
    ~Sampler() { stop(); }
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    bool active() const { return nv_.ok && dev_ != nullptr; }

    void start()
    {
        if (!active() || th_.joinable()) return;
        stop_ = false;
        th_ = std::thread([this] {
            while (!stop_) {
                Sample s = read();
                {
                    std::lock_guard<std::mutex> lk(m_);
                    samples_.push_back(s);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }

    void stop()
    {
        stop_ = true;
        if (th_.joinable()) th_.join();
    }

    Sample read() const
    {
        Sample s;
        s.t = now_s();
        unsigned v = 0;
        if (nv_.DeviceGetClockInfo && nv_.DeviceGetClockInfo(dev_, NVML_CLOCK_SM, &v) == NVML_SUCCESS) s.sm_mhz = v;
        if (nv_.DeviceGetClockInfo && nv_.DeviceGetClockInfo(dev_, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) s.mem_mhz = v;
        if (nv_.DeviceGetPowerUsage && nv_.DeviceGetPowerUsage(dev_, &v) == NVML_SUCCESS) s.power_w = v / 1000.0;
        if (nv_.DeviceGetTemperature && nv_.DeviceGetTemperature(dev_, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS)
            s.temp_c = v;
        unsigned long long r = 0;
        if (nv_.DeviceGetClocksEventReasons && nv_.DeviceGetClocksEventReasons(dev_, &r) == NVML_SUCCESS)
            s.reasons = r;
        if (nv_.DeviceGetCurrPcieLinkGeneration && nv_.DeviceGetCurrPcieLinkGeneration(dev_, &v) == NVML_SUCCESS)
            s.pcie_gen = v;
        if (nv_.DeviceGetCurrPcieLinkWidth && nv_.DeviceGetCurrPcieLinkWidth(dev_, &v) == NVML_SUCCESS)
            s.pcie_width = v;
        return s;
    }

    WindowStats stats(double t0, double t1) const
    {
        WindowStats w;
        std::vector<double> sm, pw;
        std::lock_guard<std::mutex> lk(m_);
        for (const Sample& s : samples_) {
            if (s.t < t0 || s.t > t1) continue;
            ++w.count;
            if (s.sm_mhz) {
                sm.push_back(*s.sm_mhz);
                w.sm_min = w.sm_min ? std::min(*w.sm_min, *s.sm_mhz) : *s.sm_mhz;
                w.sm_max = w.sm_max ? std::max(*w.sm_max, *s.sm_mhz) : *s.sm_mhz;
            }
            if (s.power_w) {
                pw.push_back(*s.power_w);
                w.power_max = w.power_max ? std::max(*w.power_max, *s.power_w) : *s.power_w;
            }
            if (s.temp_c) w.temp_max = w.temp_max ? std::max(*w.temp_max, *s.temp_c) : *s.temp_c;
            if (s.reasons) {
                w.reasons_or |= *s.reasons;
                w.reasons_known = true;
            }
            if (s.pcie_gen) {
                w.pcie_gen_min = w.pcie_gen_min ? std::min(*w.pcie_gen_min, *s.pcie_gen) : *s.pcie_gen;
                w.pcie_gen_max_seen = w.pcie_gen_max_seen ? std::max(*w.pcie_gen_max_seen, *s.pcie_gen) : *s.pcie_gen;
            }
            if (s.pcie_width) {
                w.pcie_width_min = w.pcie_width_min ? std::min(*w.pcie_width_min, *s.pcie_width) : *s.pcie_width;
                w.pcie_width_max_seen =
                    w.pcie_width_max_seen ? std::max(*w.pcie_width_max_seen, *s.pcie_width) : *s.pcie_width;
            }
        }
        if (!sm.empty()) w.sm_median = median_of(sm);
        if (!pw.empty()) w.power_median = median_of(pw);
        return w;
    }

private:
    static double median_of(std::vector<double> v)
    {
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }

    const NvmlApi& nv_;
    nvmlDevice_t dev_;
    std::thread th_;
    std::atomic<bool> stop_{false};
    mutable std::mutex m_;
    std::vector<Sample> samples_;
};

} // namespace gv
