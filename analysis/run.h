/* A run directory loaded for analysis: the raw files (meta.txt, timings.tsv, units.tsv,
 * stamps.gss, the PC samples), the timeline, and the analyses a command asks for. */
#ifndef GS_RUNDATA_H
#define GS_RUNDATA_H

#include "../instrument/gs_file.h"
#include "../instrument/gs_phase_table.h"
#include "../instrument/gs_probes.h"
#include "../instrument/gs_run.h"
#include "../instrument/gs_units.h"
#include "boundaries.h"
#include "phases.h"
#include "smtime.h"
#include "roofline.h"
#include "workload.h"
#include "stalls.h"
#include "timeline.h"
#include "warproles.h"
#include "widths.h"

/* The analyses a command needs (gs_rundata_load, gs_rundata_need). */
enum {
    GS_NEED_PHASES = 1,     /* busy shares per phase (phases.h) */
    GS_NEED_SMTIME = 2,     /* SM-time, exposed shares, waves (smtime.h) */
    GS_NEED_BOUNDARIES = 4, /* between main loops (boundaries.h) */
    GS_NEED_WIDTHS = 8,     /* main loop by unit width (widths.h) */
    GS_NEED_STALLS = 16,    /* stall reasons of the PC samples (stalls.h) */
    GS_NEED_ALL = 31
};

typedef struct gs_rundata {
    char dir[2048];
    gs_meta meta;
    gs_phase_table names; /* the run's phase names */
    gs_units units;       /* units.tsv; empty when the run has none */
    gs_probes probes;     /* probes.tsv: clock probes the model never saw; empty when none */
    gs_timings tim;
    gs_trace trace;
    gs_timeline tl;
    unsigned have; /* GS_NEED_* computed so far */
    gs_phases phases;
    gs_smtime smt;
    gs_boundaries bnd;
    gs_perf perf;
    gs_stalls stalls;
    gs_stalls stalls_twin; /* the twin's launch (pcsamp-twin.tsv) */
    gs_widths widths;
    gs_workload work; /* the planned work per CTA (units.tsv); valid = 0 without units */
    /* stamps-detail.gss: the detail twin's stamps beside the plain twin's (stamps.gss). The
     * main loop's sub-phases come from them (their phase stats and width columns replace the
     * plain twin's, which has none); every other figure from stamps.gss. */
    int has_detail;
    gs_trace trace_detail;
    gs_timeline tl_detail;
    gs_phases phases_detail; /* after the swap: the detail twin's fixed phases */
    gs_warp_roles roles;     /* the warp roles the run names (meta.txt), their phases with GS_NEED_PHASES */
    /* timings */
    double time_ms, time_min_ms, time_max_ms; /* production build */
    double twin_ms, twin_min_ms, twin_max_ms;
    double overhead_ratio;                    /* twin median / production median; NaN when their methods differ */
    int reps;
    /* the stamps are already in ns (meta clock.converted: an importer turned cycles into ns by
     * a clock it assumed or derived): there is no clock model, so its errors are unknown (NaN) */
    int clock_converted;
} gs_rundata;

/* Loads dir and builds its timeline, then computes the analyses in `need`; -1 with one line
 * in err on any bad or missing input. */
int gs_rundata_load(gs_rundata *r, const char *dir, unsigned need, char *err, size_t errlen);
/* Computes the analyses in `need` not computed yet; -1 with one line in err. */
int gs_rundata_need(gs_rundata *r, unsigned need, char *err, size_t errlen);
void gs_rundata_free(gs_rundata *r);
/* meta value or "unknown" */
const char *gs_rundata_str(const gs_rundata *r, const char *key);
/* The name of phase p in this run. */
/* The planned main-loop work's balance bound over the SMs (workload.h), where flops stand for
 * time and SMs for CTAs: every unit at one width, at most one CTA per SM (needs GS_NEED_SMTIME).
 * *slots: the SMs counted (the CTAs where more than the SMs).  NAN where it does not apply. */
double gs_rundata_planned_bound(const gs_rundata *r, unsigned *slots);
const char *gs_rundata_phase(const gs_rundata *r, int p);

#endif
