/* Round trips and bad inputs for every run-directory format:
 * stamps.gss, meta.txt, timings.tsv. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include "tmpdir.h"

#include <stdio.h>
#include <unistd.h>
#include <zlib.h>
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

/* Recomputes a version-3 file's crc32 (bytes 36-39), as a writer that made the corruption
 * itself would: the checks behind the crc must catch what it lets through. */
static void fix_crc(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    memset(buf + 36, 0, 4);
    const uint32_t crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), buf, n);
    memcpy(buf + 36, &crc, 4);
    f = fopen(path, "wb");
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* corrupt(), then the crc made to match */
static void forge(const char *src, const char *dst, long at, const void *bytes, size_t len, long cut)
{
    corrupt(src, dst, at, bytes, len, cut);
    fix_crc(dst);
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
    const long w0 = 64, r0 = 64 + 4 * 64; /* warp headers, records */

    /* any byte changed: the crc32 of version 3 */
    for (long at = 56; at < r0 + 4 * 32; at += 37) { /* past the fields checked before the crc */
        if (at >= 36 && at < 40)
            continue;
        uint8_t x;
        FILE *f = fopen(ok, "rb");
        fseek(f, at, SEEK_SET);
        assert_int_equal(fread(&x, 1, 1, f), 1);
        fclose(f);
        x ^= 0x10;
        corrupt(ok, bad, at, &x, 1, -1);
        expect_error(bad, "corrupted (crc32");
    }
    corrupt(ok, bad, 0, NULL, 0, 40);
    expect_error(bad, "truncated");
    forge(ok, bad, 0, NULL, 0, 64 + 4 * 64 + 2 * 32);
    expect_error(bad, "truncated");
    forge(ok, bad, 0, "NOTGSST", 8, -1);
    expect_error(bad, "bad magic");
    uint32_t v = 7;
    forge(ok, bad, 8, &v, 4, -1);
    expect_error(bad, "version 7");
    /* a header that claims 2^40 records in a file of 400 bytes: refused, nothing allocated */
    forge(ok, bad, 40, &(uint64_t){1ull << 40}, 8, -1);
    expect_error(bad, "truncated stamp file (header promises 4 warps and 1099511627776 records");
    forge(ok, bad, 24, &(uint32_t){0xffffffffu}, 4, -1); /* ctas */
    expect_error(bad, "truncated stamp file");
    const double ticks[] = {INFINITY, NAN, -32, 2e6};
    for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
        forge(ok, bad, 48, &ticks[i], 8, -1);
        expect_error(bad, "implausible header");
    }
    uint8_t phase = 200;
    forge(ok, bad, r0 + 28, &phase, 1, -1); /* record 0, byte 28: phase */
    expect_error(bad, "out of range");
    /* what a real run cannot produce: a record beginning before its warp started, one ending
     * after it finished (clk_begin at byte 8, clk_dur at 16), a warp ending before it
     * started (clk_end at header byte 24), a header in another warp's slot (cta at 32) */
    forge(ok, bad, r0 + 8, &(uint64_t){1}, 8, -1);
    expect_error(bad, "record 0 of warp 0 lies outside its warp's clock span");
    forge(ok, bad, r0 + 16, &(uint32_t){4000000000u}, 4, -1);
    expect_error(bad, "record 0 of warp 0 lies outside its warp's clock span");
    forge(ok, bad, w0 + 24, &(uint64_t){1}, 8, -1);
    expect_error(bad, "warp 0 ends before it starts");
    forge(ok, bad, w0 + 64 + 32, &(uint32_t){1}, 4, -1);
    expect_error(bad, "warp slot 1 holds CTA 1 warp 1");
    forge(ok, bad, w0 + 44, &(uint32_t){6}, 4, -1);
    expect_error(bad, "flags 0x6");
    /* a clock pair is a record of version 2 files on, with a bracket of at most
     * GS_CLOCK_BRACKET_MAX cycles and gt_dur, tile, group 0 (record 0: bytes 16 clk_dur, 20
     * gt_dur, 24 tile, 26 group, 28 phase) */
    char pair[256];
    path_of(pair, sizeof pair, "pair.gss");
    const uint8_t pair_bytes[13] = {200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, GS_CLOCK_PAIR}; /* clk_dur 200 */
    forge(ok, pair, r0 + 16, pair_bytes, sizeof pair_bytes, -1);
    gs_trace t;
    char err[256] = "";
    assert_int_equal(gs_file_read(pair, &t, err, sizeof err), 0);
    assert_int_equal(t.records[0].phase, GS_CLOCK_PAIR);
    gs_trace_free(&t);
    const uint32_t wide = GS_CLOCK_BRACKET_MAX + 1, tick = 32;
    forge(pair, bad, r0 + 16, &wide, 4, -1);
    expect_error(bad, "clock pair 0 is malformed (bracket 257 cycles");
    forge(pair, bad, r0 + 20, &tick, 4, -1);
    expect_error(bad, "gt_dur 32");
    forge(pair, bad, r0 + 26, &(uint16_t){3}, 2, -1);
    expect_error(bad, "group 3 must be 0");
    /* versions 1 and 2 have no crc: their structure is all that is checked */
    path_of(ok, sizeof ok, "v2.gss");
    corrupt(pair, ok, 8, &(uint32_t){2}, 4, -1);
    corrupt(ok, ok, 36, &(uint32_t){0}, 4, -1);
    assert_int_equal(gs_file_read(ok, &t, err, sizeof err), 0);
    gs_trace_free(&t);
    path_of(ok, sizeof ok, "v1.gss");
    corrupt(pair, ok, 8, &(uint32_t){1}, 4, -1);
    expect_error(ok, "out of range");
    corrupt(ok, bad, 64 + 4 * 64 + 28, &(uint8_t){SYN_MMA}, 1, -1); /* version 1 without clock pairs */
    assert_int_equal(gs_file_read(bad, &t, err, sizeof err), 0);
    gs_trace_free(&t);
    path_of(bad, sizeof bad, "missing.gss");
    expect_error(bad, "cannot open");
}

/* The samples keep their stamps gzip'ed: the reader takes either. */
static void gzipped_stamps_read_as_plain(void **state)
{
    (void)state;
    char p[256], gz[300], err[256];
    gs_trace a, b;
    path_of(p, sizeof p, "plain.gss");
    write_sample(p);
    snprintf(gz, sizeof gz, "%s.gz", p);
    FILE *f = fopen(p, "rb");
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    gzFile g = gzopen(gz, "wb9");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, buf, (unsigned)n), (int)n);
    assert_int_equal(gzclose(g), Z_OK);
    assert_int_equal(gs_file_read(p, &a, err, sizeof err), 0);
    assert_int_equal(gs_file_read(gz, &b, err, sizeof err), 0);
    assert_int_equal(a.n_records, b.n_records);
    assert_memory_equal(a.records, b.records, a.n_records * sizeof(gs_record));
    assert_memory_equal(a.warps, b.warps, a.n_warps * sizeof(gs_warp_header));
    gs_trace_free(&a);
    gs_trace_free(&b);
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
    /* a repetition takes time: none, a negative one, inf and nan are refused */
    const char *bad[] = {"0", "-0.1", "inf", "nan", "1e999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        f = fopen(p, "w");
        fprintf(f, "# gemmscope-timings 1\nbuild\trep\tms\nproduction\t0\t0.1\nproduction\t1\t%s\n", bad[k]);
        fclose(f);
        assert_int_equal(gs_timings_read(&r, p, err, sizeof err), -1);
        if (!strstr(err, ":4:") || !strstr(err, "is not a time"))
            fail_msg("'%s': error '%s'", bad[k], err);
    }
}

/* Numbers in meta.txt that are no number a run writes read as absent. */
static void meta_numbers_must_be_finite(void **state)
{
    (void)state;
    gs_meta m = {0};
    const char *bad[] = {"inf", "-inf", "nan", "1e999", "12abc", ""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        gs_meta_set(&m, "x", "%s", bad[k]);
        assert_float_equal(gs_meta_num(&m, "x", -7), -7, 0);
    }
    gs_meta_set(&m, "x", "1e300");
    assert_float_equal(gs_meta_num(&m, "x", -7), 1e300, 0);
    gs_meta_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stamp_file_round_trip),
        cmocka_unit_test(stamp_file_bad_inputs),
        cmocka_unit_test(gzipped_stamps_read_as_plain),
        cmocka_unit_test(meta_round_trip_and_errors),
        cmocka_unit_test(timings_round_trip_and_errors),
        cmocka_unit_test(meta_numbers_must_be_finite),
    };
    return cmocka_run_group_tests_name("formats", tests, tmpdir_setup, tmpdir_teardown);
}
