// SPDX-License-Identifier: Apache-2.0
// The host link: pinned host<->device copies in both directions, graded against the PCIe
// generation and width the link actually runs at under load.
#include "details.hpp"
#include "device.hpp"

#include <cstring>
#include <thread>

namespace gv {
namespace {

// Usable bytes/s per lane and direction after line encoding.
double pcie_lane_gbs(unsigned gen)
{
    switch (gen) {
    case 1: return 0.25;
    case 2: return 0.5;
    case 3: return 8.0 * 128.0 / 130.0 / 8.0;
    case 4: return 16.0 * 128.0 / 130.0 / 8.0;
    case 5: return 32.0 * 128.0 / 130.0 / 8.0;
    case 6: return 64.0 * 242.0 / 256.0 / 8.0;
    default: return 0;
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_host_device()
{
    std::lock_guard<std::mutex> lk(rc_.host_link_mutex); // one GPU at a time on the host links
    TestResult t;
    t.name = "Host-device bandwidth (pinned, both directions)";
    t.unit = "GB/s";
    const size_t bytes = rc_.opt.quick ? (64ull << 20) : (256ull << 20);
    void* host = nullptr;
    check(cu_.MemHostAlloc(&host, bytes, 0), "cuMemHostAlloc");
    CUdeviceptr dev = 0;
    const CUresult ra = cu_.MemAlloc(&dev, bytes);
    if (ra != CUDA_SUCCESS) {
        cu_.MemFreeHost(host);
        check(ra, "cuMemAlloc");
    }
    std::memset(host, 0x5A, bytes);
    const int samples = rc_.opt.quick ? 3 : 5, reps = 4;
    std::optional<unsigned> gen_load, width_load;
    auto run = [&](bool h2d) {
        auto enqueue = [&] {
            for (int r = 0; r < reps; ++r) {
                if (h2d) check(cu_.MemcpyHtoDAsync(dev, host, bytes, stream_), "cuMemcpyHtoDAsync");
                else check(cu_.MemcpyDtoHAsync(host, dev, bytes, stream_), "cuMemcpyDtoHAsync");
            }
        };
        time_ms(enqueue); // warm-up
        std::vector<double> v;
        for (int s = 0; s < samples; ++s) {
            check(cu_.EventRecord(ev0_, stream_), "cuEventRecord");
            enqueue();
            check(cu_.EventRecord(ev1_, stream_), "cuEventRecord");
            if (s == 1 && nvdev_) {
                // Read the link while the copies run (links may downtrain when idle).
                std::this_thread::sleep_for(std::chrono::milliseconds(3));
                unsigned g = 0, w = 0;
                if (nv_.DeviceGetCurrPcieLinkGeneration && nv_.DeviceGetCurrPcieLinkGeneration(nvdev_, &g) == NVML_SUCCESS)
                    gen_load = gen_load ? std::max(*gen_load, g) : g;
                if (nv_.DeviceGetCurrPcieLinkWidth && nv_.DeviceGetCurrPcieLinkWidth(nvdev_, &w) == NVML_SUCCESS)
                    width_load = width_load ? std::max(*width_load, w) : w;
            }
            check(cu_.EventSynchronize(ev1_), "cuEventSynchronize");
            float ms = 0;
            check(cu_.EventElapsedTime(&ms, ev0_, ev1_), "cuEventElapsedTime");
            v.push_back(static_cast<double>(bytes) * reps / (ms * 1e6));
        }
        return median(v);
    };
    double h2d = 0, d2h = 0;
    try {
        h2d = run(true);
        progress(29, "host_device_bandwidth", fmt("host to device %.1f GB/s", h2d));
        d2h = run(false);
        progress(32, "host_device_bandwidth", fmt("device to host %.1f GB/s", d2h));
    } catch (...) {
        cu_.MemFree(dev);
        cu_.MemFreeHost(host);
        throw;
    }
    cu_.MemFree(dev);
    cu_.MemFreeHost(host);
    const double worst = std::min(h2d, d2h);
    t.measured = worst;
    Json& d = t.details;
    d.set("h2d_gbs", h2d).set("d2h_gbs", d2h).set("transfer_mib", bytes / kMiB).set("statistic", "median");
    d.set("pcie_gen_under_load", gen_load).set("pcie_width_under_load", width_load);
    d.set("pcie_gen_max", pcie_gen_max_).set("pcie_width_max", pcie_width_max_);
    grade_host_link(t, h2d, d2h, gen_load, width_load);
    return t;
}

// Against the link's generation and width under load, so a slow host or a busy link is told apart
// from a link that trained below its maximum (at best a warning).
void DeviceRun::grade_host_link(TestResult& t, double h2d, double d2h, std::optional<unsigned> gen_load,
                                std::optional<unsigned> width_load) const
{
    if (!gen_load || !width_load || pcie_lane_gbs(*gen_load) <= 0) {
        t.status = "warn";
        t.message = fmt("Host to device %.1f GB/s, device to host %.1f GB/s; the PCIe link could not be read, so there is "
                        "no expected value.",
                        h2d, d2h);
        return;
    }
    t.expected = pcie_lane_gbs(*gen_load) * *width_load;
    t.ratio = *t.measured / *t.expected;
    t.status = grade(*t.ratio, 0.70, 0.50);
    const bool downgraded = (pcie_gen_max_ && *gen_load < *pcie_gen_max_) || (pcie_width_max_ && *width_load < *pcie_width_max_);
    if (downgraded) {
        if (t.status == "pass") t.status = "warn";
        t.message = fmt("The PCIe link runs at Gen%u x%u under load, below its maximum Gen%u x%u; host to device %.1f GB/s, "
                        "device to host %.1f GB/s.",
                        *gen_load, *width_load, pcie_gen_max_.value_or(0), pcie_width_max_.value_or(0), h2d, d2h);
    } else if (t.status == "pass") {
        t.message = fmt("Host to device %.1f GB/s and device to host %.1f GB/s over PCIe Gen%u x%u (%.0f GB/s per "
                        "direction theoretical).",
                        h2d, d2h, *gen_load, *width_load, *t.expected);
    } else {
        t.message = fmt("Transfers are slow for PCIe Gen%u x%u: host to device %.1f GB/s, device to host %.1f GB/s of "
                        "%.0f GB/s theoretical.",
                        *gen_load, *width_load, h2d, d2h, *t.expected);
    }
}

} // namespace gv
