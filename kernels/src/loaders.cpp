#include "cuda_api.hpp"
#include "nvml_api.hpp"

#include <dlfcn.h>

#include <cstring>
#include <initializer_list>

namespace gv {
namespace {

// Resolve the first of `names` that exists; void* -> function pointer through memcpy (no cast
// between object and function pointers).
template <typename Fn>
bool resolve(void* lib, Fn& fn, std::initializer_list<const char*> names)
{
    for (const char* n : names) {
        void* sym = dlsym(lib, n);
        if (sym) {
            static_assert(sizeof(Fn) == sizeof(void*));
            std::memcpy(&fn, &sym, sizeof(fn));
            return true;
        }
    }
    return false;
}

} // namespace

bool CudaApi::load()
{
    handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = dlerror();
        load_error = std::string("no NVIDIA driver: libcuda.so.1 not found (") + (e ? e : "dlopen failed") +
                     "); is the NVIDIA driver installed and, in a container, is the GPU passed through "
                     "(--gpus all)?";
        return false;
    }
    std::string missing;
    auto need = [&](auto& fn, std::initializer_list<const char*> names) {
        if (!resolve(handle, fn, names)) missing += std::string(missing.empty() ? "" : ", ") + *names.begin();
    };
    need(Init, {"cuInit"});
    need(DriverGetVersion, {"cuDriverGetVersion"});
    need(GetErrorString, {"cuGetErrorString"});
    need(GetErrorName, {"cuGetErrorName"});
    need(DeviceGetCount, {"cuDeviceGetCount"});
    need(DeviceGet, {"cuDeviceGet"});
    need(DeviceGetName, {"cuDeviceGetName"});
    need(DeviceGetAttribute, {"cuDeviceGetAttribute"});
    need(DeviceTotalMem, {"cuDeviceTotalMem_v2"});
    need(DeviceGetPCIBusId, {"cuDeviceGetPCIBusId"});
    need(DeviceGetUuid, {"cuDeviceGetUuid", "cuDeviceGetUuid_v2"});
    need(DevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    need(DevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
    need(CtxSetCurrent, {"cuCtxSetCurrent"});
    need(CtxSynchronize, {"cuCtxSynchronize"});
    need(ModuleLoadDataEx, {"cuModuleLoadDataEx"});
    need(ModuleGetFunction, {"cuModuleGetFunction"});
    need(ModuleUnload, {"cuModuleUnload"});
    need(OccupancyMaxActiveBlocksPerMultiprocessor, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"});
    need(LaunchKernel, {"cuLaunchKernel"});
    need(MemGetInfo, {"cuMemGetInfo_v2"});
    need(MemAlloc, {"cuMemAlloc_v2"});
    need(MemFree, {"cuMemFree_v2"});
    need(MemHostAlloc, {"cuMemHostAlloc"});
    need(MemFreeHost, {"cuMemFreeHost"});
    need(MemcpyHtoD, {"cuMemcpyHtoD_v2"});
    need(MemcpyDtoH, {"cuMemcpyDtoH_v2"});
    need(MemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"});
    need(MemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"});
    need(MemsetD8, {"cuMemsetD8_v2"});
    need(StreamCreate, {"cuStreamCreate"});
    need(StreamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
    need(StreamSynchronize, {"cuStreamSynchronize"});
    need(EventCreate, {"cuEventCreate"});
    need(EventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
    need(EventRecord, {"cuEventRecord"});
    need(EventSynchronize, {"cuEventSynchronize"});
    need(EventElapsedTime, {"cuEventElapsedTime", "cuEventElapsedTime_v2"});
    if (!missing.empty()) {
        load_error = "libcuda.so.1 lacks required functions (" + missing + "); the driver is too old or broken";
        return false;
    }
    return true;
}

std::string CudaApi::error_text(CUresult r) const
{
    const char* name = nullptr;
    const char* text = nullptr;
    if (GetErrorName) GetErrorName(r, &name);
    if (GetErrorString) GetErrorString(r, &text);
    std::string s = name ? name : ("CUDA error " + std::to_string(static_cast<int>(r)));
    if (text) s += std::string(": ") + text;
    return s;
}

bool NvmlApi::load()
{
    handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = dlerror();
        load_error = std::string("NVML not available: libnvidia-ml.so.1 not found (") + (e ? e : "dlopen failed") + ")";
        return false;
    }
    if (!resolve(handle, Init, {"nvmlInit_v2", "nvmlInit"})) {
        load_error = "NVML not usable: nvmlInit missing";
        return false;
    }
    resolve(handle, Shutdown, {"nvmlShutdown"});
    resolve(handle, ErrorString, {"nvmlErrorString"});
    resolve(handle, SystemGetDriverVersion, {"nvmlSystemGetDriverVersion"});
    resolve(handle, DeviceGetHandleByPciBusId, {"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"});
    resolve(handle, DeviceGetName, {"nvmlDeviceGetName"});
    resolve(handle, DeviceGetUUID, {"nvmlDeviceGetUUID"});
    resolve(handle, DeviceGetPciInfo, {"nvmlDeviceGetPciInfo_v3"});
    resolve(handle, DeviceGetMaxClockInfo, {"nvmlDeviceGetMaxClockInfo"});
    resolve(handle, DeviceGetClockInfo, {"nvmlDeviceGetClockInfo"});
    resolve(handle, DeviceGetMemoryBusWidth, {"nvmlDeviceGetMemoryBusWidth"});
    resolve(handle, DeviceGetMemoryInfo, {"nvmlDeviceGetMemoryInfo"});
    resolve(handle, DeviceGetEccMode, {"nvmlDeviceGetEccMode"});
    resolve(handle, DeviceGetMigMode, {"nvmlDeviceGetMigMode"});
    resolve(handle, DeviceGetEnforcedPowerLimit, {"nvmlDeviceGetEnforcedPowerLimit"});
    resolve(handle, DeviceGetPowerManagementDefaultLimit, {"nvmlDeviceGetPowerManagementDefaultLimit"});
    resolve(handle, DeviceGetTotalEccErrors, {"nvmlDeviceGetTotalEccErrors"});
    resolve(handle, DeviceGetRemappedRows, {"nvmlDeviceGetRemappedRows"});
    resolve(handle, DeviceGetRetiredPagesPendingStatus, {"nvmlDeviceGetRetiredPagesPendingStatus"});
    resolve(handle, DeviceGetComputeRunningProcesses_v2,
            {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
    resolve(handle, DeviceGetComputeRunningProcesses_v1, {"nvmlDeviceGetComputeRunningProcesses"});
    resolve(handle, DeviceGetMaxPcieLinkGeneration, {"nvmlDeviceGetMaxPcieLinkGeneration"});
    resolve(handle, DeviceGetMaxPcieLinkWidth, {"nvmlDeviceGetMaxPcieLinkWidth"});
    resolve(handle, DeviceGetCurrPcieLinkGeneration, {"nvmlDeviceGetCurrPcieLinkGeneration"});
    resolve(handle, DeviceGetCurrPcieLinkWidth, {"nvmlDeviceGetCurrPcieLinkWidth"});
    resolve(handle, DeviceGetPcieReplayCounter, {"nvmlDeviceGetPcieReplayCounter"});
    resolve(handle, DeviceGetPowerUsage, {"nvmlDeviceGetPowerUsage"});
    resolve(handle, DeviceGetTemperature, {"nvmlDeviceGetTemperature"});
    resolve(handle, DeviceGetClocksEventReasons,
            {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
    resolve(handle, EventSetCreate, {"nvmlEventSetCreate"});
    resolve(handle, DeviceRegisterEvents, {"nvmlDeviceRegisterEvents"});
    resolve(handle, EventSetWait, {"nvmlEventSetWait_v2"});
    resolve(handle, EventSetFree, {"nvmlEventSetFree"});
    const nvmlReturn_t r = Init();
    if (r != NVML_SUCCESS) {
        load_error = "NVML init failed: " + error_text(r);
        return false;
    }
    ok = true;
    return true;
}

void NvmlApi::unload()
{
    if (ok && Shutdown) Shutdown();
    ok = false;
}

std::string NvmlApi::error_text(nvmlReturn_t r) const
{
    if (ErrorString) {
        if (const char* s = ErrorString(r)) return s;
    }
    return "NVML error " + std::to_string(r);
}

} // namespace gv
