/* Between main loops (see boundaries.h). */
#include "boundaries.h"

#include <stdlib.h>
#include <string.h>

#include "phases.h"

static int by_start(const void *a, const void *b)
{
    const gs_event *x = *(const gs_event *const *)a, *y = *(const gs_event *const *)b;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

int gs_boundaries_compute(const gs_timeline *tl, gs_boundaries *out)
{
    memset(out, 0, sizeof *out);
    /* the top-level phases of one warp at a time, by start time (events are grouped by warp) */
    const gs_event **w = malloc((tl->n_events ? tl->n_events : 1) * sizeof *w);
    double *gaps = malloc((tl->n_events ? tl->n_events : 1) * sizeof *gaps);
    if (!w || !gaps) {
        free(w), free(gaps);
        return -1;
    }
    double sum_gap = 0, sum_part[GS_STORE + 1] = {0};
    for (size_t i = 0; i < tl->n_events;) {
        size_t j = i, n = 0;
        for (; j < tl->n_events && tl->ev[j].cta == tl->ev[i].cta && tl->ev[j].warp == tl->ev[i].warp; j++)
            if (tl->ev[j].phase <= GS_STORE)
                w[n++] = &tl->ev[j];
        qsort(w, n, sizeof *w, by_start);
        const gs_event *last_main = NULL;
        size_t found = 0;
        double part[GS_STORE + 1] = {0};
        for (size_t k = 0; k < n; k++) {
            const gs_event *e = w[k];
            if (e->phase != GS_MAINLOOP) {
                if (last_main && e->t0 >= last_main->t1)
                    part[e->phase] += e->t1 - e->t0;
                continue;
            }
            if (last_main && e->t0 >= last_main->t1) {
                const double gap = e->t0 - last_main->t1;
                gaps[out->n++] = gap;
                sum_gap += gap;
                for (int p = GS_ACC_TO_REG; p <= GS_STORE; p++)
                    sum_part[p] += part[p];
                found++;
            }
            memset(part, 0, sizeof part);
            last_main = e;
        }
        out->warps += found > 0;
        i = j;
    }
    if (out->n) {
        const double n = (double)out->n;
        out->gap_mean_ns = sum_gap / n;
        out->acc_mean_ns = sum_part[GS_ACC_TO_REG] / n;
        out->epi_mean_ns = sum_part[GS_EPILOGUE] / n;
        out->store_mean_ns = sum_part[GS_STORE] / n;
        out->other_mean_ns = out->gap_mean_ns - out->acc_mean_ns - out->epi_mean_ns - out->store_mean_ns;
        out->gap_p50_ns = gs_quantile(gaps, out->n, 0.5);
        out->gap_p90_ns = gs_quantile(gaps, out->n, 0.9);
    }
    free(w), free(gaps);
    return 0;
}
