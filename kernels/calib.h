/* Known-answer calibration kernels: phases that spin for known cycle counts,
 * and a one-wave launch whose CTAs all wait on one flag released at once. */
#ifndef GS_CALIB_H
#define GS_CALIB_H

#include <cuda_runtime_api.h>
#include "../instrument/gs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The calibration kernel's main-loop sub-phases, and the release kernel's two phases: the
 * poll that saw the flag (its end is the release instant on that SM) and all the polls (the
 * group tag carries their count). Their subjects name them in the run. */
enum calib_phase {
    CALIB_LOAD_WAIT = GS_PHASE_OWN(0),
    CALIB_DEQUANT = GS_PHASE_OWN(1),
    CALIB_MMA = GS_PHASE_OWN(2),
    RELEASE_SEEN = GS_PHASE_OWN(0),
    RELEASE_POLLING = GS_PHASE_OWN(1),
    CLOCK_HEAVY = GS_PHASE_OWN(0), /* tensor-core work: the power that moves the SM clock */
    CLOCK_LIGHT = GS_PHASE_OWN(1)  /* a nap: the clock recovers */
};

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

/* The clock model under a moving SM clock: worker warps alternate tensor-core bursts and naps
 * for `rounds` rounds while a spare warp runs the clock sampler; warp 0 of each CTA takes a
 * probe at every phase boundary: (clock64, %globaltimer, clock64) read back to back, which
 * the clock model never sees, to check where it places those clocks. */
#define CLOCK_WORKERS 4 /* warps 0..3; warp 4 samples the clock */
#define CLOCK_PROBE_WORDS 3
typedef struct clock_config {
    unsigned ctas, threads, smem_bytes;
    unsigned rounds;
    unsigned long long heavy_cycles; /* per burst */
    unsigned light_ns;               /* per nap */
    unsigned long long *probes;      /* [ctas][2 * rounds + 1][CLOCK_PROBE_WORDS] */
    float *sink;                     /* never written: keeps the bursts' results alive */
} clock_config;

/* Events per warp each kernel records in its twin build. */
unsigned calib_events_per_warp(const calib_config *c);
unsigned release_events_per_warp(const release_config *c);
unsigned clock_events_per_warp(const clock_config *c);

int calib_launch_prod(const calib_config *c, gs_buffer b, cudaStream_t s);
int calib_launch_twin(const calib_config *c, gs_buffer b, cudaStream_t s);
int release_launch_prod(const release_config *c, gs_buffer b, cudaStream_t s);
int release_launch_twin(const release_config *c, gs_buffer b, cudaStream_t s);
int clock_launch_prod(const clock_config *c, gs_buffer b, cudaStream_t s);
int clock_launch_twin(const clock_config *c, gs_buffer b, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
