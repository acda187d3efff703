/* Error checking for CUDA runtime calls in host code: print one line, return -1. */
#ifndef GS_CHECK_H
#define GS_CHECK_H

#include <stdio.h>
#include <cuda_runtime_api.h>

#define GS_CUDA_TRY(call)                                                                 \
    do {                                                                                  \
        cudaError_t gs_err_ = (call);                                                     \
        if (gs_err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "gemmscope: %s failed: %s (%s:%d)\n", #call,                  \
                    cudaGetErrorString(gs_err_), __FILE__, __LINE__);                     \
            return -1;                                                                    \
        }                                                                                 \
    } while (0)

#endif
