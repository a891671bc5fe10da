// SPDX-License-Identifier: Apache-2.0
// A DeviceRun's life: the launch helpers every test shares, loading the GPU code (fatbin or the
// low-ISA PTX fallback), running the tests in order and the GPU's part of the JSON document. The
// tests themselves live in state.cpp, memory.cpp, host_link.cpp, compute.cpp and burn.cpp.
#include "device.hpp"

#include <cstdint>
#include <cstdio>

namespace gv {

DeviceRun::DeviceRun(RunContext& rc, int ordinal) : rc_(rc), cu_(rc.cu), nv_(rc.nv), ordinal_(ordinal) {}

DeviceRun::~DeviceRun()
{
    if (sampler_) sampler_->stop();
    if (events_ && nv_.EventSetFree) nv_.EventSetFree(events_);
    if (ctx_) {
        cu_.CtxSetCurrent(ctx_);
        if (ev0_) cu_.EventDestroy(ev0_);
        if (ev1_) cu_.EventDestroy(ev1_);
        if (stream_) cu_.StreamDestroy(stream_);
        if (mod_) cu_.ModuleUnload(mod_);
        cu_.DevicePrimaryCtxRelease(dev_);
    }
}

void DeviceRun::progress(double pct, const std::string& test, const std::string& msg)
{
    std::lock_guard<std::mutex> lk(rc_.progress_mutex);
    // "gantry-verify: [ 42%] device_bandwidth: copy 3900.1 GB/s"; with several GPUs the message
    // starts with "gpuN: " so the test id keeps its place.
    const std::string who = rc_.gpu_count > 1 ? fmt("gpu%d: ", ordinal_) : std::string();
    std::fprintf(stderr, "gantry-verify: [%3d%%] %s: %s%s\n", static_cast<int>(pct + 0.5), test.c_str(), who.c_str(),
                 msg.c_str());
    std::fflush(stderr);
}

void DeviceRun::check(CUresult r, const char* what)
{
    if (r != CUDA_SUCCESS) throw CudaError(std::string(what) + " failed: " + cu_.error_text(r));
}

CUfunction DeviceRun::fn(const char* name)
{
    CUfunction f = nullptr;
    check(cu_.ModuleGetFunction(&f, mod_, name), name);
    return f;
}

unsigned DeviceRun::grid_for(CUfunction f, unsigned block)
{
    int per_sm = 0;
    if (cu_.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, static_cast<int>(block), 0) != CUDA_SUCCESS ||
        per_sm <= 0)
        per_sm = 4;
    return static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms_);
}

void DeviceRun::launch(CUfunction f, unsigned grid, unsigned block, std::vector<void*> args)
{
    check(cu_.LaunchKernel(f, grid, 1, 1, block, 1, 1, 0, stream_, args.data(), nullptr), "cuLaunchKernel");
}

double DeviceRun::time_ms(const std::function<void()>& enqueue)
{
    check(cu_.EventRecord(ev0_, stream_), "cuEventRecord");
    enqueue();
    check(cu_.EventRecord(ev1_, stream_), "cuEventRecord");
    check(cu_.EventSynchronize(ev1_), "cuEventSynchronize");
    float ms = 0;
    check(cu_.EventElapsedTime(&ms, ev0_, ev1_), "cuEventElapsedTime");
    return ms;
}

bool DeviceRun::init_context()
{
    try {
        check(cu_.DevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
        check(cu_.CtxSetCurrent(ctx_), "cuCtxSetCurrent");
    } catch (const CudaError& e) {
        ctx_ = nullptr;
        load_error_ = e.what();
        return false;
    }
    const DeviceCode code = embedded_code();
    const char* fallback = cc_major_ >= 8 ? code.ptx80 : code.ptx75;
    const bool have_fallback = fallback && fallback[0];
    std::string errs;
    auto try_load = [&](const void* image, const char* label) -> bool {
        char log[4096] = {};
        CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* vals[2] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log - 1))};
        const CUresult r = cu_.ModuleLoadDataEx(&mod_, image, 2, opts, vals);
        if (r == CUDA_SUCCESS) {
            code_path_ = label;
            return true;
        }
        mod_ = nullptr;
        if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) ptx_too_new_ = true;
        errs += std::string(errs.empty() ? "" : "; ") + label + ": " + cu_.error_text(r);
        if (log[0]) errs += std::string(" (") + log + ")";
        return false;
    };
    bool loaded = false;
    // The fatbin is built by CUDA 13: supported on drivers with CUDA >= 13.0 (R580+).
    if (rc_.driver_api >= CUDA_VERSION) loaded = try_load(code.fatbin, "fatbin");
    if (!loaded && have_fallback) {
        loaded = try_load(fallback, cc_major_ >= 8 ? "ptx-fallback-compute_80" : "ptx-fallback-compute_75");
        if (loaded) ptx_too_new_ = false;
    }
    if (!loaded) {
        if (rc_.driver_api < CUDA_VERSION && !have_fallback) ptx_too_new_ = true;
        load_error_ = "could not load the GPU code: " + (errs.empty() ? std::string("no usable image") : errs);
        return false;
    }
    try {
        // A blocking stream: it orders with the legacy default stream used by cuMemsetD8/cuMemcpyDtoH.
        check(cu_.StreamCreate(&stream_, CU_STREAM_DEFAULT), "cuStreamCreate");
        check(cu_.EventCreate(&ev0_, CU_EVENT_DEFAULT), "cuEventCreate");
        check(cu_.EventCreate(&ev1_, CU_EVENT_DEFAULT), "cuEventCreate");
        CUdeviceptr d = 0;
        check(cu_.MemAlloc(&d, 256), "cuMemAlloc");
        void* a[] = {&d};
        CUfunction probe = fn("gv_arch_probe");
        check(cu_.LaunchKernel(probe, 1, 1, 1, 32, 1, 1, 0, stream_, a, nullptr), "cuLaunchKernel(gv_arch_probe)");
        check(cu_.StreamSynchronize(stream_), "gv_arch_probe");
        int arch = 0;
        check(cu_.MemcpyDtoH(&arch, d, sizeof arch), "cuMemcpyDtoH");
        cu_.MemFree(d);
        code_arch_ = arch;
    } catch (const CudaError& e) {
        load_error_ = e.what();
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
void DeviceRun::run_one(double p0, double p1, const char* id, const char* name, TestResult (DeviceRun::*fnp)())
{
    progress(p0, id, "running");
    TestResult t;
    try {
        t = (this->*fnp)();
    } catch (const std::exception& e) {
        t = TestResult{};
        t.status = "error";
        t.message = std::string("The test could not run: ") + e.what();
    }
    t.id = id;
    if (t.name.empty()) t.name = name;
    std::string summary = t.status;
    if (t.measured) summary += fmt(" %.4g %s", *t.measured, t.unit.c_str());
    if (t.ratio) summary += fmt(" (%.2f of expected)", *t.ratio);
    progress(p1, id, summary);
    tests_.push_back(std::move(t));
}

void DeviceRun::run_tests()
{
    if (ctx_) cu_.CtxSetCurrent(ctx_);
    if (sampler_) sampler_->start();
    run_one(0, 2, "identity", "Identity and state", &DeviceRun::test_identity);
    if (!ctx_ || !mod_) {
        TestResult t;
        t.id = "memory_integrity";
        t.name = "GPU code";
        t.status = "error";
        t.message = load_error_;
        tests_.push_back(t);
        if (sampler_) sampler_->stop();
        return;
    }
    run_one(2, 18, "memory_integrity", "Memory integrity", &DeviceRun::test_memory);
    run_one(18, 26, "device_bandwidth", "Device memory bandwidth", &DeviceRun::test_device_bandwidth);
    run_one(26, 33, "host_device_bandwidth", "Host-device bandwidth (pinned)", &DeviceRun::test_host_device);
    run_one(33, 39, "fp32_fma", "FP32 FMA throughput", &DeviceRun::test_fp32);
    run_one(39, 44, "tensor_bf16", "Tensor cores BF16 (mma.sync)", &DeviceRun::test_tensor_bf16_);
    run_one(44, 49, "tensor_fp16", "Tensor cores FP16 (mma.sync)", &DeviceRun::test_tensor_fp16_);
    run_one(49, 97, "burn", "Sustained burn with result comparison", &DeviceRun::test_burn);
    run_one(97, 100, "after_checks", "After-checks (ECC, row remap, Xid)", &DeviceRun::test_after);
    if (sampler_) sampler_->stop();
}

TestResult DeviceRun::test_tensor_bf16_() { return test_tensor(true); }
TestResult DeviceRun::test_tensor_fp16_() { return test_tensor(false); }

// ---------------------------------------------------------------------------------------------
std::string DeviceRun::verdict() const
{
    int worst = 0;
    for (const auto& t : tests_) worst = std::max(worst, severity(t.status));
    if (worst >= 3) return "fail";
    if (worst == 2) return "warn";
    return "pass";
}

Json DeviceRun::to_json() const
{
    Json g = Json::object();
    g.set("index", ordinal_).set("name", name_).set("uuid", uuid_.empty() ? Json() : Json(uuid_));
    g.set("pci_bus_id", pci_bus_id_.empty() ? Json() : Json(pci_bus_id_));
    g.set("pci_device_id", pci_device_id_);
    g.set("compute_capability", fmt("%d.%d", cc_major_, cc_minor_)).set("sm_count", sms_);
    g.set("memory_total_mib", mem_total_mib_).set("bus_width_bits", bus_width_);
    g.set("max_mem_clock_mhz", max_mem_clock_).set("max_sm_clock_mhz", max_sm_clock_);
    g.set("ecc_enabled", ecc_enabled_).set("mig_enabled", mig_enabled_);
    g.set("power_limit_w", power_limit_w_).set("default_power_limit_w", default_power_limit_w_);
    g.set("pcie_gen_max", pcie_gen_max_).set("pcie_width_max", pcie_width_max_);
    g.set("verdict", verdict());
    Json tests = Json::array();
    for (const auto& t : tests_) tests.push(t.to_json());
    g.set("tests", tests);
    return g;
}

} // namespace gv
