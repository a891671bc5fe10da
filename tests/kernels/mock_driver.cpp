// A fake libcuda.so.1 + libnvidia-ml.so.1 for running gantry-verify end to end without a GPU.
// Kernels are no-ops (device memory is host memory, so copies and memsets are real), events report
// 10 ms. It exercises the program's orchestration, error paths and JSON, not the GPU code.
// Environment: MOCK_CUDA_VERSION (default 13000), MOCK_CUDA_INIT (cuInit result, default 0),
// MOCK_CUDA_LOAD_FAIL (cuModuleLoadDataEx result for the fatbin, default 0), MOCK_CUDA_LAUNCH_FAIL
// (cuLaunchKernel result for every kernel but the arch probe, default 0).
#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {
int env_int(const char* n, int def)
{
    const char* v = std::getenv(n);
    return v && *v ? std::atoi(v) : def;
}
int g_ctx, g_stream, g_event, g_module;
} // namespace

extern "C" {

// ------------------------------------------------------------------------------- CUDA driver
#define MOCK_API __attribute__((visibility("default"))) CUresult
MOCK_API cuInit(unsigned) { return static_cast<CUresult>(env_int("MOCK_CUDA_INIT", 0)); }
MOCK_API cuDriverGetVersion(int* v)
{
    *v = env_int("MOCK_CUDA_VERSION", 13000);
    return CUDA_SUCCESS;
}
MOCK_API cuGetErrorString(CUresult, const char** s)
{
    *s = "mock error";
    return CUDA_SUCCESS;
}
MOCK_API cuGetErrorName(CUresult, const char** s)
{
    *s = "CUDA_ERROR_MOCK";
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGetCount(int* n)
{
    *n = 1;
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGet(CUdevice* d, int o)
{
    *d = o;
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGetName(char* n, int len, CUdevice)
{
    std::strncpy(n, "Mock GPU", static_cast<size_t>(len));
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice)
{
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 1 << 20; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 256; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 1000000; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1500000; break;
    default: *v = 0;
    }
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceTotalMem_v2(size_t* b, CUdevice)
{
    *b = 2ull << 30;
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGetPCIBusId(char* s, int len, CUdevice)
{
    std::strncpy(s, "0000:01:00.0", static_cast<size_t>(len));
    return CUDA_SUCCESS;
}
MOCK_API cuDeviceGetUuid(CUuuid* u, CUdevice)
{
    std::memset(u, 0xab, sizeof *u);
    return CUDA_SUCCESS;
}
MOCK_API cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice)
{
    *c = reinterpret_cast<CUcontext>(&g_ctx);
    return CUDA_SUCCESS;
}
MOCK_API cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
MOCK_API cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
MOCK_API cuCtxSynchronize() { return CUDA_SUCCESS; }
MOCK_API cuModuleLoadDataEx(CUmodule* m, const void* image, unsigned, CUjit_option*, void**)
{
    const auto* p = static_cast<const unsigned char*>(image);
    const bool fatbin = p[0] == 0x50 && p[1] == 0xed && p[2] == 0x55 && p[3] == 0xba; // 0xBA55ED50 LE
    const bool ptx = std::strstr(static_cast<const char*>(image), ".version") != nullptr;
    if (!fatbin && !ptx) return CUDA_ERROR_INVALID_IMAGE;
    if (fatbin && env_int("MOCK_CUDA_LOAD_FAIL", 0)) return static_cast<CUresult>(env_int("MOCK_CUDA_LOAD_FAIL", 0));
    *m = reinterpret_cast<CUmodule>(&g_module);
    return CUDA_SUCCESS;
}
MOCK_API cuModuleGetFunction(CUfunction* f, CUmodule, const char* name)
{
    *f = reinterpret_cast<CUfunction>(strdup(name));
    return CUDA_SUCCESS;
}
MOCK_API cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
MOCK_API cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, CUfunction, int, size_t)
{
    *n = 4;
    return CUDA_SUCCESS;
}
MOCK_API cuLaunchKernel(CUfunction f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                        void** args, void**)
{
    if (std::strcmp(reinterpret_cast<const char*>(f), "gv_arch_probe") == 0) {
        int* out = *static_cast<int**>(args[0]);
        *out = 900;
        return CUDA_SUCCESS;
    }
    return static_cast<CUresult>(env_int("MOCK_CUDA_LAUNCH_FAIL", 0));
}
MOCK_API cuMemGetInfo_v2(size_t* fr, size_t* total)
{
    *fr = 1ull << 30;
    *total = 2ull << 30;
    return CUDA_SUCCESS;
}
MOCK_API cuMemAlloc_v2(CUdeviceptr* p, size_t b)
{
    void* m = std::malloc(b ? b : 1);
    if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
    *p = reinterpret_cast<CUdeviceptr>(m);
    return CUDA_SUCCESS;
}
MOCK_API cuMemFree_v2(CUdeviceptr p)
{
    std::free(reinterpret_cast<void*>(p));
    return CUDA_SUCCESS;
}
MOCK_API cuMemHostAlloc(void** p, size_t b, unsigned)
{
    *p = std::malloc(b);
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
MOCK_API cuMemFreeHost(void* p)
{
    std::free(p);
    return CUDA_SUCCESS;
}
MOCK_API cuMemcpyHtoD_v2(CUdeviceptr d, const void* s, size_t b)
{
    std::memcpy(reinterpret_cast<void*>(d), s, b);
    return CUDA_SUCCESS;
}
MOCK_API cuMemcpyDtoH_v2(void* d, CUdeviceptr s, size_t b)
{
    std::memcpy(d, reinterpret_cast<const void*>(s), b);
    return CUDA_SUCCESS;
}
MOCK_API cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void* s, size_t b, CUstream) { return cuMemcpyHtoD_v2(d, s, b); }
MOCK_API cuMemcpyDtoHAsync_v2(void* d, CUdeviceptr s, size_t b, CUstream) { return cuMemcpyDtoH_v2(d, s, b); }
MOCK_API cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n)
{
    std::memset(reinterpret_cast<void*>(d), v, n);
    return CUDA_SUCCESS;
}
MOCK_API cuStreamCreate(CUstream* s, unsigned)
{
    *s = reinterpret_cast<CUstream>(&g_stream);
    return CUDA_SUCCESS;
}
MOCK_API cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
MOCK_API cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
MOCK_API cuEventCreate(CUevent* e, unsigned)
{
    *e = reinterpret_cast<CUevent>(&g_event);
    return CUDA_SUCCESS;
}
MOCK_API cuEventDestroy_v2(CUevent) { return CUDA_SUCCESS; }
MOCK_API cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
MOCK_API cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
MOCK_API cuEventElapsedTime(float* ms, CUevent, CUevent)
{
    *ms = 10.0f;
    return CUDA_SUCCESS;
}

// ------------------------------------------------------------------------------- NVML
struct MockPci {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
struct MockMem {
    unsigned long long total, free, used;
};
#define NVML_API __attribute__((visibility("default"))) int
static int g_nvdev, g_set;
NVML_API nvmlInit_v2() { return 0; }
NVML_API nvmlShutdown() { return 0; }
__attribute__((visibility("default"))) const char* nvmlErrorString(int) { return "mock nvml error"; }
NVML_API nvmlSystemGetDriverVersion(char* s, unsigned n)
{
    std::strncpy(s, "580.00.00-mock", n);
    return 0;
}
NVML_API nvmlDeviceGetHandleByPciBusId_v2(const char*, void** d)
{
    *d = &g_nvdev;
    return 0;
}
NVML_API nvmlDeviceGetName(void*, char* s, unsigned n)
{
    std::strncpy(s, "Mock GPU", n);
    return 0;
}
NVML_API nvmlDeviceGetUUID(void*, char* s, unsigned n)
{
    std::strncpy(s, "GPU-mock-0000", n);
    return 0;
}
NVML_API nvmlDeviceGetPciInfo_v3(void*, MockPci* p)
{
    std::memset(p, 0, sizeof *p);
    p->pciDeviceId = 0x233510DE;
    std::strcpy(p->busId, "00000000:01:00.0");
    return 0;
}
NVML_API nvmlDeviceGetMaxClockInfo(void*, unsigned t, unsigned* v)
{
    *v = t == 2 ? 1000 : 1500;
    return 0;
}
NVML_API nvmlDeviceGetClockInfo(void*, unsigned t, unsigned* v)
{
    *v = t == 2 ? 1000 : 1400;
    return 0;
}
NVML_API nvmlDeviceGetMemoryBusWidth(void*, unsigned* v)
{
    *v = 256;
    return 0;
}
NVML_API nvmlDeviceGetMemoryInfo(void*, MockMem* m)
{
    m->total = 2ull << 30;
    m->free = 1ull << 30;
    m->used = 1ull << 30;
    return 0;
}
NVML_API nvmlDeviceGetEccMode(void*, int* c, int* p)
{
    *c = *p = 1;
    return 0;
}
NVML_API nvmlDeviceGetMigMode(void*, unsigned*, unsigned*) { return 3; /* NOT_SUPPORTED */ }
NVML_API nvmlDeviceGetEnforcedPowerLimit(void*, unsigned* v)
{
    *v = 700000;
    return 0;
}
NVML_API nvmlDeviceGetPowerManagementDefaultLimit(void*, unsigned* v)
{
    *v = 700000;
    return 0;
}
NVML_API nvmlDeviceGetTotalEccErrors(void*, unsigned, unsigned, unsigned long long* v)
{
    *v = 0;
    return 0;
}
NVML_API nvmlDeviceGetRemappedRows(void*, unsigned* a, unsigned* b, unsigned* c, unsigned* d)
{
    *a = *b = *c = *d = 0;
    return 0;
}
NVML_API nvmlDeviceGetComputeRunningProcesses_v3(void*, unsigned* n, void*)
{
    *n = 0;
    return 0;
}
NVML_API nvmlDeviceGetMaxPcieLinkGeneration(void*, unsigned* v)
{
    *v = 4;
    return 0;
}
NVML_API nvmlDeviceGetMaxPcieLinkWidth(void*, unsigned* v)
{
    *v = 16;
    return 0;
}
NVML_API nvmlDeviceGetCurrPcieLinkGeneration(void*, unsigned* v)
{
    *v = 4;
    return 0;
}
NVML_API nvmlDeviceGetCurrPcieLinkWidth(void*, unsigned* v)
{
    *v = 16;
    return 0;
}
NVML_API nvmlDeviceGetPcieReplayCounter(void*, unsigned* v)
{
    *v = 0;
    return 0;
}
NVML_API nvmlDeviceGetPowerUsage(void*, unsigned* v)
{
    *v = 300000;
    return 0;
}
NVML_API nvmlDeviceGetTemperature(void*, unsigned, unsigned* v)
{
    *v = 50;
    return 0;
}
NVML_API nvmlDeviceGetCurrentClocksEventReasons(void*, unsigned long long* v)
{
    *v = 0x4;
    return 0;
}
NVML_API nvmlEventSetCreate(void** s)
{
    *s = &g_set;
    return 0;
}
NVML_API nvmlDeviceRegisterEvents(void*, unsigned long long, void*) { return 0; }
NVML_API nvmlEventSetWait_v2(void*, void*, unsigned) { return 10; /* TIMEOUT */ }
NVML_API nvmlEventSetFree(void*) { return 0; }

} // extern "C"
