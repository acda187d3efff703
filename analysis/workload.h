/* The main-loop work each CTA was planned to do: the flops of its units (units.tsv, written by
 * the launcher from its schedule), per CTA of the run, CTAs given nothing included.  Beside the
 * measured balance (smtime.h) it says whether an uneven end of the SMs was planned by the
 * schedule or not (docs/report.md, "Planned main-loop work per CTA").  Flops stand for time only
 * where every unit runs at one width: a flop at another width costs another time. */
#ifndef GS_WORKLOAD_H
#define GS_WORKLOAD_H

#include "../instrument/gs_units.h"

#define GS_WORKLOAD_LEVELS 6 /* distinct loads listed, heaviest first; the rest counted together */

typedef struct gs_workload {
    int valid;                    /* units listed, each on a CTA of the run */
    unsigned ctas;                /* CTAs of the run */
    unsigned idle_ctas;           /* given no unit */
    size_t units, split_units;    /* units; of them parts of a tile cut along K */
    int widths;                   /* distinct unit widths */
    double max_flops, total_flops;
    int nlevels;                  /* distinct per-CTA loads, heaviest first (the idle CTAs not among them) */
    double level_flops[GS_WORKLOAD_LEVELS];
    unsigned level_ctas[GS_WORKLOAD_LEVELS];
    unsigned other_ctas;          /* CTAs with work at loads past the listed levels */
    char why[160];                /* valid = 0 for a run with units: why they are left out */
} gs_workload;

/* Fills out from the units of a run of `ctas` CTAs: valid = 0 for a run without units, and with
 * `why` set when a unit names a CTA the run does not have.  0, or -1 out of memory. */
int gs_workload_compute(const gs_units *us, unsigned ctas, gs_workload *out);

/* How much sooner the planned work would end spread evenly over `slots` places (CTAs, or the
 * SMs where each runs at most one CTA): 1 - total / (slots x max); 0 without work. */
double gs_workload_bound(const gs_workload *w, unsigned slots);

#endif
