#include "device.hpp"

#include <cstdio>
#include <cstring>
#include <thread>

namespace gv {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

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

std::string reasons_text(unsigned long long r)
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

constexpr unsigned long long kBadReasons = kReasonHwSlowdown | kReasonSwThermal | kReasonHwThermal | kReasonHwPowerBrake;

std::string hex64(unsigned long long v) { return fmt("0x%016llx", v); }

void add_window(Json& d, const WindowStats& w)
{
    if (w.sm_median) d.set("sm_clock_mhz_median", *w.sm_median);
    if (w.sm_min) d.set("sm_clock_mhz_min", *w.sm_min);
    if (w.power_median) d.set("power_w_median", *w.power_median);
    if (w.power_max) d.set("power_w_max", *w.power_max);
    if (w.temp_max) d.set("temperature_c_max", *w.temp_max);
    if (w.reasons_known) d.set("clock_event_reasons", reasons_text(w.reasons_or & ~kReasonGpuIdle));
}

} // namespace

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

Counters DeviceRun::read_counters() const
{
    Counters c;
    if (!nv_.ok || !nvdev_) return c;
    unsigned long long v = 0;
    if (nv_.DeviceGetTotalEccErrors) {
        if (nv_.DeviceGetTotalEccErrors(nvdev_, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC, &v) == NVML_SUCCESS)
            c.ecc_uncorrected_volatile = v;
        if (nv_.DeviceGetTotalEccErrors(nvdev_, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC, &v) == NVML_SUCCESS)
            c.ecc_corrected_volatile = v;
        if (nv_.DeviceGetTotalEccErrors(nvdev_, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_AGGREGATE_ECC, &v) ==
            NVML_SUCCESS)
            c.ecc_uncorrected_aggregate = v;
    }
    unsigned a = 0, b = 0, p = 0, f = 0;
    if (nv_.DeviceGetRemappedRows && nv_.DeviceGetRemappedRows(nvdev_, &a, &b, &p, &f) == NVML_SUCCESS) {
        c.remap_corrected = a;
        c.remap_uncorrected = b;
        c.remap_pending = p;
        c.remap_failure = f;
    }
    int pend = 0;
    if (nv_.DeviceGetRetiredPagesPendingStatus && nv_.DeviceGetRetiredPagesPendingStatus(nvdev_, &pend) == NVML_SUCCESS)
        c.retired_pending = pend;
    unsigned r = 0;
    if (nv_.DeviceGetPcieReplayCounter && nv_.DeviceGetPcieReplayCounter(nvdev_, &r) == NVML_SUCCESS) c.pcie_replays = r;
    return c;
}

// ---------------------------------------------------------------------------------------------
void DeviceRun::collect_identity()
{
    check(cu_.DeviceGet(&dev_, ordinal_), "cuDeviceGet");
    char buf[256] = {};
    if (cu_.DeviceGetName(buf, sizeof buf - 1, dev_) == CUDA_SUCCESS) name_ = buf;
    auto attr = [&](CUdevice_attribute a) {
        int v = 0;
        return cu_.DeviceGetAttribute(&v, a, dev_) == CUDA_SUCCESS ? v : 0;
    };
    cc_major_ = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    cc_minor_ = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    sms_ = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    l2_bytes_ = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    size_t total = 0;
    if (cu_.DeviceTotalMem(&total, dev_) == CUDA_SUCCESS) mem_total_mib_ = static_cast<double>(total / (1024 * 1024));
    if (int w = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)) bus_width_ = w;
    if (int k = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)) max_mem_clock_ = k / 1000.0;
    if (int k = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)) max_sm_clock_ = k / 1000.0;
    ecc_enabled_ = attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED) != 0;
    CUuuid uu{};
    if (cu_.DeviceGetUuid(&uu, dev_) == CUDA_SUCCESS) {
        const auto* u = reinterpret_cast<const unsigned char*>(uu.bytes);
        uuid_ = fmt("GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
                    u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    }
    char bus[64] = {};
    if (cu_.DeviceGetPCIBusId(bus, sizeof bus - 1, dev_) == CUDA_SUCCESS) pci_bus_id_ = bus;

    if (nv_.ok && nv_.DeviceGetHandleByPciBusId && !pci_bus_id_.empty()) {
        if (nv_.DeviceGetHandleByPciBusId(pci_bus_id_.c_str(), &nvdev_) != NVML_SUCCESS) nvdev_ = nullptr;
    }
    if (nvdev_) {
        char s[256] = {};
        if (nv_.DeviceGetName && nv_.DeviceGetName(nvdev_, s, sizeof s - 1) == NVML_SUCCESS) name_ = s;
        char u[96] = {};
        if (nv_.DeviceGetUUID && nv_.DeviceGetUUID(nvdev_, u, sizeof u - 1) == NVML_SUCCESS) uuid_ = u;
        nvmlPciInfo_t pci{};
        if (nv_.DeviceGetPciInfo && nv_.DeviceGetPciInfo(nvdev_, &pci) == NVML_SUCCESS) {
            pci_device_id_ = fmt("0x%08X", pci.pciDeviceId);
            if (pci.busId[0]) pci_bus_id_ = pci.busId;
        }
        unsigned v = 0;
        if (nv_.DeviceGetMaxClockInfo && nv_.DeviceGetMaxClockInfo(nvdev_, NVML_CLOCK_MEM, &v) == NVML_SUCCESS && v)
            max_mem_clock_ = v;
        if (nv_.DeviceGetMaxClockInfo && nv_.DeviceGetMaxClockInfo(nvdev_, NVML_CLOCK_SM, &v) == NVML_SUCCESS && v)
            max_sm_clock_ = v;
        if (nv_.DeviceGetMemoryBusWidth && nv_.DeviceGetMemoryBusWidth(nvdev_, &v) == NVML_SUCCESS && v) bus_width_ = v;
        nvmlMemory_t m{};
        if (nv_.DeviceGetMemoryInfo && nv_.DeviceGetMemoryInfo(nvdev_, &m) == NVML_SUCCESS) {
            mem_total_mib_ = static_cast<double>(m.total / (1024 * 1024));
            nvml_used_mib_ = static_cast<double>(m.used) / kMiB;
        }
        int cur = 0, pend = 0;
        if (nv_.DeviceGetEccMode) {
            const nvmlReturn_t r = nv_.DeviceGetEccMode(nvdev_, &cur, &pend);
            if (r == NVML_SUCCESS) {
                ecc_enabled_ = cur != 0;
                ecc_supported_ = true;
            } else {
                ecc_enabled_.reset(); // not supported (e.g. GeForce): unknown rather than "off"
            }
        }
        unsigned mc = 0, mp = 0;
        if (nv_.DeviceGetMigMode && nv_.DeviceGetMigMode(nvdev_, &mc, &mp) == NVML_SUCCESS) mig_enabled_ = mc != 0;
        else if (nv_.DeviceGetMigMode) mig_enabled_ = false; // NOT_SUPPORTED: the GPU has no MIG
        if (nv_.DeviceGetEnforcedPowerLimit && nv_.DeviceGetEnforcedPowerLimit(nvdev_, &v) == NVML_SUCCESS)
            power_limit_w_ = v / 1000.0;
        if (nv_.DeviceGetPowerManagementDefaultLimit &&
            nv_.DeviceGetPowerManagementDefaultLimit(nvdev_, &v) == NVML_SUCCESS)
            default_power_limit_w_ = v / 1000.0;
        if (nv_.DeviceGetMaxPcieLinkGeneration && nv_.DeviceGetMaxPcieLinkGeneration(nvdev_, &v) == NVML_SUCCESS)
            pcie_gen_max_ = v;
        if (nv_.DeviceGetMaxPcieLinkWidth && nv_.DeviceGetMaxPcieLinkWidth(nvdev_, &v) == NVML_SUCCESS)
            pcie_width_max_ = v;
        // Other compute processes (read before our own context exists, so we are not counted).
        if (nv_.DeviceGetComputeRunningProcesses_v2) {
            std::vector<nvmlProcessInfo_v2_t> procs(64);
            unsigned n = static_cast<unsigned>(procs.size());
            if (nv_.DeviceGetComputeRunningProcesses_v2(nvdev_, &n, procs.data()) == NVML_SUCCESS) {
                foreign_processes_ = n;
                double mem = 0;
                for (unsigned i = 0; i < n && i < procs.size(); ++i)
                    if (procs[i].usedGpuMemory != ~0ull) mem += static_cast<double>(procs[i].usedGpuMemory) / kMiB;
                foreign_mem_mib_ = mem;
            } else if (n > procs.size()) {
                foreign_processes_ = n;
            }
        } else if (nv_.DeviceGetComputeRunningProcesses_v1) {
            std::vector<nvmlProcessInfo_v1_t> procs(64);
            unsigned n = static_cast<unsigned>(procs.size());
            const nvmlReturn_t r = nv_.DeviceGetComputeRunningProcesses_v1(nvdev_, &n, procs.data());
            if (r == NVML_SUCCESS || r == NVML_ERROR_INSUFFICIENT_SIZE) foreign_processes_ = n;
        }
        before_ = read_counters();
        // Xid / double-bit ECC events for the after-checks.
        if (nv_.EventSetCreate && nv_.DeviceRegisterEvents && nv_.EventSetWait) {
            if (nv_.EventSetCreate(&events_) == NVML_SUCCESS) {
                const nvmlReturn_t r = nv_.DeviceRegisterEvents(nvdev_, kEventXid | kEventDoubleBitEcc, events_);
                if (r == NVML_SUCCESS) {
                    xid_supported_ = true;
                } else {
                    // DBE events are not supported everywhere; retry with Xid only.
                    const nvmlReturn_t r2 = nv_.DeviceRegisterEvents(nvdev_, kEventXid, events_);
                    xid_supported_ = r2 == NVML_SUCCESS;
                    if (!xid_supported_) xid_note_ = "Xid events unavailable: " + nv_.error_text(r2);
                }
            } else {
                xid_note_ = "Xid events unavailable: nvmlEventSetCreate failed";
            }
        } else {
            xid_note_ = "Xid events unavailable in this NVML";
        }
        sampler_ = std::make_unique<Sampler>(nv_, nvdev_);
    } else {
        xid_note_ = nv_.ok ? "NVML has no handle for this device" : "NVML not available";
    }
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
TestResult DeviceRun::test_identity()
{
    TestResult t;
    t.name = "Identity and state";
    t.unit = "";
    std::vector<std::string> warn, fail;
    if (!nv_.ok || !nvdev_) warn.push_back("NVML is not available, so ECC, power limit, PCIe and clock checks are limited");
    if (mig_enabled_ && *mig_enabled_) warn.push_back("MIG mode is on, so only a slice of the GPU is tested");
    if (ecc_supported_ && ecc_enabled_ && !*ecc_enabled_) warn.push_back("ECC is supported but disabled");
    if (power_limit_w_ && default_power_limit_w_ && *power_limit_w_ < 0.98 * *default_power_limit_w_)
        warn.push_back(fmt("the power limit is capped at %.0f W (default %.0f W)", *power_limit_w_, *default_power_limit_w_));
    if (foreign_processes_ && *foreign_processes_ > 0)
        warn.push_back(fmt("%u other process(es) are using the GPU", *foreign_processes_));
    if (before_.ecc_uncorrected_volatile && *before_.ecc_uncorrected_volatile > 0)
        fail.push_back(fmt("%llu uncorrected ECC errors since the last driver load", *before_.ecc_uncorrected_volatile));
    if (before_.remap_failure && *before_.remap_failure) fail.push_back("a row remapping has failed");
    if (before_.remap_pending && *before_.remap_pending)
        warn.push_back("row remaps are pending (the GPU needs a reset)");
    if (before_.retired_pending && *before_.retired_pending)
        warn.push_back("retired pages are pending (the GPU needs a reset)");
    if (before_.remap_uncorrected && *before_.remap_uncorrected > 0)
        warn.push_back(fmt("%u rows were remapped after uncorrectable errors", *before_.remap_uncorrected));

    Json& d = t.details;
    d.set("code_path", code_path_).set("code_arch", code_arch_);
    d.set("other_processes", foreign_processes_).set("other_processes_mib", foreign_mem_mib_);
    d.set("memory_used_mib_before", nvml_used_mib_);
    d.set("ecc_uncorrected_volatile", before_.ecc_uncorrected_volatile);
    d.set("ecc_corrected_volatile", before_.ecc_corrected_volatile);
    d.set("ecc_uncorrected_aggregate", before_.ecc_uncorrected_aggregate);
    d.set("remapped_rows_correctable", before_.remap_corrected);
    d.set("remapped_rows_uncorrectable", before_.remap_uncorrected);
    d.set("remap_pending", before_.remap_pending ? Json(*before_.remap_pending != 0) : Json());
    d.set("remap_failure", before_.remap_failure ? Json(*before_.remap_failure != 0) : Json());
    d.set("retired_pages_pending", before_.retired_pending ? Json(*before_.retired_pending != 0) : Json());
    d.set("l2_cache_mib", static_cast<double>(l2_bytes_) / kMiB);
    t.measured = mem_total_mib_;
    t.unit = "MiB";
    if (!fail.empty()) {
        t.status = "fail";
        t.message = fail.front();
        for (size_t i = 1; i < fail.size(); ++i) t.message += "; " + fail[i];
        for (const auto& w : warn) t.message += "; " + w;
    } else if (!warn.empty()) {
        t.status = "warn";
        t.message = warn.front();
        for (size_t i = 1; i < warn.size(); ++i) t.message += "; " + warn[i];
    } else {
        t.status = "pass";
        t.message = fmt("%s with %d SMs and %.0f MiB; no ECC errors, no pending remaps, no other processes.",
                        name_.c_str(), sms_, mem_total_mib_.value_or(0));
    }
    if (!t.message.empty() && t.message.back() != '.') t.message += '.';
    if (!t.message.empty()) t.message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t.message[0])));
    return t;
}

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
    const double want = rc_.opt.quick ? 0.50 : 0.94;
    CUdeviceptr buf = 0;
    size_t bytes = 0;
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
    for (double f = want; f > 0.05; f -= 0.02) {
        bytes = static_cast<size_t>(static_cast<double>(free_b) * f) & ~static_cast<size_t>((2u << 20) - 1);
        const CUresult r = cu_.MemAlloc(&buf, bytes);
        if (r == CUDA_SUCCESS) break;
        buf = 0;
        if (r != CUDA_ERROR_OUT_OF_MEMORY) check(r, "cuMemAlloc");
    }
    if (!buf) throw CudaError("could not allocate memory for the test");
    const double fraction = static_cast<double>(bytes) / static_cast<double>(free_b);
    progress(3, "memory_integrity", fmt("testing %.1f GiB (%.0f%% of free memory)", bytes / kGiB, fraction * 100));

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
    Json passes = Json::array();
    int done = 0;
    double gpu_ms = 0;
    for (const Pass& p : plan) {
        if (done >= 3 && now_s() - t0 > budget) break;
        int kind = p.kind;
        unsigned long long seed = p.seed;
        int zero = 0, one = 1;
        gpu_ms += time_ms([&] {
            launch(fw, gw, 256, {&buf, &n16, &kind, &seed});
            launch(fc, gc, 256, {&buf, &n16, &kind, &seed, &zero, &one, &err}); // check, write complement
            launch(fc, gc, 256, {&buf, &n16, &kind, &seed, &one, &zero, &err}); // check complement
        });
        passes.push(p.name);
        ++done;
        // Moving a pass's worth of traffic (4 x bytes) is a rough progress measure.
        progress(3 + 14 * std::min(1.0, (now_s() - t0) / budget), "memory_integrity",
                 fmt("pass %d (%s) done", done, p.name));
    }
    unsigned long long e[4] = {};
    check(cu_.MemcpyDtoH(e, err, sizeof e), "cuMemcpyDtoH");
    const unsigned long long base = static_cast<unsigned long long>(buf);
    cu_.MemFree(buf);
    buf = 0;
    t.measured = static_cast<double>(e[0]);
    Json& d = t.details;
    d.set("bytes_tested", static_cast<unsigned long long>(bytes)).set("gib_tested", bytes / kGiB);
    d.set("free_mib", free_b / kMiB).set("fraction_of_free", fraction).set("passes", passes);
    d.set("seconds", now_s() - t0);
    if (gpu_ms > 0) d.set("test_traffic_gbs", 4.0 * static_cast<double>(bytes) * done / (gpu_ms * 1e6));
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
        t.message = fmt("%d pattern passes over %.1f GiB (%.0f%% of free memory) read back without a single error.", done,
                        bytes / kGiB, fraction * 100);
    }
    return t;
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
    if (!gen_load || !width_load || pcie_lane_gbs(*gen_load) <= 0) {
        t.status = "warn";
        t.message = fmt("Host to device %.1f GB/s, device to host %.1f GB/s; the PCIe link could not be read, so there is "
                        "no expected value.",
                        h2d, d2h);
        return t;
    }
    t.expected = pcie_lane_gbs(*gen_load) * *width_load;
    t.ratio = worst / *t.expected;
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
    return t;
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_fp32()
{
    TestResult t;
    t.name = "FP32 FMA throughput (clock-normalised)";
    t.unit = "TFLOP/s";
    CUfunction f = fn("gv_fma");
    const unsigned grid = grid_for(f);
    const size_t threads = static_cast<size_t>(grid) * 256;
    CUdeviceptr out = 0;
    check(cu_.MemAlloc(&out, threads * sizeof(float) + 64), "cuMemAlloc");
    CUdeviceptr clk = out + threads * sizeof(float); // 2 x u64: SM cycles and ns of block 0
    check(cu_.MemsetD8(clk, 0, 16), "cuMemsetD8");
    std::vector<double> kernel_mhz;
    float b = 0.9999f, c = 1.0e-4f;
    int iters = 256;
    const double flop_per_iter = static_cast<double>(threads) * 16 * 8 * 2;
    std::vector<double> rates;
    double t0 = 0;
    try {
        // Calibrate to ~150 ms (80 ms quick) per launch; the first launches also ramp up the clocks.
        const double target_ms = rc_.opt.quick ? 80 : 150;
        for (int k = 0; k < 3; ++k) {
            const double ms = time_ms([&] { launch(f, grid, 256, {&out, &iters, &b, &c, &clk}); });
            iters = static_cast<int>(std::clamp(iters * target_ms / std::max(ms, 0.01), 16.0, 2.0e8));
        }
        const int samples = rc_.opt.quick ? 5 : 7;
        t0 = now_s();
        for (int s = 0; s < samples; ++s) {
            const double ms = time_ms([&] { launch(f, grid, 256, {&out, &iters, &b, &c, &clk}); });
            rates.push_back(flop_per_iter * iters / (ms * 1e9));
            unsigned long long ck[2] = {};
            check(cu_.MemcpyDtoH(ck, clk, sizeof ck), "cuMemcpyDtoH");
            if (ck[1] > 0) kernel_mhz.push_back(static_cast<double>(ck[0]) / static_cast<double>(ck[1]) * 1e3);
        }
    } catch (...) {
        cu_.MemFree(out);
        throw;
    }
    const double t1 = now_s();
    cu_.MemFree(out);
    const double tflops = median(rates);
    fp32_tflops_ = tflops;
    t.measured = tflops;
    const int lanes = fp32_lanes_per_sm(cc_major_, cc_minor_);
    Json& d = t.details;
    d.set("fp32_lanes_per_sm", lanes).set("sm_count", sms_).set("samples", static_cast<int>(rates.size()));
    std::optional<double> clock;
    std::string clock_source;
    if (sampler_) {
        const WindowStats w = sampler_->stats(t0, t1);
        add_window(d, w);
        if (w.sm_median) {
            clock = *w.sm_median;
            clock_source = "nvml_median_during_run";
        }
    }
    if (!kernel_mhz.empty()) d.set("sm_clock_mhz_kernel", median(kernel_mhz));
    if (!clock && !kernel_mhz.empty()) {
        clock = median(kernel_mhz);
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
    const unsigned grid = grid_for(f);
    const size_t threads = static_cast<size_t>(grid) * 256;
    CUdeviceptr out = 0;
    check(cu_.MemAlloc(&out, threads * sizeof(float) + 64), "cuMemAlloc");
    CUdeviceptr clk = out + threads * sizeof(float);
    check(cu_.MemsetD8(clk, 0, 16), "cuMemsetD8");
    std::vector<double> kernel_mhz;
    const double flop_per_mma = cc_major_ >= 8 ? 2.0 * 16 * 8 * 16 : 2.0 * 16 * 8 * 8;
    const double flop_per_iter = static_cast<double>(threads / 32) * 8 /*chains*/ * flop_per_mma;
    int iters = 64;
    unsigned long long seed = bf16 ? 11 : 13;
    std::vector<double> rates;
    double t0 = 0;
    try {
        const double target_ms = rc_.opt.quick ? 60 : 120;
        for (int k = 0; k < 3; ++k) {
            const double ms = time_ms([&] { launch(f, grid, 256, {&out, &iters, &seed, &clk}); });
            iters = static_cast<int>(std::clamp(iters * target_ms / std::max(ms, 0.01), 8.0, 2.0e8));
        }
        const int samples = rc_.opt.quick ? 5 : 7;
        t0 = now_s();
        for (int s = 0; s < samples; ++s) {
            const double ms = time_ms([&] { launch(f, grid, 256, {&out, &iters, &seed, &clk}); });
            rates.push_back(flop_per_iter * iters / (ms * 1e9));
            unsigned long long ck[2] = {};
            check(cu_.MemcpyDtoH(ck, clk, sizeof ck), "cuMemcpyDtoH");
            if (ck[1] > 0) kernel_mhz.push_back(static_cast<double>(ck[0]) / static_cast<double>(ck[1]) * 1e3);
        }
    } catch (...) {
        cu_.MemFree(out);
        throw;
    }
    const double t1 = now_s();
    cu_.MemFree(out);
    const double tflops = median(rates);
    if (bf16) bf16_tflops_ = tflops;
    t.measured = tflops;
    const double per_clk = tensor_flop_per_sm_clk(cc_major_, cc_minor_, name_);
    Json& d = t.details;
    d.set("kernel", cc_major_ >= 8 ? "mma.sync.m16n8k16 (register resident)" : "mma.sync.m16n8k8 (register resident)");
    d.set("dense_flop_per_sm_per_clock", per_clk).set("samples", static_cast<int>(rates.size()));
    std::optional<double> clock;
    if (sampler_) {
        const WindowStats w = sampler_->stats(t0, t1);
        add_window(d, w);
        clock = w.sm_median;
    }
    if (!kernel_mhz.empty()) d.set("sm_clock_mhz_kernel", median(kernel_mhz));
    if (!clock && !kernel_mhz.empty()) clock = median(kernel_mhz);
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

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_burn()
{
    TestResult t;
    t.name = "Sustained burn with result comparison";
    t.unit = "miscompares";
    t.expected = 0;
    const double seconds = rc_.opt.burn_seconds > 0 ? rc_.opt.burn_seconds : (rc_.opt.quick ? 4.0 : 20.0);
    CUfunction ffma = fn("gv_burn_fma"), fmma = fn("gv_burn_mma"), fcmp = fn("gv_compare");
    CUfunction ffill4 = fn("gv_fill_float4"), ffill32 = fn("gv_fill_u32");
    const bool use_mma = cc_major_ >= 8;
    const unsigned grid_fma = grid_for(ffma);
    const size_t threads_fma = static_cast<size_t>(grid_fma) * 256;
    const size_t per_thread = std::max<size_t>(1, (16u << 20) / threads_fma);
    size_t n = per_thread * threads_fma; // multiple of 256 (and of 4)
    const unsigned grid_mma = use_mma ? grid_for(fmma) : 0;
    const size_t threads_mma = static_cast<size_t>(grid_mma) * 256;
    const size_t m = threads_mma * 32;
    size_t slot_floats = n + m;
    const int slots = 8;
    std::vector<CUdeviceptr> bufs;
    auto alloc = [&](size_t b) {
        CUdeviceptr p = 0;
        check(cu_.MemAlloc(&p, b), "cuMemAlloc");
        bufs.push_back(p);
        return p;
    };
    struct Guard {
        const CudaApi& cu;
        std::vector<CUdeviceptr>& b;
        ~Guard()
        {
            for (CUdeviceptr p : b) cu.MemFree(p);
        }
    } guard{cu_, bufs};
    CUdeviceptr in_f = alloc(n * 4);
    CUdeviceptr in_u = alloc(std::max<size_t>(threads_mma * 6 * 4, 16));
    CUdeviceptr ref = alloc(slot_floats * 4);
    CUdeviceptr err = alloc(16);
    std::vector<CUdeviceptr> slot(slots);
    for (auto& s : slot) s = alloc(slot_floats * 4);
    check(cu_.MemsetD8(err, 0, 16), "cuMemsetD8");
    size_t n4 = n / 4, nu = threads_mma * 6;
    unsigned long long seed1 = 77, seed2 = 78;
    launch(ffill4, grid_for(ffill4), 256, {&in_f, &n4, &seed1});
    if (use_mma) launch(ffill32, grid_for(ffill32), 256, {&in_u, &nu, &seed2});

    // Size each kernel for ~15 ms using the rates measured earlier.
    const double target_s = 0.015;
    const double fma_rate = fp32_tflops_.value_or(5.0) * 1e12;
    int iters_fma = static_cast<int>(std::clamp(target_s * fma_rate / (static_cast<double>(n) * 4 * 8 * 2), 16.0, 1e6));
    const double mma_rate = bf16_tflops_.value_or(50.0) * 1e12;
    const double mma_flop_per_iter = static_cast<double>(threads_mma / 32) * 8 * 4096;
    int iters_mma = use_mma ? static_cast<int>(std::clamp(target_s * mma_rate / mma_flop_per_iter, 16.0, 1e7)) : 0;
    const double flop_round =
        slots * (static_cast<double>(n) * iters_fma * 4 * 8 * 2 + (use_mma ? mma_flop_per_iter * iters_mma : 0));

    auto compute = [&](CUdeviceptr dst) {
        launch(ffma, grid_fma, 256, {&in_f, &dst, &n, &iters_fma});
        if (use_mma) {
            CUdeviceptr dm = dst + n * 4;
            launch(fmma, grid_mma, 256, {&in_u, &dm, &iters_mma});
        }
    };
    compute(ref);
    check(cu_.StreamSynchronize(stream_), "burn reference");
    size_t n16 = slot_floats / 4;
    const unsigned gcmp = grid_for(fcmp);
    std::vector<double> round_tflops;
    const double t0 = now_s();
    int rounds = 0;
    double last_report = t0;
    while (now_s() - t0 < seconds) {
        const double ms = time_ms([&] {
            for (int s = 0; s < slots; ++s) compute(slot[s]);
            for (int s = 0; s < slots; ++s) launch(fcmp, gcmp, 256, {&ref, &slot[s], &n16, &err});
        });
        ++rounds;
        round_tflops.push_back(flop_round / (ms * 1e9));
        if (now_s() - last_report > 2.0) {
            last_report = now_s();
            const double frac = std::min(1.0, (now_s() - t0) / seconds);
            std::string extra;
            if (sampler_) {
                const Sample s = sampler_->read();
                if (s.sm_mhz) extra += fmt(", %.0f MHz", *s.sm_mhz);
                if (s.power_w) extra += fmt(", %.0f W", *s.power_w);
                if (s.temp_c) extra += fmt(", %.0f C", *s.temp_c);
            }
            progress(49 + 48 * frac, "burn", fmt("%.0f s, %.1f TFLOP/s%s", now_s() - t0, round_tflops.back(), extra.c_str()));
        }
    }
    const double t1 = now_s();
    unsigned long long errs = 0;
    check(cu_.MemcpyDtoH(&errs, err, sizeof errs), "cuMemcpyDtoH");
    t.measured = static_cast<double>(errs);
    Json& d = t.details;
    d.set("seconds", t1 - t0).set("rounds", rounds).set("slots", slots);
    d.set("results_compared", static_cast<double>(slot_floats) * slots * rounds);
    d.set("uses_tensor_cores", use_mma);
    d.set("tflops_median", median(round_tflops));
    const size_t q = std::max<size_t>(1, round_tflops.size() / 4);
    if (round_tflops.size() >= 4) {
        const double first = median(std::vector<double>(round_tflops.begin(), round_tflops.begin() + static_cast<long>(q)));
        const double last = median(std::vector<double>(round_tflops.end() - static_cast<long>(q), round_tflops.end()));
        d.set("tflops_first_quarter", first).set("tflops_last_quarter", last);
        if (first > 0) d.set("throughput_drift", last / first);
    }
    WindowStats w;
    if (sampler_) {
        w = sampler_->stats(t0, t1);
        add_window(d, w);
        if (w.sm_max) d.set("sm_clock_mhz_max", *w.sm_max);
        if (power_limit_w_ && w.power_median) d.set("power_fraction_of_limit", *w.power_median / *power_limit_w_);
    }
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
    return t;
}

// ---------------------------------------------------------------------------------------------
TestResult DeviceRun::test_after()
{
    TestResult t;
    t.name = "After-checks (ECC, row remap, Xid)";
    t.unit = "errors";
    t.expected = 0;
    if (!nv_.ok || !nvdev_) {
        t.status = "skip";
        t.message = "NVML is not available, so ECC counters and Xid events cannot be read.";
        return t;
    }
    const Counters now = read_counters();
    std::vector<std::string> fail, warn;
    Json& d = t.details;
    std::optional<unsigned long long> new_unc;
    if (now.ecc_uncorrected_volatile && before_.ecc_uncorrected_volatile)
        new_unc = *now.ecc_uncorrected_volatile - *before_.ecc_uncorrected_volatile;
    if (new_unc && *new_unc) fail.push_back(fmt("%llu new uncorrected ECC errors", *new_unc));
    if (now.ecc_corrected_volatile && before_.ecc_corrected_volatile) {
        const unsigned long long c = *now.ecc_corrected_volatile - *before_.ecc_corrected_volatile;
        d.set("new_ecc_corrected", c);
        if (c > 0) warn.push_back(fmt("%llu new corrected ECC errors", c));
    }
    if (now.remap_pending && *now.remap_pending && !(before_.remap_pending && *before_.remap_pending))
        fail.push_back("a row remap became pending during the run");
    if (now.remap_failure && *now.remap_failure && !(before_.remap_failure && *before_.remap_failure))
        fail.push_back("a row remap failed during the run");
    if (now.remap_uncorrected && before_.remap_uncorrected && *now.remap_uncorrected > *before_.remap_uncorrected)
        fail.push_back("rows were remapped after uncorrectable errors during the run");
    if (now.retired_pending && *now.retired_pending && !(before_.retired_pending && *before_.retired_pending))
        fail.push_back("page retirement became pending during the run");
    if (now.pcie_replays && before_.pcie_replays) {
        const unsigned r = *now.pcie_replays - *before_.pcie_replays;
        d.set("new_pcie_replays", r);
        if (r > 80) warn.push_back(fmt("%u PCIe replays during the run", r));
    }
    Json xids = Json::array();
    if (xid_supported_ && events_) {
        nvmlEventData_t ev{};
        for (int i = 0; i < 256 && nv_.EventSetWait(events_, &ev, 0) == NVML_SUCCESS; ++i) {
            if (ev.eventType & kEventXid) {
                xids.push(static_cast<unsigned long long>(ev.eventData));
                fail.push_back(fmt("Xid %llu reported", static_cast<unsigned long long>(ev.eventData)));
            } else if (ev.eventType & kEventDoubleBitEcc) {
                fail.push_back("a double-bit ECC error event was reported");
            }
        }
        d.set("xid_events", xids);
    } else {
        d.set("xid_events", nullptr).set("xid_note", xid_note_);
    }
    t.measured = new_unc ? std::optional<double>(static_cast<double>(*new_unc)) : std::nullopt;
    d.set("new_ecc_uncorrected", new_unc);
    if (!fail.empty()) {
        t.status = "fail";
        t.message = fail.front();
        for (size_t i = 1; i < fail.size(); ++i) t.message += "; " + fail[i];
        t.message += ".";
    } else if (!warn.empty()) {
        t.status = "warn";
        t.message = warn.front();
        for (size_t i = 1; i < warn.size(); ++i) t.message += "; " + warn[i];
        t.message += ".";
    } else {
        t.status = "pass";
        t.message = "No new ECC errors, row remaps or Xid events during the run";
        if (!xid_supported_) t.message += " (Xid events could not be watched: " + xid_note_ + ")";
        t.message += ".";
    }
    t.message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t.message[0])));
    return t;
}

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
