/* A run directory loaded and analysed: the raw files (meta.txt, timings.tsv,
 * stamps.gss) and every figure the report and summary.json are made of. */
#ifndef GS_RUNDATA_H
#define GS_RUNDATA_H

#include "../instrument/gs_file.h"
#include "../instrument/gs_run.h"
#include "boundaries.h"
#include "phases.h"
#include "smtime.h"
#include "roofline.h"
#include "stalls.h"
#include "timeline.h"
#include "widths.h"

typedef struct gs_rundata {
    char dir[2048];
    gs_meta meta;
    gs_timings tim;
    gs_trace trace;
    gs_timeline tl;
    gs_phases phases;
    gs_smtime smt;
    gs_boundaries bnd;
    gs_perf perf;
    gs_stalls stalls;
    gs_stalls stalls_twin; /* the twin's launch (pcsamp-twin.tsv) */
    gs_widths widths; /* NVFP4: main loop by tile width */
    /* timings */
    double time_ms, time_min_ms, time_max_ms; /* production build */
    double twin_ms, twin_min_ms, twin_max_ms;
    double overhead_ratio;                    /* twin median / production median */
    int reps;
} gs_rundata;

/* Loads and analyses dir; -1 with one line in err on any bad or missing input. */
int gs_rundata_load(gs_rundata *r, const char *dir, char *err, size_t errlen);
void gs_rundata_free(gs_rundata *r);
/* meta value or "unknown" */
const char *gs_rundata_str(const gs_rundata *r, const char *key);

#endif
