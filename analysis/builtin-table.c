/* gemmscope table [--kind speed|smtime] RUN...: one markdown row per run, read from the runs
 * themselves (nothing written into them), so that a document quoting runs can be rendered
 * from them (scripts/readme.sh keeps the README's tables so). */
#define _POSIX_C_SOURCE 200809L
#include "builtin.h"
#include "run.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number as a cell: "-" where the run has none. */
static void cell(const char *fmt, double v)
{
    if (isfinite(v))
        printf(fmt, v);
    else
        printf(" - |");
}

/* Speed against the run's own anchors: time, TFLOP/s, the share of the tensor ceiling,
 * cuBLAS over ours, the twin's overhead. */
static void speed_row(const gs_rundata *r)
{
    printf("| %s | %s |", gs_rundata_str(r, "shape"), gs_rundata_str(r, "variant"));
    cell(" %.1f us |", 1e3 * r->time_ms);
    cell(" %.0f |", r->perf.tflops);
    cell(" %.1f%% |", 100 * r->perf.ceiling_fraction);
    cell(" x%.2f |", r->perf.cublas_ratio);
    cell(" x%.3f |", r->overhead_ratio);
    printf("\n");
}

/* Where SM time goes: the main loop, the exposed epilogue and store together, the prologue,
 * CTAs resident in no phase, no CTA resident. */
static void smtime_row(const gs_rundata *r)
{
    const double *s = r->smt.share;
    printf("| %s |", gs_rundata_str(r, "shape"));
    cell(" %.1f%% |", 100 * s[GS_MAINLOOP]);
    cell(" %.1f%% |", 100 * (s[GS_ACC_TO_REG] + s[GS_EPILOGUE] + s[GS_STORE]));
    cell(" %.2f%% |", 100 * s[GS_PROLOGUE]);
    cell(" %.1f%% |", 100 * s[GS_SMT_RESIDENT]);
    cell(" %.1f%% |", 100 * s[GS_SMT_IDLE]);
    printf("\n");
}

int cmd_table(int argc, char **argv)
{
    const char *kind = "speed";
    int first = 0;
    if (argc >= 2 && !strcmp(argv[0], "--kind"))
        kind = argv[1], first = 2;
    const int speed = !strcmp(kind, "speed");
    if ((!speed && strcmp(kind, "smtime")) || first >= argc)
        return gs_die("usage: gemmscope table [--kind speed|smtime] RUN...");
    if (speed)
        printf("| shape | variant | time | TFLOP/s | of ceiling | cuBLAS / ours | twin overhead |\n"
               "|---|---|---:|---:|---:|---:|---:|\n");
    else
        printf("| shape | MAINLOOP | exposed ACC_TO_REG + EPILOGUE + STORE | PROLOGUE | resident | idle |\n"
               "|---|---:|---:|---:|---:|---:|\n");
    for (int i = first; i < argc; i++) {
        char dir[PATH_MAX], err[1024];
        gs_rundata r;
        gs_resolve_run(argv[i], dir, sizeof dir);
        if (gs_rundata_load(&r, dir, speed ? 0 : GS_NEED_SMTIME, err, sizeof err))
            return gs_die(err);
        speed ? speed_row(&r) : smtime_row(&r);
        gs_rundata_free(&r);
    }
    return 0;
}
