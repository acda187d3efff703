/* The ceilings a run is judged against, measured in the same process with the toolkit's
 * timing (gs_timing.h): the tensor ceiling (a large square bf16 cuBLAS GEMM) and the copy
 * ceiling (a large device-to-device copy).  Each ceiling is its fastest repetition: under
 * the GEMM the H100 lowers its clock after some tens of repetitions, so a median depends on
 * when that happened (docs/method.md, roofline).  Links cuBLAS. */
#ifndef GS_CEILINGS_H
#define GS_CEILINGS_H

#include <cuda_runtime_api.h>
#include "gs_run.h"
#include "gs_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GS_CEILING_GEMM_N 8192
#define GS_CEILING_COPY_BYTES (1ull << 30)

typedef struct gs_ceiling_gemm gs_ceiling_gemm;
/* n x n x n bf16 GEMM (fp32 compute, bf16 out, both operands K-major) on random data. */
int gs_ceiling_gemm_create(int n, gs_ceiling_gemm **out);
double gs_ceiling_gemm_flops(const gs_ceiling_gemm *g);
int gs_ceiling_gemm_launch(void *g, cudaStream_t s); /* a gs_launch_fn */
void gs_ceiling_gemm_destroy(gs_ceiling_gemm *g);

/* Times both ceilings (warmup, reps, L2 flushed by f between repetitions) into tim's rows
 * ceiling_gemm and ceiling_copy, and writes meta's ceiling keys: ceiling_tflops,
 * ceiling_gbps (fastest), their _median, ceiling.gemm, ceiling.copy, ceiling.rule.
 * 0, or -1 with a message on stderr. */
int gs_ceilings_measure(gs_meta *meta, gs_timings *tim, const gs_l2_flusher *f, cudaStream_t s, int warmup,
                        int reps);

#ifdef __cplusplus
}
#endif

#endif
