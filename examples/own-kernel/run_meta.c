/* What a run of own-gemm is (run_meta.h). */
#define _POSIX_C_SOURCE 200809L
#include "run_meta.h"
#include "tiles.h"

#include <stdio.h>
#include <stdlib.h>

int og_geometry_make(int m, int n, int k, int sms, og_geometry *g, char *err, size_t errlen)
{
    if (m < OG_BM || n < OG_BN || k < OG_BK || m % OG_BM || n % OG_BN || k % OG_BK || sms < 1) {
        snprintf(err, errlen, "m%dn%dk%d is not whole %dx%d tiles of %d-deep K blocks", m, n, k, OG_BM, OG_BN, OG_BK);
        return -1;
    }
    g->m = m;
    g->n = n;
    g->k = k;
    g->tiles = og_tiles(m, n);
    g->kblocks = k / OG_BK;
    if (g->tiles > GS_MAX_UNITS) {
        snprintf(err, errlen, "m%dn%d has %d tiles; a run tags at most %d (16-bit GS_TILE tag)", m, n, g->tiles,
                 GS_MAX_UNITS);
        return -1;
    }
    g->grid = og_grid(g->tiles, sms);
    g->tiles_per_cta_max = og_cta_tiles(0, g->tiles, g->grid);
    const unsigned long long events =
        (unsigned long long)g->tiles_per_cta_max * (unsigned long long)og_records_per_tile(g->kblocks, 1);
    const unsigned long long bytes = events * (unsigned long long)g->grid * OG_WARPS * sizeof(gs_record);
    if (bytes > OG_MAX_STAMP_BYTES) {
        snprintf(err, errlen, "m%dn%dk%d needs %.1f GiB of stamps (%llu records a warp); at most %.0f GiB", m, n, k,
                 bytes / 1073741824.0, events, OG_MAX_STAMP_BYTES / 1073741824.0);
        return -1;
    }
    g->events_per_warp = (uint32_t)events;
    return 0;
}

/* 0, or -1 out of memory */
static int describe_meta(gs_meta *m, const og_geometry *g, const og_run_info *info)
{
    int bad = 0;
    const char *commit = getenv("GS_GIT_COMMIT");
    const double flops = 2.0 * g->m * g->n * g->k;
    bad |= gs_meta_set(m, "subject", "own-gemm");
    bad |= gs_meta_set(m, "shape", "m%dn%dk%d", g->m, g->n, g->k);
    bad |= gs_meta_set(m, "variant", "s%d_t%dx%d_k%d", OG_STAGES, OG_BM, OG_BN, OG_BK);
    bad |= gs_meta_set(
        m, "variant.description",
        "%d stages, 1 producer warp (cp.async.bulk), 2 consumer warpgroups (mma.sync m16n8k16), persistent", OG_STAGES);
    bad |= gs_meta_set(m, "git_commit", "%s", commit && *commit ? commit : "unknown");
    bad |= gs_meta_set(m, "command", "%s", info->command);
    bad |= gs_meta_set(m, "dist", "uniform");
    bad |= gs_meta_set(m, "timing.reps", "%d", info->reps);
    bad |= gs_meta_set(m, "timing.warmup", "%d", info->warmup);
    bad |= gs_meta_set(m, "flops", "%.0f", flops);
    bad |= gs_meta_set(m, "min_bytes", "%.0f", 2.0 * ((double)g->m * g->k + (double)g->n * g->k + (double)g->m * g->n));
    bad |= gs_meta_set(m, "flops_computed", "%.0f", flops); /* whole tiles: no padding */
    bad |= gs_meta_set(m, "padding.what", "none (M, N, K are whole tiles)");
    bad |= gs_meta_set(m, "ctas", "%d", g->grid);
    bad |= gs_meta_set(m, "threads_per_cta", "%d", OG_THREADS);
    bad |= gs_meta_set(m, "smem_bytes", "%d", OG_SMEM_BYTES);
    bad |= gs_meta_set(m, "ctas_per_sm", "1");
    bad |= gs_meta_set(m, "stamps.build", "detail");
    bad |= gs_meta_set(m, "stamps.events_per_warp_declared", "%u", g->events_per_warp);
    bad |= gs_meta_set(m, "units.what", "an output tile of %d x %d", OG_BM, OG_BN);
    bad |= gs_meta_set(m, "units.width", "tile columns (N) the consumer warps compute");
    bad |= gs_meta_set(m, "units.k_block", "%d", OG_BK);
    bad |= gs_meta_set(m, "units.kblock_phase", "WAIT");
    return bad ? -1 : 0;
}

/* One unit per tile, tagged as the kernel's GS_TILE(gs, tile, 0) tags it, on the CTA that runs it. */
static int describe_units(gs_rundir *rd, const og_geometry *g, char *err, size_t errlen)
{
    for (int t = 0; t < g->tiles; t++) {
        const gs_unit u = {.unit = (uint32_t)t,
                           .cta = (uint32_t)og_tile_cta(t, g->grid),
                           .group = 0,
                           .width = OG_BN,
                           .k0 = 0,
                           .k1 = (uint32_t)g->kblocks,
                           .parts = 1,
                           .flops = 2.0 * OG_BM * OG_BN * (double)g->k};
        if (gs_rundir_unit(rd, &u, err, errlen))
            return -1;
    }
    return 0;
}

int og_run_describe(gs_rundir *rd, const og_geometry *g, const og_run_info *info, char *err, size_t errlen)
{
    if (describe_meta(&rd->meta, g, info)) {
        snprintf(err, errlen, "out of memory for meta.txt");
        return -1;
    }
    if (gs_rundir_phase(rd, OG_PHASE_WAIT, "WAIT", GS_MAINLOOP, "wait", err, errlen) ||
        gs_rundir_phase(rd, OG_PHASE_MMA, "MMA", GS_MAINLOOP, "mma", err, errlen))
        return -1;
    return describe_units(rd, g, err, errlen);
}
