/* Writes a complete synthetic run directory (meta.txt, timings.tsv, stamps.gss)
 * with known answers: 4 CTAs x 2 warps on 2 SMs, MAINLOOP 80%, ACC_TO_REG 5%,
 * EPILOGUE 10%, STORE 5% of each CTA's 10 us; production 0.5 ms, twin 0.505 ms. */
#ifndef GS_RUN_FIXTURE_H
#define GS_RUN_FIXTURE_H

#include "synth.h"
#include "instrument/gs_run.h"

static inline int fixture_write_run(const char *dir, uint32_t capacity)
{
    char p[512], err[256];
    synth s;
    synth_init(&s, 4, 2, capacity);
    s.ghz[1] = 1.75;
    for (uint32_t c = 0; c < 4; c++) {
        double t = (c / 2) * 10000.0;
        uint16_t sm = (uint16_t)(c % 2);
        for (uint16_t w = 0; w < 2; w++) {
            synth_warp(&s, c, w, sm, t, t + 10000);
            synth_event(&s, c, w, GS_MAINLOOP, t, t + 8000, (uint16_t)c);
            synth_event(&s, c, w, GS_ACC_TO_REG, t + 8000, t + 8500, (uint16_t)c);
            synth_event(&s, c, w, GS_EPILOGUE, t + 8500, t + 9500, (uint16_t)c);
            synth_event(&s, c, w, GS_STORE, t + 9500, t + 10000, (uint16_t)c);
        }
    }
    gs_record *seg = synth_segments(&s);
    snprintf(p, sizeof p, "%s/stamps.gss", dir);
    int rc = gs_file_write(p, 32, 4, 2, capacity, s.w, seg, err, sizeof err);
    free(seg);
    free(s.ev);
    free(s.w);
    if (rc)
        return -1;

    gs_meta m = {0};
    gs_meta_set(&m, "subject", "calib");
    gs_meta_set(&m, "shape", "calib");
    gs_meta_set(&m, "variant", "default");
    gs_meta_set(&m, "gpu", "Synthetic GPU");
    gs_meta_set(&m, "sm_count", "2");
    gs_meta_set(&m, "timing.warmup", "5");
    gs_meta_set(&m, "expect.MAINLOOP", "0.80");
    gs_meta_set(&m, "expect.EPILOGUE", "0.10");
    snprintf(p, sizeof p, "%s/meta.txt", dir);
    rc = gs_meta_write(&m, p, err, sizeof err);
    gs_meta_free(&m);
    if (rc)
        return -1;

    gs_timings t = {0};
    double prod[50], twin[50];
    for (int i = 0; i < 50; i++) {
        prod[i] = 0.5 + (i % 5 - 2) * 0.001; /* median 0.5 */
        twin[i] = 0.505 + (i % 3 - 1) * 0.001;
    }
    gs_timings_add(&t, "production", prod, 50);
    gs_timings_add(&t, "twin", twin, 50);
    snprintf(p, sizeof p, "%s/timings.tsv", dir);
    rc = gs_timings_write(&t, p, err, sizeof err);
    gs_timings_free(&t);
    return rc;
}

#endif
