/* L2 flushes that leave no dirty lines behind.  gs_timing's flush writes twice the L2
 * (as the benchmark harness does), so the kernel timed after it also pays for writing
 * those lines back; hardware-metric passes start from an empty L2 instead (the discard
 * flush: the state Nsight Compute's default cache control gives; docs/method.md). */
#ifndef GS_FLUSH_H
#define GS_FLUSH_H

#include <cuda_runtime_api.h>
#include "gs_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues a read of the whole flush buffer (2x L2): every line of L2 is replaced by a
 * clean line of that buffer.  0 or a CUDA error. */
int gs_l2_flush_clean(const gs_l2_flusher *f, cudaStream_t s);

/* Enqueues a write of the whole flush buffer (every earlier dirty line is written back),
 * then discards the buffer's lines from L2 without writing them back (discard.global.L2):
 * L2 is left empty rather than full of clean lines.  0 or a CUDA error. */
int gs_l2_flush_discard(const gs_l2_flusher *f, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
