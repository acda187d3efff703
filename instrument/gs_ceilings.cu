/* The tensor and copy ceilings (gs_ceilings.h).  Every cuBLAS status and CUDA call is
 * checked; failures are reported on stderr. */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gs_ceilings.h"
#include "gs_cublas_check.h"


/* ---- the tensor ceiling: a large square bf16 GEMM ---- */

struct gs_ceiling_gemm {
    int n;
    cublasHandle_t h;
    __nv_bfloat16 *A, *B, *C;
};

static __global__ void gs_fill_bf16(__nv_bfloat16 *p, size_t n, uint64_t seed)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t x = seed + i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    /* uniform in [-1, 1) with 8 significant bits */
    p[i] = __float2bfloat16_rn((float)((int)((x >> 40) & 0xFFu) - 128) / 128.0f);
}

static int ceiling_setup(gs_ceiling_gemm *g)
{
    size_t nn = (size_t)g->n * g->n;
    const unsigned T = 256;
    GS_CKB(cublasCreate(&g->h));
    GS_CKC(cudaMalloc((void **)&g->A, nn * sizeof(__nv_bfloat16)));
    GS_CKC(cudaMalloc((void **)&g->B, nn * sizeof(__nv_bfloat16)));
    GS_CKC(cudaMalloc((void **)&g->C, nn * sizeof(__nv_bfloat16)));
    gs_fill_bf16<<<(unsigned)((nn + T - 1) / T), T>>>(g->A, nn, 1);
    GS_CKC(cudaGetLastError());
    gs_fill_bf16<<<(unsigned)((nn + T - 1) / T), T>>>(g->B, nn, 2);
    GS_CKC(cudaGetLastError());
    GS_CKC(cudaDeviceSynchronize());
    return 0;
}

int gs_ceiling_gemm_create(int n, gs_ceiling_gemm **out)
{
    gs_ceiling_gemm *g;
    if (n < 64 || n > 32768 || !out) {
        fprintf(stderr, "gs_ceiling_gemm_create: n=%d out of range\n", n);
        return -1;
    }
    g = (gs_ceiling_gemm *)calloc(1, sizeof *g);
    if (!g)
        return -1;
    g->n = n;
    if (ceiling_setup(g) != 0) {
        gs_ceiling_gemm_destroy(g);
        return -1;
    }
    *out = g;
    return 0;
}

double gs_ceiling_gemm_flops(const gs_ceiling_gemm *g)
{
    return 2.0 * (double)g->n * (double)g->n * (double)g->n;
}

int gs_ceiling_gemm_launch(void *arg, cudaStream_t s)
{
    gs_ceiling_gemm *g = (gs_ceiling_gemm *)arg;
    const float alpha = 1.0f, beta = 0.0f;
    GS_CKB(cublasSetStream(g->h, s));
    /* "TN": both operands K-major, the layout cuBLAS is fastest on */
    GS_CKB(cublasGemmEx(g->h, CUBLAS_OP_T, CUBLAS_OP_N, g->n, g->n, g->n, &alpha, g->A, CUDA_R_16BF, g->n, g->B,
                     CUDA_R_16BF, g->n, &beta, g->C, CUDA_R_16BF, g->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
}

void gs_ceiling_gemm_destroy(gs_ceiling_gemm *g)
{
    if (!g)
        return;
    void *b[3] = {g->A, g->B, g->C};
    for (int i = 0; i < 3; i++) {
        cudaError_t e = cudaFree(b[i]);
        if (e != cudaSuccess)
            gs_cuda_fail("cudaFree", e, __FILE__, __LINE__);
    }
    if (g->h) {
        cublasStatus_t st = cublasDestroy(g->h);
        if (st != CUBLAS_STATUS_SUCCESS)
            gs_cublas_fail("cublasDestroy", st, __FILE__, __LINE__);
    }
    free(g);
}

/* ---- both ceilings, timed ---- */

typedef struct copy_arg {
    void *src, *dst;
    size_t bytes;
} copy_arg;

static int copy_launch(void *arg, cudaStream_t s)
{
    copy_arg *c = (copy_arg *)arg;
    return (int)cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s);
}

/* Times fn into tim's rows named build; *median and *fastest (ms) for the caller. */
static int time_into(gs_timings *tim, const char *build, gs_launch_fn fn, void *arg, const gs_l2_flusher *f,
                     cudaStream_t s, int warmup, int reps, double *median, double *fastest)
{
    gs_timing t;
    if (gs_time_launches(fn, arg, s, f, warmup, reps, &t))
        return -1;
    int rc = gs_timings_add(tim, build, t.samples_ms, t.reps);
    *median = t.median_ms;
    *fastest = t.min_ms;
    gs_timing_free(&t);
    return rc;
}

int gs_ceilings_measure(gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s, int warmup, int reps)
{
    gs_ceiling_gemm *g = NULL;
    copy_arg cp = {NULL, NULL, GS_CEILING_COPY_BYTES};
    double ms, fastest;
    int rc = -1;
    const int n = GS_CEILING_GEMM_N;
    if (gs_ceiling_gemm_create(n, &g) ||
        time_into(tim, "ceiling_gemm", gs_ceiling_gemm_launch, g, f, s, warmup, reps, &ms, &fastest))
        goto out;
    gs_meta_set(meta, "ceiling.gemm", "cuBLAS bf16 %dx%dx%d, fp32 compute", n, n, n);
    gs_meta_set(meta, "ceiling.rule", "fastest of %d repetitions", reps);
    gs_meta_set(meta, "ceiling_tflops", "%.2f", gs_ceiling_gemm_flops(g) / (fastest * 1e-3) / 1e12);
    gs_meta_set(meta, "ceiling_tflops_median", "%.2f", gs_ceiling_gemm_flops(g) / (ms * 1e-3) / 1e12);
    if (cudaMalloc(&cp.src, cp.bytes) != cudaSuccess || cudaMalloc(&cp.dst, cp.bytes) != cudaSuccess ||
        cudaMemsetAsync(cp.src, 1, cp.bytes, s) != cudaSuccess) {
        fprintf(stderr, "gemmscope: cannot allocate the copy ceiling's %llu MiB\n",
                (unsigned long long)(2 * cp.bytes >> 20));
        goto out;
    }
    if (time_into(tim, "ceiling_copy", copy_launch, &cp, f, s, warmup, reps, &ms, &fastest))
        goto out;
    gs_meta_set(meta, "ceiling.copy", "cudaMemcpyAsync device to device, %llu MiB, bytes read + written",
                (unsigned long long)(cp.bytes >> 20));
    gs_meta_set(meta, "ceiling_gbps", "%.1f", 2.0 * cp.bytes / (fastest * 1e-3) / 1e9);
    gs_meta_set(meta, "ceiling_gbps_median", "%.1f", 2.0 * cp.bytes / (ms * 1e-3) / 1e9);
    rc = 0;
out:
    if (cp.src && cudaFree(cp.src) != cudaSuccess)
        rc = -1;
    if (cp.dst && cudaFree(cp.dst) != cudaSuccess)
        rc = -1;
    gs_ceiling_gemm_destroy(g);
    return rc;
}
