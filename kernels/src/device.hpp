// One GPU under test: identity (NVML + driver attributes), context and module, and the tests.
#pragma once

#include "common.hpp"
#include "cuda_api.hpp"
#include "nvml_api.hpp"
#include "sampler.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gv {

// The embedded device code (see embed.cpp): the main fatbin and the low-ISA PTX fallbacks
// (NUL-terminated; empty when the build could not validate them).
struct DeviceCode {
    const unsigned char* fatbin = nullptr;
    size_t fatbin_size = 0;
    const char* ptx75 = nullptr;
    const char* ptx80 = nullptr;
};
DeviceCode embedded_code();

struct Counters {
    std::optional<unsigned long long> ecc_uncorrected_volatile, ecc_corrected_volatile, ecc_uncorrected_aggregate;
    std::optional<unsigned> remap_corrected, remap_uncorrected, remap_pending, remap_failure;
    std::optional<int> retired_pending;
    std::optional<unsigned> pcie_replays;
};

// Shared among the per-GPU threads.
struct RunContext {
    RunContext(const CudaApi& c, const NvmlApi& n, const Options& o) : cu(c), nv(n), opt(o) {}
    const CudaApi& cu;
    const NvmlApi& nv;
    const Options& opt;
    int driver_api = 0;
    int gpu_count = 1;
    std::mutex progress_mutex;
    std::mutex host_link_mutex; // host<->device tests run one GPU at a time
    std::mutex errors_mutex;
    std::vector<std::string> errors;
};

class DeviceRun {
public:
    DeviceRun(RunContext& rc, int ordinal);
    ~DeviceRun();
    DeviceRun(const DeviceRun&) = delete;
    DeviceRun& operator=(const DeviceRun&) = delete;

    // Before any context exists: NVML identity, counters, foreign processes.
    void collect_identity();
    // Creates the context and loads the module. Returns false on failure (message in load_error_,
    // ptx_too_new_ set when the driver rejected the code as too new).
    bool init_context();
    void run_tests();
    Json to_json() const;

    bool ptx_too_new() const { return ptx_too_new_; }
    const std::string& load_error() const { return load_error_; }
    std::string verdict() const;

private:
    void progress(double pct, const std::string& test, const std::string& msg);
    void check(CUresult r, const char* what);
    CUfunction fn(const char* name);
    unsigned grid_for(CUfunction f, unsigned block = 256);
    void launch(CUfunction f, unsigned grid, unsigned block, std::vector<void*> args);
    double time_ms(const std::function<void()>& enqueue);
    Counters read_counters() const;

    // The tests and their parts, by file: state.cpp, memory.cpp, host_link.cpp, compute.cpp, burn.cpp.
    void collect_cuda_identity();
    void collect_nvml_identity();
    void count_foreign_processes();
    void watch_xid_events();
    TestResult test_identity();
    TestResult test_after();

    struct PatternPasses;
    TestResult test_memory();
    size_t allocate_most(CUdeviceptr& buf, size_t free_b, double want);
    PatternPasses pattern_passes(CUdeviceptr buf, size_t bytes, CUdeviceptr err);
    TestResult test_device_bandwidth();

    TestResult test_host_device();
    void grade_host_link(TestResult& t, double h2d, double d2h, std::optional<unsigned> gen_load,
                         std::optional<unsigned> width_load) const;

    struct ClockedRates;
    ClockedRates clocked_rates(CUfunction f, const std::vector<void*>& params, int iters, double min_iters,
                               double target_ms, double flop_per_thread_iter);
    TestResult test_fp32();
    TestResult test_tensor(bool bf16);
    TestResult test_tensor_bf16_();
    TestResult test_tensor_fp16_();

    struct Burn;
    TestResult test_burn();

    void run_one(double pct_start, double pct_end, const char* id, const char* name,
                 TestResult (DeviceRun::*fnp)());

    RunContext& rc_;
    const CudaApi& cu_;
    const NvmlApi& nv_;
    int ordinal_;
    CUdevice dev_ = 0;
    CUcontext ctx_ = nullptr;
    CUmodule mod_ = nullptr;
    CUstream stream_ = nullptr;
    CUevent ev0_ = nullptr, ev1_ = nullptr;
    nvmlDevice_t nvdev_ = nullptr;
    nvmlEventSet_t events_ = nullptr;
    std::unique_ptr<Sampler> sampler_;
    std::string load_error_;
    bool ptx_too_new_ = false;
    std::string code_path_;
    int code_arch_ = 0;

    // identity
    std::string name_, uuid_, pci_bus_id_;
    std::optional<std::string> pci_device_id_;
    int cc_major_ = 0, cc_minor_ = 0, sms_ = 0;
    std::optional<double> mem_total_mib_, bus_width_, max_mem_clock_, max_sm_clock_, power_limit_w_,
        default_power_limit_w_;
    std::optional<bool> ecc_enabled_, mig_enabled_;
    bool ecc_supported_ = false; // NVML reported an ECC mode (so "disabled" is a real setting)
    std::optional<unsigned> pcie_gen_max_, pcie_width_max_;
    std::optional<unsigned> foreign_processes_;
    std::optional<double> foreign_mem_mib_;
    std::optional<double> nvml_used_mib_;
    long long l2_bytes_ = 0;
    Counters before_;
    bool xid_supported_ = false;
    std::string xid_note_;

    // results shared between tests
    std::optional<double> fp32_tflops_, bf16_tflops_;
    std::vector<TestResult> tests_;
};

} // namespace gv
