/* cuBLAS on the same inputs: the reference output of the full comparison, and the run's
 * cublas.time_ms anchor. */
#ifndef OG_CUBLAS_ANCHOR_H
#define OG_CUBLAS_ANCHOR_H

#include <stdint.h>
#include <cublas_v2.h>

#define OG_CUBLAS_METHOD "cublasGemmEx, fp16 in and out, fp32 compute (TN)"

typedef struct og_cublas {
    cublasHandle_t handle;
    const uint16_t *a, *b; /* as own_gemm_args */
    uint16_t *c;
    int m, n, k;
} og_cublas;

/* -1 with a message on stderr. */
int og_cublas_create(og_cublas *cb, const uint16_t *a, const uint16_t *b, uint16_t *c, int m, int n, int k);
/* A gs_launch_fn: one GEMM on stream s; 0 or a cublasStatus_t. */
int og_cublas_launch(void *cb, cudaStream_t s);
void og_cublas_destroy(og_cublas *cb);

#endif
