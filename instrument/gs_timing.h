/* The timing method every gemmscope figure uses: warm-up, then timed
 * repetitions with the L2 flushed between them (a write of >= 2x L2 bytes),
 * each repetition between two CUDA events; median, min and max. */
#ifndef GS_TIMING_H
#define GS_TIMING_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue one launch of the subject on stream s; return 0 or a CUDA error code. */
typedef int (*gs_launch_fn)(void *arg, cudaStream_t s);

typedef struct gs_timing {
    int reps;
    double median_ms, min_ms, max_ms;
    double *samples_ms; /* reps values in run order; owned, free with gs_timing_free */
} gs_timing;

typedef struct gs_l2_flusher {
    void *buf;
    size_t bytes;
} gs_l2_flusher;

/* Sizes the flush buffer from the device's L2 (2x); returns 0 or -1 with a message on stderr. */
int gs_l2_flusher_init(gs_l2_flusher *f, int device);
void gs_l2_flusher_free(gs_l2_flusher *f);
/* Enqueues one flush on s (what the timing loops do before each repetition: the stamp
 * capture's launch starts from the same state).  0, or -1 with a message on stderr. */
int gs_l2_flush(const gs_l2_flusher *f, cudaStream_t s);

/* Several launch functions timed in one loop: each function runs reps times, each call after
 * its own flush and between its own events, in blocks of GS_ORDER_BLOCK calls back to back (so
 * a call finds its own code in the instruction caches, as in a loop of launches), the blocks
 * in an order that changes from block to block (gs_order.h: every function at every position
 * and after every other equally often), so slow drift (clocks, temperature) and what ran just
 * before affect all alike and their ratios are fair.  outs[k] gets fns[k]'s samples, by
 * repetition.  0 on success. */
int gs_time_interleaved(const gs_launch_fn *fns, void *const *args, int n, cudaStream_t s, const gs_l2_flusher *f,
                        int warmup, int reps, gs_timing *outs);

/* Launches timed as one call, as a benchmark harness times (GPU MODE's: 15 problems back to
 * back after one flush): fn on each of n arguments in turn
 * (n <= GS_BATCH_MAX), after the call's one flush.  gs_launch_batch is a gs_launch_fn over a
 * gs_batch: 0, or the first failing launch's error. */
#define GS_BATCH_MAX 64
typedef struct gs_batch {
    gs_launch_fn fn;
    void *args[GS_BATCH_MAX];
    int n;
} gs_batch;
int gs_launch_batch(void *batch, cudaStream_t s);

/* warmup untimed launches, then reps timed launches (reps >= 1). 0 on success. */
int gs_time_launches(gs_launch_fn fn, void *arg, cudaStream_t s, const gs_l2_flusher *f,
                     int warmup, int reps, gs_timing *out);
/* Sets t's reps, median, min and max from its first reps samples (samples_ms filled by the
 * caller: a timing loop of its own).  0, or -1 out of memory. */
int gs_timing_summarise(gs_timing *t, int reps);
void gs_timing_free(gs_timing *t);

#ifdef __cplusplus
}
#endif

#endif
