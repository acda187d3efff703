/* gemmscope diff on runs whose difference is known. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include "tmpdir.h"

#include <math.h>
#include <sys/stat.h>
#include "analysis/diff.h"

static void bootstrap_sees_a_real_shift(void **state)
{
    (void)state;
    double a[60], b[60];
    for (int i = 0; i < 60; i++) {
        a[i] = 1.00 + 0.01 * ((i * 37) % 11 - 5) / 5.0; /* 0.99 .. 1.01 */
        b[i] = 0.90 + 0.01 * ((i * 53) % 13 - 6) / 6.0;
    }
    gs_delta d = gs_delta_of(a, 60, b, 60, 2000, 7);
    assert_float_equal(d.delta, -0.10, 0.005);
    assert_true(d.lo < d.delta && d.delta < d.hi);
    assert_true(d.hi < 0);
    assert_int_equal(d.verdict, -1);
    d = gs_delta_of(b, 60, a, 60, 2000, 7);
    assert_int_equal(d.verdict, 1);
}

static void same_distribution_is_no_change(void **state)
{
    (void)state;
    double a[80], b[80];
    for (int i = 0; i < 80; i++) {
        a[i] = 1.0 + 0.05 * sin(i * 1.3);
        b[i] = 1.0 + 0.05 * sin(i * 2.9 + 0.4);
    }
    gs_delta d = gs_delta_of(a, 80, b, 80, 2000, 7);
    assert_true(d.lo <= 0 && d.hi >= 0);
    assert_int_equal(d.verdict, 0);
}

/* Tight but tiny: below GS_MIN_EFFECT it is not reported as a change. */
static void tiny_shift_is_no_change(void **state)
{
    (void)state;
    double a[50], b[50];
    for (int i = 0; i < 50; i++) {
        a[i] = 1.0;
        b[i] = 1.001;
    }
    gs_delta d = gs_delta_of(a, 50, b, 50, 500, 1);
    assert_float_equal(d.delta, 0.001, 1e-12);
    assert_int_equal(d.verdict, 0);
}

/* The whole report on two run directories: B's per-CTA main loop is 25% shorter. */
#include "run_fixture.h"
#include "analysis/run.h"

static void diff_of_two_runs(void **state)
{
    (void)state;
    char da[300], db[300], err[256];
    snprintf(da, sizeof da, "%s/a", dir);
    snprintf(db, sizeof db, "%s/b", dir);
    assert_int_equal(mkdir(da, 0755), 0);
    assert_int_equal(mkdir(db, 0755), 0);
    assert_int_equal(fixture_write_run(da, 8), 0);
    assert_int_equal(fixture_write_run(db, 8), 0);
    gs_rundata a, b;
    assert_int_equal(gs_rundata_load(&a, da, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_rundata_load(&b, db, GS_NEED_ALL, err, sizeof err), 0);
    for (size_t i = 0; i < b.phases.ph[GS_MAINLOOP].ctas; i++)
        b.phases.ph[GS_MAINLOOP].cta_busy[i] *= 0.75;
    gs_buf o = {0};
    assert_int_equal(gs_diff_write(&a, &b, &o), 0);
    assert_non_null(strstr(o.s, "**B is not significantly different from A"));
    assert_non_null(strstr(o.s, "| MAINLOOP per CTA (us) | 8.0000 | 6.0000 | -2.0000 (-25.0%)"));
    assert_non_null(strstr(o.s, "**faster**"));
    gs_buf_free(&o);
    gs_rundata_free(&a);
    gs_rundata_free(&b);
}

/* Runs of different subjects, shapes, GPUs or stamp builds are no A and B of one change. */
static void incomparable_runs_are_named(void **state)
{
    (void)state;
    char da[300], err[256], why[256];
    snprintf(da, sizeof da, "%s/c", dir);
    assert_int_equal(mkdir(da, 0755), 0);
    assert_int_equal(fixture_write_run(da, 8), 0);
    gs_rundata a, b;
    assert_int_equal(gs_rundata_load(&a, da, 0, err, sizeof err), 0);
    assert_int_equal(gs_rundata_load(&b, da, 0, err, sizeof err), 0);
    assert_int_equal(gs_runs_comparable(&a, &b, why, sizeof why), 1);
    const char *key[][3] = {{"subject", "nvfp4", "different subject: calib against nvfp4"},
                            {"shape", "g2k1536", "different shape"},
                            {"gpu", "NVIDIA H200", "different gpu"},
                            {"stamps.build", "detail", "stamps from different builds: twin against detail"}};
    for (size_t i = 0; i < sizeof key / sizeof key[0]; i++) {
        gs_meta_free(&b.meta);
        char p[400];
        snprintf(p, sizeof p, "%s/meta.txt", da);
        assert_int_equal(gs_meta_read(&b.meta, p, err, sizeof err), 0);
        gs_meta_set(&b.meta, key[i][0], "%s", key[i][1]);
        assert_int_equal(gs_runs_comparable(&a, &b, why, sizeof why), 0);
        if (!strstr(why, key[i][2]))
            fail_msg("'%s': '%s'", key[i][0], why);
        gs_buf o = {0};
        assert_int_equal(gs_diff_write(&a, &b, &o), 0);
        assert_non_null(strstr(o.s, "**Not comparable"));
        gs_buf_free(&o);
    }
    gs_rundata_free(&a);
    gs_rundata_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bootstrap_sees_a_real_shift),
        cmocka_unit_test(same_distribution_is_no_change),
        cmocka_unit_test(tiny_shift_is_no_change),
        cmocka_unit_test(diff_of_two_runs),
        cmocka_unit_test(incomparable_runs_are_named),
    };
    return cmocka_run_group_tests_name("diff", tests, tmpdir_setup, tmpdir_teardown);
}
