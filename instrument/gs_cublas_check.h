/* Error checking for code that calls CUDA and cuBLAS and returns a CUDA error code (launch
 * functions must return 0 or one): GS_CKC and GS_CKB print the call, its file and line and
 * the error, and return it (a cuBLAS failure as cudaErrorUnknown). */
#ifndef GS_CUBLAS_CHECK_H
#define GS_CUBLAS_CHECK_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

static inline int gs_cuda_fail(const char *what, cudaError_t e, const char *file, int line)
{
    fprintf(stderr, "gemmscope %s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
    return (int)e;
}

static inline int gs_cublas_fail(const char *what, cublasStatus_t st, const char *file, int line)
{
    fprintf(stderr, "gemmscope %s:%d: %s: %s\n", file, line, what, cublasGetStatusName(st));
    return (int)cudaErrorUnknown;
}

#define GS_CKC(call)                                                                                        \
    do {                                                                                                    \
        cudaError_t e_ = (call);                                                                            \
        if (e_ != cudaSuccess)                                                                              \
            return gs_cuda_fail(#call, e_, __FILE__, __LINE__);                                             \
    } while (0)
#define GS_CKB(call)                                                                                        \
    do {                                                                                                    \
        cublasStatus_t s_ = (call);                                                                         \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                                    \
            return gs_cublas_fail(#call, s_, __FILE__, __LINE__);                                           \
    } while (0)

#endif
