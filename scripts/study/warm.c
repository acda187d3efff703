#define _POSIX_C_SOURCE 200809L
/* study (not kept): the detail twin's and the twin's stamps of one launch after an L2 flush
 * (cold), of the 15th of 15 problems back to back after one flush (harness: code warm in L2,
 * data cold), and of the second of two launches of one problem (all warm). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "instrument/gs_file.h"
#include "instrument/gs_stamps.h"
#include "instrument/gs_timing.h"
#include "kernels/nvfp4/nvfp4.h"
#include "kernels/nvfp4/dual.h"
#include "kernels/nvfp4/variants.h"

#define N 15
static double tick;

static int save(gs_stamps *st, const char *path)
{
    char err[256];
    if (cudaDeviceSynchronize() != cudaSuccess || gs_stamps_download(st))
        return 1;
    if (gs_file_write(path, tick, st->ctas, st->dev.warps_per_cta, st->dev.capacity, st->warps, st->records, err,
                      sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    nvfp4_shape s;
    char err[256];
    if (nvfp4_dual_shape_parse(argv[1], &s, err, sizeof err) && nvfp4_shape_parse(argv[1], &s, err, sizeof err))
        return 2;
    const char *dir = argv[2];
    nvfp4_problem *p[N];
    for (int i = 0; i < N; i++)
        if (nvfp4_problem_create(&s, NVFP4_DIST_GPUMODE, 20250101ull + i, &p[i]))
            return 1;
    const nvfp4_variant *v = s.dual ? nvfp4_dual_variant_default(&s) : nvfp4_variant_default(&s);
    gs_l2_flusher fl;
    if (gs_l2_flusher_init(&fl, 0) || gs_measure_timer_tick(&tick))
        return 1;
    for (int build = NVFP4_TWIN; build <= NVFP4_DETAIL; build++) {
        unsigned ctas, wpc, ev;
        if (nvfp4_stamp_geometry(v, &s, nvfp4_problem_sms(p[0]), build == NVFP4_DETAIL, &ctas, &wpc, &ev))
            return 1;
        gs_stamps st, scratch;
        if (gs_stamps_alloc(&st, ctas, wpc, ev) || gs_stamps_alloc(&scratch, ctas, wpc, ev))
            return 1;
        const char *b = build == NVFP4_DETAIL ? "detail" : "twin";
        char path[512];
        for (int round = 0; round < 3; round++) {
            /* cold: one launch after a flush */
            gs_stamps_reset(&st, 0);
            gs_l2_flush(&fl, 0);
            nvfp4_launch(v, build, p[0], st.dev, 0);
            snprintf(path, sizeof path, "%s/%s-%s-cold-%d.gss", dir, argv[1], b, round);
            if (save(&st, path))
                return 1;
            /* harness: the 15th of 15 back to back after one flush */
            gs_stamps_reset(&st, 0);
            gs_l2_flush(&fl, 0);
            for (int i = 0; i < N; i++)
                nvfp4_launch(v, build, p[i], i == N - 1 ? st.dev : scratch.dev, 0);
            snprintf(path, sizeof path, "%s/%s-%s-harness-%d.gss", dir, argv[1], b, round);
            if (save(&st, path))
                return 1;
            /* warm: the second of two launches of one problem after a flush */
            gs_stamps_reset(&st, 0);
            gs_l2_flush(&fl, 0);
            nvfp4_launch(v, build, p[0], scratch.dev, 0);
            nvfp4_launch(v, build, p[0], st.dev, 0);
            snprintf(path, sizeof path, "%s/%s-%s-warm-%d.gss", dir, argv[1], b, round);
            if (save(&st, path))
                return 1;
        }
        gs_stamps_free(&st);
        gs_stamps_free(&scratch);
    }
    printf("%s: %s, stamps in %s\n", argv[1], v->name, dir);
    return 0;
}
