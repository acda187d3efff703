/* Main loop by unit width: each work unit of the run (units.tsv: a whole tile, or a split-K
 * part of one) runs its main loop at one width, the columns its MMAs compute.  Per width:
 * units, K blocks, MAINLOOP per K block of the whole tiles, that against the measured
 * tensor ceiling's share of one SM, the width's share of main-loop time and, where the run
 * recorded them, the main loop's sub-phases per record; and the main loop as a line over
 * all its units, parts included: a cost per K block and a start per unit (docs/report.md).
 *
 * Everything about a unit comes from the run; the stamps must agree with it (every stamped
 * unit listed, on its CTA, in its group, and where the run names a sub-phase stamped once
 * per K block, with that many of them), else the table is left out with the reason. */
#ifndef GS_WIDTHS_H
#define GS_WIDTHS_H

#include "../instrument/gs_phase_table.h"
#include "../instrument/gs_run.h"
#include "../instrument/gs_units.h"
#include "timeline.h"

#define GS_WIDTHS_MAX 32 /* distinct widths in one table */
#define GS_KB_PROFILE 32 /* K blocks of a width's profile (widths.h: kb_interval_ns) */

typedef struct gs_width_row {
    int width;
    int units;                              /* stamped units of this width */
    int whole, parts;                       /* whole tiles; parts of split tiles */
    long long kblocks;                      /* K blocks over all its units */
    double kb_p50_ns, kb_p10_ns, kb_p90_ns; /* MAINLOOP / K blocks over whole tiles; NAN without */
    double ns_per_column;                   /* kb_p50_ns / width */
    double floor_ns;      /* a K block's flops at one SM's share of the ceiling (median over its units) */
    double ceiling_share; /* floor_ns / kb_p50_ns */
    double main_share;    /* of all units' MAINLOOP time */
    double sub_ns[GS_NUM_PHASES]; /* per main-loop sub-phase (ids of gs_widths.sub): median record over
                                   * whole tiles; NAN without */
    /* Where the run names a sub-phase stamped once per K block (units.kblock_phase) and the
     * stamps have it (the detail twin): in each unit of 4 or more K blocks (whole tiles and
     * parts), its steady cost per K block, the median interval between the starts of
     * successive records, and what its MAINLOOP has above its K blocks at that cost (the main
     * loop's first stages and end); medians over those units.  The per-K-block quantiles above
     * divide the whole MAINLOOP, so they carry the first stages' ramp.  NAN without. */
    double steady_kb_ns, above_steady_ns;
    double above_steady_share; /* above_steady_ns over that unit's MAINLOOP, median over the units */
    /* The same units' profile: K block j's interval (the start of its record to the next's), the
     * median over the units that have it, for j < kb_profile_n (the plot kblocks). */
    double kb_interval_ns[GS_KB_PROFILE];
    int kb_profile_n;
    /* The main loop as a line over every unit of the width, whole tiles and parts: MAINLOOP =
     * start + K blocks x fit_kb_ns, least squares with one slope and two starts, a CTA's first
     * unit's (it also waits for the kernel's first loads; the unit whose MAINLOOP began first on
     * the CTA, ties to the lowest tag) and its later units'.  The slope needs
     * K blocks that vary within one kind of unit: else fit_kb_ns and the starts are NAN.  A
     * start is NAN where the width has no unit of its kind. */
    uint32_t kb_min, kb_max;                    /* K blocks of its units */
    int first_units, later_units;               /* units of each kind */
    double fit_kb_ns, fit_first_ns, fit_later_ns;
    double fit_resid_p90_ns;                    /* |MAINLOOP - line| over its units, p90 */
} gs_width_row;

typedef struct gs_widths {
    int applies;     /* the run lists its units: the report has the section (a table, or a note) */
    int ok;          /* the table stands (else note says why not) */
    char note[512];
    int stamped_units, listed_units;
    int n_sub, sub[GS_NUM_PHASES]; /* the main loop's sub-phases the stamps recorded for every unit */
    int k_block;           /* K elements per K block (meta units.k_block), 0 unknown */
    double ceiling_tflops; /* NAN without */
    int sms;
    int n;
    gs_width_row row[GS_WIDTHS_MAX]; /* by increasing width */
} gs_widths;

/* The representative of a unit is the lowest-numbered warp that recorded its MAINLOOP.
 * 0, or -1 out of memory.  Runs without units get applies = 0. */
int gs_widths_compute(const gs_timeline *tl, const gs_meta *meta, const gs_phase_table *names,
                      const gs_units *units, gs_widths *out);

#endif
