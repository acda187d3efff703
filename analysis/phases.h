/* Per-phase busy time: for each CTA the union of a phase's intervals over
 * the CTA's warps, summed over CTAs and divided by the summed CTA spans. */
#ifndef GS_PHASES_H
#define GS_PHASES_H

#include "../instrument/gs_phase_table.h"
#include "timeline.h"

typedef struct gs_phase_stats {
    size_t instances;                 /* records of this phase */
    size_t ctas;                      /* CTAs in which it appears */
    double busy_ns;                   /* sum over CTAs of the per-CTA union */
    double busy_share;                /* busy_ns / cta_time_ns */
    double cta_p50, cta_p90, cta_max; /* per-CTA union time, ns */
    double inst_p50, inst_p90, inst_max; /* per-instance duration, ns */
    double *cta_busy;                 /* [ctas]: per-CTA union time, ns, in no particular order */
} gs_phase_stats;

typedef struct gs_phases {
    double cta_time_ns; /* sum of CTA spans */
    size_t ctas_counted;
    gs_phase_stats ph[GS_NUM_PHASES];
} gs_phases;

int gs_phases_compute(const gs_timeline *tl, gs_phases *out);
/* The detail twin's main-loop sub-phases (names: gs_phase_main_subs) into the twin's stats, swapped
 * so that each struct still owns what it frees: every figure from the twin's stamps but those. */
void gs_phases_take_subs(const gs_phase_table *names, gs_phases *twin, gs_phases *detail);
void gs_phases_free(gs_phases *p);

/* The q-quantile of v (linear interpolation; reorders v); NaN for n == 0. */
double gs_quantile(double *v, size_t n, double q);

#endif
