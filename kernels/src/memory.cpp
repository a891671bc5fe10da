// SPDX-License-Identifier: Apache-2.0
// Device memory: integrity (cuda_memtest-style pattern passes over most of the free memory) and
// bandwidth (copy and STREAM triad on buffers far larger than L2).
#include "details.hpp"
#include "device.hpp"

namespace gv {
namespace {

std::string hex64(unsigned long long v) { return fmt("0x%016llx", v); }

} // namespace

// What the pattern passes of test_memory did.
struct DeviceRun::PatternPasses {
    Json names = Json::array();
    int done = 0;
    double gpu_ms = 0;
    double t0 = 0;
};

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_memory()
{
    TestResult t;
    t.name = "Memory integrity (address, walking bit, random + complement)";
    t.unit = "miscompares";
    t.expected = 0;
    size_t free_b = 0, total_b = 0;
    check(cu_.MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
    CUdeviceptr err = 0;
    check(cu_.MemAlloc(&err, 64), "cuMemAlloc");
    CUdeviceptr buf = 0;
    struct Free {
        const CudaApi& cu;
        CUdeviceptr& a;
        CUdeviceptr& b;
        ~Free()
        {
            if (a) cu.MemFree(a);
            if (b) cu.MemFree(b);
        }
    } guard{cu_, buf, err};
    const size_t bytes = allocate_most(buf, free_b, rc_.opt.quick ? 0.50 : 0.94);
    if (!buf) throw CudaError("could not allocate memory for the test");
    const double fraction = static_cast<double>(bytes) / static_cast<double>(free_b);
    progress(3, "memory_integrity", fmt("testing %.1f GiB (%.0f%% of free memory)", bytes / kGiB, fraction * 100));
    const PatternPasses run = pattern_passes(buf, bytes, err);
    unsigned long long e[4] = {};
    check(cu_.MemcpyDtoH(e, err, sizeof e), "cuMemcpyDtoH");
    const unsigned long long base = static_cast<unsigned long long>(buf);
    cu_.MemFree(buf);
    buf = 0;
    t.measured = static_cast<double>(e[0]);
    Json& d = t.details;
    d.set("bytes_tested", static_cast<unsigned long long>(bytes)).set("gib_tested", bytes / kGiB);
    d.set("free_mib", free_b / kMiB).set("fraction_of_free", fraction).set("passes", run.names);
    d.set("seconds", now_s() - run.t0);
    if (run.gpu_ms > 0) d.set("test_traffic_gbs", 4.0 * static_cast<double>(bytes) * run.done / (run.gpu_ms * 1e6));
    if (e[0]) {
        d.set("first_error_address", hex64(base + e[1] * 8));
        d.set("first_error_expected", hex64(e[2])).set("first_error_actual", hex64(e[3]));
        t.status = "fail";
        t.message = fmt("%llu memory words read back wrong (first at offset %.3f GiB): the GPU memory is faulty.", e[0],
                        static_cast<double>(e[1] * 8) / kGiB);
    } else if (!rc_.opt.quick && fraction < 0.895) {
        t.status = "warn";
        t.message = fmt("No errors, but only %.0f%% of free memory could be allocated for the test.", fraction * 100);
    } else {
        t.status = "pass";
        t.message = fmt("%d pattern passes over %.1f GiB (%.0f%% of free memory) read back without a single error.",
                        run.done, bytes / kGiB, fraction * 100);
    }
    return t;
}

// Steps down from want x free memory, 2 % at a time: the free figure is more than one allocation
// can get. Returns the size of the last attempt; buf stays 0 when none succeeded.
size_t DeviceRun::allocate_most(CUdeviceptr& buf, size_t free_b, double want)
{
    size_t bytes = 0;
    for (double f = want; f > 0.05; f -= 0.02) {
        bytes = static_cast<size_t>(static_cast<double>(free_b) * f) & ~static_cast<size_t>((2u << 20) - 1);
        const CUresult r = cu_.MemAlloc(&buf, bytes);
        if (r == CUDA_SUCCESS) break;
        buf = 0;
        if (r != CUDA_ERROR_OUT_OF_MEMORY) check(r, "cuMemAlloc");
    }
    return bytes;
}

// Repeats write, check + write complement, check complement with a new pattern until the time
// budget is spent, but at least three passes; miscompares are counted in err.
DeviceRun::PatternPasses DeviceRun::pattern_passes(CUdeviceptr buf, size_t bytes, CUdeviceptr err)
{
    CUfunction fw = fn("gv_mt_write"), fc = fn("gv_mt_check");
    const unsigned gw = grid_for(fw), gc = grid_for(fc);
    size_t n16 = bytes / 16;
    check(cu_.MemsetD8(err, 0, 64), "cuMemsetD8");
    struct Pass {
        int kind;
        unsigned long long seed;
        const char* name;
    };
    const Pass plan[] = {{0, 0, "own_address"}, {1, 0, "walking_1_0"},  {2, 1, "random"},
                         {1, 29, "walking_1_0"}, {2, 2, "random"},      {1, 43, "walking_1_0"},
                         {2, 3, "random"},       {2, 4, "random"},      {2, 5, "random"}};
    const double budget = rc_.opt.quick ? 2.0 : 8.0;
    const double t0 = now_s();
    PatternPasses run;
    run.t0 = t0;
    for (const Pass& p : plan) {
        if (run.done >= 3 && now_s() - t0 > budget) break;
        int kind = p.kind;
        unsigned long long seed = p.seed;
        int zero = 0, one = 1;
        run.gpu_ms += time_ms([&] {
            launch(fw, gw, 256, {&buf, &n16, &kind, &seed});
            launch(fc, gc, 256, {&buf, &n16, &kind, &seed, &zero, &one, &err}); // check, write complement
            launch(fc, gc, 256, {&buf, &n16, &kind, &seed, &one, &zero, &err}); // check complement
        });
        run.names.push(p.name);
        ++run.done;
        // Moving a pass's worth of traffic (4 x bytes) is a rough progress measure.
        progress(3 + 14 * std::min(1.0, (now_s() - t0) / budget), "memory_integrity",
                 fmt("pass %d (%s) done", run.done, p.name));
    }
    return run;
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_device_bandwidth()
{
    TestResult t;
    t.unit = "GB/s";
    size_t free_b = 0, total_b = 0;
    check(cu_.MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
    // Three buffers (triad) of up to 2 GiB each (1 GiB in quick mode), far larger than L2.
    size_t bytes = rc_.opt.quick ? (1ull << 30) : (2ull << 30);
    while (bytes > (64ull << 20) && 3 * bytes > static_cast<size_t>(0.6 * static_cast<double>(free_b))) bytes /= 2;
    CUdeviceptr a = 0, b = 0, c = 0;
    check(cu_.MemAlloc(&a, bytes), "cuMemAlloc");
    check(cu_.MemAlloc(&b, bytes), "cuMemAlloc");
    check(cu_.MemAlloc(&c, bytes), "cuMemAlloc");
    struct Free {
        const CudaApi& cu;
        CUdeviceptr p[3];
        ~Free()
        {
            for (CUdeviceptr x : p) cu.MemFree(x);
        }
    } guard{cu_, {a, b, c}};
    CUfunction ffill = fn("gv_fill_float4"), fcopy = fn("gv_copy"), ftriad = fn("gv_triad");
    size_t n = bytes / 16;
    unsigned long long s1 = 1, s2 = 2, s3 = 3;
    const unsigned gf = grid_for(ffill);
    launch(ffill, gf, 256, {&a, &n, &s1});
    launch(ffill, gf, 256, {&b, &n, &s2});
    launch(ffill, gf, 256, {&c, &n, &s3});
    const unsigned gcopy = grid_for(fcopy), gtriad = grid_for(ftriad);
    float scalar = 0.5f;
    const int samples = rc_.opt.quick ? 5 : 7;
    const double target_ms = rc_.opt.quick ? 60 : 120;

    auto measure = [&](CUfunction f, unsigned grid, std::vector<void*> args, double bytes_per_launch) {
        // Warm-up and calibration.
        double one = time_ms([&] { launch(f, grid, 256, args); });
        one = time_ms([&] { launch(f, grid, 256, args); });
        const int reps = std::max(1, static_cast<int>(target_ms / std::max(one, 0.01)));
        std::vector<double> gbs;
        for (int s = 0; s < samples; ++s) {
            const double ms = time_ms([&] {
                for (int r = 0; r < reps; ++r) launch(f, grid, 256, args);
            });
            gbs.push_back(bytes_per_launch * reps / (ms * 1e6));
        }
        return median(gbs);
    };
    const double t0 = now_s();
    const double copy = measure(fcopy, gcopy, {&b, &a, &n}, 2.0 * static_cast<double>(bytes));
    progress(22, "device_bandwidth", fmt("copy %.1f GB/s", copy));
    const double triad = measure(ftriad, gtriad, {&a, &b, &c, &n, &scalar}, 3.0 * static_cast<double>(bytes));
    progress(25, "device_bandwidth", fmt("triad %.1f GB/s", triad));
    const double best = std::max(copy, triad);
    t.name = copy >= triad ? "Device memory bandwidth (copy)" : "Device memory bandwidth (triad)";
    t.measured = best;
    Json& d = t.details;
    d.set("copy_gbs", copy).set("triad_gbs", triad).set("buffer_mib", bytes / kMiB);
    d.set("bytes_counted", "read + written").set("samples", samples).set("statistic", "median");
    d.set("l2_cache_mib", static_cast<double>(l2_bytes_) / kMiB);
    if (sampler_) add_window(d, sampler_->stats(t0, now_s()));
    if (max_mem_clock_ && bus_width_) {
        t.expected = *max_mem_clock_ * 1e6 * (*bus_width_ / 8.0) * 2.0 / 1e9;
        d.set("expected_formula", fmt("%.0f MHz x %.0f bit x 2 / 8", *max_mem_clock_, *bus_width_));
        t.ratio = best / *t.expected;
        t.status = grade(*t.ratio, 0.80, 0.65);
        if (t.status == "pass")
            t.message = fmt("Memory bandwidth %.0f GB/s is %.0f%% of the %.0f GB/s the memory clock and bus width allow.",
                            best, *t.ratio * 100, *t.expected);
        else
            t.message = fmt("Memory bandwidth %.0f GB/s is only %.0f%% of the %.0f GB/s expected: memory is slow, "
                            "throttled or shared.",
                            best, *t.ratio * 100, *t.expected);
    } else {
        t.status = "warn";
        t.message = fmt("Measured %.0f GB/s, but the memory clock or bus width is unknown, so there is no expected value.",
                        best);
    }
    return t;
}

} // namespace gv
