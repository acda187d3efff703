/* Writing a run directory through the library's API (instrument/gs_rundir.h) and the two
 * files that make a run self-describing: the phase names in meta.txt
 * (instrument/gs_phase_table.h) and units.tsv (instrument/gs_units.h).  Each accepts what a
 * real run produces and refuses, with the reason, what none does. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "slurp.h"
#include "tmpdir.h"
#include "synth.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/run.h"
#include "instrument/gs_rundir.h"

static void expect_name_refused(gs_phase_table *t, int id, const char *name, int within, const char *role,
                                const char *needle)
{
    char err[256] = "";
    assert_int_equal(gs_phase_table_name(t, id, name, within, role, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("'%s': error '%s' lacks '%s'", name, err, needle);
}

static void phase_names_are_checked(void **state)
{
    (void)state;
    gs_phase_table t;
    char err[256];
    gs_phase_table_init(&t);
    assert_string_equal(gs_phase_name(&t, GS_EPILOGUE), "EPILOGUE");
    assert_string_equal(gs_phase_name(&t, GS_PHASE_OWN(0)), "PHASE5"); /* unnamed: a placeholder */
    assert_int_equal(gs_phase_is_sub(&t, GS_PHASE_OWN(0)), 0);
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(0), "TMA_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    assert_int_equal(gs_phase_find(&t, "TMA_WAIT"), GS_PHASE_OWN(0));
    assert_int_equal(gs_phase_is_sub(&t, GS_PHASE_OWN(0)), 1);
    expect_name_refused(&t, GS_EPILOGUE, "X", -1, NULL, "not a kernel phase");
    expect_name_refused(&t, GS_NUM_PHASES, "X", -1, NULL, "not a kernel phase");
    expect_name_refused(&t, GS_PHASE_OWN(1), "lower", -1, NULL, "is not 1-31 of A-Z");
    expect_name_refused(&t, GS_PHASE_OWN(1), "9LIVES", -1, NULL, "is not 1-31 of A-Z");
    expect_name_refused(&t, GS_PHASE_OWN(1), "", -1, NULL, "is not 1-31 of A-Z");
    expect_name_refused(&t, GS_PHASE_OWN(1), "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", -1, NULL, "is not 1-31 of A-Z");
    expect_name_refused(&t, GS_PHASE_OWN(1), "ALL", -1, NULL, "is not 1-31 of A-Z");
    expect_name_refused(&t, GS_PHASE_OWN(1), "TMA_WAIT", -1, NULL, "taken by phase 5");
    expect_name_refused(&t, GS_PHASE_OWN(1), "STORE", -1, NULL, "taken by phase 3");
    expect_name_refused(&t, GS_PHASE_OWN(1), "X", GS_PHASE_OWN(0), NULL, "only inside a fixed phase");
    expect_name_refused(&t, GS_PHASE_OWN(1), "X", GS_MAINLOOP, "sleep", "role 'sleep'");
    expect_name_refused(&t, GS_PHASE_OWN(1), "X", GS_EPILOGUE, "mma", "a role is for sub-phases of MAINLOOP");
    expect_name_refused(&t, GS_PHASE_OWN(1), "X", -1, "wait", "a role is for sub-phases of MAINLOOP");
    /* a sub-phase of the epilogue, and a phase of its own */
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(1), "SILU", GS_EPILOGUE, NULL, err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(6), "POLL", -1, "", err, sizeof err), 0);
    int subs[GS_NUM_PHASES];
    assert_int_equal(gs_phase_main_subs(&t, subs), 1);
    assert_int_equal(subs[0], GS_PHASE_OWN(0));
}

static void phase_names_round_trip_through_meta(void **state)
{
    (void)state;
    gs_phase_table t, back;
    gs_meta m = {0};
    char err[256];
    gs_phase_table_init(&t);
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(0), "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(2), "MMA", GS_MAINLOOP, "mma", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&t, GS_PHASE_OWN(4), "SEEN", -1, NULL, err, sizeof err), 0);
    assert_int_equal(gs_phase_table_to_meta(&t, &m), 0);
    assert_string_equal(gs_meta_get(&m, "phase.5.name"), "LOAD_WAIT");
    assert_string_equal(gs_meta_get(&m, "phase.5.within"), "MAINLOOP");
    assert_string_equal(gs_meta_get(&m, "phase.7.role"), "mma");
    assert_null(gs_meta_get(&m, "phase.9.within"));
    assert_int_equal(gs_phase_table_from_meta(&back, &m, err, sizeof err), 0);
    assert_memory_equal(&t, &back, sizeof t);
    gs_meta_free(&m);
}

static void expect_meta_refused(const char *key, const char *val, const char *needle)
{
    gs_meta m = {0};
    gs_phase_table t;
    char err[256] = "";
    gs_meta_set(&m, "phase.5.name", "OK");
    gs_meta_set(&m, key, "%s", val);
    assert_int_equal(gs_phase_table_from_meta(&t, &m, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("%s = %s: error '%s' lacks '%s'", key, val, err, needle);
    gs_meta_free(&m);
}

static void bad_phase_keys_are_refused(void **state)
{
    (void)state;
    expect_meta_refused("phase.2.name", "X", "not a kernel phase");
    expect_meta_refused("phase.6.colour", "red", "is not phase.<id>.name");
    expect_meta_refused("phase.6.within", "MAINLOOP", "phase.6.name missing");
    expect_meta_refused("phase.5.within", "NOWHERE", "only inside a fixed phase");
    expect_meta_refused("phase.5.role", "mma", "a role is for sub-phases of MAINLOOP");
    expect_meta_refused("phase.6.name", "OK", "taken by phase 5");
    expect_meta_refused("phase.x.name", "Y", "is not phase.<id>.name");
}

static void expect_unit_refused(gs_unit u, const char *needle)
{
    gs_units us = {0};
    char err[256] = "";
    assert_int_equal(gs_units_add(&us, &u, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
    gs_units_free(&us);
}

static void units_refuse_what_no_schedule_makes(void **state)
{
    (void)state;
    const gs_unit ok = {3, 1, 0, 128, 0, 8, 1, 1e6};
    gs_unit u = ok;
    u.k1 = 0;
    expect_unit_refused(u, "k0 < k1");
    u = ok, u.width = 0;
    expect_unit_refused(u, "not a unit a schedule makes");
    u = ok, u.parts = 0;
    expect_unit_refused(u, "not a unit a schedule makes");
    u = ok, u.unit = GS_MAX_UNITS;
    expect_unit_refused(u, "tag < 65536");
    u = ok, u.flops = NAN;
    expect_unit_refused(u, "flops finite");
    u = ok, u.flops = INFINITY;
    expect_unit_refused(u, "flops finite");
    u = ok, u.flops = -1;
    expect_unit_refused(u, "flops finite");
    gs_units us = {0};
    char err[256];
    assert_int_equal(gs_units_add(&us, &ok, err, sizeof err), 0);
    assert_int_equal(gs_units_add(&us, &ok, err, sizeof err), -1);
    assert_non_null(strstr(err, "unit 3 is given twice"));
    gs_units_free(&us);
}

/* Writes `body` after a units header into dir/name; the path. */
static const char *units_file(const char *name, const char *header, const char *body)
{
    static char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "%s%s", header, body);
    fclose(f);
    return p;
}

#define UHEAD "# gemmscope-units 1\nunit\tcta\tgroup\twidth\tk0\tk1\tparts\tflops\n"

static void expect_units_file_refused(const char *header, const char *body, const char *needle)
{
    gs_units us;
    char err[512] = "";
    assert_int_equal(gs_units_read(&us, units_file("bad.tsv", header, body), err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
}

static void units_file_round_trip_and_refusals(void **state)
{
    (void)state;
    gs_units us = {0}, back;
    char err[512], p[600];
    const gs_unit a = {0, 0, 0, 96, 0, 56, 1, 2.0 * 128 * 96 * 128 * 56}, b = {7, 131, 5, 256, 20, 56, 3, 1.5e9 / 7};
    assert_int_equal(gs_units_add(&us, &a, err, sizeof err), 0);
    assert_int_equal(gs_units_add(&us, &b, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/units.tsv", dir);
    assert_int_equal(gs_units_write(&us, p, err, sizeof err), 0);
    assert_int_equal(gs_units_read(&back, p, err, sizeof err), 0);
    assert_int_equal(back.n, 2);
    const gs_unit *w[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        const gs_unit *x = &back.u[i];
        assert_true(x->unit == w[i]->unit && x->cta == w[i]->cta && x->group == w[i]->group);
        assert_true(x->width == w[i]->width && x->k0 == w[i]->k0 && x->k1 == w[i]->k1 && x->parts == w[i]->parts);
        assert_true(x->flops == w[i]->flops); /* exact: written with %.17g */
    }
    gs_units_free(&us);
    gs_units_free(&back);
    /* no file: a run without units */
    snprintf(p, sizeof p, "%s/none.tsv", dir);
    assert_int_equal(gs_units_read(&back, p, err, sizeof err), 0);
    assert_int_equal(back.n, 0);

    expect_units_file_refused("# gemmscope-units 2\n", "", "units version 2");
    expect_units_file_refused("unit\tcta\n", "", "not a gemmscope units file");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t8\t1\n", ":3: expected unit");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t8\t1\t1e6\t9\n", ":3: expected unit");
    expect_units_file_refused(UHEAD, "0\t-1\t0\t64\t0\t8\t1\t1e6\n", ":3: expected unit");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t8\t1\t1e6x\n", ":3: expected unit");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t4294967296\t1\t1e6\n", ":3: expected unit");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t8\t1\tnan\n", ":3: unit 0: not a unit");
    expect_units_file_refused(UHEAD, "0\t0\t0\t64\t0\t8\t1\t1e6\n0\t1\t0\t64\t0\t8\t1\t1e6\n", ":4: unit 0 is given twice");
}

/* Two CTAs of one warp: a main loop of four K blocks, each opening with a wait of wait_ns, then
 * an epilogue. */
static void two_ctas_every(synth *s, double wait_ns, double step_ns)
{
    synth_init(s, 2, 1, 8);
    for (uint32_t c = 0; c < 2; c++) {
        synth_warp(s, c, 0, (uint16_t)c, 0, 10000);
        synth_event(s, c, 0, GS_MAINLOOP, 0, 8000, (uint16_t)c);
        for (int k = 0; k < 4; k++)
            synth_event(s, c, 0, SYN_WAIT, step_ns * k, step_ns * k + wait_ns, (uint16_t)c);
        synth_event(s, c, 0, GS_EPILOGUE, 8000, 10000, (uint16_t)c);
    }
}

static void two_ctas(synth *s, double wait_ns)
{
    two_ctas_every(s, wait_ns, 2000);
}

/* A whole run through the API: 2 CTAs x 1 warp, a main loop and its wait sub-phase. */
static int write_run(gs_rundir *rd, const char *path, int stamps, int timings, char *err, size_t n)
{
    if (gs_rundir_begin(rd, path, err, n))
        return -1;
    gs_meta_set(&rd->meta, "subject", "mine");
    gs_meta_set(&rd->meta, "shape", "s1");
    gs_meta_set(&rd->meta, "variant", "default");
    gs_meta_set(&rd->meta, "sm_count", "2");
    if (gs_rundir_phase(rd, SYN_WAIT, "TMA_WAIT", GS_MAINLOOP, "wait", err, n))
        return -1;
    for (uint32_t c = 0; c < 2; c++) {
        const gs_unit u = {c, c, 0, 128, 0, 4, 1, 4 * 2.0 * 128 * 128 * 64};
        if (gs_rundir_unit(rd, &u, err, n))
            return -1;
    }
    double ms[50], twin[50];
    for (int i = 0; i < 50; i++)
        ms[i] = 0.1 + 1e-4 * (i % 3), twin[i] = 0.102 + 1e-4 * (i % 3);
    if (timings && (gs_rundir_timing(rd, "production", ms, 50, err, n) || gs_rundir_timing(rd, "twin", twin, 50, err, n)))
        return -1;
    if (!stamps)
        return 0;
    synth s;
    two_ctas(&s, 500);
    gs_record *seg = synth_segments(&s);
    int rc = gs_rundir_stamps(rd, 32.0, 2, 1, 8, s.w, seg, err, n);
    free(seg);
    free(s.ev);
    free(s.w);
    return rc;
}

static void a_run_written_through_the_api_reads_back(void **state)
{
    (void)state;
    gs_rundir rd;
    gs_rundata r;
    char err[512], p[600], tmp[2200];
    snprintf(p, sizeof p, "%s/runs/mine/default/1", dir);
    assert_int_equal(write_run(&rd, p, 1, 1, err, sizeof err), 0);
    snprintf(tmp, sizeof tmp, "%s", rd.tmp);
    assert_int_not_equal(access(p, F_OK), 0); /* not in place before the commit */
    assert_int_equal(gs_rundir_commit(&rd, err, sizeof err), 0);
    assert_int_not_equal(access(tmp, F_OK), 0);
    assert_int_equal(gs_rundata_load(&r, p, GS_NEED_ALL, err, sizeof err), 0);
    assert_string_equal(gs_rundata_phase(&r, SYN_WAIT), "TMA_WAIT");
    assert_int_equal(r.units.n, 2);
    assert_int_equal(r.widths.ok, 1);
    assert_int_equal(r.widths.n_sub, 1);
    assert_float_equal(r.widths.row[0].kb_p50_ns, 2000, 1);
    assert_float_equal(r.phases.ph[SYN_WAIT].busy_share, 0.2, 1e-3);
    assert_float_equal(r.time_ms, 0.1001, 1e-9);
    /* no per-K-block sub-phase named: no profile, no plot of it, none embedded */
    assert_int_equal(gs_plots_have_kblocks(&r), 0);
    assert_int_equal(gs_plots_write(&r, p, err, sizeof err), 0);
    snprintf(tmp, sizeof tmp, "%s/plots/kblocks.dat", p);
    assert_int_not_equal(access(tmp, F_OK), 0);
    snprintf(tmp, sizeof tmp, "%s/plots/sms_busy.dat", p);
    assert_int_equal(access(tmp, F_OK), 0);
    gs_rundata_free(&r);
    /* written once */
    assert_int_equal(gs_rundir_begin(&rd, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "exists"));
}


/* The detail twin's stamps: only after the twin's, and read back as the sub-phases' source
 * (WAIT: 20% of CTA time in the twin's stamps, 40% in the detail twin's; a WAIT every 2000 ns
 * in the twin's, every 1800 in the detail twin's: the steady cost per K block is the detail
 * twin's, and the 8000 ns MAINLOOP has 800 above its four K blocks). */
static void detail_stamps_beside_the_twins(void **state)
{
    (void)state;
    gs_rundir rd;
    gs_rundata r;
    char err[512], p[600];
    gs_warp_header w0 = {0};
    gs_record r0 = {0};
    snprintf(p, sizeof p, "%s/runs/early-detail", dir);
    assert_int_equal(gs_rundir_begin(&rd, p, err, sizeof err), 0);
    assert_int_equal(gs_rundir_stamps_detail(&rd, 1, 1, 1, &w0, &r0, err, sizeof err), -1);
    assert_non_null(strstr(err, "first"));
    gs_rundir_abort(&rd);

    snprintf(p, sizeof p, "%s/runs/both", dir);
    assert_int_equal(write_run(&rd, p, 1, 1, err, sizeof err), 0);
    gs_meta_set(&rd.meta, "units.kblock_phase", "TMA_WAIT");
    synth s;
    two_ctas_every(&s, 1000, 1800);
    gs_record *seg = synth_segments(&s);
    assert_int_equal(gs_rundir_stamps_detail(&rd, 2, 1, 8, s.w, seg, err, sizeof err), 0);
    free(seg);
    free(s.ev);
    free(s.w);
    assert_int_equal(gs_rundir_commit(&rd, err, sizeof err), 0);
    assert_int_equal(gs_rundata_load(&r, p, GS_NEED_ALL, err, sizeof err), 0);
    assert_true(r.has_detail);
    assert_float_equal(r.phases.ph[SYN_WAIT].busy_share, 0.4, 1e-3);
    assert_float_equal(r.widths.row[0].sub_ns[SYN_WAIT], 1000, 1);
    assert_float_equal(r.widths.row[0].steady_kb_ns, 1800, 1);
    assert_float_equal(r.widths.row[0].above_steady_ns, 800, 1);
    assert_float_equal(r.widths.row[0].above_steady_share, 0.1, 1e-3);
    /* the report's width table: its three steady columns, as many cells in every line */
    char path[700];
    snprintf(path, sizeof path, "%s/report.md", p);
    assert_int_equal(gs_report_write(&r, path, NULL, err, sizeof err), 0);
    const char *h = strstr(slurp(path), "| width | whole tiles |");
    assert_non_null(h);
    int bars[3] = {0, 0, 0}, line = 0;
    for (const char *c = h; *c && line < 3; c++)
        if (*c == '|')
            bars[line]++;
        else if (*c == '\n')
            line++;
    assert_int_equal(line, 3);
    assert_int_equal(bars[0], 16); /* 15 columns: 11, one sub-phase, the three steady ones */
    assert_int_equal(bars[1], bars[0]);
    assert_int_equal(bars[2], bars[0]);
    assert_non_null(strstr(h, " TMA_WAIT us | steady us per K block | above steady us | above steady, of MAINLOOP |\n"));
    assert_non_null(strstr(h, "| 1.800 | 0.80 | 10.0% |\n"));
    assert_non_null(strstr(h, "![kblocks](plots/kblocks.png)"));
    /* the K-block profile's plot: three intervals of 1800 ns, the detail twin's */
    assert_int_equal(gs_plots_write(&r, p, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/plots/kblocks.dat", p);
    const char *dat = slurp(path);
    assert_non_null(strstr(dat, "from the detail twin's stamps\n# width 128\n1 1.8000 1.8000\n2 1.8000 1.8000\n"
                                "3 1.8000 1.8000\n"));
    assert_null(strstr(dat, "\n4 "));
    /* and summary.json's */
    snprintf(path, sizeof path, "%s/summary.json", p);
    assert_int_equal(gs_summary_write(&r, path, err, sizeof err), 0);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    assert_non_null(root);
    assert_int_equal(json_integer_value(json_object_get(root, "version")), 4);
    json_t *row = json_array_get(json_object_get(json_object_get(root, "mainloop_by_width"), "widths"), 0);
    assert_float_equal(json_real_value(json_object_get(row, "steady_kb_us")), 1.8, 1e-3);
    assert_float_equal(json_real_value(json_object_get(row, "above_steady_us")), 0.8, 1e-3);
    assert_float_equal(json_real_value(json_object_get(row, "above_steady_share")), 0.1, 1e-3);
    json_decref(root);
    gs_rundata_free(&r);
}

static void incomplete_runs_never_land(void **state)
{
    (void)state;
    gs_rundir rd;
    char err[512], p[600], tmp[2200];
    snprintf(p, sizeof p, "%s/runs/nostamps", dir);
    assert_int_equal(write_run(&rd, p, 0, 1, err, sizeof err), 0);
    snprintf(tmp, sizeof tmp, "%s", rd.tmp);
    assert_int_equal(gs_rundir_commit(&rd, err, sizeof err), -1);
    assert_non_null(strstr(err, "lacks the stamps"));
    assert_int_not_equal(access(p, F_OK), 0);
    gs_rundir_abort(&rd);
    assert_int_not_equal(access(tmp, F_OK), 0);

    snprintf(p, sizeof p, "%s/runs/notimes", dir);
    assert_int_equal(write_run(&rd, p, 1, 0, err, sizeof err), 0);
    /* the PC samples' copy of their source is a folder tree in the run: it goes too */
    char deep[2400];
    snprintf(tmp, sizeof tmp, "%s", rd.tmp);
    snprintf(deep, sizeof deep, "%s/sources/kernels", rd.tmp);
    assert_int_equal(gs_make_dirs(deep), 0);
    assert_int_equal(gs_make_dirs(deep), 0); /* already there */
    strcat(deep, "/k.cu.gz");
    FILE *f = fopen(deep, "w");
    assert_non_null(f);
    fclose(f);
    /* a file where a folder should be is no folder */
    errno = 0;
    assert_int_equal(gs_make_dirs(deep), -1);
    assert_int_equal(errno, ENOTDIR);
    char below[2420];
    snprintf(below, sizeof below, "%s/x", deep);
    errno = 0;
    assert_int_equal(gs_make_dirs(below), -1);
    assert_int_equal(errno, ENOTDIR);
    assert_int_equal(gs_rundir_commit(&rd, err, sizeof err), -1);
    assert_non_null(strstr(err, "lacks the production build's timings"));
    gs_rundir_abort(&rd);
    assert_int_not_equal(access(tmp, F_OK), 0);

    /* a unit on a CTA the launch does not have */
    snprintf(p, sizeof p, "%s/runs/badcta", dir);
    assert_int_equal(write_run(&rd, p, 1, 1, err, sizeof err), 0);
    const gs_unit u = {9, 2, 0, 128, 0, 4, 1, 1e6};
    assert_int_equal(gs_rundir_unit(&rd, &u, err, sizeof err), 0);
    assert_int_equal(gs_rundir_commit(&rd, err, sizeof err), -1);
    assert_non_null(strstr(err, "unit 9 runs on CTA 2, the launch has 2"));
    gs_rundir_abort(&rd);
    assert_int_not_equal(access(p, F_OK), 0);
}

static void timings_and_ticks_must_be_times(void **state)
{
    (void)state;
    gs_rundir rd;
    char err[512], p[600];
    snprintf(p, sizeof p, "%s/runs/times", dir);
    assert_int_equal(gs_rundir_begin(&rd, p, err, sizeof err), 0);
    const double bad[][2] = {{0.1, NAN}, {0.1, INFINITY}, {0.1, -0.1}, {0.1, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gs_rundir_timing(&rd, "production", bad[i], 2, err, sizeof err), -1);
        assert_non_null(strstr(err, "not a time"));
    }
    assert_int_equal(gs_rundir_timing(&rd, "production", bad[0], 0, err, sizeof err), -1);
    assert_int_equal(gs_rundir_timing(&rd, "a-build-name-of-more-than-32-chars", bad[0], 1, err, sizeof err), -1);
    gs_warp_header w = {0};
    gs_record rec = {0};
    assert_int_equal(gs_rundir_stamps(&rd, NAN, 1, 1, 1, &w, &rec, err, sizeof err), -1);
    assert_int_equal(gs_rundir_stamps(&rd, 0, 1, 1, 1, &w, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a tick"));
    gs_rundir_abort(&rd);
}

/* probes.tsv: written and read back; brackets that bracket no read, and non-numbers, refused. */
static void probes_round_trip_and_refusals(void **state)
{
    (void)state;
    gs_probes ps = {0}, back;
    char err[256], p[600];
    const gs_probe a = {3, 1000, 1700000000000000000ull, 1040};
    assert_int_equal(gs_probes_add(&ps, &a, err, sizeof err), 0);
    const gs_probe bad = {3, 1040, 1, 1000};
    assert_int_equal(gs_probes_add(&ps, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "bracket no timer read"));
    snprintf(p, sizeof p, "%s/probes.tsv", dir);
    assert_int_equal(gs_probes_write(&ps, p, err, sizeof err), 0);
    assert_int_equal(gs_probes_read(&back, p, err, sizeof err), 0);
    assert_int_equal(back.n, 1);
    assert_true(back.p[0].cta == 3 && back.p[0].clk_before == 1000 && back.p[0].gt == a.gt && back.p[0].clk_after == 1040);
    gs_probes_free(&back);
    gs_probes_free(&ps);
    FILE *f = fopen(p, "w");
    fputs("# gemmscope-probes 1\ncta\tclk_before\tgt\tclk_after\n1\t-5\t7\t9\n", f);
    fclose(f);
    assert_int_equal(gs_probes_read(&back, p, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3: expected cta"));
    /* the table reader's other refusals (gs_tsv.c, shared with units.tsv): another version,
     * another kind, a line longer than a row can be, a row with a field too many */
    static const char *const bad_files[][2] = {
        {"# gemmscope-probes 2\n", "probes version 2"},
        {"# gemmscope-units 1\n", "not a gemmscope probes file"},
        {NULL, "line too long"},
        {"# gemmscope-probes 1\n1\t2\t3\t4\t5\n", ":2: expected cta"},
    };
    for (size_t i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++) {
        snprintf(p, sizeof p, "%s/probes.tsv", dir);
        f = fopen(p, "w");
        if (bad_files[i][0])
            fputs(bad_files[i][0], f);
        else { /* a row of 600 digits */
            fputs("# gemmscope-probes 1\n1\t2\t3\t", f);
            for (int k = 0; k < 600; k++)
                fputc('9', f);
            fputs("\n", f);
        }
        fclose(f);
        assert_int_equal(gs_probes_read(&back, p, err, sizeof err), -1);
        if (!strstr(err, bad_files[i][1]))
            fail_msg("probes file %zu: '%s' does not say '%s'", i, err, bad_files[i][1]);
        assert_int_equal(back.n, 0);
    }
    snprintf(p, sizeof p, "%s/none.tsv", dir);
    assert_int_equal(gs_probes_read(&back, p, err, sizeof err), 0);
    assert_int_equal(back.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(phase_names_are_checked),
        cmocka_unit_test(phase_names_round_trip_through_meta),
        cmocka_unit_test(bad_phase_keys_are_refused),
        cmocka_unit_test(units_refuse_what_no_schedule_makes),
        cmocka_unit_test(units_file_round_trip_and_refusals),
        cmocka_unit_test(a_run_written_through_the_api_reads_back),
        cmocka_unit_test(detail_stamps_beside_the_twins),
        cmocka_unit_test(incomplete_runs_never_land),
        cmocka_unit_test(timings_and_ticks_must_be_times),
        cmocka_unit_test(probes_round_trip_and_refusals),
    };
    return cmocka_run_group_tests_name("rundir", tests, tmpdir_setup, tmpdir_teardown);
}
