/* Host side of the stamp buffers: allocation sized from the kernel's declared
 * events per warp, reset before a launch, download after it, and the start-up
 * measurement of the %globaltimer tick. */
#ifndef GS_STAMPS_H
#define GS_STAMPS_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "gs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_stamps {
    gs_buffer dev;            /* what the kernel gets */
    uint32_t ctas;
    gs_warp_header *warps;    /* host copy after gs_stamps_download */
    gs_record *records;       /* host copy, per-warp segments of dev.capacity */
} gs_stamps;

int gs_stamps_alloc(gs_stamps *st, uint32_t ctas, uint32_t warps_per_cta, uint32_t events_per_warp);
int gs_stamps_reset(gs_stamps *st, cudaStream_t s);
int gs_stamps_download(gs_stamps *st);
void gs_stamps_free(gs_stamps *st);

/* Measures the %globaltimer tick (ns) on the current device: the smallest
 * non-zero step seen by a warp reading it in a loop. */
int gs_measure_timer_tick(double *tick_ns);

#ifdef __cplusplus
}
#endif

#endif
