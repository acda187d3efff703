/* What a run of own-gemm is, in the run directory's terms (plain C, no CUDA): its geometry, its
 * meta keys, the names of the kernel's own phases, and one unit per tile. */
#ifndef OG_RUN_META_H
#define OG_RUN_META_H

#include <stddef.h>
#include <stdint.h>
#include <gemmscope/gemmscope.h>

typedef struct og_geometry {
    int m, n, k;
    int tiles, kblocks;
    int grid;                 /* CTAs */
    int tiles_per_cta_max;    /* CTA 0's */
    uint32_t events_per_warp; /* the most records a warp of the detail twin writes */
} og_geometry;

/* The geometry on `sms` SMs; -1 with one line in err where the shape cannot run (not whole
 * tiles, more tiles than the 16-bit tile tag holds, a stamp buffer past OG_MAX_STAMP_BYTES). */
#define OG_MAX_STAMP_BYTES (4ull << 30)
int og_geometry_make(int m, int n, int k, int sms, og_geometry *g, char *err, size_t errlen);

/* What the host program was asked to do, for meta.txt. */
typedef struct og_run_info {
    const char *command; /* the command line */
    int reps, warmup;
} og_run_info;

/* Writes the run's description into rd: meta keys (subject, shape, variant, geometry, flops,
 * units.*), the phases WAIT and MMA, and one unit per tile.  -1 with one line in err. */
int og_run_describe(gs_rundir *rd, const og_geometry *g, const og_run_info *info, char *err, size_t errlen);

#endif
