/* What the libFuzzer harnesses share: a private scratch folder, a whole run directory written
 * there once (the tests' fixture run: 4 CTAs x 2 warps, known phases, with units), a file of
 * it replaced by the fuzzer's input, and the full analysis of the run (every analysis, the
 * summary, the report, the plots' data and the trace), which must refuse bad input with an
 * error and never crash, leak or read out of bounds (ASan, UBSan). */
#ifndef GS_FUZZ_RUN_H
#define GS_FUZZ_RUN_H

#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/run_fixture.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/trace.h"

char *mkdtemp(char *tmpl);

static char fuzz_dir[64];

static int fuzz_unlink(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void fuzz_cleanup(void)
{
    nftw(fuzz_dir, fuzz_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch folder, made at the first call and removed at exit. */
static inline const char *fuzz_scratch(void)
{
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/gemmscope-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_dir))
            abort();
        atexit(fuzz_cleanup);
    }
    return fuzz_dir;
}

/* The fixture run (with a units.tsv naming its tiles), at scratch/run, written at the first
 * call: each harness replaces only its own file of it. */
static inline const char *fuzz_fixture_run(void)
{
    static char run[128];
    if (run[0])
        return run;
    snprintf(run, sizeof run, "%s/run", fuzz_scratch());
    mkdir(run, 0755);
    if (fixture_write_run(run, 8))
        abort();
    char p[256], err[256];
    gs_units us = {0};
    for (uint32_t c = 0; c < 4; c++) {
        const gs_unit u = {c, c, 0, 128, 0, 4, 1, 4 * 2.0 * 128 * 128 * 64};
        if (gs_units_add(&us, &u, err, sizeof err))
            abort();
    }
    snprintf(p, sizeof p, "%s/units.tsv", run);
    if (gs_units_write(&us, p, err, sizeof err))
        abort();
    gs_units_free(&us);
    return run;
}

static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
}

/* Everything `gemmscope report` and `trace` do with a run, into scratch files. */
static inline void fuzz_analyse(const char *run)
{
    char err[1024], path[256];
    gs_rundata r;
    if (gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err))
        return;
    snprintf(path, sizeof path, "%s/out", fuzz_scratch());
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/out/summary.json", fuzz_scratch());
    gs_summary_write(&r, path, err, sizeof err);
    snprintf(path, sizeof path, "%s/out", fuzz_scratch());
    gs_plots_write(&r, path, err, sizeof err);
    snprintf(path, sizeof path, "%s/out/report.md", fuzz_scratch());
    gs_report_write(&r, path, NULL, err, sizeof err);
    snprintf(path, sizeof path, "%s/out/trace.json", fuzz_scratch());
    gs_trace_write(&r, path, err, sizeof err);
    gs_rundata_free(&r);
}

#endif
