/* Probe kernels whose DRAM traffic (and, for the idle one, duration) is known before they
 * run: the ground truth the hardware-metric collector is checked against
 * (cupti-check --probes, make check-gpu).  Each probe starts from an L2 with no dirty lines
 * and no line of its buffer (gs_l2_flush_discard before every pass):
 *   idle   one warp per SM spins on %globaltimer for idle_ns: no DRAM traffic at all;
 *   read   reads every byte of the buffer once: DRAM reads = the buffer, writes 0;
 *   write  writes every byte once: DRAM writes = the buffer less what is still dirty in
 *          L2 when the kernel ends (at most the L2's size), reads 0. */
#ifndef GS_PROBE_H
#define GS_PROBE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GS_PROBE_IDLE, GS_PROBE_READ, GS_PROBE_WRITE, GS_PROBE_KINDS } gs_probe_kind;

typedef struct gs_probe {
    void *buf;
    size_t bytes;                /* the read and write probes' buffer */
    unsigned long long idle_ns;  /* the idle probe's spin */
    size_t l2_bytes;             /* the device's L2 */
    int sms;
} gs_probe;

/* Allocates the buffer (bytes, a multiple of 16).  0, or a CUDA error. */
int gs_probe_init(gs_probe *p, size_t bytes, unsigned long long idle_ns);
void gs_probe_free(gs_probe *p);
/* Enqueues probe k.  0, or a CUDA error. */
int gs_probe_launch(const gs_probe *p, gs_probe_kind k, cudaStream_t s);
/* "idle", "read", "write" */
const char *gs_probe_name(gs_probe_kind k);
/* A substring of probe k's kernel name that no other kernel has (for the collectors and
 * ncu's -k). */
const char *gs_probe_kernel(gs_probe_kind k);

/* What probe k must measure, for the metrics it has a truth for: the range [lo, hi]
 * (bytes, or ns for gpu__time_duration.sum).  Returns 0, or -1 when the metric has no
 * known value for that probe. */
int gs_probe_truth(const gs_probe *p, gs_probe_kind k, const char *metric, double *lo, double *hi);

#ifdef __cplusplus
}
#endif
#endif
