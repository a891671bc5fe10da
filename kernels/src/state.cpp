// SPDX-License-Identifier: Apache-2.0
// What the driver and NVML say about a GPU: its identity and state before any context exists
// (read_counters, collect_identity), the identity test that grades that state, and the
// after-checks that compare the error counters and Xid events with it once the tests have run.
#include "details.hpp"
#include "device.hpp"

#include <cctype>

namespace gv {

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
    collect_cuda_identity();
    if (nv_.ok && nv_.DeviceGetHandleByPciBusId && !pci_bus_id_.empty()) {
        if (nv_.DeviceGetHandleByPciBusId(pci_bus_id_.c_str(), &nvdev_) != NVML_SUCCESS) nvdev_ = nullptr;
    }
    if (nvdev_) {
        collect_nvml_identity();
        count_foreign_processes();
        before_ = read_counters();
        watch_xid_events();
        sampler_ = std::make_unique<Sampler>(nv_, nvdev_);
    } else {
        xid_note_ = nv_.ok ? "NVML has no handle for this device" : "NVML not available";
    }
}

void DeviceRun::collect_cuda_identity()
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
}

// NVML's figures replace the driver attributes where it has them.
void DeviceRun::collect_nvml_identity()
{
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
}

// Other compute processes (read before our own context exists, so we are not counted).
void DeviceRun::count_foreign_processes()
{
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
}

// Xid / double-bit ECC events for the after-checks.
void DeviceRun::watch_xid_events()
{
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
}

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

} // namespace gv
