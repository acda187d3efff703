/* The gemmscope program and its recorder (gemmscope-record) on bad input: one clear line
 * on stderr, a non-zero exit, and nothing written.  Runs build/gemmscope and
 * build/gemmscope-record from the repository root; the recorder's tests are skipped where it
 * was not built (no nvcc). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "slurp.h"
#include "tmpdir.h"

#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run_fixture.h"
#include "instrument/gs_args.h"

static char err_text[4096];

/* the recorder needs CUDA to build: where it is absent (no nvcc), its tests are skipped */
static int have_recorder;

static int setup(void **state)
{
    have_recorder = access("build/gemmscope-record", X_OK) == 0;
    return access("build/gemmscope", X_OK) == 0 ? tmpdir_setup(state) : -1;
}

/* Runs `build/PROGRAM ARGS`; returns the exit status; stderr in err_text. */
static int run_program(const char *program, const char *args)
{
    char cmd[1024], errf[256];
    snprintf(errf, sizeof errf, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "build/%s %s >/dev/null 2>%s", program, args, errf);
    int st = system(cmd);
    FILE *f = fopen(errf, "r");
    size_t n = f ? fread(err_text, 1, sizeof err_text - 1, f) : 0;
    err_text[n] = 0;
    if (f)
        fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *args)
{
    return run_program("gemmscope", args);
}

/* Runs `build/gemmscope ARGS`; its stdout in out_text; the exit status. */
static char out_text[16384];
static int run_capture(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/gemmscope %s 2>/dev/null", args);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out_text, 1, sizeof out_text - 1, p) : 0;
    out_text[n] = 0;
    int st = p ? pclose(p) : -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void expect_program_failure(const char *program, const char *args, const char *needle)
{
    int rc = run_program(program, args);
    if (rc == 0)
        fail_msg("'%s' exited 0", args);
    if (!strstr(err_text, needle))
        fail_msg("'%s': stderr '%s' lacks '%s'", args, err_text, needle);
    assert_int_equal(lines(err_text), 1);
}

static void expect_failure(const char *args, const char *needle)
{
    expect_program_failure("gemmscope", args, needle);
}

/* A run directory whose stamps.gss has one byte region replaced (or is cut). */
static void make_bad_run(const char *name, long at, const void *bytes, size_t len, long cut)
{
    char d[512], p[600];
    snprintf(d, sizeof d, "%s/%s", dir, name);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(p, sizeof p, "%s/stamps.gss", d);
    FILE *f = fopen(p, "rb");
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (bytes)
        memcpy(buf + at, bytes, len);
    if (cut >= 0)
        n = (size_t)cut;
    f = fopen(p, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
}

static void good_run_reports(void **state)
{
    (void)state;
    char d[512], args[1100], p[1200];
    struct stat st;
    snprintf(d, sizeof d, "%s/good", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(args, sizeof args, "report %s -o %s/good-out", d, dir);
    assert_int_equal(run(args), 0);
    snprintf(p, sizeof p, "%s/good-out/report.md", dir);
    assert_int_equal(stat(p, &st), 0);
    snprintf(p, sizeof p, "%s/good-out/summary.json", dir);
    assert_int_equal(stat(p, &st), 0);
}

/* Without gnuplot (a PATH that has none) the report says how to render its plots without naming
 * a folder (the recorder writes it in a staging folder, and runs are copied): the command line
 * names the folder it wrote. */
static void plots_hint_names_no_staging_folder(void **state)
{
    (void)state;
    char d[512], cmd[1400], p[1200], want[700];
    snprintf(d, sizeof d, "%s/hint", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(cmd, sizeof cmd, "PATH=/nonexistent build/gemmscope report %s -o %s/hint-out 2>/dev/null", d, dir);
    FILE *o = popen(cmd, "r");
    assert_non_null(o);
    static char said[8192];
    size_t got = fread(said, 1, sizeof said - 1, o);
    said[got] = 0;
    const int st = pclose(o);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    snprintf(want, sizeof want, "make plots RUN=%s/hint-out\n", dir);
    if (!strstr(said, want))
        fail_msg("the command line does not name %s/hint-out for the plots: %s", dir, said);
    snprintf(p, sizeof p, "%s/hint-out/report.md", dir);
    const char *md = slurp(p);
    if (!strstr(md, "`make plots RUN=<this report's folder>`"))
        fail_msg("the report's plots hint is missing or names a folder");
    assert_null(strstr(md, dir));
}

static void bad_stamp_files_fail_cleanly(void **state)
{
    (void)state;
    char args[1200], out[600];
    struct stat st;
    make_bad_run("truncated", 0, NULL, 0, 100);
    make_bad_run("magic", 0, "GARBAGE", 8, -1);
    uint32_t v = 99;
    make_bad_run("version", 8, &v, 4, -1);

    snprintf(out, sizeof out, "%s/out-truncated", dir);
    snprintf(args, sizeof args, "report %s/truncated -o %s", dir, out);
    expect_failure(args, "truncated");
    assert_int_not_equal(stat(out, &st), 0); /* nothing half-written */
    snprintf(args, sizeof args, "report %s/magic", dir);
    expect_failure(args, "bad magic");
    snprintf(args, sizeof args, "report %s/version", dir);
    expect_failure(args, "version 99");
    snprintf(args, sizeof args, "report %s/does-not-exist", dir);
    expect_failure(args, "cannot open");
}

/* A good run whose meta.txt has one key set to a value no real run writes. */
static void expect_meta_refused(const char *name, const char *key, const char *value, const char *needle)
{
    char d[512], p[600], args[1200];
    snprintf(d, sizeof d, "%s/%s", dir, name);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(p, sizeof p, "%s/meta.txt", d);
    FILE *f = fopen(p, "a");
    fprintf(f, "%s = %s\n", key, value);
    fclose(f);
    snprintf(args, sizeof args, "report %s -o %s/out", d, d);
    expect_failure(args, needle);
    snprintf(p, sizeof p, "%s/out", d);
    assert_int_not_equal(access(p, F_OK), 0); /* nothing written */
}

static void bad_meta_fails_cleanly(void **state)
{
    (void)state;
    expect_meta_refused("ceil-neg", "ceiling_tflops", "-1", "ceiling_tflops = -1 is not a number in (0, 100000]");
    expect_meta_refused("ceil-inf", "ceiling_tflops", "inf", "ceiling_tflops = inf is not a number");
    expect_meta_refused("sms", "sm_count", "1e30", "sm_count = 1e30 is not a whole number in [1, 65536]");
    expect_meta_refused("flops", "flops", "nan", "flops = nan is not a number");
    expect_meta_refused("phase", "phase.5.role", "mma", "phase.5.name missing");
    /* a meta.txt with only its header line is no run */
    char d[512], p[600], args[1200];
    snprintf(d, sizeof d, "%s/headeronly", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(p, sizeof p, "%s/meta.txt", d);
    FILE *f = fopen(p, "w");
    fprintf(f, "gemmscope-meta 2\n");
    fclose(f);
    snprintf(args, sizeof args, "report %s", d);
    expect_failure(args, "no subject: not a run's meta.txt");
}

static void bad_commands_fail_cleanly(void **state)
{
    (void)state;
    /* names are the subjects' to claim: one that none claims, and one a subject's parser
     * refuses; without the recorder, record says how to build it */
    if (have_recorder) {
        expect_failure("record SHAPE=no-such-shape --root /nonexistent", "no subject runs 'no-such-shape'");
        expect_failure("record g9k1 --root /nonexistent", "nvfp4: bad shape 'g9k1'");
        expect_failure("record g9k1 --root /nonexistent", "valid names: g8k7168");
    } else {
        expect_failure("record g8k7168 --root /nonexistent", "build it with 'make' (needs nvcc)");
    }
    expect_failure("check", "usage");
    assert_int_not_equal(run("frobnicate"), 0);
    assert_int_not_equal(run(""), 0);
    assert_int_equal(run("--help"), 0);
}

/* The recorder's numeric options: a value that is not wholly a number in range is refused
 * before anything runs (no GPU needed to get there). */
static void record_options_fail_cleanly(void **state)
{
    (void)state;
    if (!have_recorder)
        skip(); /* build/gemmscope-record: built only where nvcc is */
    char args[700];
    const char *bad[][2] = {
        {"--reps 5x", "--reps takes a whole number"},
        {"--reps ''", "--reps takes a whole number"},
        {"--reps 20", "--reps takes a whole number in [50, 1000000]"},
        {"--warmup -1", "--warmup takes a whole number"},
        {"--seed abc", "--seed takes a non-negative whole number"},
        {"--seed -3", "--seed takes a non-negative whole number"},
        {"--seed ' -3'", "--seed takes a non-negative whole number"}, /* strtoull would negate it */
        {"--capacity-scale 0.5x", "--capacity-scale takes a number"},
        {"--capacity-scale 2", "--capacity-scale takes a number in (0, 1]"},
    };
    char never[600];
    snprintf(never, sizeof never, "%s/never", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "--shape calib --out %s %s", never, bad[i][0]);
        expect_program_failure("gemmscope-record", args, bad[i][1]);
        assert_int_not_equal(access(never, F_OK), 0); /* nothing written */
    }
    /* gemmscope record checks the same values before it makes any folder under --root */
    snprintf(never, sizeof never, "%s/root", dir);
    const char *front[][2] = {
        {"--reps 5x", "--reps takes a whole number"},
        {"--reps 20", "--reps takes a whole number in [50, 1000000]"},
        {"--capacity-scale 2", "--capacity-scale takes a number in (0, 1]"},
    };
    for (size_t i = 0; i < sizeof front / sizeof front[0]; i++) {
        snprintf(args, sizeof args, "record calib --root %s %s", never, front[i][0]);
        expect_program_failure("gemmscope", args, front[i][1]);
        assert_int_not_equal(access(never, F_OK), 0);
    }
    /* a leading 0 is decimal (strtoull's base 0 read 010 as 8 and refused 08), 0x is hex */
    unsigned long long v = 0;
    assert_int_equal(gs_parse_u64("010", &v), 0);
    assert_int_equal(v, 10);
    assert_int_equal(gs_parse_u64("08", &v), 0);
    assert_int_equal(v, 8);
    assert_int_equal(gs_parse_u64("0x10", &v), 0);
    assert_int_equal(v, 16);
}

/* The subjects live in the recorder and list themselves; the CLI forwards. */
static void subjects_list_themselves(void **state)
{
    (void)state;
    if (!have_recorder)
        skip();
    assert_int_equal(run_capture("subjects"), 0);
    assert_non_null(strstr(out_text, "calib "));
    assert_non_null(strstr(out_text, "release "));
    assert_non_null(strstr(out_text, "nvfp4 "));
    assert_int_equal(run_capture("shapes nvfp4"), 0);
    assert_non_null(strstr(out_text, "g8k7168"));
    assert_non_null(strstr(out_text, "m=..;n=..;k=.."));
    assert_int_equal(run_capture("shapes release"), 0);
    assert_non_null(strstr(out_text, "release"));
    assert_int_equal(run_capture("variants nvfp4 g8k7168"), 0);
    assert_non_null(strstr(out_text, "s3_w128_t256_ws_p_tmr_skr"));
    assert_non_null(strstr(out_text, "[default]"));
    assert_int_equal(run_capture("variants nvfp4"), 0);
    assert_null(strstr(out_text, "[default]"));
    assert_int_equal(run_capture("variants calib calib"), 0);
    assert_non_null(strstr(out_text, "default"));
    expect_failure("shapes nope", "unknown subject 'nope'");
    expect_failure("variants nvfp4 g9k1", "bad shape 'g9k1'");
    expect_failure("variants calib release", "calib has no shape 'release'");
    expect_failure("variants", "usage");
}

/* trace reads the timeline only: it needs no analysis of the run. */
static void trace_of_a_good_run(void **state)
{
    (void)state;
    char d[512], args[1100], p[1200];
    struct stat st;
    snprintf(d, sizeof d, "%s/traced", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, 8), 0);
    snprintf(args, sizeof args, "trace %s", d);
    assert_int_equal(run(args), 0);
    snprintf(p, sizeof p, "%s/trace.json", d);
    assert_int_equal(stat(p, &st), 0);
    assert_true(st.st_size > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_run_reports),
        cmocka_unit_test(plots_hint_names_no_staging_folder),
        cmocka_unit_test(bad_stamp_files_fail_cleanly),
        cmocka_unit_test(bad_meta_fails_cleanly),
        cmocka_unit_test(bad_commands_fail_cleanly),
        cmocka_unit_test(record_options_fail_cleanly),
        cmocka_unit_test(subjects_list_themselves),
        cmocka_unit_test(trace_of_a_good_run),
    };
    return cmocka_run_group_tests_name("cli", tests, setup, tmpdir_teardown);
}
