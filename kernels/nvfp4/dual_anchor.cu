/* The dual GEMM's cuBLAS anchors (nvfp4.h): what a user without a fused NVFP4 kernel would run
 * on Hopper.  A, B1 and B2 are dequantised to bf16 once (untimed; B1 and B2 into one buffer of
 * 2N rows, B1's first), then either one bf16 GEMM against the stacked weights or one per B, and
 * an elementwise kernel forms fp16 silu(g) * u in fp32 from the bf16 GEMM outputs.
 * Every cuBLAS status and CUDA call is checked; a launch function returns 0 or a CUDA error
 * (cuBLAS failures as cudaErrorUnknown, gs_cublas_check.h). */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../instrument/gs_cublas_check.h"
#include "dual.h"
#include "format.h"
#include "nvfp4_internal.h"
#include "reference_cpu.h"

/* exact dequantisation to bf16 (e2m1 x e4m3 has <= 6 significant bits, 2^-10..2688) */
__constant__ float c_dual_fp4[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                     -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

__device__ static inline float dual_e4m3(unsigned b)
{
    const unsigned e = (b >> 3) & 15u, m = b & 7u;
    if (e == 15u && m == 7u)
        return __int_as_float(0x7FC00000);
    const float mag = e ? ldexpf(1.0f + (float)m * 0.125f, (int)e - 7) : ldexpf((float)m, -9);
    return (b & 0x80u) ? -mag : mag;
}

/* One thread per byte (two elements of row r) of a [rows, K/2] FP4 tensor with blocked scales. */
__global__ void nvfp4_dual_dequant_bf16(const uint8_t *q, const uint8_t *sf, __nv_bfloat16 *out, int rows, int K)
{
    const size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x, per_row = (size_t)(K / 2);
    if (idx >= (size_t)rows * per_row)
        return;
    const int r = (int)(idx / per_row), c = (int)(idx % per_row), j = (2 * c) / 16;
    const size_t off = (size_t)(r / 128) * (size_t)(K / 64) * 512u + (size_t)(j / 4) * 512u + (size_t)(r % 32) * 16u +
                       (size_t)((r % 128) / 32) * 4u + (size_t)(j % 4);
    const float s = dual_e4m3(sf[off]);
    const uint8_t b = q[idx];
    out[(size_t)r * K + 2 * c] = __float2bfloat16_rn(c_dual_fp4[b & 15u] * s);
    out[(size_t)r * K + 2 * c + 1] = __float2bfloat16_rn(c_dual_fp4[b >> 4] * s);
}

/* C[m][n] = fp16(silu(g) * u), g = G[m * ld + n], u = U[m * ld + n] (bf16), in fp32: eight
 * columns per thread (N is a multiple of 64: 16-byte loads, one 16-byte store). */
__global__ void nvfp4_dual_silu_mul(const __nv_bfloat16 *G, const __nv_bfloat16 *U, int ld, __half *C, int M, int N)
{
    const size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x, per_row = (size_t)(N / 8);
    if (idx >= (size_t)M * per_row)
        return;
    const size_t m = idx / per_row, n = 8 * (idx % per_row);
    const uint4 gv = *reinterpret_cast<const uint4 *>(G + m * (size_t)ld + n);
    const uint4 uv = *reinterpret_cast<const uint4 *>(U + m * (size_t)ld + n);
    const __nv_bfloat162 *g2 = reinterpret_cast<const __nv_bfloat162 *>(&gv), *u2 = reinterpret_cast<const __nv_bfloat162 *>(&uv);
    uint4 out;
    __half2 *o2 = reinterpret_cast<__half2 *>(&out);
    for (int i = 0; i < 4; i++) {
        const float2 g = __bfloat1622float2(g2[i]), u = __bfloat1622float2(u2[i]);
        o2[i] = __floats2half2_rn(g.x / (1.0f + expf(-g.x)) * u.x, g.y / (1.0f + expf(-g.y)) * u.y);
    }
    *reinterpret_cast<uint4 *>(C + m * (size_t)N + n) = out;
}

struct nvfp4_dual_cublas {
    nvfp4_problem *p;
    cublasHandle_t h;
    int M, N, K;
    __nv_bfloat16 *A;    /* [M, K] */
    __nv_bfloat16 *Bcat; /* [2N, K]: B1's rows, then B2's */
    __nv_bfloat16 *D;    /* cat: [M, 2N] (g then u per row); two: [M, N] g, then [M, N] u */
    __half *C;           /* [M, N] */
    char method[2][160];
};

/* out = A W^T, row-major [M, R] with leading dimension ldo, for W row-major [R, K]: in cuBLAS's
 * column-major terms out is R x M, W is K x R (ld K, op T) and A is K x M (ld K, op N), so
 * m = R, n = M, k = K (as the grouped GEMM's anchor, cublas_anchor.cu). */
static int gemm(nvfp4_dual_cublas *c, const __nv_bfloat16 *W, int R, __nv_bfloat16 *out, int ldo)
{
    const float one = 1.0f, zero = 0.0f;
    GS_CKB(cublasGemmEx(c->h, CUBLAS_OP_T, CUBLAS_OP_N, R, c->M, c->K, &one, W, CUDA_R_16BF, c->K, c->A, CUDA_R_16BF,
                        c->K, &zero, out, CUDA_R_16BF, ldo, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
}

static int silu_mul(nvfp4_dual_cublas *c, const __nv_bfloat16 *G, const __nv_bfloat16 *U, int ld, cudaStream_t s)
{
    const unsigned T = 256;
    const size_t n = (size_t)c->M * (size_t)(c->N / 8);
    nvfp4_dual_silu_mul<<<(unsigned)((n + T - 1) / T), T, 0, s>>>(G, U, ld, c->C, c->M, c->N);
    GS_CKC(cudaGetLastError());
    return 0;
}

int nvfp4_dual_cublas_launch_cat(void *arg, cudaStream_t s)
{
    nvfp4_dual_cublas *c = (nvfp4_dual_cublas *)arg;
    GS_CKB(cublasSetStream(c->h, s));
    int rc = gemm(c, c->Bcat, 2 * c->N, c->D, 2 * c->N);
    return rc ? rc : silu_mul(c, c->D, c->D + c->N, 2 * c->N, s);
}

int nvfp4_dual_cublas_launch_two(void *arg, cudaStream_t s)
{
    nvfp4_dual_cublas *c = (nvfp4_dual_cublas *)arg;
    __nv_bfloat16 *const g = c->D, *const u = c->D + (size_t)c->M * c->N;
    GS_CKB(cublasSetStream(c->h, s));
    int rc = gemm(c, c->Bcat, c->N, g, c->N);
    if (!rc)
        rc = gemm(c, c->Bcat + (size_t)c->N * c->K, c->N, u, c->N);
    return rc ? rc : silu_mul(c, g, u, c->N, s);
}

static int dequant(const uint8_t *q, const uint8_t *sf, __nv_bfloat16 *out, int rows, int K)
{
    const unsigned T = 256;
    const size_t n = (size_t)rows * (size_t)(K / 2);
    nvfp4_dual_dequant_bf16<<<(unsigned)((n + T - 1) / T), T>>>(q, sf, out, rows, K);
    GS_CKC(cudaGetLastError());
    return 0;
}

static int setup(nvfp4_dual_cublas *c)
{
    nvfp4_group_dev gd;
    if (nvfp4_problem_group(c->p, 0, &gd) != 0 || !gd.B2)
        return (int)cudaErrorInvalidValue;
    c->M = gd.M, c->N = gd.N, c->K = gd.K;
    GS_CKB(cublasCreate(&c->h));
    GS_CKC(cudaMalloc((void **)&c->A, (size_t)gd.M * gd.K * sizeof(__nv_bfloat16)));
    GS_CKC(cudaMalloc((void **)&c->Bcat, 2 * (size_t)gd.N * gd.K * sizeof(__nv_bfloat16)));
    GS_CKC(cudaMalloc((void **)&c->D, 2 * (size_t)gd.M * gd.N * sizeof(__nv_bfloat16)));
    GS_CKC(cudaMalloc((void **)&c->C, (size_t)gd.M * gd.N * sizeof(__half)));
    int rc = dequant(gd.A, gd.SFA, c->A, gd.M, gd.K);
    if (!rc)
        rc = dequant(gd.B, gd.SFB, c->Bcat, gd.N, gd.K);
    if (!rc)
        rc = dequant(gd.B2, gd.SFB2, c->Bcat + (size_t)gd.N * gd.K, gd.N, gd.K);
    if (rc)
        return rc;
    GS_CKC(cudaDeviceSynchronize());
    snprintf(c->method[NVFP4_DUAL_CAT], sizeof c->method[0],
             "cublasGemmEx on B1 and B2 stacked (%d x %d x %d, bf16 in/out, fp32 compute) + SiLU-multiply kernel", gd.M,
             2 * gd.N, gd.K);
    snprintf(c->method[NVFP4_DUAL_TWO], sizeof c->method[0],
             "2 cublasGemmEx (%d x %d x %d each, bf16 in/out, fp32 compute) + SiLU-multiply kernel", gd.M, gd.N, gd.K);
    return 0;
}

int nvfp4_dual_cublas_create(nvfp4_problem *p, nvfp4_dual_cublas **out)
{
    if (!p || !out || !nvfp4_problem_is_dual(p)) {
        fprintf(stderr, "nvfp4_dual_cublas_create: needs a dual GEMM problem\n");
        return -1;
    }
    nvfp4_dual_cublas *c = (nvfp4_dual_cublas *)calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "nvfp4_dual_cublas_create: out of host memory\n");
        return -1;
    }
    c->p = p;
    if (setup(c) != 0) {
        nvfp4_dual_cublas_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

const char *nvfp4_dual_cublas_method(const nvfp4_dual_cublas *c, int route)
{
    return c && (route == NVFP4_DUAL_CAT || route == NVFP4_DUAL_TWO) ? c->method[route] : "none";
}

void nvfp4_dual_cublas_destroy(nvfp4_dual_cublas *c)
{
    if (!c)
        return;
    void *b[4] = {c->A, c->Bcat, c->D, c->C};
    for (int i = 0; i < 4; i++) {
        const cudaError_t e = cudaFree(b[i]);
        if (e != cudaSuccess)
            gs_cuda_fail("cudaFree", e, __FILE__, __LINE__);
    }
    if (c->h) {
        const cublasStatus_t st = cublasDestroy(c->h);
        if (st != CUBLAS_STATUS_SUCCESS)
            gs_cublas_fail("cublasDestroy", st, __FILE__, __LINE__);
    }
    free(c);
}

int nvfp4_dual_cublas_verify(nvfp4_dual_cublas *c, int route, long long *bad, long long *elements)
{
    const float *refs[NVFP4_MAX_GROUPS];
    if (!c || (route != NVFP4_DUAL_CAT && route != NVFP4_DUAL_TWO))
        return -1;
    /* the output is poisoned first: a route that wrote nothing must fail */
    cudaError_t e = cudaMemset(c->C, 0xFF, (size_t)c->M * c->N * sizeof(__half));
    if (e != cudaSuccess) {
        gs_cuda_fail("cudaMemset", e, __FILE__, __LINE__);
        return -1;
    }
    const int rc = route == NVFP4_DUAL_CAT ? nvfp4_dual_cublas_launch_cat(c, 0) : nvfp4_dual_cublas_launch_two(c, 0);
    if (rc != 0 || nvfp4_problem_reference(c->p, 0, refs) != 0)
        return -1;
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
        gs_cuda_fail("nvfp4_dual_cublas_verify", e, __FILE__, __LINE__);
        return -1;
    }
    const size_t n = (size_t)c->M * c->N;
    uint16_t *d = (uint16_t *)malloc(n * sizeof(uint16_t));
    float *r = (float *)malloc(n * sizeof(float));
    __nv_bfloat16 *gu = (__nv_bfloat16 *)malloc(2 * n * sizeof(__nv_bfloat16));
    long long nbad = 0;
    int ok = d && r && gu;
    if (!ok)
        fprintf(stderr, "nvfp4_dual_cublas_verify: out of host memory\n");
    if (ok && ((e = cudaMemcpy(d, c->C, n * sizeof(uint16_t), cudaMemcpyDeviceToHost)) != cudaSuccess ||
               (e = cudaMemcpy(r, refs[0], n * sizeof(float), cudaMemcpyDeviceToHost)) != cudaSuccess ||
               (e = cudaMemcpy(gu, c->D, 2 * n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost)) != cudaSuccess)) {
        gs_cuda_fail("cudaMemcpy", e, __FILE__, __LINE__);
        ok = 0;
    }
    /* The route rounds g and u to bf16 before silu(g) * u: each element is judged with what
     * those roundings can move it (nvfp4_dual_bf16_route_ok).  A route that computes
     * something else, or writes nothing (NaN), still fails. */
    for (size_t i = 0; ok && i < n; i++) {
        const size_t m = i / (size_t)c->N, col = i % (size_t)c->N;
        const size_t gi = route == NVFP4_DUAL_CAT ? m * 2 * (size_t)c->N + col : i;
        const size_t ui = route == NVFP4_DUAL_CAT ? gi + (size_t)c->N : n + i;
        nbad += !nvfp4_dual_bf16_route_ok(nvfp4_half_to_double(d[i]), (double)r[i],
                                          (double)__bfloat162float(gu[gi]), (double)__bfloat162float(gu[ui]));
    }
    free(gu);
    free(d);
    free(r);
    if (!ok)
        return -1;
    if (bad)
        *bad = nbad;
    if (elements)
        *elements = (long long)n;
    return 0;
}
