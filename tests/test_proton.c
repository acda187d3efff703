/* gemmscope import proton (analysis/proton.h): the committed Proton traces of tests/proton/
 * imported into runs, and what the runs hold checked against numbers this test computes from
 * the trace files itself (its own JSON reading, not the importer's); bad traces and options
 * refused with one line and no run left behind.  Runs from the repository root. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "slurp.h"
#include "tmpdir.h"
#include "analysis/checks.h"
#include "analysis/proton.h"
#include "analysis/report.h"
#include "analysis/run.h"
#include "instrument/gs_file.h"
#include "instrument/gs_phase_table.h"
#include "instrument/gs_run.h"

#define FINAL "tests/proton/gemm_final.chrome_trace"
#define STARTS "tests/proton/gemm_starts.chrome_trace"
/* the H100 recording (scripts/proton/proton_gemm.py, Triton 3.6): gzip'ed, CTA starts only */
#define SAMPLE "samples/proton-gemm/gemm.chrome_trace.gz"
#define SAMPLE_GHZ 1.6075 /* samples/proton-gemm/import.args: the clock the script measured */
#define MAX_CTAS 1024
#define MAX_NAMES 16

/* ---- the trace as this test reads it ---- */

typedef struct expect_cta {
    int seen;
    unsigned sm;
    double first, last_end; /* ts and ts + dur, x 1000 */
    long long init, post_final, final_len;
} expect_cta;

typedef struct expect {
    char kernel[64];
    expect_cta cta[MAX_CTAS];
    unsigned n_cta, warps;
    char name[MAX_NAMES][32];
    int count[MAX_NAMES], n_names;
    double cycles[MAX_NAMES][MAX_CTAS]; /* dur x 1000 summed per scope and CTA */
} expect;

static int name_slot(expect *x, const char *name)
{
    for (int i = 0; i < x->n_names; i++)
        if (!strcmp(x->name[i], name))
            return i;
    snprintf(x->name[x->n_names], sizeof x->name[0], "%s", name);
    return x->n_names++;
}

static size_t gz_chunk(void *buf, size_t len, void *f)
{
    const int got = gzread((gzFile)f, buf, (unsigned)(len > 65536 ? 65536 : len));
    return got < 0 ? (size_t)-1 : (size_t)got;
}

static void read_expect(const char *path, expect *x)
{
    memset(x, 0, sizeof *x);
    json_error_t je;
    gzFile f = gzopen(path, "rb");
    assert_non_null(f);
    json_t *root = json_load_callback(gz_chunk, f, 0, &je);
    gzclose(f);
    assert_non_null(root);
    json_t *evs = json_object_get(root, "traceEvents");
    for (size_t i = 0; i < json_array_size(evs); i++) {
        json_t *e = json_array_get(evs, i), *args = json_object_get(e, "args");
        const char *pid = json_string_value(json_object_get(e, "pid"));
        const char *core = strstr(pid, " Core");
        unsigned sm, cta, warp;
        assert_non_null(core);
        assert_int_equal(sscanf(core, " Core%u CTA%u", &sm, &cta), 2);
        assert_int_equal(sscanf(json_string_value(json_object_get(e, "tid")), "warp %u", &warp), 1);
        snprintf(x->kernel, sizeof x->kernel, "%.*s", (int)(core - pid), pid);
        const double ts = json_real_value(json_object_get(e, "ts")) * 1000;
        const double dur = json_real_value(json_object_get(e, "dur")) * 1000;
        assert_true(cta < MAX_CTAS);
        expect_cta *c = &x->cta[cta];
        if (!c->seen || ts < c->first)
            c->first = ts;
        if (!c->seen || ts + dur > c->last_end)
            c->last_end = ts + dur;
        c->seen = 1, c->sm = sm;
        if (json_object_get(args, "Init Time (ns)")) {
            c->init = json_integer_value(json_object_get(args, "Init Time (ns)"));
            c->post_final = json_integer_value(json_object_get(args, "Post Final Time (ns)"));
            c->final_len = json_integer_value(json_object_get(args, "Finalization Time (ns)"));
        }
        x->n_cta = cta + 1 > x->n_cta ? cta + 1 : x->n_cta;
        x->warps = warp + 1 > x->warps ? warp + 1 : x->warps;
        const int k = name_slot(x, json_string_value(json_object_get(e, "name")));
        x->count[k]++;
        x->cycles[k][cta] += dur;
    }
    json_decref(root);
}

static int scope_of(const expect *x, const char *name)
{
    for (int i = 0; i < x->n_names; i++)
        if (!strcmp(x->name[i], name))
            return i;
    fail_msg("the fixture has no scope %s", name);
    return -1;
}

/* The clock the run must have used for a CTA: given, or its cycles over init to pre-finalize. */
static double cta_ghz(const expect_cta *c, double given)
{
    return given > 0 ? given : (c->last_end - c->first) / (double)(c->post_final - c->final_len - c->init);
}

static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    return b ? gcd(b, a % b) : a;
}

/* ---- importing ---- */

static const char *run_path(const char *name)
{
    static char p[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static gs_proton_opts opts(const char *trace, const char *run)
{
    gs_proton_opts o = {.trace = trace, .out = run_path(run), .sms = 132, .time_ms = "0.0201,0.0199,0.0200",
                        .gpu = "NVIDIA H100 80GB HBM3"};
    return o;
}

static void import_ok(const gs_proton_opts *o)
{
    char err[2048] = "";
    if (gs_proton_import(o, err, sizeof err))
        fail_msg("import of %s failed: %s", o->trace, err);
}

static void load_run(const char *run, gs_meta *m, gs_trace *t, gs_phase_table *names)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/meta.txt", run);
    assert_int_equal(gs_meta_read(m, path, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/stamps.gss", run);
    if (gs_file_read(path, t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(gs_phase_table_from_meta(names, m, err, sizeof err), 0);
}

/* Records of phase p, and their ns per CTA. */
static int records_of(const gs_trace *t, int p, double *ns_per_cta)
{
    int n = 0;
    for (size_t w = 0; w < t->n_warps; w++)
        for (size_t i = t->first[w]; i < t->first[w] + gs_kept(t, w); i++)
            if (t->records[i].phase == p) {
                n++;
                if (ns_per_cta)
                    ns_per_cta[t->warps[w].cta] += t->records[i].clk_dur;
            }
    return n;
}

static void check_placement(const gs_trace *t, const expect *x, const char *loop_scope, double given_ghz,
                            long long origin);

/* Counts, placement, spans and durations of a run against the trace it came from. */
static void check_run(const char *run, const expect *x, double given_ghz, long long origin)
{
    gs_meta m = {0};
    gs_trace t;
    gs_phase_table names;
    load_run(run, &m, &t, &names);
    assert_string_equal(gs_meta_get(&m, "subject"), "proton");
    assert_string_equal(gs_meta_get(&m, "shape"), x->kernel);
    assert_string_equal(gs_meta_get(&m, "sm_count"), "132");
    assert_int_equal(t.ctas, x->n_cta);
    assert_int_equal(t.warps_per_cta, x->warps);
    /* the default mapping by name */
    const struct {
        const char *scope;
        int phase;
    } fixed[] = {{"main_loop", GS_MAINLOOP}, {"drain", GS_ACC_TO_REG}, {"epilogue", GS_EPILOGUE}, {"store", GS_STORE}};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(records_of(&t, fixed[i].phase, NULL), x->count[scope_of(x, fixed[i].scope)]);
    const int setup = gs_phase_find(&names, "SETUP"), wait = gs_phase_find(&names, "TMA_WAIT");
    assert_true(setup >= GS_NUM_FIXED_PHASES && wait >= GS_NUM_FIXED_PHASES);
    assert_int_equal(names.p[setup].within, -1);         /* before the main loop */
    assert_int_equal(names.p[wait].within, GS_MAINLOOP); /* every instance inside one */
    assert_int_equal(records_of(&t, setup, NULL), x->count[scope_of(x, "setup")]);
    check_placement(&t, x, "main_loop", given_ghz, origin);
    gs_trace_free(&t);
    gs_meta_free(&m);
}

/* Per CTA: SM, start, end and the main loop's ns against the trace's own numbers. */
static void check_placement(const gs_trace *tr, const expect *x, const char *loop_scope, double given_ghz,
                            long long origin)
{
    const gs_trace t = *tr;
    static double loop_ns[MAX_CTAS];
    memset(loop_ns, 0, sizeof loop_ns);
    records_of(&t, GS_MAINLOOP, loop_ns);
    const int loop = scope_of(x, loop_scope);
    for (unsigned c = 0; c < x->n_cta; c++) {
        const expect_cta *e = &x->cta[c];
        const gs_warp_header *h = &t.warps[c * t.warps_per_cta];
        const double ghz = cta_ghz(e, given_ghz);
        assert_int_equal(h->sm, e->sm);
        assert_int_equal((long long)h->gt_start - origin, llround(e->first));
        assert_int_equal((long long)(h->gt_end - h->gt_start), llround((e->last_end - e->first) / ghz));
        assert_true(fabs(loop_ns[c] - x->cycles[loop][c] / ghz) <= 1.0 * x->warps);
    }
}

/* The timer step the run must hold: the GCD of the trace's globaltimer readings. */
static double expect_tick(const expect *x, long long origin)
{
    unsigned long long g = 0;
    for (unsigned c = 0; c < x->n_cta; c++) {
        g = gcd(g, (unsigned long long)llround(x->cta[c].first));
        if (x->cta[c].post_final)
            g = gcd(gcd(g, (unsigned long long)(x->cta[c].post_final - origin)),
                    (unsigned long long)(x->cta[c].post_final - x->cta[c].final_len - origin));
    }
    return (double)g;
}

static void final_times_give_the_clock(void **state)
{
    (void)state;
    expect x;
    read_expect(FINAL, &x);
    gs_proton_opts o = opts(FINAL, "final");
    import_ok(&o);
    long long origin = LLONG_MAX, end = 0;
    for (unsigned c = 0; c < x.n_cta; c++) {
        origin = x.cta[c].init < origin ? x.cta[c].init : origin;
        end = x.cta[c].post_final > end ? x.cta[c].post_final : end;
    }
    check_run(o.out, &x, 0, origin);
    gs_meta m = {0};
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/meta.txt", o.out);
    assert_int_equal(gs_meta_read(&m, path, err, sizeof err), 0);
    assert_true(fabs(gs_meta_num(&m, "timer_tick_ns", 0) - expect_tick(&x, origin)) < 0.05);
    assert_non_null(strstr(gs_meta_get(&m, "timing.twin_source"), "not CUDA events"));
    assert_string_equal(gs_meta_get(&m, "timing.twin_method"), "in-kernel-span");
    gs_meta_free(&m);
    /* the twin: Proton's own length of the launch; production: --time-ms */
    gs_timings tim;
    snprintf(path, sizeof path, "%s/timings.tsv", o.out);
    assert_int_equal(gs_timings_read(&tim, path, err, sizeof err), 0);
    const int p = gs_timings_find(&tim, "production"), w = gs_timings_find(&tim, "twin");
    assert_true(p >= 0 && w >= 0);
    assert_int_equal(tim.count[p], 3);
    assert_true(fabs(gs_timings_median(&tim, p) - 0.0200) < 1e-9);
    assert_true(fabs(tim.ms[w][0] - (double)(end - origin) / 1e6) < 1e-6);
    gs_timings_free(&tim);
    /* and the analyzers take the run: SM placement and phases */
    gs_rundata r;
    if (gs_rundata_load(&r, o.out, GS_NEED_PHASES | GS_NEED_SMTIME, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(r.tl.sms_used, 4);
    assert_true(r.phases.ph[GS_MAINLOOP].busy_share > 0.5);
    gs_rundata_free(&r);
}

static void starts_only_need_a_clock(void **state)
{
    (void)state;
    expect x;
    read_expect(STARTS, &x);
    gs_proton_opts o = opts(STARTS, "starts");
    o.sm_clock_ghz = 1.65;
    o.twin_ms = "0.0241";
    import_ok(&o);
    check_run(o.out, &x, 1.65, 0);
    gs_meta m = {0};
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/meta.txt", o.out);
    assert_int_equal(gs_meta_read(&m, path, err, sizeof err), 0);
    assert_true(fabs(gs_meta_num(&m, "timer_tick_ns", 0) - expect_tick(&x, 0)) < 0.05);
    assert_non_null(strstr(gs_meta_get(&m, "clock.converted"), "assumed"));
    gs_meta_free(&m);
}

/* The script's timings file: both builds, in its run order. */
static void a_timings_file_gives_both_builds(void **state)
{
    (void)state;
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/gemm.timings.tsv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# gemmscope-timings 1\nbuild\trep\tms\nproduction\t0\t0.0210\nproduction\t1\t0.0200\n"
          "twin\t0\t0.0230\ntwin\t1\t0.0232\nproduction\t2\t0.0204\ntwin\t2\t0.0228\n",
          f);
    fclose(f);
    gs_proton_opts o = opts(FINAL, "timed");
    o.time_ms = NULL;
    o.timings = path;
    import_ok(&o);
    gs_timings tim;
    char tsv[512];
    snprintf(tsv, sizeof tsv, "%s/timings.tsv", o.out);
    assert_int_equal(gs_timings_read(&tim, tsv, err, sizeof err), 0);
    const int p = gs_timings_find(&tim, "production"), w = gs_timings_find(&tim, "twin");
    assert_int_equal(tim.count[p], 3);
    assert_int_equal(tim.count[w], 3);
    assert_true(fabs(gs_timings_median(&tim, p) - 0.0204) < 1e-9);
    assert_true(fabs(gs_timings_median(&tim, w) - 0.0230) < 1e-9);
    gs_timings_free(&tim);
    o = opts(FINAL, "timed2");
    o.timings = path; /* and --time-ms too */
    char err2[512];
    assert_int_equal(gs_proton_import(&o, err2, sizeof err2), -1);
    assert_non_null(strstr(err2, "both give times"));
}

static void maps_override_names(void **state)
{
    (void)state;
    expect x;
    read_expect(FINAL, &x);
    gs_proton_opts o = opts(FINAL, "mapped");
    o.maps[o.n_maps++] = "setup=prologue";
    o.maps[o.n_maps++] = "tma_wait=own:wait";
    o.maps[o.n_maps++] = "store=skip";
    import_ok(&o);
    gs_meta m = {0};
    gs_trace t;
    gs_phase_table names;
    load_run(o.out, &m, &t, &names);
    assert_int_equal(records_of(&t, GS_PROLOGUE, NULL), x.count[scope_of(&x, "setup")]);
    assert_int_equal(records_of(&t, GS_STORE, NULL), 0);
    const int wait = gs_phase_find(&names, "TMA_WAIT");
    assert_int_equal(names.p[wait].role, GS_PROLE_WAIT);
    assert_int_equal(records_of(&t, wait, NULL), x.count[scope_of(&x, "tma_wait")]);
    assert_int_equal(gs_phase_find(&names, "SETUP"), -1);
    gs_trace_free(&t);
    gs_meta_free(&m);
}

/* ---- refusals ---- */

static void refused(const gs_proton_opts *o, const char *needle)
{
    char err[2048] = "";
    assert_int_equal(gs_proton_import(o, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
    assert_null(strchr(err, '\n'));
    assert_int_not_equal(access(o->out, F_OK), 0); /* nothing left behind */
}

/* A trace of one CTA with `body` as its only event (or the whole file when raw). */
static const char *trace_file(const char *name, const char *body, int raw)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s.chrome_trace", dir, name);
    FILE *f = fopen(path[k], "w");
    assert_non_null(f);
    if (raw)
        fputs(body, f);
    else
        fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[%s]}\n", body);
    fclose(f);
    return path[k];
}

#define EV(fields) "{\"cat\":\"k\",\"name\":\"main_loop\",\"ph\":\"X\"," fields "}"
#define GOOD_IDS "\"pid\":\"k Core1 CTA0\",\"tid\":\"warp 0 (line 0)\""

static void bad_traces_are_refused(void **state)
{
    (void)state;
    const struct {
        const char *name, *body;
        int raw;
        const char *needle;
    } cases[] = {
        {"notjson", "{\"traceEvents\": [", 1, "not JSON"},
        {"noevents", "{\"displayTimeUnit\":\"ns\"}", 1, "no 'traceEvents' array"},
        {"empty", "", 0, "no scope records"},
        {"nots", EV(GOOD_IDS ",\"dur\":1.0"), 0, "no 'ts' number"},
        {"nodur", EV(GOOD_IDS ",\"ts\":1.0"), 0, "no 'dur' number"},
        {"noname", "{\"ph\":\"X\"," GOOD_IDS ",\"ts\":0.0,\"dur\":1.0}", 0, "no 'name' string"},
        {"backwards", EV(GOOD_IDS ",\"ts\":2.0,\"dur\":-1.0"), 0, "ends before it starts"},
        {"negative", EV(GOOD_IDS ",\"ts\":-0.5,\"dur\":1.0"), 0, "negative"},
        {"infinite", EV(GOOD_IDS ",\"ts\":1e999,\"dur\":1.0"), 0, "not JSON"},
        {"huge", EV(GOOD_IDS ",\"ts\":1e300,\"dur\":1.0"), 0, "no launch runs that long"},
        {"pid", EV("\"pid\":\"k CTA0\",\"tid\":\"warp 0\",\"ts\":0.0,\"dur\":1.0"), 0, "is not '<kernel> Core<SM>"},
        {"tid", EV("\"pid\":\"k Core1 CTA0\",\"tid\":\"lane 0\",\"ts\":0.0,\"dur\":1.0"), 0, "is not 'warp <N>"},
        {"twokernels",
         EV(GOOD_IDS ",\"ts\":0.0,\"dur\":1.0") "," EV("\"pid\":\"q Core2 CTA1\",\"tid\":\"warp 0\",\"ts\":0.0,"
                                                      "\"dur\":1.0"),
         0, "kernels 'k' and 'q'"},
        {"twosms",
         EV(GOOD_IDS ",\"ts\":0.0,\"dur\":1.0") "," EV("\"pid\":\"k Core2 CTA0\",\"tid\":\"warp 0\",\"ts\":0.0,"
                                                      "\"dur\":1.0"),
         0, "more than one launch"},
        {"finalbeforeinit",
         EV(GOOD_IDS ",\"ts\":0.0,\"dur\":1.0,\"args\":{\"Init Time (ns)\":5000,\"Post Final Time (ns)\":4000,"
                     "\"Finalization Time (ns)\":10}"),
         0, "ends before it starts"},
        {"halftimes", EV(GOOD_IDS ",\"ts\":0.0,\"dur\":1.0,\"args\":{\"Init Time (ns)\":5000}"), 0,
         "'Post Final Time (ns)' is missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_proton_opts o = opts(trace_file(cases[i].name, cases[i].body, cases[i].raw), "bad");
        o.sm_clock_ghz = 1.5; /* so each case fails for its own reason */
        o.tick_ns = 32;
        refused(&o, cases[i].needle);
    }
}

static void bad_options_are_refused(void **state)
{
    (void)state;
    gs_proton_opts o = opts(FINAL, "badopt");
    o.maps[o.n_maps++] = "main_loop=MAINLOOOP";
    refused(&o, "'MAINLOOOP' is not a phase");
    o = opts(FINAL, "badopt");
    o.maps[o.n_maps++] = "main_loop=own:sleep";
    refused(&o, "is not a phase");
    o = opts(FINAL, "badopt");
    o.maps[o.n_maps++] = "mainloop=MAINLOOP";
    refused(&o, "the trace has no scope 'mainloop'");
    o = opts(FINAL, "badopt");
    o.maps[o.n_maps++] = "setup=own:mma"; /* a role outside the main loop */
    refused(&o, "a role is for sub-phases of MAINLOOP");
    o = opts(FINAL, "badopt");
    o.sms = 0;
    refused(&o, "--sms");
    o = opts(FINAL, "badopt");
    o.sms = 16; /* the fixture runs on SM 20 */
    refused(&o, "ran on SM 20");
    o = opts(STARTS, "badopt");
    refused(&o, "--sm-clock-ghz");
    o = opts(FINAL, "badopt");
    o.time_ms = NULL;
    refused(&o, "--time-ms");
    o = opts(FINAL, "badopt");
    o.time_ms = "0.02,nan";
    refused(&o, "expected MS[,MS...]");
    o = opts(STARTS, "badopt");
    o.sm_clock_ghz = 1.6; /* no final times: the twin must be measured */
    refused(&o, "--twin-ms");
}

static void an_existing_run_is_not_overwritten(void **state)
{
    (void)state;
    gs_proton_opts o = opts(FINAL, "twice");
    import_ok(&o);
    char err[2048] = "";
    assert_int_equal(gs_proton_import(&o, err, sizeof err), -1);
    assert_non_null(strstr(err, "exists"));
}


/* The report and the checks read an imported run for what it is: no clock model (its errors
 * unknown, not 0), no overhead between rows timed differently, dropped records not counted,
 * and no check that would pass by construction. */
static void an_imported_run_is_reported_for_what_it_is(void **state)
{
    (void)state;
    gs_proton_opts o = opts(FINAL, "report");
    import_ok(&o);
    gs_rundata r;
    char err[512], path[600];
    if (gs_rundata_load(&r, o.out, GS_NEED_ALL, err, sizeof err))
        fail_msg("%s", err);
    assert_true(r.clock_converted);
    assert_true(isnan(r.overhead_ratio));
    assert_true(isnan(gs_clock_error_ns(&r.tl)));
    assert_true(r.tl.clock_ghz > 1.0 && r.tl.clock_ghz < 2.5); /* the trace's clock, not the stamps' 1 GHz */
    gs_checklist cl;
    gs_checks_run(&r, &cl);
    for (int k = 0; k < cl.n; k++) {
        assert_null(strstr(cl.row[k].name, "clock"));
        assert_null(strstr(cl.row[k].name, "stamps complete"));
    }
    snprintf(path, sizeof path, "%s/report.md", o.out);
    if (gs_report_write(&r, path, NULL, err, sizeof err))
        fail_msg("%s", err);
    gs_rundata_free(&r);
    const char *text = slurp(path);
    assert_non_null(strstr(text, "timed another way: no overhead"));
    assert_non_null(strstr(text, "dropped records not counted"));
    assert_non_null(strstr(text, "| clock model | none: Proton cycles to ns"));
    assert_non_null(strstr(text, "not applicable (no clock model)"));
    assert_non_null(strstr(text, "+- unknown"));
    assert_non_null(strstr(text, "| layout | per-CTA init and finalize times in args |"));
    assert_non_null(strstr(text, "| not in this run | units.tsv"));
    assert_null(strstr(text, "clock-pair residual"));
    assert_null(strstr(text, "SM clock (fitted)"));
    assert_null(strstr(text, "L2 flushed between repetitions"));
}

/* The committed H100 recording: every scope instance kept, mapped by name, each CTA on its SM
 * with its start, span and main-loop time as the trace gives them at the measured clock. */
static void the_h100_recording(void **state)
{
    (void)state;
    static expect x;
    read_expect(SAMPLE, &x);
    assert_int_equal(x.n_cta, 1024); /* 4096 x 4096 in 128 x 128 tiles */
    gs_proton_opts o = opts(SAMPLE, "h100");
    o.sm_clock_ghz = SAMPLE_GHZ;
    o.time_ms = NULL;
    o.timings = "samples/proton-gemm/gemm.chrome_trace.timings.tsv";
    import_ok(&o);
    gs_meta m = {0};
    gs_trace t;
    gs_phase_table names;
    load_run(o.out, &m, &t, &names);
    assert_int_equal(t.ctas, x.n_cta);
    assert_int_equal(t.warps_per_cta, x.warps);
    const struct {
        const char *scope;
        int phase;
    } map[] = {{"prologue", GS_PROLOGUE}, {"mainloop", GS_MAINLOOP}, {"drain", GS_ACC_TO_REG},
               {"epilogue", GS_EPILOGUE}, {"store", GS_STORE}};
    size_t total = 0;
    for (size_t i = 0; i < 5; i++) {
        const int n = x.count[scope_of(&x, map[i].scope)];
        assert_int_equal(records_of(&t, map[i].phase, NULL), n);
        assert_int_equal(n, 1024 * 8); /* one instance per warp */
        total += (size_t)n;
    }
    assert_int_equal(x.n_names, 5);
    assert_int_equal(total, 40960);
    check_placement(&t, &x, "mainloop", SAMPLE_GHZ, 0);
    assert_string_equal(gs_meta_get(&m, "import.layout"), "CTA starts only (no per-CTA final times)");
    gs_trace_free(&t);
    gs_meta_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(final_times_give_the_clock),  cmocka_unit_test(starts_only_need_a_clock),
        cmocka_unit_test(a_timings_file_gives_both_builds),
        cmocka_unit_test(maps_override_names),         cmocka_unit_test(bad_traces_are_refused),
        cmocka_unit_test(bad_options_are_refused),     cmocka_unit_test(an_existing_run_is_not_overwritten),
        cmocka_unit_test(an_imported_run_is_reported_for_what_it_is),
        cmocka_unit_test(the_h100_recording),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
