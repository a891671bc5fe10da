// gantry-verify device code. Compiled by nvcc to a fatbin (SASS per arch + PTX) and to low-ISA PTX
// fallbacks; loaded at run time through the CUDA driver API. Every kernel is extern "C" so the host
// can find it by name, and every kernel uses only plain, standard constructs (grid-stride loops,
// 16-byte vector accesses, register-resident FMA / mma.sync loops) so that the same source is
// correct on sm_75 ... sm_120.
//
// Conventions: sizes are element counts of the pointer type; all launches use a 1-D grid.

#include <stdint.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GV_HAS_MMA_K16 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define GV_HAS_MMA_K8 1
#endif

namespace {

__device__ __forceinline__ unsigned long long gv_mix64(unsigned long long x)
{
    // splitmix64 finaliser: a bijective, well-mixed hash of the word index.
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Memory-test patterns, per 64-bit word.
//   kind 0: own address (the device virtual address of the word) - catches address-line faults
//   kind 1: walking one (bit (index+seed) mod 64 set); its complement pass is the walking zero
//   kind 2: pseudo-random (hash of index and seed)
__device__ __forceinline__ unsigned long long gv_pattern(int kind, unsigned long long word,
                                                         unsigned long long base,
                                                         unsigned long long seed)
{
    if (kind == 0) return base + word * 8ull;
    if (kind == 1) return 1ull << ((word + seed) & 63ull);
    return gv_mix64(word ^ (seed * 0xD1B54A32D192ED03ull));
}

__device__ __forceinline__ void gv_record_error(unsigned long long* err, unsigned long long nbad,
                                                unsigned long long word, unsigned long long expect,
                                                unsigned long long got)
{
    // err[0] = miscompare count, err[1..3] = first (word index, expected, actual) seen.
    unsigned long long old = atomicAdd(err, nbad);
    if (old == 0) {
        err[1] = word;
        err[2] = expect;
        err[3] = got;
    }
}

__device__ __forceinline__ size_t gv_tid() { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ size_t gv_nthreads() { return (size_t)gridDim.x * blockDim.x; }

__device__ __forceinline__ float gv_unit_float(unsigned long long h)
{
    // 23 random mantissa bits -> [1, 2) -> [0, 1); never a NaN/Inf/denormal pattern.
    return __uint_as_float(0x3F800000u | (unsigned)(h >> 41)) - 1.0f;
}

// SM clock measured inside a kernel: one thread of block 0 reads the SM cycle counter and the
// global nanosecond timer before and after its work; clk[0] = cycles, clk[1] = nanoseconds.
__device__ __forceinline__ unsigned long long gv_globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct GvClock {
    unsigned long long c0 = 0, t0 = 0;
    bool on = false;
    __device__ __forceinline__ explicit GvClock(unsigned long long* clk)
    {
        on = clk != nullptr && blockIdx.x == 0 && threadIdx.x == 0;
        if (on) {
            t0 = gv_globaltimer();
            c0 = clock64();
        }
    }
    __device__ __forceinline__ void stop(unsigned long long* clk) const
    {
        if (on) {
            const unsigned long long c1 = clock64();
            const unsigned long long t1 = gv_globaltimer();
            clk[0] = c1 - c0;
            clk[1] = t1 - t0;
        }
    }
};

} // namespace

extern "C" {

// ---------------------------------------------------------------------------------------------
// Probe: which code path did the driver pick (SASS arch or JIT from PTX)?
__global__ void gv_arch_probe(int* out)
{
    if (gv_tid() == 0) {
#if defined(__CUDA_ARCH__)
        out[0] = __CUDA_ARCH__;
#else
        out[0] = 0;
#endif
    }
}

// ---------------------------------------------------------------------------------------------
// Memory integrity (cuda_memtest style: write pattern; read-check and write the complement;
// read-check the complement). Buffers are viewed as 16-byte words (two 64-bit words each).
__global__ void gv_mt_write(ulonglong2* buf, size_t n16, int kind, unsigned long long seed)
{
    const unsigned long long base = (unsigned long long)(uintptr_t)buf;
    const size_t stride = gv_nthreads();
    for (size_t i = gv_tid(); i < n16; i += stride) {
        ulonglong2 v;
        v.x = gv_pattern(kind, 2ull * i, base, seed);
        v.y = gv_pattern(kind, 2ull * i + 1ull, base, seed);
        __stcg(buf + i, v);
    }
}

// invert: the buffer is expected to hold ~pattern. write_complement: after checking, store the
// complement of the *expected* value (not of what was read, so one fault is not propagated).
__global__ void gv_mt_check(ulonglong2* buf, size_t n16, int kind, unsigned long long seed,
                            int invert, int write_complement, unsigned long long* err)
{
    const unsigned long long base = (unsigned long long)(uintptr_t)buf;
    const unsigned long long flip = invert ? ~0ull : 0ull;
    const size_t stride = gv_nthreads();
    for (size_t i = gv_tid(); i < n16; i += stride) {
        const ulonglong2 got = __ldcg(buf + i);
        ulonglong2 exp;
        exp.x = gv_pattern(kind, 2ull * i, base, seed) ^ flip;
        exp.y = gv_pattern(kind, 2ull * i + 1ull, base, seed) ^ flip;
        if (got.x != exp.x || got.y != exp.y) {
            const unsigned long long nbad = (got.x != exp.x ? 1ull : 0ull) + (got.y != exp.y ? 1ull : 0ull);
            const bool first_x = got.x != exp.x;
            gv_record_error(err, nbad, first_x ? 2ull * i : 2ull * i + 1ull, first_x ? exp.x : exp.y,
                            first_x ? got.x : got.y);
        }
        if (write_complement) {
            ulonglong2 c;
            c.x = ~exp.x;
            c.y = ~exp.y;
            __stcg(buf + i, c);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Device memory bandwidth. 16-byte accesses with cache-global hints; UNROLL independent loads in
// flight per thread before the first store (nvbandwidth-style striding), coalesced per unroll slot.
__global__ void gv_fill_float4(float4* buf, size_t n, unsigned long long seed)
{
    const size_t stride = gv_nthreads();
    for (size_t i = gv_tid(); i < n; i += stride) {
        const unsigned long long h0 = gv_mix64(4ull * i ^ seed);
        const unsigned long long h1 = gv_mix64((4ull * i + 1ull) ^ seed);
        float4 v;
        v.x = gv_unit_float(h0);
        v.y = gv_unit_float(h0 << 23);
        v.z = gv_unit_float(h1);
        v.w = gv_unit_float(h1 << 23);
        buf[i] = v;
    }
}

#define GV_COPY_UNROLL 8
__global__ void __launch_bounds__(256) gv_copy(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n)
{
    const size_t stride = gv_nthreads();
    size_t i = gv_tid();
    for (; i + (GV_COPY_UNROLL - 1) * stride < n; i += GV_COPY_UNROLL * stride) {
        uint4 v[GV_COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < GV_COPY_UNROLL; ++u) v[u] = __ldcg(src + i + u * stride);
#pragma unroll
        for (int u = 0; u < GV_COPY_UNROLL; ++u) __stcg(dst + i + u * stride, v[u]);
    }
    for (; i < n; i += stride) __stcg(dst + i, __ldcg(src + i));
}

#define GV_TRIAD_UNROLL 4
// a = b + s * c  (STREAM triad): 2 reads + 1 write of 16 bytes per element.
__global__ void __launch_bounds__(256) gv_triad(float4* __restrict__ a, const float4* __restrict__ b,
                                                const float4* __restrict__ c, size_t n, float s)
{
    const size_t stride = gv_nthreads();
    size_t i = gv_tid();
    for (; i + (GV_TRIAD_UNROLL - 1) * stride < n; i += GV_TRIAD_UNROLL * stride) {
        float4 vb[GV_TRIAD_UNROLL], vc[GV_TRIAD_UNROLL];
#pragma unroll
        for (int u = 0; u < GV_TRIAD_UNROLL; ++u) {
            vb[u] = __ldcg(b + i + u * stride);
            vc[u] = __ldcg(c + i + u * stride);
        }
#pragma unroll
        for (int u = 0; u < GV_TRIAD_UNROLL; ++u) {
            float4 r;
            r.x = fmaf(s, vc[u].x, vb[u].x);
            r.y = fmaf(s, vc[u].y, vb[u].y);
            r.z = fmaf(s, vc[u].z, vb[u].z);
            r.w = fmaf(s, vc[u].w, vb[u].w);
            __stcg(a + i + u * stride, r);
        }
    }
    for (; i < n; i += stride) {
        const float4 vb = __ldcg(b + i), vc = __ldcg(c + i);
        float4 r;
        r.x = fmaf(s, vc.x, vb.x);
        r.y = fmaf(s, vc.y, vb.y);
        r.z = fmaf(s, vc.z, vb.z);
        r.w = fmaf(s, vc.w, vb.w);
        __stcg(a + i, r);
    }
}

// ---------------------------------------------------------------------------------------------
// FP32 FMA throughput: 8 independent dependency chains per thread, 16x unrolled, registers only.
// FLOPs per thread = iters * 16 * 8 * 2. The result is stored so the work cannot be removed.
#define GV_FMA_CHAINS 8
#define GV_FMA_UNROLL 16
__global__ void __launch_bounds__(256) gv_fma(float* out, int iters, float b, float c, unsigned long long* clk)
{
    const GvClock timer(clk);
    float a[GV_FMA_CHAINS];
#pragma unroll
    for (int k = 0; k < GV_FMA_CHAINS; ++k) a[k] = (float)(threadIdx.x + k) * 1.0e-3f;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int u = 0; u < GV_FMA_UNROLL; ++u) {
#pragma unroll
            for (int k = 0; k < GV_FMA_CHAINS; ++k) a[k] = fmaf(a[k], b, c);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < GV_FMA_CHAINS; ++k) s += a[k];
    out[gv_tid()] = s;
    timer.stop(clk);
}

// ---------------------------------------------------------------------------------------------
// Tensor cores: mma.sync in a register-resident loop, GV_MMA_CHAINS independent accumulators per
// warp. m16n8k16 (sm_80+): A = 4 x b32 (8 halves), B = 2 x b32 (4 halves), C/D = 4 x f32 per
// thread; 2*16*8*16 = 4096 FLOPs per warp per mma. m16n8k8 (sm_75, f16 only): A = 2 x b32,
// B = 1 x b32, 2048 FLOPs per warp per mma. On archs without the instruction the kernel stores
// zeros and the host does not run it (it checks the compute capability first).
#define GV_MMA_CHAINS 8

namespace {
__device__ __forceinline__ uint32_t gv_half2_bits(unsigned long long h, bool bf16)
{
    // Two values in [0.5, 1) with random mantissas: finite, non-zero, no denormals.
    const uint32_t m0 = (uint32_t)(h >> 20) & 0x7Fu, m1 = (uint32_t)(h >> 40) & 0x7Fu;
    if (bf16) {
        const uint32_t v0 = 0x3F00u | m0, v1 = 0x3F00u | m1; // bf16: sign0 exp126 (0.5) mantissa7
        return v0 | (v1 << 16);
    }
    const uint32_t v0 = 0x3800u | (m0 << 3), v1 = 0x3800u | (m1 << 3); // fp16: exp14 (0.5)
    return v0 | (v1 << 16);
}
} // namespace

__global__ void __launch_bounds__(256) gv_mma_bf16(float* out, int iters, unsigned long long seed,
                                                    unsigned long long* clk)
{
    const GvClock timer(clk);
    float d[GV_MMA_CHAINS][4];
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c)
#pragma unroll
        for (int j = 0; j < 4; ++j) d[c][j] = 0.0f;
#if defined(GV_HAS_MMA_K16)
    const unsigned long long h = gv_mix64(gv_tid() ^ seed);
    const uint32_t a0 = gv_half2_bits(h, true), a1 = gv_half2_bits(h >> 3, true);
    const uint32_t a2 = gv_half2_bits(h >> 5, true), a3 = gv_half2_bits(h >> 7, true);
    const uint32_t b0 = gv_half2_bits(h >> 11, true), b1 = gv_half2_bits(h >> 13, true);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < GV_MMA_CHAINS; ++c) {
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
    }
#else
    (void)iters;
    (void)seed;
#endif
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    out[gv_tid()] = s;
    timer.stop(clk);
}

__global__ void __launch_bounds__(256) gv_mma_f16(float* out, int iters, unsigned long long seed,
                                                    unsigned long long* clk)
{
    const GvClock timer(clk);
    float d[GV_MMA_CHAINS][4];
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c)
#pragma unroll
        for (int j = 0; j < 4; ++j) d[c][j] = 0.0f;
    const unsigned long long h = gv_mix64(gv_tid() ^ seed);
    const uint32_t a0 = gv_half2_bits(h, false), a1 = gv_half2_bits(h >> 3, false);
    const uint32_t b0 = gv_half2_bits(h >> 11, false);
#if defined(GV_HAS_MMA_K16)
    const uint32_t a2 = gv_half2_bits(h >> 5, false), a3 = gv_half2_bits(h >> 7, false);
    const uint32_t b1 = gv_half2_bits(h >> 13, false);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < GV_MMA_CHAINS; ++c) {
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
    }
#elif defined(GV_HAS_MMA_K8)
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < GV_MMA_CHAINS; ++c) {
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a0), "r"(a1), "r"(b0));
        }
    }
#else
    (void)iters;
    (void)a0;
    (void)a1;
    (void)b0;
#endif
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    out[gv_tid()] = s;
    timer.stop(clk);
}

// ---------------------------------------------------------------------------------------------
// Burn (gpu-burn method): the same deterministic computation is repeated into a ring of result
// slots and every slot is compared bit for bit with a reference computed once. Any difference is a
// compute or memory fault. n must be a multiple of the grid size so every warp runs the same trip
// count (required by the warp-collective mma in gv_burn_mma).
__global__ void __launch_bounds__(256) gv_burn_fma(const float* __restrict__ in, float* __restrict__ out,
                                                   size_t n, int iters)
{
    const size_t stride = gv_nthreads();
    for (size_t i = gv_tid(); i < n; i += stride) {
        const float x = __ldcg(in + i);
        float a[GV_FMA_CHAINS];
#pragma unroll
        for (int k = 0; k < GV_FMA_CHAINS; ++k) a[k] = x + (float)k * 0.125f;
        const float cc = 1.0e-4f * x;
        for (int it = 0; it < iters; ++it) {
#pragma unroll
            for (int u = 0; u < 4; ++u) {
#pragma unroll
                for (int k = 0; k < GV_FMA_CHAINS; ++k) a[k] = fmaf(a[k], 0.99993f, cc);
            }
        }
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < GV_FMA_CHAINS; ++k) s += a[k];
        __stcg(out + i, s);
    }
}

// Each thread writes GV_MMA_CHAINS*4 floats: out[tid * 32 + j]. Inputs are read from `in`
// (6 words per thread), so a corrupted input or result shows up as a miscompare.
__global__ void __launch_bounds__(256) gv_burn_mma(const uint32_t* __restrict__ in, float* __restrict__ out,
                                                   int iters)
{
    const size_t t = gv_tid();
    float d[GV_MMA_CHAINS][4];
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c)
#pragma unroll
        for (int j = 0; j < 4; ++j) d[c][j] = 0.0f;
#if defined(GV_HAS_MMA_K16)
    // Map random words to bf16 pairs in [-1, 1) so the accumulators random-walk instead of growing.
    uint32_t r[6];
#pragma unroll
    for (int j = 0; j < 6; ++j) {
        const uint32_t w = __ldcg(in + t * 6 + j);
        const uint32_t lo = (w & 0x807Fu) | 0x3F00u, hi = ((w >> 16) & 0x807Fu) | 0x3F00u;
        r[j] = lo | (hi << 16);
    }
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < GV_MMA_CHAINS; ++c) {
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]));
        }
    }
#else
    (void)in;
    (void)iters;
#endif
#pragma unroll
    for (int c = 0; c < GV_MMA_CHAINS; ++c)
#pragma unroll
        for (int j = 0; j < 4; ++j) __stcg(out + t * (GV_MMA_CHAINS * 4) + c * 4 + j, d[c][j]);
}

// Bitwise comparison of n 16-byte words: err[0] += number of differing 32-bit words.
__global__ void gv_compare(const uint4* __restrict__ ref, const uint4* __restrict__ got, size_t n,
                           unsigned long long* err)
{
    const size_t stride = gv_nthreads();
    unsigned long long bad = 0;
    for (size_t i = gv_tid(); i < n; i += stride) {
        const uint4 a = __ldcg(ref + i), b = __ldcg(got + i);
        bad += (a.x != b.x) + (a.y != b.y) + (a.z != b.z) + (a.w != b.w);
    }
    if (bad) atomicAdd(err, bad);
}

// Fill with pseudo-random 32-bit words (burn inputs).
__global__ void gv_fill_u32(uint32_t* buf, size_t n, unsigned long long seed)
{
    const size_t stride = gv_nthreads();
    for (size_t i = gv_tid(); i < n; i += stride) buf[i] = (uint32_t)(gv_mix64(i ^ seed) >> 17);
}

} // extern "C"
