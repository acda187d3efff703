/* make bench-analyzer: records analysed per second on one core.  Builds a
 * synthetic trace (132 SMs, 8-warp CTAs in waves, a main loop of K blocks with
 * LOAD_WAIT / DEQUANT / MMA, then ACC_TO_REG, EPILOGUE, STORE), writes it as a
 * stamp file, then times reading it, the clock fit and timeline, the phase
 * analysis and the SM-time decomposition.  A benchmark, not a test. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "synth.h"
#include "analysis/phases.h"
#include "analysis/smtime.h"
#include "analysis/timeline.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long target = argc > 1 ? atol(argv[1]) : 10000000;
    const int sms = 132, wpc = 8, kblocks = 28;
    const int per_warp = 1 + 3 * kblocks + 3; /* 88 records per warp */
    uint32_t ctas = (uint32_t)((target + per_warp * wpc - 1) / (per_warp * wpc));
    char path[] = "/tmp/gemmscope-bench-XXXXXX", err[512];
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;

    /* build the device-layout buffers directly: the synth helper keeps one
     * event list, too slow to fill at this size */
    size_t nw = (size_t)ctas * wpc;
    gs_warp_header *w = calloc(nw, sizeof *w);
    gs_record *seg = malloc(nw * per_warp * sizeof *seg);
    if (!w || !seg)
        return 1;
    for (uint32_t c = 0; c < ctas; c++) {
        int sm = (int)(c % sms);
        double t = (c / sms) * 100000.0 + (sm * 7 % 13) * 50.0;
        uint64_t off = 1000000000ull * (uint64_t)(sm + 1);
        double ghz = 1.98 - 0.001 * (sm % 5);
        for (int k = 0; k < wpc; k++) {
            gs_warp_header *h = &w[(size_t)c * wpc + k];
            gs_record *r = seg + ((size_t)c * wpc + k) * per_warp;
            double t0 = t + k * 10.0, x = t0;
            h->cta = c, h->warp = (uint16_t)k, h->sm = (uint16_t)sm;
            h->gt_start = SYNTH_GT_BASE + (uint64_t)t0;
            h->clk_start = off + (uint64_t)(t0 * ghz);
            int n = 0;
#define REC(ph, len)                                                                                        \
    do {                                                                                                    \
        r[n].gt_begin = SYNTH_GT_BASE + (uint64_t)x;                                                        \
        r[n].clk_begin = off + (uint64_t)(x * ghz);                                                         \
        r[n].clk_dur = (uint32_t)((len) * ghz);                                                             \
        r[n].gt_dur = (uint32_t)(len);                                                                      \
        r[n].phase = (ph), r[n].sm = (uint16_t)sm, r[n].tile = (uint16_t)c, r[n].group = (uint16_t)(c % 8); \
        n++;                                                                                                \
    } while (0)
            double main0 = x;
            REC(GS_MAINLOOP, kblocks * 3000.0);
            for (int b = 0; b < kblocks; b++) {
                REC(SYN_WAIT, 300.0);
                x += 300;
                REC(SYN_PREP, 1800.0);
                x += 1800;
                REC(SYN_MMA, 900.0);
                x += 900;
            }
            x = main0 + kblocks * 3000.0;
            REC(GS_ACC_TO_REG, 50.0);
                x += 50;
            REC(GS_EPILOGUE, 400.0);
                x += 400;
            REC(GS_STORE, 900.0);
                x += 900;
            h->events = (uint32_t)n;
            h->gt_end = SYNTH_GT_BASE + (uint64_t)x;
            h->clk_end = off + (uint64_t)(x * ghz);
            h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
        }
    }
    if (gs_file_write(path, 32, ctas, wpc, per_warp, w, seg, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    free(w);
    free(seg);

    gs_trace t;
    gs_timeline tl;
    gs_phases ph;
    gs_smtime st;
    double t0 = now();
    if (gs_file_read(path, &t, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double t1 = now();
    if (gs_timeline_build(&t, &tl, err, sizeof err))
        return 1;
    double t2 = now();
    if (gs_phases_compute(&tl, &ph))
        return 1;
    double t3 = now();
    if (gs_smtime_compute(&tl, sms, &st))
        return 1;
    double t4 = now();
    unlink(path);
    double n = (double)t.n_records;
    printf("records            %.0f (%u CTAs x %d warps x %d)\n", n, ctas, wpc, per_warp);
    printf("read stamp file    %7.3f s  %6.1f M records/s\n", t1 - t0, n / (t1 - t0) / 1e6);
    printf("clock fit+timeline %7.3f s  %6.1f M records/s\n", t2 - t1, n / (t2 - t1) / 1e6);
    printf("phase analysis     %7.3f s  %6.1f M records/s\n", t3 - t2, n / (t3 - t2) / 1e6);
    printf("SM-time            %7.3f s  %6.1f M records/s\n", t4 - t3, n / (t4 - t3) / 1e6);
    printf("total              %7.3f s  %6.1f M records/s (goal: >= 20)\n", t4 - t0, n / (t4 - t0) / 1e6);
    printf("check: MAINLOOP busy %.4f, SM-time mainloop %.4f\n", ph.ph[GS_MAINLOOP].busy_share, st.share[GS_MAINLOOP]);
    gs_smtime_free(&st);
    gs_phases_free(&ph);
    gs_timeline_free(&tl);
    gs_trace_free(&t);
    return 0;
}
