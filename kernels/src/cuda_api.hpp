// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"). cuda.h is used for types
// only; every function is called through a pointer resolved by its stable exported name (the oldest
// ABI that has the signature we need), so the binary has no link dependency on libcuda.
#pragma once

#include <cuda.h>

#include <string>

namespace gv {

struct CudaApi {
    void* handle = nullptr;
    std::string load_error;

    decltype(&::cuInit) Init = nullptr;
    decltype(&::cuDriverGetVersion) DriverGetVersion = nullptr;
    decltype(&::cuGetErrorString) GetErrorString = nullptr;
    decltype(&::cuGetErrorName) GetErrorName = nullptr;
    decltype(&::cuDeviceGetCount) DeviceGetCount = nullptr;
    decltype(&::cuDeviceGet) DeviceGet = nullptr;
    decltype(&::cuDeviceGetName) DeviceGetName = nullptr;
    decltype(&::cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
    decltype(&::cuDeviceTotalMem_v2) DeviceTotalMem = nullptr;
    decltype(&::cuDeviceGetPCIBusId) DeviceGetPCIBusId = nullptr;
    decltype(&::cuDeviceGetUuid_v2) DeviceGetUuid = nullptr; // same signature as the v1 symbol
    decltype(&::cuDevicePrimaryCtxRetain) DevicePrimaryCtxRetain = nullptr;
    decltype(&::cuDevicePrimaryCtxRelease_v2) DevicePrimaryCtxRelease = nullptr;
    decltype(&::cuCtxSetCurrent) CtxSetCurrent = nullptr;
    decltype(&::cuCtxSynchronize) CtxSynchronize = nullptr;
    decltype(&::cuModuleLoadDataEx) ModuleLoadDataEx = nullptr;
    decltype(&::cuModuleGetFunction) ModuleGetFunction = nullptr;
    decltype(&::cuModuleUnload) ModuleUnload = nullptr;
    decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) OccupancyMaxActiveBlocksPerMultiprocessor = nullptr;
    decltype(&::cuLaunchKernel) LaunchKernel = nullptr;
    decltype(&::cuMemGetInfo_v2) MemGetInfo = nullptr;
    decltype(&::cuMemAlloc_v2) MemAlloc = nullptr;
    decltype(&::cuMemFree_v2) MemFree = nullptr;
    decltype(&::cuMemHostAlloc) MemHostAlloc = nullptr;
    decltype(&::cuMemFreeHost) MemFreeHost = nullptr;
    decltype(&::cuMemcpyHtoD_v2) MemcpyHtoD = nullptr;
    decltype(&::cuMemcpyDtoH_v2) MemcpyDtoH = nullptr;
    decltype(&::cuMemcpyHtoDAsync_v2) MemcpyHtoDAsync = nullptr;
    decltype(&::cuMemcpyDtoHAsync_v2) MemcpyDtoHAsync = nullptr;
    decltype(&::cuMemsetD8_v2) MemsetD8 = nullptr;
    decltype(&::cuStreamCreate) StreamCreate = nullptr;
    decltype(&::cuStreamDestroy_v2) StreamDestroy = nullptr;
    decltype(&::cuStreamSynchronize) StreamSynchronize = nullptr;
    decltype(&::cuEventCreate) EventCreate = nullptr;
    decltype(&::cuEventDestroy_v2) EventDestroy = nullptr;
    decltype(&::cuEventRecord) EventRecord = nullptr;
    decltype(&::cuEventSynchronize) EventSynchronize = nullptr;
    decltype(&::cuEventElapsedTime_v2) EventElapsedTime = nullptr; // same signature as the v1 symbol

    // Returns false (with load_error set) if the library or a required symbol is missing.
    bool load();
    std::string error_text(CUresult r) const;
};

} // namespace gv
