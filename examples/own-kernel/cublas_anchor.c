/* cuBLAS on the same inputs (cublas_anchor.h). */
#include "cublas_anchor.h"

#include <stdio.h>
#include <string.h>

int og_cublas_create(og_cublas *cb, const uint16_t *a, const uint16_t *b, uint16_t *c, int m, int n, int k)
{
    memset(cb, 0, sizeof *cb);
    const cublasStatus_t st = cublasCreate(&cb->handle);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "own-gemm: cublasCreate failed: %s\n", cublasGetStatusString(st));
        cb->handle = NULL;
        return -1;
    }
    cb->a = a;
    cb->b = b;
    cb->c = c;
    cb->m = m;
    cb->n = n;
    cb->k = k;
    return 0;
}

/* cuBLAS is column-major: row-major C[m][n] is the n x m matrix C^T, row-major B[n][k] the k x n
 * matrix B^T and row-major A[m][k] the k x m matrix A^T.  C^T = B A^T = op_T(B^T) op_N(A^T). */
int og_cublas_launch(void *arg, cudaStream_t s)
{
    og_cublas *cb = arg;
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t st = cublasSetStream(cb->handle, s);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasGemmEx(cb->handle, CUBLAS_OP_T, CUBLAS_OP_N, cb->n, cb->m, cb->k, &alpha, cb->b, CUDA_R_16F, cb->k,
                          cb->a, CUDA_R_16F, cb->k, &beta, cb->c, CUDA_R_16F, cb->n, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        fprintf(stderr, "own-gemm: cublasGemmEx failed: %s\n", cublasGetStatusString(st));
    return (int)st;
}

void og_cublas_destroy(og_cublas *cb)
{
    if (cb->handle && cublasDestroy(cb->handle) != CUBLAS_STATUS_SUCCESS)
        fprintf(stderr, "own-gemm: cublasDestroy failed\n");
    cb->handle = NULL;
}
