// SPDX-License-Identifier: Apache-2.0
// Compute throughput: FP32 FMA and tensor-core (mma.sync) rates, each normalised by the SM clock
// measured while it ran, so a GPU that is merely clocked down is told apart from one with missing or
// slow SMs.
#include "details.hpp"
#include "device.hpp"

namespace gv {
namespace {

// FP32 lanes per SM (verification.md §2.2): 64 on Turing (7.5) and GA100 (8.0); 128 on GA10x,
// Ada, Hopper, Blackwell.
int fp32_lanes_per_sm(int major, int minor)
{
    if (major == 7) return 64;
    if (major == 8 && minor == 0) return 64;
    return 128;
}

// Dense FP16/BF16 tensor rate with FP32 accumulate, FLOP per SM per clock (verification.md §3:
// spec TFLOPS / (SMs x clock)). A100 312 TF / (108 x 1.41 GHz) = 2048; A10 125/(72 x 1.695) = 1024;
// L40S 362/(142 x 2.52) = 1011 -> 1024; L4 121/(58 x 2.04) = 1022 -> 1024; H100/H200 989/(132 x
// 1.83) = 4094 -> 4096; B200 2250/(148 x ~1.86) -> 8192; T4 65/(40 x 1.59) = 1022 -> 1024;
// RTX PRO 6000 Blackwell (sm_120) -> 1024. GeForce boards run FP32-accumulate at half rate
// (RTX 4090: 165 TF = 512 per SM per clock).
double tensor_flop_per_sm_clk(int major, int minor, const std::string& name)
{
    double r = 1024;
    if (major == 8 && minor == 0) r = 2048;
    else if (major == 9) r = 4096;
    else if (major == 10 || major == 11) r = 8192;
    if (name.find("GeForce") != std::string::npos) r *= 0.5;
    return r;
}

} // namespace

// The samples of one throughput kernel: FLOP/s per timed launch, the SM clock the kernel itself saw.
struct DeviceRun::ClockedRates {
    std::vector<double> rates, kernel_mhz;
    double t0 = 0, t1 = 0;
};

// Runs f(out, iters, params..., clk) on every SM: out takes one float per thread (so the compiler
// keeps the work), clk block 0's SM cycles and nanoseconds. iters is first calibrated so one launch
// lasts about target_ms; those launches also bring the clocks up before the timed samples.
DeviceRun::ClockedRates DeviceRun::clocked_rates(CUfunction f, const std::vector<void*>& params, int iters,
                                                 double min_iters, double target_ms, double flop_per_thread_iter)
{
    const unsigned grid = grid_for(f);
    const size_t threads = static_cast<size_t>(grid) * 256;
    CUdeviceptr out = 0;
    check(cu_.MemAlloc(&out, threads * sizeof(float) + 64), "cuMemAlloc");
    CUdeviceptr clk = out + threads * sizeof(float); // 2 x u64: SM cycles and ns of block 0
    check(cu_.MemsetD8(clk, 0, 16), "cuMemsetD8");
    std::vector<void*> args{&out, &iters};
    args.insert(args.end(), params.begin(), params.end());
    args.push_back(&clk);
    const double flop_per_iter = static_cast<double>(threads) * flop_per_thread_iter;
    ClockedRates run;
    try {
        for (int k = 0; k < 3; ++k) {
            const double ms = time_ms([&] { launch(f, grid, 256, args); });
            iters = static_cast<int>(std::clamp(iters * target_ms / std::max(ms, 0.01), min_iters, 2.0e8));
        }
        const int samples = rc_.opt.quick ? 5 : 7;
        run.t0 = now_s();
        for (int s = 0; s < samples; ++s) {
            const double ms = time_ms([&] { launch(f, grid, 256, args); });
            run.rates.push_back(flop_per_iter * iters / (ms * 1e9));
            unsigned long long ck[2] = {};
            check(cu_.MemcpyDtoH(ck, clk, sizeof ck), "cuMemcpyDtoH");
            if (ck[1] > 0) run.kernel_mhz.push_back(static_cast<double>(ck[0]) / static_cast<double>(ck[1]) * 1e3);
        }
    } catch (...) {
        cu_.MemFree(out);
        throw;
    }
    run.t1 = now_s();
    cu_.MemFree(out);
    return run;
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_fp32()
{
    TestResult t;
    t.name = "FP32 FMA throughput (clock-normalised)";
    t.unit = "TFLOP/s";
    CUfunction f = fn("gv_fma");
    float b = 0.9999f, c = 1.0e-4f;
    // ~150 ms (80 ms quick) per launch; 16 FMA x 8 chains x 2 FLOP per thread and iteration.
    const ClockedRates run = clocked_rates(f, {&b, &c}, 256, 16.0, rc_.opt.quick ? 80 : 150, 16 * 8 * 2);
    const double tflops = median(run.rates);
    fp32_tflops_ = tflops;
    t.measured = tflops;
    const int lanes = fp32_lanes_per_sm(cc_major_, cc_minor_);
    Json& d = t.details;
    d.set("fp32_lanes_per_sm", lanes).set("sm_count", sms_).set("samples", static_cast<int>(run.rates.size()));
    std::optional<double> clock;
    std::string clock_source;
    if (sampler_) {
        const WindowStats w = sampler_->stats(run.t0, run.t1);
        add_window(d, w);
        if (w.sm_median) {
            clock = *w.sm_median;
            clock_source = "nvml_median_during_run";
        }
    }
    if (!run.kernel_mhz.empty()) d.set("sm_clock_mhz_kernel", median(run.kernel_mhz));
    if (!clock && !run.kernel_mhz.empty()) {
        clock = median(run.kernel_mhz);
        clock_source = "kernel_clock64_vs_globaltimer";
    }
    if (!clock && max_sm_clock_) {
        clock = *max_sm_clock_;
        clock_source = "max_sm_clock (no NVML samples)";
    }
    if (max_sm_clock_) d.set("peak_at_max_clock_tflops", sms_ * lanes * 2.0 * *max_sm_clock_ * 1e6 / 1e12);
    if (!clock) {
        t.status = "warn";
        t.message = fmt("Measured %.1f TFLOP/s, but the SM clock is unknown.", tflops);
        return t;
    }
    d.set("sm_clock_mhz_used", *clock).set("clock_source", clock_source);
    if (max_sm_clock_) d.set("clock_fraction_of_max", *clock / *max_sm_clock_);
    t.expected = sms_ * lanes * 2.0 * *clock * 1e6 / 1e12;
    t.ratio = tflops / *t.expected;
    t.status = grade(*t.ratio, 0.85, 0.70);
    if (t.status == "pass")
        t.message = fmt("%.1f TFLOP/s FP32 is %.0f%% of the peak of %d SMs at the measured %.0f MHz.", tflops,
                        *t.ratio * 100, sms_, *clock);
    else
        t.message = fmt("%.1f TFLOP/s FP32 is only %.0f%% of the peak of %d SMs at the measured %.0f MHz: SMs are "
                        "missing, shared or faulty.",
                        tflops, *t.ratio * 100, sms_, *clock);
    return t;
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_tensor(bool bf16)
{
    TestResult t;
    t.name = bf16 ? "Tensor cores BF16 (mma.sync, FP32 accumulate)" : "Tensor cores FP16 (mma.sync, FP32 accumulate)";
    t.unit = "TFLOP/s";
    if (bf16 && cc_major_ < 8) {
        t.status = "skip";
        t.message = "BF16 tensor cores need compute capability 8.0 or newer.";
        return t;
    }
    CUfunction f = fn(bf16 ? "gv_mma_bf16" : "gv_mma_f16");
    const double flop_per_mma = cc_major_ >= 8 ? 2.0 * 16 * 8 * 16 : 2.0 * 16 * 8 * 8;
    unsigned long long seed = bf16 ? 11 : 13;
    // 8 mma chains per warp of 32 threads.
    const ClockedRates run = clocked_rates(f, {&seed}, 64, 8.0, rc_.opt.quick ? 60 : 120, 8 * flop_per_mma / 32);
    const double tflops = median(run.rates);
    if (bf16) bf16_tflops_ = tflops;
    t.measured = tflops;
    const double per_clk = tensor_flop_per_sm_clk(cc_major_, cc_minor_, name_);
    Json& d = t.details;
    d.set("kernel", cc_major_ >= 8 ? "mma.sync.m16n8k16 (register resident)" : "mma.sync.m16n8k8 (register resident)");
    d.set("dense_flop_per_sm_per_clock", per_clk).set("samples", static_cast<int>(run.rates.size()));
    std::optional<double> clock;
    if (sampler_) {
        const WindowStats w = sampler_->stats(run.t0, run.t1);
        add_window(d, w);
        clock = w.sm_median;
    }
    if (!run.kernel_mhz.empty()) d.set("sm_clock_mhz_kernel", median(run.kernel_mhz));
    if (!clock && !run.kernel_mhz.empty()) clock = median(run.kernel_mhz);
    if (!clock) clock = max_sm_clock_;
    if (!clock) {
        t.status = "warn";
        t.message = fmt("Measured %.0f TFLOP/s, but the SM clock is unknown.", tflops);
        return t;
    }
    d.set("sm_clock_mhz_used", *clock);
    t.expected = sms_ * per_clk * *clock * 1e6 / 1e12;
    t.ratio = tflops / *t.expected;
    t.status = grade(*t.ratio, 0.60, 0.40);
    const bool legacy_path = cc_major_ == 9 || cc_major_ == 10 || cc_major_ == 11;
    if (legacy_path)
        d.set("note", "Hopper/Blackwell reach the dense rate only with wgmma/tcgen05; mma.sync runs on a slower path");
    t.message = fmt("%.0f TFLOP/s %s is %.0f%% of the dense tensor rate at the measured %.0f MHz (%.0f TFLOP/s).",
                    tflops, bf16 ? "BF16" : "FP16", *t.ratio * 100, *clock, *t.expected);
    if (legacy_path && t.status != "pass") t.message += " This portable mma.sync kernel cannot reach the wgmma/tcgen05 peak.";
    return t;
}

} // namespace gv
