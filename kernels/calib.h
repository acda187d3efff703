/* Known-answer calibration kernels: phases that spin for known cycle counts,
 * and a one-wave launch whose CTAs all wait on one flag released at once. */
#ifndef GS_CALIB_H
#define GS_CALIB_H

#include <cuda_runtime_api.h>
#include "../instrument/gs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cycles each phase spins per tile.  MAINLOOP is kiters x (LOAD_WAIT + DEQUANT + MMA). */
typedef struct calib_config {
    unsigned ctas, threads, smem_bytes; /* smem forces one CTA per SM so waves are clean */
    unsigned tiles;                     /* tiles per CTA */
    unsigned kiters;                    /* main-loop iterations per tile */
    unsigned long long load_wait, dequant, mma, acc_to_reg, epilogue, store; /* cycles */
} calib_config;

typedef struct release_config {
    unsigned ctas, threads, smem_bytes;
    unsigned long long before, after; /* cycles spun before arriving and after the release */
    unsigned long long hold;          /* cycles CTA 0 waits between the last arrival and the release */
    unsigned *arrived, *flag;         /* device words, zeroed before each launch */
} release_config;

/* Events per warp each kernel records in its twin build. */
unsigned calib_events_per_warp(const calib_config *c);
unsigned release_events_per_warp(const release_config *c);

int calib_launch_prod(const calib_config *c, gs_buffer b, cudaStream_t s);
int calib_launch_twin(const calib_config *c, gs_buffer b, cudaStream_t s);
int release_launch_prod(const release_config *c, gs_buffer b, cudaStream_t s);
int release_launch_twin(const release_config *c, gs_buffer b, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
