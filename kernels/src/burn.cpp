// SPDX-License-Identifier: Apache-2.0
// The sustained burn: FP32 FMA and (from sm_80) mma.sync work computed again and again into several
// slots and compared with a reference computed once, so a GPU that corrupts data only under
// sustained heat and power shows miscompares even when every short test passed.
#include "details.hpp"
#include "device.hpp"

namespace gv {
namespace {

// The reasons that mean the GPU protected itself, as opposed to a clock setting or power cap.
constexpr unsigned long long kBadReasons = kReasonHwSlowdown | kReasonSwThermal | kReasonHwThermal | kReasonHwPowerBrake;

} // namespace

// The burn's kernels, buffers and launch sizes, and what its rounds measured. Nested in DeviceRun
// for its launch helpers; the buffers are freed when it goes out of scope, whatever threw.
struct DeviceRun::Burn {
    explicit Burn(DeviceRun& run) : gpu(run) {}
    ~Burn()
    {
        for (CUdeviceptr p : bufs) gpu.cu_.MemFree(p);
    }
    Burn(const Burn&) = delete;
    Burn& operator=(const Burn&) = delete;

    void prepare();
    void size_kernels();
    void compute(CUdeviceptr dst);
    void run(double seconds);
    void report_progress(double seconds) const;
    WindowStats add_details(Json& d) const;
    void grade(TestResult& t, unsigned long long errs, const WindowStats& w) const;
    CUdeviceptr alloc(size_t b);

    DeviceRun& gpu;
    CUfunction ffma = nullptr, fmma = nullptr, fcmp = nullptr, ffill4 = nullptr, ffill32 = nullptr;
    bool use_mma = false;
    unsigned grid_fma = 0, grid_mma = 0;
    size_t threads_mma = 0;
    size_t n = 0;
    size_t slot_floats = 0;
    const int slots = 8;
    std::vector<CUdeviceptr> bufs;
    CUdeviceptr in_f = 0, in_u = 0, ref = 0, err = 0;
    std::vector<CUdeviceptr> slot;
    int iters_fma = 0, iters_mma = 0;
    double flop_round = 0;
    std::vector<double> round_tflops;
    int rounds = 0;
    double t0 = 0, t1 = 0;
};

CUdeviceptr DeviceRun::Burn::alloc(size_t b)
{
    CUdeviceptr p = 0;
    gpu.check(gpu.cu_.MemAlloc(&p, b), "cuMemAlloc");
    bufs.push_back(p);
    return p;
}

// Kernels, buffers and inputs; each slot holds the FMA results followed by the mma results.
void DeviceRun::Burn::prepare()
{
    ffma = gpu.fn("gv_burn_fma");
    fmma = gpu.fn("gv_burn_mma");
    fcmp = gpu.fn("gv_compare");
    ffill4 = gpu.fn("gv_fill_float4");
    ffill32 = gpu.fn("gv_fill_u32");
    use_mma = gpu.cc_major_ >= 8;
    grid_fma = gpu.grid_for(ffma);
    const size_t threads_fma = static_cast<size_t>(grid_fma) * 256;
    const size_t per_thread = std::max<size_t>(1, (16u << 20) / threads_fma);
    n = per_thread * threads_fma; // multiple of 256 (and of 4)
    grid_mma = use_mma ? gpu.grid_for(fmma) : 0;
    threads_mma = static_cast<size_t>(grid_mma) * 256;
    const size_t m = threads_mma * 32;
    slot_floats = n + m;
    in_f = alloc(n * 4);
    in_u = alloc(std::max<size_t>(threads_mma * 6 * 4, 16));
    ref = alloc(slot_floats * 4);
    err = alloc(16);
    slot.resize(slots);
    for (auto& s : slot) s = alloc(slot_floats * 4);
    gpu.check(gpu.cu_.MemsetD8(err, 0, 16), "cuMemsetD8");
    size_t n4 = n / 4, nu = threads_mma * 6;
    unsigned long long seed1 = 77, seed2 = 78;
    gpu.launch(ffill4, gpu.grid_for(ffill4), 256, {&in_f, &n4, &seed1});
    if (use_mma) gpu.launch(ffill32, gpu.grid_for(ffill32), 256, {&in_u, &nu, &seed2});
    size_kernels();
}

// Size each kernel for ~15 ms using the rates measured earlier.
void DeviceRun::Burn::size_kernels()
{
    const double target_s = 0.015;
    const double fma_rate = gpu.fp32_tflops_.value_or(5.0) * 1e12;
    iters_fma = static_cast<int>(std::clamp(target_s * fma_rate / (static_cast<double>(n) * 4 * 8 * 2), 16.0, 1e6));
    const double mma_rate = gpu.bf16_tflops_.value_or(50.0) * 1e12;
    const double mma_flop_per_iter = static_cast<double>(threads_mma / 32) * 8 * 4096;
    iters_mma = use_mma ? static_cast<int>(std::clamp(target_s * mma_rate / mma_flop_per_iter, 16.0, 1e7)) : 0;
    flop_round = slots * (static_cast<double>(n) * iters_fma * 4 * 8 * 2 + (use_mma ? mma_flop_per_iter * iters_mma : 0));
}

void DeviceRun::Burn::compute(CUdeviceptr dst)
{
    gpu.launch(ffma, grid_fma, 256, {&in_f, &dst, &n, &iters_fma});
    if (use_mma) {
        CUdeviceptr dm = dst + n * 4;
        gpu.launch(fmma, grid_mma, 256, {&in_u, &dm, &iters_mma});
    }
}

// The reference once, then rounds (every slot computed, then compared with it) until seconds.
void DeviceRun::Burn::run(double seconds)
{
    compute(ref);
    gpu.check(gpu.cu_.StreamSynchronize(gpu.stream_), "burn reference");
    size_t n16 = slot_floats / 4;
    const unsigned gcmp = gpu.grid_for(fcmp);
    t0 = now_s();
    double last_report = t0;
    while (now_s() - t0 < seconds) {
        const double ms = gpu.time_ms([&] {
            for (int s = 0; s < slots; ++s) compute(slot[s]);
            for (int s = 0; s < slots; ++s) gpu.launch(fcmp, gcmp, 256, {&ref, &slot[s], &n16, &err});
        });
        ++rounds;
        round_tflops.push_back(flop_round / (ms * 1e9));
        if (now_s() - last_report > 2.0) {
            last_report = now_s();
            report_progress(seconds);
        }
    }
    t1 = now_s();
}

void DeviceRun::Burn::report_progress(double seconds) const
{
    const double frac = std::min(1.0, (now_s() - t0) / seconds);
    std::string extra;
    if (gpu.sampler_) {
        const Sample s = gpu.sampler_->read();
        if (s.sm_mhz) extra += fmt(", %.0f MHz", *s.sm_mhz);
        if (s.power_w) extra += fmt(", %.0f W", *s.power_w);
        if (s.temp_c) extra += fmt(", %.0f C", *s.temp_c);
    }
    gpu.progress(49 + 48 * frac, "burn", fmt("%.0f s, %.1f TFLOP/s%s", now_s() - t0, round_tflops.back(), extra.c_str()));
}

WindowStats DeviceRun::Burn::add_details(Json& d) const
{
    d.set("seconds", t1 - t0).set("rounds", rounds).set("slots", slots);
    d.set("results_compared", static_cast<double>(slot_floats) * slots * rounds);
    d.set("uses_tensor_cores", use_mma);
    d.set("tflops_median", median(round_tflops));
    // A rate falling from the first to the last quarter shows throttling that the median hides.
    const size_t q = std::max<size_t>(1, round_tflops.size() / 4);
    if (round_tflops.size() >= 4) {
        const double first = median(std::vector<double>(round_tflops.begin(), round_tflops.begin() + static_cast<long>(q)));
        const double last = median(std::vector<double>(round_tflops.end() - static_cast<long>(q), round_tflops.end()));
        d.set("tflops_first_quarter", first).set("tflops_last_quarter", last);
        if (first > 0) d.set("throughput_drift", last / first);
    }
    WindowStats w;
    if (gpu.sampler_) {
        w = gpu.sampler_->stats(t0, t1);
        add_window(d, w);
        if (w.sm_max) d.set("sm_clock_mhz_max", *w.sm_max);
        if (gpu.power_limit_w_ && w.power_median) d.set("power_fraction_of_limit", *w.power_median / *gpu.power_limit_w_);
    }
    return w;
}

void DeviceRun::Burn::grade(TestResult& t, unsigned long long errs, const WindowStats& w) const
{
    const unsigned long long bad = w.reasons_or & kBadReasons;
    if (errs) {
        t.status = "fail";
        t.message = fmt("%llu results differed between identical computations: the GPU silently corrupts data.", errs);
    } else if (bad) {
        t.status = "warn";
        t.message = fmt("No miscompares in %.0f s, but the GPU slowed its clocks for protection (%s).", t1 - t0,
                        reasons_text(bad).c_str());
    } else {
        t.status = "pass";
        t.message = fmt("%d rounds over %.0f s gave identical results", rounds, t1 - t0);
        if (w.sm_median) t.message += fmt(" at %.0f MHz", *w.sm_median);
        if (w.temp_max) t.message += fmt(", up to %.0f C", *w.temp_max);
        t.message += ", with no thermal or power-brake slowdown.";
    }
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_burn()
{
    TestResult t;
    t.name = "Sustained burn with result comparison";
    t.unit = "miscompares";
    t.expected = 0;
    const double seconds = rc_.opt.burn_seconds > 0 ? rc_.opt.burn_seconds : (rc_.opt.quick ? 4.0 : 20.0);
    Burn burn(*this);
    burn.prepare();
    burn.run(seconds);
    unsigned long long errs = 0;
    check(cu_.MemcpyDtoH(&errs, burn.err, sizeof errs), "cuMemcpyDtoH");
    t.measured = static_cast<double>(errs);
    const WindowStats w = burn.add_details(t.details);
    burn.grade(t, errs, w);
    return t;
}

} // namespace gv
