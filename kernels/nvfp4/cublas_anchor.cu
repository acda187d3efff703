/* The cuBLAS anchor (what a user without an NVFP4 kernel would run on Hopper: dequantise
 * once to bf16, then a bf16 grouped GEMM).
 * Every cuBLAS status and CUDA call is checked; cuBLAS failures are reported on stderr and
 * returned as cudaErrorUnknown (launch functions must return 0 or a CUDA error code). */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../instrument/gs_cublas_check.h"
#include "format.h"
#include "nvfp4_internal.h"
#include "reference_cpu.h"


/* ------------------------------------------------------------------------------------------ */
/* exact dequantisation to bf16 (e2m1 x e4m3 has <= 6 significant bits, 2^-10..2688) */

__constant__ float c_fp4_bf[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                   -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

__device__ static inline float e4m3_bf(unsigned b)
{
    unsigned e = (b >> 3) & 15u, m = b & 7u;
    if (e == 15u && m == 7u)
        return __int_as_float(0x7FC00000);
    float mag = e ? ldexpf(1.0f + (float)m * 0.125f, (int)e - 7) : ldexpf((float)m, -9);
    return (b & 0x80u) ? -mag : mag;
}

/* one thread per byte = two elements of row r */
__global__ void nvfp4_dequant_bf16(const uint8_t *q, const uint8_t *sf, __nv_bfloat16 *out, int rows, int K)
{
    size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t per_row = (size_t)(K / 2);
    if (idx >= (size_t)rows * per_row)
        return;
    int r = (int)(idx / per_row), c = (int)(idx % per_row);
    int j = (2 * c) / 16, rest_k = K / 64;
    size_t off = (size_t)(r / 128) * rest_k * 512u + (size_t)(j / 4) * 512u + (size_t)(r % 32) * 16u +
                 (size_t)((r % 128) / 32) * 4u + (size_t)(j % 4);
    float s = e4m3_bf(sf[off]);
    uint8_t b = q[idx];
    out[(size_t)r * K + 2 * c] = __float2bfloat16_rn(c_fp4_bf[b & 15u] * s);
    out[(size_t)r * K + 2 * c + 1] = __float2bfloat16_rn(c_fp4_bf[b >> 4] * s);
}

/* ------------------------------------------------------------------------------------------ */
/* the anchor */

struct nvfp4_cublas {
    nvfp4_problem *p;
    cublasHandle_t h;
    int groups;
    int grouped; /* 1: cublasGemmGroupedBatchedEx, 0: loop of cublasGemmEx */
    __nv_bfloat16 *A[NVFP4_MAX_GROUPS], *B[NVFP4_MAX_GROUPS], *D[NVFP4_MAX_GROUPS];
    /* grouped-call arguments (host arrays, one problem per group) */
    cublasOperation_t ta[NVFP4_MAX_GROUPS], tb[NVFP4_MAX_GROUPS];
    int m[NVFP4_MAX_GROUPS], n[NVFP4_MAX_GROUPS], k[NVFP4_MAX_GROUPS];
    int lda[NVFP4_MAX_GROUPS], ldb[NVFP4_MAX_GROUPS], ldc[NVFP4_MAX_GROUPS], gsize[NVFP4_MAX_GROUPS];
    float alpha[NVFP4_MAX_GROUPS], beta[NVFP4_MAX_GROUPS];
    void **dptrs; /* device: [0,G) weights, [G,2G) tokens, [2G,3G) outputs */
    char method[192];
};

/* Row-major C_g[M,N] is column-major C^T[N,M] (ld N) = B_g[N,K] * A_g[M,K]^T, and row-major
 * [R,K] is column-major K x R (ld K): so m=N, n=M, k=K, op(A)=T on the weights, op(B)=N on
 * the tokens. */
static int run_grouped(nvfp4_cublas *c)
{
    GS_CKB(cublasGemmGroupedBatchedEx(c->h, c->ta, c->tb, c->m, c->n, c->k, c->alpha, (const void *const *)c->dptrs,
                                   CUDA_R_16BF, c->lda, (const void *const *)(c->dptrs + c->groups), CUDA_R_16BF,
                                   c->ldb, c->beta, c->dptrs + 2 * c->groups, CUDA_R_16BF, c->ldc, c->groups,
                                   c->gsize, CUBLAS_COMPUTE_32F));
    return 0;
}

static int run_loop(nvfp4_cublas *c)
{
    for (int g = 0; g < c->groups; g++)
        GS_CKB(cublasGemmEx(c->h, CUBLAS_OP_T, CUBLAS_OP_N, c->m[g], c->n[g], c->k[g], &c->alpha[g], c->B[g],
                         CUDA_R_16BF, c->lda[g], c->A[g], CUDA_R_16BF, c->ldb[g], &c->beta[g], c->D[g], CUDA_R_16BF,
                         c->ldc[g], CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
}

int nvfp4_cublas_launch(void *arg, cudaStream_t s)
{
    nvfp4_cublas *c = (nvfp4_cublas *)arg;
    GS_CKB(cublasSetStream(c->h, s));
    return c->grouped ? run_grouped(c) : run_loop(c);
}

static int cublas_setup(nvfp4_cublas *c)
{
    const nvfp4_shape *s = nvfp4_problem_shape(c->p);
    void *hp[3 * NVFP4_MAX_GROUPS];
    const unsigned T = 256;
    c->groups = s->groups;
    GS_CKB(cublasCreate(&c->h));
    for (int g = 0; g < s->groups; g++) {
        nvfp4_group_dev gd;
        if (nvfp4_problem_group(c->p, g, &gd) != 0)
            return (int)cudaErrorInvalidValue;
        GS_CKC(cudaMalloc((void **)&c->A[g], (size_t)gd.M * gd.K * sizeof(__nv_bfloat16)));
        GS_CKC(cudaMalloc((void **)&c->B[g], (size_t)gd.N * gd.K * sizeof(__nv_bfloat16)));
        GS_CKC(cudaMalloc((void **)&c->D[g], (size_t)gd.M * gd.N * sizeof(__nv_bfloat16)));
        size_t na = (size_t)gd.M * (gd.K / 2), nb = (size_t)gd.N * (gd.K / 2);
        nvfp4_dequant_bf16<<<(unsigned)((na + T - 1) / T), T>>>(gd.A, gd.SFA, c->A[g], gd.M, gd.K);
        GS_CKC(cudaGetLastError());
        nvfp4_dequant_bf16<<<(unsigned)((nb + T - 1) / T), T>>>(gd.B, gd.SFB, c->B[g], gd.N, gd.K);
        GS_CKC(cudaGetLastError());
        c->ta[g] = CUBLAS_OP_T;
        c->tb[g] = CUBLAS_OP_N;
        c->m[g] = gd.N;
        c->n[g] = gd.M;
        c->k[g] = gd.K;
        c->lda[g] = gd.K;
        c->ldb[g] = gd.K;
        c->ldc[g] = gd.N;
        c->gsize[g] = 1;
        c->alpha[g] = 1.0f;
        c->beta[g] = 0.0f;
        hp[g] = c->B[g];
        hp[s->groups + g] = c->A[g];
        hp[2 * s->groups + g] = c->D[g];
    }
    GS_CKC(cudaMalloc((void **)&c->dptrs, 3 * (size_t)s->groups * sizeof(void *)));
    GS_CKC(cudaMemcpy(c->dptrs, hp, 3 * (size_t)s->groups * sizeof(void *), cudaMemcpyHostToDevice));
    GS_CKC(cudaDeviceSynchronize());

    /* Try the grouped API once; fall back to a loop if this cuBLAS refuses it. */
    GS_CKB(cublasSetStream(c->h, 0));
    {
        cublasStatus_t st = cublasGemmGroupedBatchedEx(
            c->h, c->ta, c->tb, c->m, c->n, c->k, c->alpha, (const void *const *)c->dptrs, CUDA_R_16BF, c->lda,
            (const void *const *)(c->dptrs + c->groups), CUDA_R_16BF, c->ldb, c->beta, c->dptrs + 2 * c->groups,
            CUDA_R_16BF, c->ldc, c->groups, c->gsize, CUBLAS_COMPUTE_32F);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            return gs_cuda_fail("cublasGemmGroupedBatchedEx trial", e, __FILE__, __LINE__);
        c->grouped = st == CUBLAS_STATUS_SUCCESS;
        if (c->grouped)
            snprintf(c->method, sizeof c->method,
                     "cublasGemmGroupedBatchedEx (%d groups, bf16 in/out, fp32 compute)", c->groups);
        else
            snprintf(c->method, sizeof c->method,
                     "loop of %d cublasGemmEx (bf16 in/out, fp32 compute; grouped API refused: %s)", c->groups,
                     cublasGetStatusName(st));
    }
    if (!c->grouped) {
        int rc = run_loop(c);
        if (rc)
            return rc;
        GS_CKC(cudaDeviceSynchronize());
    }
    return 0;
}

int nvfp4_cublas_create(nvfp4_problem *p, nvfp4_cublas **out)
{
    nvfp4_cublas *c;
    if (!p || !out)
        return -1;
    c = (nvfp4_cublas *)calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "nvfp4_cublas_create: out of host memory\n");
        return -1;
    }
    c->p = p;
    if (cublas_setup(c) != 0) {
        nvfp4_cublas_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

const char *nvfp4_cublas_method(const nvfp4_cublas *c)
{
    return c ? c->method : "none";
}

void nvfp4_cublas_destroy(nvfp4_cublas *c)
{
    if (!c)
        return;
    for (int g = 0; g < NVFP4_MAX_GROUPS; g++) {
        void *b[3] = {c->A[g], c->B[g], c->D[g]};
        for (int i = 0; i < 3; i++) {
            cudaError_t e = cudaFree(b[i]);
            if (e != cudaSuccess)
                gs_cuda_fail("cudaFree", e, __FILE__, __LINE__);
        }
    }
    if (c->dptrs) {
        cudaError_t e = cudaFree(c->dptrs);
        if (e != cudaSuccess)
            gs_cuda_fail("cudaFree", e, __FILE__, __LINE__);
    }
    if (c->h) {
        cublasStatus_t st = cublasDestroy(c->h);
        if (st != CUBLAS_STATUS_SUCCESS)
            gs_cublas_fail("cublasDestroy", st, __FILE__, __LINE__);
    }
    free(c);
}

static double bf16_to_double(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

int nvfp4_cublas_verify(nvfp4_cublas *c, long long *bad, long long *elements)
{
    const nvfp4_shape *s = nvfp4_problem_shape(c->p);
    const float *refs[NVFP4_MAX_GROUPS];
    long long nbad = 0, nel = 0;
    if (nvfp4_cublas_launch(c, 0) != 0)
        return -1;
    if (nvfp4_problem_reference(c->p, 0, refs) != 0)
        return -1;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "nvfp4_cublas_verify: %s\n", cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    for (int g = 0; g < s->groups; g++) {
        size_t n = (size_t)s->m[g] * s->n[g];
        uint16_t *d = (uint16_t *)malloc(n * sizeof(uint16_t));
        float *r = (float *)malloc(n * sizeof(float));
        if (!d || !r) {
            free(d);
            free(r);
            fprintf(stderr, "nvfp4_cublas_verify: out of host memory\n");
            return -1;
        }
        if (cudaMemcpy(d, c->D[g], n * sizeof(uint16_t), cudaMemcpyDeviceToHost) != cudaSuccess ||
            cudaMemcpy(r, refs[g], n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
            free(d);
            free(r);
            fprintf(stderr, "nvfp4_cublas_verify: copy failed\n");
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            nel++;
            if (!nvfp4_tol_ok_with(bf16_to_double(d[i]), (double)r[i], 1e-2, 1e-2))
                nbad++;
        }
        free(d);
        free(r);
    }
    if (bad)
        *bad = nbad;
    if (elements)
        *elements = nel;
    return 0;
}
