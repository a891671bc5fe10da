// NVML, loaded at run time with dlopen("libnvidia-ml.so.1"). The few types and constants used are
// declared here (values from nvml.h; nvml.h is not part of the CUDA toolkit on this build machine).
// Every function is optional: a missing symbol or NVML_ERROR_NOT_SUPPORTED becomes a null value.
#pragma once

#include <string>

namespace gv {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
using nvmlEventSet_t = struct nvmlEventSet_st*;

constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_TIMEOUT = 10;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;

constexpr unsigned NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2;
constexpr unsigned NVML_TEMPERATURE_GPU = 0;
constexpr unsigned NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1, NVML_MEMORY_ERROR_TYPE_CORRECTED = 0;
constexpr unsigned NVML_VOLATILE_ECC = 0, NVML_AGGREGATE_ECC = 1;

constexpr unsigned long long kEventDoubleBitEcc = 0x2, kEventXid = 0x8;

// nvmlClocksEventReasons (formerly ClocksThrottleReasons) bits.
constexpr unsigned long long kReasonGpuIdle = 0x1, kReasonAppClocks = 0x2, kReasonSwPowerCap = 0x4,
                             kReasonHwSlowdown = 0x8, kReasonSyncBoost = 0x10, kReasonSwThermal = 0x20,
                             kReasonHwThermal = 0x40, kReasonHwPowerBrake = 0x80, kReasonDisplayClock = 0x100;

struct nvmlPciInfo_t {
    char busIdLegacy[16];
    unsigned domain;
    unsigned bus;
    unsigned device;
    unsigned pciDeviceId; // device id << 16 | vendor id
    unsigned pciSubSystemId;
    char busId[32];
};

struct nvmlMemory_t {
    unsigned long long total, free, used;
};

struct nvmlProcessInfo_v1_t {
    unsigned pid;
    unsigned long long usedGpuMemory;
};

struct nvmlProcessInfo_v2_t {
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};

struct nvmlEventData_t {
    nvmlDevice_t device;
    unsigned long long eventType;
    unsigned long long eventData;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};

struct NvmlApi {
    void* handle = nullptr;
    bool ok = false; // library loaded and nvmlInit succeeded
    std::string load_error;

    nvmlReturn_t (*Init)() = nullptr;
    nvmlReturn_t (*Shutdown)() = nullptr;
    const char* (*ErrorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*SystemGetDriverVersion)(char*, unsigned) = nullptr;
    nvmlReturn_t (*DeviceGetHandleByPciBusId)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*DeviceGetName)(nvmlDevice_t, char*, unsigned) = nullptr;
    nvmlReturn_t (*DeviceGetUUID)(nvmlDevice_t, char*, unsigned) = nullptr;
    nvmlReturn_t (*DeviceGetPciInfo)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;
    nvmlReturn_t (*DeviceGetMaxClockInfo)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetClockInfo)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetMemoryBusWidth)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetMemoryInfo)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
    nvmlReturn_t (*DeviceGetEccMode)(nvmlDevice_t, int*, int*) = nullptr;
    nvmlReturn_t (*DeviceGetMigMode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetEnforcedPowerLimit)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetPowerManagementDefaultLimit)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetTotalEccErrors)(nvmlDevice_t, unsigned, unsigned, unsigned long long*) = nullptr;
    nvmlReturn_t (*DeviceGetRemappedRows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetRetiredPagesPendingStatus)(nvmlDevice_t, int*) = nullptr;
    nvmlReturn_t (*DeviceGetComputeRunningProcesses_v2)(nvmlDevice_t, unsigned*, nvmlProcessInfo_v2_t*) = nullptr;
    nvmlReturn_t (*DeviceGetComputeRunningProcesses_v1)(nvmlDevice_t, unsigned*, nvmlProcessInfo_v1_t*) = nullptr;
    nvmlReturn_t (*DeviceGetMaxPcieLinkGeneration)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetMaxPcieLinkWidth)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetCurrPcieLinkGeneration)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetCurrPcieLinkWidth)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetPcieReplayCounter)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetPowerUsage)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetTemperature)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
    nvmlReturn_t (*DeviceGetClocksEventReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
    nvmlReturn_t (*EventSetCreate)(nvmlEventSet_t*) = nullptr;
    nvmlReturn_t (*DeviceRegisterEvents)(nvmlDevice_t, unsigned long long, nvmlEventSet_t) = nullptr;
    nvmlReturn_t (*EventSetWait)(nvmlEventSet_t, nvmlEventData_t*, unsigned) = nullptr;
    nvmlReturn_t (*EventSetFree)(nvmlEventSet_t) = nullptr;

    bool load();
    void unload();
    std::string error_text(nvmlReturn_t r) const;
};

} // namespace gv
