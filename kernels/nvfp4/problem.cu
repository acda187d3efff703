/* Device memory, input generation, poison, references and verification of one
 * NVFP4 grouped-GEMM problem, or of one gated dual GEMM (see nvfp4.h).  Compiled once (not
 * part of the twin). */
#include <cuda_runtime.h>
#include <cuda_fp8.h>
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled_v12000 */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "nvfp4_internal.h"
#include "reference_cpu.h"

/* ------------------------------------------------------------------------------------------ */
/* errors */

static void report(const char *what, cudaError_t e, const char *file, int line)
{
    fprintf(stderr, "nvfp4: %s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
}

/* In helpers returning cudaError_t: report and return the first failure. */
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            report(#call, e_, __FILE__, __LINE__);                                                 \
            return e_;                                                                             \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------------------------------------ */
/* the problem object */

#define KP_CACHE 32 /* --variant all uses 11 distinct (tile, persistence, split) keys, the dual points 20 */

typedef struct host_group {
    uint8_t *A, *B, *SFA, *SFB;
    uint8_t *B2, *SFB2; /* the dual GEMM's */
    uint16_t *C;
    float *Cref;
} host_group;
static void host_free(host_group *h, int groups);

/* One element checked against the float64 CPU reference, and that reference's value. */
typedef struct cpu_sample {
    int g, m, n;
    double ref;
} cpu_sample;

struct nvfp4_problem {
    nvfp4_shape shape;
    nvfp4_dist dist;
    uint64_t seed;
    uint8_t *A[NVFP4_MAX_GROUPS], *B[NVFP4_MAX_GROUPS];
    uint8_t *SFA[NVFP4_MAX_GROUPS], *SFB[NVFP4_MAX_GROUPS];
    uint16_t *C[NVFP4_MAX_GROUPS];
    float *Cref[NVFP4_MAX_GROUPS]; /* allocated on first verify */
    uint16_t *T[NVFP4_MAX_GROUPS]; /* the token pre-pass output: fp16 [M, K], K permuted */
    int dual;                      /* the gated dual GEMM (shape.dual): B2 beside B[0] */
    uint8_t *B2, *SFB2;
    nvfp4_tparams tp;
    int sms;
    int no_pdl; /* nvfp4_problem_set_pdl(p, 0): every GEMM waits in stream order */
    /* nvfp4_problem_verify's host copies: the fp32 reference (made on its first call, with the
     * inputs, which are dropped once the CPU sample is made; nothing writes the inputs, so every
     * later call reads back C alone), and C */
    struct host_group *host;
    struct cpu_sample *samples; /* the elements checked against the float64 CPU reference, with it */
    long long nsamples;
    struct { /* keyed by everything the schedule and its workspace depend on */
        int tile_w, tile_t, persistent, split_k, gate, pingpong;
        nvfp4_kparams *kp;
        nvfp4_tile *tiles; /* device copies of the schedule */
        int *cta_first;
        float *partials; /* split K workspace (NULL without) */
        int *flags;
    } cache[KP_CACHE];
    int ncache;
};

/* ------------------------------------------------------------------------------------------ */
/* counter-based generator: every byte is a pure function of (seed, stream, index) */

__host__ __device__ static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

__host__ __device__ static inline uint64_t hash3(uint64_t seed, uint64_t stream, uint64_t i)
{
    return mix64(mix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + i * 0x9E3779B97F4A7C15ull);
}

enum { T_A = 0, T_B = 1, T_SFA = 2, T_SFB = 3, T_B2 = 4, T_SFB2 = 5 };
static uint64_t stream_id(int g, int tensor)
{
    return ((uint64_t)g << 8) | (uint64_t)tensor;
}

/* FP4 data, 8 bytes per thread (every tensor is a multiple of 128 bytes). */
__global__ void nvfp4_fill_fp4(uint64_t *p, size_t words, uint64_t seed, uint64_t stream, int gpumode)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= words)
        return;
    uint64_t h = hash3(seed, stream, i);
    /* gpumode: the harness masks every nibble with 0b1011 -> +-{0, 0.5, 1, 1.5} */
    p[i] = gpumode ? (h & 0xBBBBBBBBBBBBBBBBull) : h;
}

/* How nvfp4_fill_sf draws the scales of valid rows. */
enum { SF_FULL = 0, SF_GPUMODE = 1 /* the grouped harness's {1, 2} */, SF_UNIT = 2 /* [0, 1), the dual harness's */ };

/* Blocked scales.  Rows >= rows are padding and get junk: never zero, a quarter NaN codes. */
__global__ void nvfp4_fill_sf(uint8_t *p, size_t bytes, int rows, int K, uint64_t seed, uint64_t stream, int mode,
                              int cap_code)
{
    size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (o >= bytes)
        return;
    /* invert off(i,j): band of 128 rows, 512-byte atom, then (i%32)*16 + ((i%128)/32)*4 + j%4 */
    size_t band_bytes = (size_t)(K / 64) * 512u;
    int band = (int)(o / band_bytes);
    int w = (int)((o % band_bytes) % 512u);
    int i = band * 128 + ((w % 16) / 4) * 32 + w / 16;
    uint64_t h = hash3(seed, stream, o);
    uint8_t v;
    if (i >= rows) {
        unsigned sel = (unsigned)(h >> 16) & 7u;
        v = sel == 0 ? 0x7F : sel == 1 ? 0xFF : ((h & 0xFF) ? (uint8_t)(h & 0xFF) : (uint8_t)0xA5);
    } else if (mode == SF_UNIT) {
        /* torch.rand's 24-bit uniform [0, 1), rounded to the nearest e4m3 (1.0 included) */
        v = (uint8_t)__nv_cvt_float_to_fp8((float)(h >> 40) * 0x1p-24f, __NV_SATFINITE, __NV_E4M3);
    } else if (mode == SF_GPUMODE) {
        v = (h & 1) ? 0x40 : 0x38; /* 2.0 or 1.0 */
    } else {
        /* code 0 .. cap_code (zero, all subnormals, normals up to the cap), random sign */
        v = (uint8_t)((h >> 8) % (uint64_t)(cap_code + 1));
        v |= (uint8_t)(((h >> 40) & 1) << 7);
    }
    p[o] = v;
}

__global__ void nvfp4_fill_u16(uint16_t *p, size_t n, uint16_t v)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

/* ------------------------------------------------------------------------------------------ */
/* fp32 GPU reference: one thread per output, decoded by plain formulas */

__constant__ float c_e2m1[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                 -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

__device__ static inline float dev_e4m3(unsigned b)
{
    unsigned e = (b >> 3) & 15u, m = b & 7u;
    float mag;
    if (e == 15u && m == 7u)
        return __int_as_float(0x7FC00000); /* NaN */
    mag = e ? ldexpf(1.0f + (float)m * 0.125f, (int)e - 7) : ldexpf((float)m, -9);
    return (b & 0x80u) ? -mag : mag;
}

__device__ static inline size_t dev_sf_off(int i, int j, int K)
{
    return (size_t)(i / 128) * (size_t)(K / 64) * 512u + (size_t)(j / 4) * 512u + (size_t)(i % 32) * 16u +
           (size_t)((i % 128) / 32) * 4u + (size_t)(j % 4);
}

__global__ void nvfp4_ref_kernel(const uint8_t *A, const uint8_t *SFA, const uint8_t *B, const uint8_t *SFB,
                                 float *out, int M, int N, int K)
{
    size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (idx >= (size_t)M * (size_t)N)
        return;
    int m = (int)(idx / (size_t)N), n = (int)(idx % (size_t)N);
    const uint8_t *a = A + (size_t)m * (size_t)(K / 2);
    const uint8_t *b = B + (size_t)n * (size_t)(K / 2);
    float acc = 0.0f;
    for (int j = 0; j < K / 16; j++) {
        float sa = dev_e4m3(SFA[dev_sf_off(m, j, K)]);
        float sb = dev_e4m3(SFB[dev_sf_off(n, j, K)]);
        for (int t = 0; t < 8; t++) {
            unsigned x = a[8 * j + t], y = b[8 * j + t];
            /* each factor is exact in fp32 and so is their product (<= 12 significant bits) */
            acc += (c_e2m1[x & 15u] * sa) * (c_e2m1[y & 15u] * sb);
            acc += (c_e2m1[x >> 4] * sa) * (c_e2m1[y >> 4] * sb);
        }
    }
    out[idx] = acc;
}

/* The dual GEMM's: both GEMMs accumulated in float64 (every product of two exact fp32 factors
 * with <= 6 significant bits each is exact), rounded to fp32, then silu and the product in fp32:
 * an fp32 accumulation here would differ from the kernel's by its own rounding times the other
 * GEMM's magnitude, which the tolerance does not cover where silu(g) * u is small. */
__global__ void nvfp4_dual_ref_kernel(const uint8_t *A, const uint8_t *SFA, const uint8_t *B1, const uint8_t *SFB1,
                                      const uint8_t *B2, const uint8_t *SFB2, float *out, int M, int N, int K)
{
    size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (idx >= (size_t)M * (size_t)N)
        return;
    int m = (int)(idx / (size_t)N), n = (int)(idx % (size_t)N);
    const uint8_t *a = A + (size_t)m * (size_t)(K / 2);
    const uint8_t *b1 = B1 + (size_t)n * (size_t)(K / 2), *b2 = B2 + (size_t)n * (size_t)(K / 2);
    double g = 0.0, u = 0.0;
    for (int j = 0; j < K / 16; j++) {
        const size_t oa = dev_sf_off(m, j, K), ob = dev_sf_off(n, j, K);
        const float sa = dev_e4m3(SFA[oa]), s1 = dev_e4m3(SFB1[ob]), s2 = dev_e4m3(SFB2[ob]);
        for (int t = 0; t < 8; t++) {
            const unsigned x = a[8 * j + t], y1 = b1[8 * j + t], y2 = b2[8 * j + t];
            const float lo = c_e2m1[x & 15u] * sa, hi = c_e2m1[x >> 4] * sa;
            g += (double)(lo * (c_e2m1[y1 & 15u] * s1)) + (double)(hi * (c_e2m1[y1 >> 4] * s1));
            u += (double)(lo * (c_e2m1[y2 & 15u] * s2)) + (double)(hi * (c_e2m1[y2 >> 4] * s2));
        }
    }
    const float gf = (float)g, uf = (float)u;
    out[idx] = gf / (1.0f + expf(-gf)) * uf;
}

/* ------------------------------------------------------------------------------------------ */
/* create / destroy */

static unsigned blocks_for(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

/* "full" scales.  Output finiteness is guaranteed, not hoped for: |C| <= K * 6*|sa|max *
 * 6*|sb|max, so with P = 65504 / (36 K) we need cap(SFA) * cap(SFB) <= P.  One tensor of each
 * group is "narrow" (codes 0..0x08: zero, the seven subnormals 2^-9..7*2^-9, and 2^-6), the
 * other "wide" (codes 0..the largest value <= min(448, 64 P)), alternating A/B by group parity.
 * For K = 256 the wide tensor covers the whole e4m3 range up to 448; for K = 7168 up to 16.
 * Signs are random.  Typical outputs are then of order 0.1..10, well above the 1e-3 absolute
 * tolerance, so the test is not vacuous. */
static int wide_cap_code(int K)
{
    double P = 65504.0 / (36.0 * (double)K);
    double lim = 64.0 * P < 448.0 ? 64.0 * P : 448.0;
    int best = 0x08;
    for (int c = 1; c <= 0x7E; c++)
        if (nvfp4_e4m3_decode((unsigned)c) <= lim)
            best = c;
    return best;
}
#define NARROW_CAP_CODE 0x08

static cudaError_t problem_alloc_and_fill(nvfp4_problem *p)
{
    const nvfp4_shape *s = &p->shape;
    const unsigned T = 256;
    int gpumode = p->dist == NVFP4_DIST_GPUMODE, dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&p->sms, cudaDevAttrMultiProcessorCount, dev));
    p->tp.groups = s->groups;
    for (int g = 0; g < s->groups; g++) {
        int M = s->m[g], N = s->n[g], K = s->k[g];
        size_t a_bytes = (size_t)M * (size_t)(K / 2), b_bytes = (size_t)N * (size_t)(K / 2);
        size_t sfa_bytes = nvfp4_sf_bytes(M, K), sfb_bytes = nvfp4_sf_bytes(N, K);
        const int wide = wide_cap_code(K);
        int cap_a = (g % 2 == 0) ? wide : NARROW_CAP_CODE;
        int cap_b = (g % 2 == 0) ? NARROW_CAP_CODE : wide;
        CK(cudaMalloc((void **)&p->A[g], a_bytes));
        CK(cudaMalloc((void **)&p->B[g], b_bytes));
        CK(cudaMalloc((void **)&p->SFA[g], sfa_bytes));
        CK(cudaMalloc((void **)&p->SFB[g], sfb_bytes));
        CK(cudaMalloc((void **)&p->C[g], (size_t)M * (size_t)N * sizeof(uint16_t)));
        CK(cudaMalloc((void **)&p->T[g], (size_t)M * (size_t)K * sizeof(uint16_t)));
        if (p->dual) {
            CK(cudaMalloc((void **)&p->B2, b_bytes));
            CK(cudaMalloc((void **)&p->SFB2, sfb_bytes));
        }
        p->tp.A[g] = p->A[g];
        p->tp.SFA[g] = p->SFA[g];
        p->tp.T[g] = p->T[g];
        p->tp.k[g] = K;
        p->tp.units[g] = (long long)M * (K / 32);
        const long long blocks = (p->tp.units[g] + NVFP4_TOKEN_UNITS - 1) / NVFP4_TOKEN_UNITS;
        if (p->tp.block_start[g] + blocks > INT_MAX) {
            fprintf(stderr, "nvfp4: group %d is too large for the token pre-pass grid\n", g);
            return cudaErrorInvalidValue;
        }
        p->tp.block_start[g + 1] = p->tp.block_start[g] + (int)blocks;
        /* the dual GEMM: scales from [0, 1) (gpumode), or A narrow and B1, B2 wide by K (dual.h) */
        const int sf_mode = gpumode ? (p->dual ? SF_UNIT : SF_GPUMODE) : SF_FULL;
        if (p->dual) {
            cap_a = NVFP4_DUAL_NARROW_CAP;
            cap_b = nvfp4_dual_full_cap_code(K);
        }
        nvfp4_fill_fp4<<<blocks_for(a_bytes / 8, T), T>>>((uint64_t *)p->A[g], a_bytes / 8, p->seed,
                                                           stream_id(g, T_A), gpumode);
        CK(cudaGetLastError());
        nvfp4_fill_fp4<<<blocks_for(b_bytes / 8, T), T>>>((uint64_t *)p->B[g], b_bytes / 8, p->seed,
                                                           stream_id(g, T_B), gpumode);
        CK(cudaGetLastError());
        nvfp4_fill_sf<<<blocks_for(sfa_bytes, T), T>>>(p->SFA[g], sfa_bytes, M, K, p->seed,
                                                        stream_id(g, T_SFA), sf_mode, cap_a);
        CK(cudaGetLastError());
        nvfp4_fill_sf<<<blocks_for(sfb_bytes, T), T>>>(p->SFB[g], sfb_bytes, N, K, p->seed,
                                                        stream_id(g, T_SFB), sf_mode, cap_b);
        CK(cudaGetLastError());
        if (p->dual) {
            nvfp4_fill_fp4<<<blocks_for(b_bytes / 8, T), T>>>((uint64_t *)p->B2, b_bytes / 8, p->seed,
                                                               stream_id(g, T_B2), gpumode);
            CK(cudaGetLastError());
            nvfp4_fill_sf<<<blocks_for(sfb_bytes, T), T>>>(p->SFB2, sfb_bytes, N, K, p->seed, stream_id(g, T_SFB2),
                                                            sf_mode, cap_b);
            CK(cudaGetLastError());
        }
        nvfp4_fill_u16<<<blocks_for((size_t)M * N, T), T>>>(p->C[g], (size_t)M * N,
                                                            (uint16_t)NVFP4_POISON_HALF);
        CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    return cudaSuccess;
}

int nvfp4_problem_create(const nvfp4_shape *s, nvfp4_dist d, uint64_t seed, nvfp4_problem **out)
{
    nvfp4_problem *p;
    if (!s || !out || s->groups < 1 || s->groups > NVFP4_MAX_GROUPS ||
        (d != NVFP4_DIST_GPUMODE && d != NVFP4_DIST_FULL)) {
        fprintf(stderr, "nvfp4_problem_create: bad arguments\n");
        return -1;
    }
    if (s->dual && (s->groups != 1 || s->m[0] < 1 || s->n[0] < NVFP4_DUAL_N_STEP || s->n[0] % NVFP4_DUAL_N_STEP ||
                    s->k[0] < NVFP4_DUAL_K_STEP || s->k[0] % NVFP4_DUAL_K_STEP)) {
        fprintf(stderr, "nvfp4_problem_create: unsupported dual shape (%d groups, %d,%d,%d)\n", s->groups, s->m[0],
                s->n[0], s->k[0]);
        return -1;
    }
    for (int g = 0; g < s->groups && !s->dual; g++) {
        if (s->m[g] < 1 || s->n[g] < 128 || s->n[g] % 128 || s->k[g] < 256 || s->k[g] % 256) {
            fprintf(stderr, "nvfp4_problem_create: group %d has an unsupported shape (%d,%d,%d)\n", g,
                    s->m[g], s->n[g], s->k[g]);
            return -1;
        }
    }
    p = (nvfp4_problem *)calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "nvfp4_problem_create: out of host memory\n");
        return -1;
    }
    p->shape = *s;
    p->dist = d;
    p->seed = seed;
    p->dual = s->dual != 0;
    if (problem_alloc_and_fill(p) != cudaSuccess) {
        nvfp4_problem_destroy(p);
        return -1;
    }
    *out = p;
    return 0;
}

void nvfp4_problem_destroy(nvfp4_problem *p)
{
    if (!p)
        return;
    for (int g = 0; g < NVFP4_MAX_GROUPS; g++) {
        /* cudaFree(NULL) is a no-op; errors here are not actionable, but say so */
        void *bufs[7] = {p->A[g], p->B[g], p->SFA[g], p->SFB[g], p->C[g], p->Cref[g], p->T[g]};
        for (int i = 0; i < 7; i++) {
            cudaError_t e = cudaFree(bufs[i]);
            if (e != cudaSuccess)
                report("cudaFree", e, __FILE__, __LINE__);
        }
    }
    void *dual_bufs[2] = {p->B2, p->SFB2};
    for (int i = 0; i < 2; i++) {
        cudaError_t e = cudaFree(dual_bufs[i]);
        if (e != cudaSuccess)
            report("cudaFree", e, __FILE__, __LINE__);
    }
    for (int i = 0; i < p->ncache; i++) {
        free(p->cache[i].kp);
        void *bufs[4] = {p->cache[i].tiles, p->cache[i].cta_first, p->cache[i].partials, p->cache[i].flags};
        for (int b = 0; b < 4; b++) {
            cudaError_t e = cudaFree(bufs[b]);
            if (e != cudaSuccess)
                report("cudaFree", e, __FILE__, __LINE__);
        }
    }
    if (p->host) {
        host_free(p->host, p->shape.groups);
        free(p->host);
    }
    free(p->samples);
    free(p);
}

const nvfp4_shape *nvfp4_problem_shape(const nvfp4_problem *p)
{
    return &p->shape;
}

int nvfp4_problem_sms(const nvfp4_problem *p)
{
    return p->sms;
}

int nvfp4_problem_is_dual(const nvfp4_problem *p)
{
    return p && p->dual;
}

int nvfp4_problem_group(const nvfp4_problem *p, int g, nvfp4_group_dev *out)
{
    if (!p || g < 0 || g >= p->shape.groups || !out)
        return -1;
    out->A = p->A[g];
    out->B = p->B[g];
    out->SFA = p->SFA[g];
    out->SFB = p->SFB[g];
    out->B2 = p->dual ? p->B2 : NULL;
    out->SFB2 = p->dual ? p->SFB2 : NULL;
    out->C = p->C[g];
    out->M = p->shape.m[g];
    out->N = p->shape.n[g];
    out->K = p->shape.k[g];
    return 0;
}

int nvfp4_problem_poison(nvfp4_problem *p, cudaStream_t s)
{
    const unsigned T = 256;
    for (int g = 0; g < p->shape.groups; g++) {
        size_t n = (size_t)p->shape.m[g] * (size_t)p->shape.n[g];
        nvfp4_fill_u16<<<blocks_for(n, T), T, 0, s>>>(p->C[g], n, (uint16_t)NVFP4_POISON_HALF);
        cudaError_t e = cudaGetLastError();
        /* the fp16 tokens too: a load that ran ahead of their writer reads NaN, not a stale copy */
        const size_t nt = (size_t)p->shape.m[g] * (size_t)p->shape.k[g];
        if (e == cudaSuccess) {
            nvfp4_fill_u16<<<blocks_for(nt, T), T, 0, s>>>(p->T[g], nt, (uint16_t)NVFP4_POISON_HALF);
            e = cudaGetLastError();
        }
        if (e != cudaSuccess) {
            report("poison launch", e, __FILE__, __LINE__);
            return (int)e;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* kernel parameters and tensor maps */

static PFN_cuTensorMapEncodeTiled_v12000 get_encode(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = NULL;
    if (!fn) {
        void *ptr = NULL;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000,
                                                         cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !ptr) {
            fprintf(stderr, "nvfp4: cuTensorMapEncodeTiled not available (%s, query result %d)\n",
                    cudaGetErrorString(e), (int)q);
            return NULL;
        }
        fn = (PFN_cuTensorMapEncodeTiled_v12000)ptr;
    }
    return fn;
}

/* 2-D tensor [rows, cols] of elem_bytes-sized elements, box {box_cols, box_rows}.  Rows past
 * the end read as zero (loads) and are dropped (stores). */
static int encode_2d(CUtensorMap *m, const void *base, CUtensorMapDataType type, int elem_bytes, int cols,
                     int rows, int box_cols, int box_rows, CUtensorMapSwizzle swizzle)
{
    PFN_cuTensorMapEncodeTiled_v12000 enc = get_encode();
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)cols * (cuuint64_t)elem_bytes};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    cuuint32_t estr[2] = {1, 1};
    CUresult r;
    if (!enc)
        return -1;
    r = enc(m, type, 2, (void *)base, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "nvfp4: cuTensorMapEncodeTiled failed (CUresult %d) for [%d x %d] x %d B, box %d x %d\n",
                (int)r, rows, cols, elem_bytes, box_rows, box_cols);
        return -1;
    }
    return 0;
}

/* Host parameters of one (tile, persistence, split K) point: tensor maps and the uploaded
 * schedule. */
static int build_kparams(nvfp4_problem *p, const nvfp4_variant *v, nvfp4_kparams *kp, nvfp4_tile **tiles_dev,
                         int **first_dev, float **partials_dev, int **flags_dev)
{
    const nvfp4_shape *s = &p->shape;
    nvfp4_schedule sc;
    char err[200];
    if (nvfp4_variant_schedule(v, s, p->sms, &sc, err, sizeof err)) {
        fprintf(stderr, "nvfp4: %s\n", err);
        return -1;
    }
    memset(kp, 0, sizeof *kp);
    kp->groups = p->dual ? 2 : s->groups; /* the dual GEMM: B2 in entry 1 (nvfp4_internal.h) */
    kp->tile_w = v->tile_w;
    kp->tile_t = v->tile_t;
    kp->persistent = v->persistent;
    kp->grid = sc.grid;
    kp->full_width = nvfp4_variant_full_width(v, &sc);
    int rc = 0;
    for (int g = 0; g < s->groups && rc == 0; g++) {
        const int M = s->m[g], N = s->n[g], K = s->k[g];
        int box = (M + NVFP4_N_STEP - 1) / NVFP4_N_STEP * NVFP4_N_STEP;
        /* the cluster pair loads and stores half a tile per box (gemm.cu's load_tokens) */
        const int most = v->split_k == NVFP4_SPLIT_PAIR ? v->tile_t / 2 : v->tile_t;
        if (box > most)
            box = most;
        kp->t_box[g] = box;
        rc = encode_2d(&kp->tmW[g], p->B[g], CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, K / 2, N, NVFP4_BK / 2,
                       v->tile_w, CU_TENSOR_MAP_SWIZZLE_NONE) ||
             encode_2d(&kp->tmT[g], p->T[g], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, K, M, 64, box,
                       CU_TENSOR_MAP_SWIZZLE_128B) ||
             encode_2d(&kp->tmC[g], p->C[g], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, N, M, 64, box,
                       CU_TENSOR_MAP_SWIZZLE_128B);
        kp->sfW[g] = p->SFB[g];
        kp->C[g] = p->C[g];
        kp->m[g] = M;
        kp->n[g] = N;
        kp->k[g] = K;
    }
    if (rc == 0 && p->dual) { /* entry 1: the same problem with B2 */
        kp->tmT[1] = kp->tmT[0];
        kp->tmC[1] = kp->tmC[0];
        kp->C[1] = kp->C[0];
        kp->m[1] = kp->m[0];
        kp->n[1] = kp->n[0];
        kp->k[1] = kp->k[0];
        kp->t_box[1] = kp->t_box[0];
        kp->sfW[1] = p->SFB2;
        rc = encode_2d(&kp->tmW[1], p->B2, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, s->k[0] / 2, s->n[0], NVFP4_BK / 2,
                       v->tile_w, CU_TENSOR_MAP_SWIZZLE_NONE);
    }
    *tiles_dev = NULL;
    *first_dev = NULL;
    *partials_dev = NULL;
    *flags_dev = NULL;
    if (rc == 0) {
        const size_t tb = (size_t)sc.ntiles * sizeof(nvfp4_tile), fb = (size_t)(sc.grid + 1) * sizeof(int);
        /* split K: one fp32 buffer per non-owning part, one counter per (split tile, warpgroup) */
        const size_t pb = (size_t)sc.partial_bufs * (size_t)nvfp4_variant_partial_floats(v) * sizeof(float);
        const size_t flb = (size_t)sc.split_tiles * (size_t)nvfp4_variant_unit_warpgroups(v) * sizeof(int);
        cudaError_t e = cudaMalloc((void **)tiles_dev, tb);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)first_dev, fb);
        if (e == cudaSuccess && pb)
            e = cudaMalloc((void **)partials_dev, pb);
        if (e == cudaSuccess && flb)
            e = cudaMalloc((void **)flags_dev, flb);
        if (e == cudaSuccess && flb)
            e = cudaMemset(*flags_dev, 0, flb);
        if (e == cudaSuccess)
            e = cudaMemcpy(*tiles_dev, sc.tiles, tb, cudaMemcpyHostToDevice);
        if (e == cudaSuccess)
            e = cudaMemcpy(*first_dev, sc.cta_first, fb, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            report("upload the tile schedule", e, __FILE__, __LINE__);
            cudaFree(*tiles_dev);
            cudaFree(*first_dev);
            cudaFree(*partials_dev);
            cudaFree(*flags_dev);
            *tiles_dev = NULL;
            *first_dev = NULL;
            *partials_dev = NULL;
            *flags_dev = NULL;
            rc = -1;
        }
    }
    kp->tiles = *tiles_dev;
    kp->cta_first = *first_dev;
    kp->partials = *partials_dev;
    kp->flags = *flags_dev;
    nvfp4_schedule_free(&sc);
    return rc ? -1 : 0;
}

const nvfp4_kparams *nvfp4_problem_kparams(nvfp4_problem *p, const nvfp4_variant *v)
{
    for (int i = 0; i < p->ncache; i++)
        if (p->cache[i].tile_w == v->tile_w && p->cache[i].tile_t == v->tile_t &&
            p->cache[i].persistent == v->persistent && p->cache[i].split_k == v->split_k &&
            p->cache[i].gate == v->gate && p->cache[i].pingpong == v->pingpong)
            return p->cache[i].kp;
    if (p->ncache == KP_CACHE) {
        fprintf(stderr, "nvfp4: kernel parameter cache full\n");
        return NULL;
    }
    /* CUtensorMap needs 128-byte alignment */
    nvfp4_kparams *kp = (nvfp4_kparams *)aligned_alloc(128, (sizeof(nvfp4_kparams) + 127) / 128 * 128);
    nvfp4_tile *tiles = NULL;
    int *first = NULL, *flags = NULL;
    float *partials = NULL;
    if (!kp) {
        fprintf(stderr, "nvfp4: out of host memory\n");
        return NULL;
    }
    if (build_kparams(p, v, kp, &tiles, &first, &partials, &flags)) {
        free(kp);
        return NULL;
    }
    p->cache[p->ncache].tile_w = v->tile_w;
    p->cache[p->ncache].tile_t = v->tile_t;
    p->cache[p->ncache].persistent = v->persistent;
    p->cache[p->ncache].split_k = v->split_k;
    p->cache[p->ncache].gate = v->gate;
    p->cache[p->ncache].pingpong = v->pingpong;
    p->cache[p->ncache].kp = kp;
    p->cache[p->ncache].tiles = tiles;
    p->cache[p->ncache].cta_first = first;
    p->cache[p->ncache].partials = partials;
    p->cache[p->ncache].flags = flags;
    p->ncache++;
    return kp;
}

/* The launcher of v's build: gemm.cu's for the production points, gemm_evidence.cu's and
 * gemm_dual_evidence.cu's (or evidence_none.c's) for the evidence points (points.h). */
static const nvfp4_gemm_launcher k_launchers[3][3] = {
    {nvfp4_gemm_launch_prod, nvfp4_gemm_launch_twin, nvfp4_gemm_launch_detail},
    {nvfp4_gemm_evidence_launch_prod, nvfp4_gemm_evidence_launch_twin, nvfp4_gemm_evidence_launch_detail},
    {nvfp4_gemm_dual_evidence_launch_prod, nvfp4_gemm_dual_evidence_launch_twin,
     nvfp4_gemm_dual_evidence_launch_detail}};

static nvfp4_gemm_launcher null_launcher; /* NVFP4_NULL's: set by the program that links it */

void nvfp4_set_null_launcher(nvfp4_gemm_launcher fn)
{
    null_launcher = fn;
}

static int gemm_enqueue(nvfp4_problem *p, const nvfp4_variant *v, int build, gs_buffer stamps, cudaStream_t s)
{
    if ((v->gate != 0) != p->dual) {
        fprintf(stderr, "nvfp4: %s is a %s point; the problem is a %s\n", v->name,
                v->gate ? "dual GEMM" : "grouped GEMM", p->dual ? "dual GEMM" : "grouped GEMM");
        return (int)cudaErrorInvalidValue;
    }
    nvfp4_kparams *kp = (nvfp4_kparams *)nvfp4_problem_kparams(p, v); /* owned by p's cache */
    if (!kp || build < NVFP4_PROD || build > NVFP4_NULL)
        return (int)cudaErrorInvalidValue;
    kp->pdl = !p->no_pdl;
    if (build == NVFP4_NULL)
        return null_launcher && !v->evidence ? null_launcher(v, kp, stamps, s) : (int)cudaErrorNotSupported;
    return k_launchers[!v->evidence ? 0 : v->gate ? 2 : 1][build](v, kp, stamps, s);
}

int nvfp4_launch_gemm_alone(const nvfp4_variant *v, nvfp4_problem *p, cudaStream_t s)
{
    if (!v || !p)
        return (int)cudaErrorInvalidValue;
    gs_buffer none;
    memset(&none, 0, sizeof none);
    return gemm_enqueue(p, v, NVFP4_PROD, none, s);
}

int nvfp4_problem_set_pdl(nvfp4_problem *p, int on)
{
    if (!p)
        return (int)cudaErrorInvalidValue;
    p->no_pdl = !on;
    return 0;
}

int nvfp4_prepare(const nvfp4_variant *v, nvfp4_problem *p, cudaStream_t s)
{
    if (!v || !p)
        return (int)cudaErrorInvalidValue;
    return nvfp4_tokens_launch(&p->tp, s);
}

int nvfp4_tokens_only(void *problem, cudaStream_t s)
{
    nvfp4_problem *p = (nvfp4_problem *)problem;
    return p ? nvfp4_tokens_launch(&p->tp, s) : (int)cudaErrorInvalidValue;
}

int nvfp4_launch(const nvfp4_variant *v, int build, nvfp4_problem *p, gs_buffer stamps, cudaStream_t s)
{
    if (!v || !p)
        return (int)cudaErrorInvalidValue;
    if ((v->gate != 0) != p->dual) /* before any launch: gemm_enqueue says why */
        return gemm_enqueue(p, v, build, stamps, s);
    if (!nvfp4_problem_kparams(p, v)) /* built and cached on the first call */
        return (int)cudaErrorInvalidValue;
    int e = nvfp4_tokens_launch(&p->tp, s);
    if (e)
        return e;
    return gemm_enqueue(p, v, build, stamps, s);
}

/* ------------------------------------------------------------------------------------------ */
/* verification */

int nvfp4_problem_reference(nvfp4_problem *p, cudaStream_t s, const float **refs)
{
    const unsigned T = 256;
    for (int g = 0; g < p->shape.groups; g++) {
        int M = p->shape.m[g], N = p->shape.n[g], K = p->shape.k[g];
        size_t n = (size_t)M * (size_t)N;
        if (!p->Cref[g])
            CK(cudaMalloc((void **)&p->Cref[g], n * sizeof(float)));
        if (p->dual)
            nvfp4_dual_ref_kernel<<<blocks_for(n, T), T, 0, s>>>(p->A[g], p->SFA[g], p->B[g], p->SFB[g], p->B2,
                                                                 p->SFB2, p->Cref[g], M, N, K);
        else
            nvfp4_ref_kernel<<<blocks_for(n, T), T, 0, s>>>(p->A[g], p->SFA[g], p->B[g], p->SFB[g], p->Cref[g], M,
                                                            N, K);
        CK(cudaGetLastError());
        if (refs)
            refs[g] = p->Cref[g];
    }
    return 0;
}

int nvfp4_check_ok(const nvfp4_check *c)
{
    return c->elements > 0 && c->bad == 0 && c->unwritten == 0 && c->cpu_bad == 0 && c->cpu_checked > 0;
}

static void host_free(host_group *h, int groups)
{
    for (int g = 0; g < groups; g++) {
        free(h[g].A);
        free(h[g].B);
        free(h[g].SFA);
        free(h[g].SFB);
        free(h[g].B2);
        free(h[g].SFB2);
        free(h[g].C);
        free(h[g].Cref);
    }
}

/* The host copies of the inputs and of the fp32 reference (once per problem), then of C. */
static cudaError_t copy_back(const nvfp4_problem *p, host_group *h, int inputs)
{
    const nvfp4_shape *s = &p->shape;
    for (int g = 0; g < s->groups; g++) {
        int M = s->m[g], N = s->n[g], K = s->k[g];
        size_t a = (size_t)M * (K / 2), b = (size_t)N * (K / 2), sfa = nvfp4_sf_bytes(M, K),
               sfb = nvfp4_sf_bytes(N, K), c = (size_t)M * N;
        if (inputs) {
            h[g].A = (uint8_t *)malloc(a);
            h[g].B = (uint8_t *)malloc(b);
            h[g].SFA = (uint8_t *)malloc(sfa);
            h[g].SFB = (uint8_t *)malloc(sfb);
            h[g].C = (uint16_t *)malloc(c * sizeof(uint16_t));
            h[g].Cref = (float *)malloc(c * sizeof(float));
            if (!h[g].A || !h[g].B || !h[g].SFA || !h[g].SFB || !h[g].C || !h[g].Cref) {
                fprintf(stderr, "nvfp4_problem_verify: out of host memory\n");
                return cudaErrorMemoryAllocation;
            }
            CK(cudaMemcpy(h[g].A, p->A[g], a, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h[g].B, p->B[g], b, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h[g].SFA, p->SFA[g], sfa, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h[g].SFB, p->SFB[g], sfb, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h[g].Cref, p->Cref[g], c * sizeof(float), cudaMemcpyDeviceToHost));
            if (p->dual) {
                h[g].B2 = (uint8_t *)malloc(b);
                h[g].SFB2 = (uint8_t *)malloc(sfb);
                if (!h[g].B2 || !h[g].SFB2) {
                    fprintf(stderr, "nvfp4_problem_verify: out of host memory\n");
                    return cudaErrorMemoryAllocation;
                }
                CK(cudaMemcpy(h[g].B2, p->B2, b, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(h[g].SFB2, p->SFB2, sfb, cudaMemcpyDeviceToHost));
            }
        }
        CK(cudaMemcpy(h[g].C, p->C[g], c * sizeof(uint16_t), cudaMemcpyDeviceToHost));
    }
    return cudaSuccess;
}

/* The elements to check against the float64 CPU reference (every one of a small problem,
 * else the four corners of every group and a seeded sample), with that reference: made once
 * per problem, on the first verify, since it does not depend on C.  0 or -1 (no memory). */
static int make_cpu_samples(nvfp4_problem *p, const host_group *h, long long total)
{
    const nvfp4_shape *s = &p->shape;
    const long long drawn = total <= 65536 ? 0 : total <= (1ll << 20) ? 4096 : 512;
    const long long n = total <= 65536 ? total : 4ll * s->groups + drawn;
    cpu_sample *v = (cpu_sample *)malloc((size_t)n * sizeof *v);
    long long k = 0;
    if (!v) {
        fprintf(stderr, "nvfp4_problem_verify: out of host memory\n");
        return -1;
    }
    if (total <= 65536) {
        for (int g = 0; g < s->groups; g++)
            for (int m = 0; m < s->m[g]; m++)
                for (int c = 0; c < s->n[g]; c++)
                    v[k++] = (cpu_sample){g, m, c, 0.0};
    } else {
        uint64_t st = mix64(p->seed ^ 0x5EEDull);
        for (int g = 0; g < s->groups; g++) {
            const int M = s->m[g], N = s->n[g];
            v[k++] = (cpu_sample){g, 0, 0, 0.0};
            v[k++] = (cpu_sample){g, 0, N - 1, 0.0};
            v[k++] = (cpu_sample){g, M - 1, 0, 0.0};
            v[k++] = (cpu_sample){g, M - 1, N - 1, 0.0};
        }
        for (long long i = 0; i < drawn; i++) {
            long long r;
            int g = 0;
            st = mix64(st + 0x9E3779B97F4A7C15ull);
            r = (long long)(st % (uint64_t)total);
            while (r >= (long long)s->m[g] * s->n[g]) {
                r -= (long long)s->m[g] * s->n[g];
                g++;
            }
            v[k++] = (cpu_sample){g, (int)(r / s->n[g]), (int)(r % s->n[g]), 0.0};
        }
    }
    for (long long i = 0; i < n; i++) {
        const host_group *x = &h[v[i].g];
        v[i].ref = p->dual ? nvfp4_dual_ref_element(x->A, x->SFA, x->B, x->SFB, x->B2, x->SFB2, s->k[v[i].g], v[i].m,
                                                    v[i].n)
                           : nvfp4_ref_element(x->A, x->SFA, x->B, x->SFB, s->k[v[i].g], v[i].m, v[i].n);
    }
    p->samples = v;
    p->nsamples = n;
    return 0;
}

/* One CPU-checked element: the kernel output and the GPU reference must both pass. */
static void cpu_check_one(const nvfp4_problem *p, const host_group *h, const cpu_sample *e, nvfp4_check *c)
{
    const size_t idx = (size_t)e->m * p->shape.n[e->g] + e->n;
    const double out = nvfp4_half_to_double(h[e->g].C[idx]), gref = (double)h[e->g].Cref[idx];
    const int ok_out = nvfp4_tol_ok(out, e->ref), ok_ref = nvfp4_tol_ok(gref, e->ref);
    c->cpu_checked++;
    if (!ok_out || !ok_ref) {
        if (c->cpu_bad < 5)
            fprintf(stderr, "nvfp4 verify: group %d C[%d,%d]: kernel %.9g  gpu-ref %.9g  cpu-ref %.9g%s\n", e->g,
                    e->m, e->n, out, gref, e->ref, ok_ref ? "" : "  (GPU REFERENCE DISAGREES)");
        c->cpu_bad++;
    }
}

int nvfp4_problem_verify(nvfp4_problem *p, nvfp4_check *out)
{
    const nvfp4_shape *s = &p->shape;
    nvfp4_check c;
    long long total = 0;
    cudaError_t e;
    memset(&c, 0, sizeof c);

    e = cudaDeviceSynchronize(); /* surfaces an error of the kernel under test */
    if (e != cudaSuccess) {
        report("cudaDeviceSynchronize before verify", e, __FILE__, __LINE__);
        return -1;
    }
    const int first = !p->host;
    if (first) {
        if (nvfp4_problem_reference(p, 0, NULL) != 0)
            return -1;
        e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            report("reference kernel", e, __FILE__, __LINE__);
            return -1;
        }
        p->host = (host_group *)calloc(NVFP4_MAX_GROUPS, sizeof(host_group));
        if (!p->host) {
            fprintf(stderr, "nvfp4_problem_verify: out of host memory\n");
            return -1;
        }
    }
    host_group *const h = p->host;
    if (copy_back(p, h, first) != cudaSuccess) {
        if (first) { /* a half-made copy is never used: the next call starts again */
            host_free(h, s->groups);
            free(h);
            p->host = NULL;
        }
        return -1;
    }

    /* every element against the fp32 GPU reference */
    for (int g = 0; g < s->groups; g++) {
        size_t n = (size_t)s->m[g] * s->n[g];
        total += (long long)n;
        for (size_t i = 0; i < n; i++) {
            double o = nvfp4_half_to_double(h[g].C[i]), r = (double)h[g].Cref[i];
            int unwritten = h[g].C[i] == (uint16_t)NVFP4_POISON_HALF && isfinite(r);
            c.elements++;
            if (unwritten)
                c.unwritten++;
            if (!nvfp4_tol_ok(o, r)) {
                if (c.bad < 5)
                    fprintf(stderr, "nvfp4 verify: group %d C[%zu,%zu] = %.9g, fp32 reference %.9g%s\n", g,
                            i / s->n[g], i % s->n[g], o, r, unwritten ? " (unwritten)" : "");
                c.bad++;
            }
            if (isfinite(o) && isfinite(r)) {
                double ae = fabs(o - r);
                if (ae > c.max_abs_err)
                    c.max_abs_err = ae;
                /* relative error only where the relative term of the tolerance matters */
                if (fabs(r) >= 1e-3 && ae / fabs(r) > c.max_rel_err)
                    c.max_rel_err = ae / fabs(r);
            }
        }
    }

    /* a sample (or everything) against the float64 CPU reference; once it is made, the host
     * copies of the inputs are no longer read (g8k7168: 120 MB) */
    if (!p->samples) {
        if (make_cpu_samples(p, h, total) != 0)
            return -1;
        for (int g = 0; g < s->groups; g++) {
            free(h[g].A);
            free(h[g].B);
            free(h[g].SFA);
            free(h[g].SFB);
            free(h[g].B2);
            free(h[g].SFB2);
            h[g].A = h[g].B = h[g].SFA = h[g].SFB = h[g].B2 = h[g].SFB2 = NULL;
        }
    }
    for (long long i = 0; i < p->nsamples; i++)
        cpu_check_one(p, h, &p->samples[i], &c);
    *out = c;
    return 0;
}
