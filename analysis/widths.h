/* Main loop by tile width (NVFP4 runs): each unit (a whole tile, or a split-K part of one)
 * runs its main loop with one wgmma N width, n_eff (its valid token rows rounded up to the
 * schedule's step).  Per width: units, K blocks, MAINLOOP per K block of the whole tiles,
 * that against the measured tensor ceiling, the width's share of main-loop time and, in
 * detail runs, the per-stage LOAD_WAIT, DEQUANT and MMA (docs/report.md).
 *
 * A unit's width and K range come from the schedule rebuilt from meta.txt (shape, variant or
 * knobs, sm_count) when it agrees with the stamps; otherwise from the shape group by group,
 * where that is unambiguous; otherwise the table is left out with the reason in `note`. */
#ifndef GS_WIDTHS_H
#define GS_WIDTHS_H

#include "../instrument/gs_run.h"
#include "timeline.h"

#define GS_WIDTHS_MAX 8   /* n_eff 32, 64, ..., 256 */
#define GS_WIDTH_STAGES 3 /* LOAD_WAIT, DEQUANT, MMA */

typedef enum gs_units_from {
    GS_UNITS_NONE = 0,     /* left out: note says why */
    GS_UNITS_SCHEDULE = 1, /* the rebuilt schedule agrees with the stamps */
    GS_UNITS_GROUPS = 2    /* it does not: widths by group, K blocks from stages or group counts */
} gs_units_from;

typedef struct gs_width_row {
    int n_eff;
    int units;                              /* stamped units of this width */
    int resolved;                           /* 0: whole tiles and parts of this width cannot be told apart */
    int whole, parts;                       /* -1 where not resolved */
    long long kblocks;                      /* K blocks of NVFP4_BK over all its units */
    double kb_p50_ns, kb_p10_ns, kb_p90_ns; /* MAINLOOP / K blocks over whole tiles; NAN without */
    double ns_per_token;                    /* kb_p50_ns / n_eff */
    double floor_ns;                  /* tensor time of one K block at the ceiling's share of one SM; NAN without */
    double ceiling_share;             /* floor_ns / kb_p50_ns */
    double main_share;                /* of all units' MAINLOOP time */
    double stage_ns[GS_WIDTH_STAGES]; /* median per stage over whole tiles (detail runs); NAN without */
} gs_width_row;

typedef struct gs_widths {
    int applies; /* an NVFP4 run: the report has the section (a table, or a note) */
    gs_units_from from;
    char note[512]; /* how units were mapped when not by the schedule, or why left out */
    int stamped_units;
    int schedule_units;    /* -1: no schedule built */
    int detail;            /* every unit's warp recorded its stages */
    int tile_w, n_step;    /* the tile's weight rows; the step n_eff is rounded up to */
    double ceiling_tflops; /* NAN without */
    int sms;
    int n;
    gs_width_row row[GS_WIDTHS_MAX]; /* by increasing n_eff */
} gs_widths;

/* The representative of a unit is the lowest-numbered warp that recorded its MAINLOOP (warp 0:
 * the first consumer warp, which in the detail twin also records the stages).  0, or -1 out
 * of memory.  Runs of other subjects get applies = 0. */
int gs_widths_compute(const gs_timeline *tl, const gs_meta *meta, gs_widths *out);

#endif
