/* Round trips and bad inputs for every run-directory format:
 * stamps.gss, meta.txt, timings.tsv. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <stdio.h>
#include <unistd.h>
#include "synth.h"
#include "instrument/gs_run.h"


static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

/* A small trace with an overflowing warp, written the way the recorder does. */
static void write_sample(const char *path)
{
    synth s;
    char err[256];
    synth_init(&s, 2, 2, 3);
    synth_warp(&s, 0, 0, 4, 0, 500);
    synth_warp(&s, 0, 1, 4, 0, 500);
    synth_warp(&s, 1, 0, 7, 10, 400);
    synth_warp(&s, 1, 1, 7, 10, 400);
    for (int i = 0; i < 5; i++)
        synth_event(&s, 0, 0, SYN_MMA, 10 * i, 10 * i + 5, (uint16_t)i);
    synth_event(&s, 1, 1, GS_STORE, 100, 200, 9);
    gs_record *seg = synth_segments(&s);
    assert_int_equal(gs_file_write(path, 32, 2, 2, 3, s.w, seg, err, sizeof err), 0);
    free(seg);
    free(s.ev);
    free(s.w);
}

static void stamp_file_round_trip(void **state)
{
    (void)state;
    char p[256], err[256];
    gs_trace t;
    path_of(p, sizeof p, "ok.gss");
    write_sample(p);
    assert_int_equal(gs_file_read(p, &t, err, sizeof err), 0);
    assert_int_equal(t.ctas, 2);
    assert_int_equal(t.warps_per_cta, 2);
    assert_int_equal(t.capacity, 3);
    assert_float_equal(t.timer_tick_ns, 32, 0);
    assert_int_equal(t.n_records, 4); /* 3 kept of 5, plus 1 */
    assert_int_equal(t.warps[0].events, 5);
    assert_int_equal(gs_kept(&t, 0), 3);
    assert_int_equal(t.first[3], 3);
    assert_int_equal(t.records[2].tile, 2);
    assert_int_equal(t.records[3].phase, GS_STORE);
    assert_int_equal(t.records[3].sm, 7);
    assert_int_equal(t.warps[3].sm, 7);
    gs_trace_free(&t);
}

/* Copies the sample with the bytes [at, at+len) replaced, or cut at `cut`. */
static void corrupt(const char *src, const char *dst, long at, const void *bytes, size_t len, long cut)
{
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (bytes)
        memcpy(buf + at, bytes, len);
    if (cut >= 0)
        n = (size_t)cut;
    f = fopen(dst, "wb");
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

static void expect_error(const char *path, const char *needle)
{
    gs_trace t;
    char err[256] = "";
    assert_int_equal(gs_file_read(path, &t, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
    assert_null(strchr(err, '\n'));
}

static void stamp_file_bad_inputs(void **state)
{
    (void)state;
    char ok[256], bad[256];
    path_of(ok, sizeof ok, "ok.gss");
    write_sample(ok);
    path_of(bad, sizeof bad, "bad.gss");

    corrupt(ok, bad, 0, NULL, 0, 40);
    expect_error(bad, "truncated");
    corrupt(ok, bad, 0, NULL, 0, 64 + 4 * 64 + 2 * 32);
    expect_error(bad, "truncated");
    corrupt(ok, bad, 0, "NOTGSST", 8, -1);
    expect_error(bad, "bad magic");
    uint32_t v = 7;
    corrupt(ok, bad, 8, &v, 4, -1);
    expect_error(bad, "version 7");
    uint8_t phase = 200;
    corrupt(ok, bad, 64 + 4 * 64 + 28, &phase, 1, -1); /* record 0, byte 28: phase */
    expect_error(bad, "out of range");
    /* a clock pair is a record of version 2 files only, with a bracket of at most
     * GS_CLOCK_BRACKET_MAX cycles and gt_dur, tile, group 0 (record 0: bytes 16 clk_dur, 20
     * gt_dur, 24 tile, 26 group, 28 phase) */
    const long r0 = 64 + 4 * 64;
    char pair[256];
    path_of(pair, sizeof pair, "pair.gss");
    const uint8_t pair_bytes[13] = {200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, GS_CLOCK_PAIR}; /* clk_dur 200 */
    corrupt(ok, pair, r0 + 16, pair_bytes, sizeof pair_bytes, -1);
    gs_trace t;
    char err[256] = "";
    assert_int_equal(gs_file_read(pair, &t, err, sizeof err), 0);
    assert_int_equal(t.records[0].phase, GS_CLOCK_PAIR);
    gs_trace_free(&t);
    const uint32_t wide = GS_CLOCK_BRACKET_MAX + 1, tick = 32;
    corrupt(pair, bad, r0 + 16, &wide, 4, -1);
    expect_error(bad, "clock pair 0 is malformed (bracket 257 cycles");
    corrupt(pair, bad, r0 + 20, &tick, 4, -1);
    expect_error(bad, "gt_dur 32");
    corrupt(pair, bad, r0 + 26, &(uint16_t){3}, 2, -1);
    expect_error(bad, "group 3 must be 0");
    /* the same record in a version 1 file: out of range */
    path_of(ok, sizeof ok, "v1.gss");
    v = 1;
    corrupt(pair, ok, 8, &v, 4, -1);
    expect_error(ok, "out of range");
    corrupt(ok, bad, 64 + 4 * 64 + 28, &(uint8_t){SYN_MMA}, 1, -1); /* version 1 without clock pairs */
    assert_int_equal(gs_file_read(bad, &t, err, sizeof err), 0);
    gs_trace_free(&t);
    path_of(bad, sizeof bad, "missing.gss");
    expect_error(bad, "cannot open");
}

static void meta_round_trip_and_errors(void **state)
{
    (void)state;
    char p[256], err[256];
    gs_meta m = {0}, r;
    path_of(p, sizeof p, "meta.txt");
    gs_meta_set(&m, "gpu", "NVIDIA H100 80GB HBM3");
    gs_meta_set(&m, "command", "two\nlines");
    gs_meta_set(&m, "timer_tick_ns", "%.1f", 32.0);
    gs_meta_set(&m, "gpu", "replaced");
    assert_int_equal(gs_meta_write(&m, p, err, sizeof err), 0);
    assert_int_equal(gs_meta_read(&r, p, err, sizeof err), 0);
    assert_string_equal(gs_meta_get(&r, "gpu"), "replaced");
    assert_string_equal(gs_meta_get(&r, "command"), "two lines");
    assert_float_equal(gs_meta_num(&r, "timer_tick_ns", 0), 32, 0);
    assert_float_equal(gs_meta_num(&r, "absent", -1), -1, 0);
    assert_null(gs_meta_get(&r, "absent"));
    gs_meta_free(&r);
    gs_meta_free(&m);

    FILE *f = fopen(p, "w");
    fputs("gemmscope-meta 3\na = b\n", f);
    fclose(f);
    assert_int_equal(gs_meta_read(&r, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "version 3"));
    /* format 1 runs named no phases and listed no units: refused, with what to do */
    f = fopen(p, "w");
    fputs("gemmscope-meta 1\na = b\n", f);
    fclose(f);
    assert_int_equal(gs_meta_read(&r, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "record it again"));
    f = fopen(p, "w");
    fputs("gemmscope-meta 2\nno equals sign\n", f);
    fclose(f);
    assert_int_equal(gs_meta_read(&r, p, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2:"));
    f = fopen(p, "w");
    fputs("something else\n", f);
    fclose(f);
    assert_int_equal(gs_meta_read(&r, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a gemmscope meta file"));
}

static void timings_round_trip_and_errors(void **state)
{
    (void)state;
    char p[256], err[256];
    gs_timings t = {0}, r;
    double a[] = {0.30, 0.10, 0.20, 0.40}, b[] = {1.0, 3.0};
    path_of(p, sizeof p, "timings.tsv");
    assert_int_equal(gs_timings_add(&t, "production", a, 4), 0);
    assert_int_equal(gs_timings_add(&t, "twin", b, 2), 0);
    assert_int_equal(gs_timings_write(&t, p, err, sizeof err), 0);
    assert_int_equal(gs_timings_read(&r, p, err, sizeof err), 0);
    int i = gs_timings_find(&r, "production");
    assert_int_equal(r.count[i], 4);
    assert_float_equal(gs_timings_median(&r, i), 0.25, 1e-9);
    assert_float_equal(gs_timings_min(&r, i), 0.10, 1e-9);
    assert_float_equal(gs_timings_max(&r, i), 0.40, 1e-9);
    assert_float_equal(gs_timings_median(&r, gs_timings_find(&r, "twin")), 2.0, 1e-9);
    assert_int_equal(gs_timings_find(&r, "absent"), -1);
    gs_timings_free(&r);
    gs_timings_free(&t);

    FILE *f = fopen(p, "w");
    fputs("# gemmscope-timings 1\nbuild\trep\tms\nproduction\t0\tfast\n", f);
    fclose(f);
    assert_int_equal(gs_timings_read(&r, p, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stamp_file_round_trip),
        cmocka_unit_test(stamp_file_bad_inputs),
        cmocka_unit_test(meta_round_trip_and_errors),
        cmocka_unit_test(timings_round_trip_and_errors),
    };
    return cmocka_run_group_tests_name("formats", tests, tmpdir_setup, tmpdir_teardown);
}
