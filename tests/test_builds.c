/* A run with both twins' stamps (stamps.gss from the twin, stamps-detail.gss from the detail
 * twin): every figure from the twin except the main loop's sub-phases, which only the detail
 * twin records; the report says which build each comes from.  Known answers on both sides:
 * the detail twin stretches MAINLOOP (83.3% of its CTA time against the twin's 80%), its WAIT
 * is 25% of its CTA time. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_fixture.h"
#include "slurp.h"
#include "tmpdir.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/run.h"
#include "instrument/gs_file.h"

#define WAIT_ID 5

/* The detail twin's stamps: each CTA's span 12 us, MAINLOOP 10 us with WAIT 3 us inside. */
static void write_detail(const char *dir)
{
    char p[512], err[256];
    synth s;
    synth_init(&s, 4, 2, 8);
    s.ghz[1] = 1.75;
    for (uint32_t c = 0; c < 4; c++) {
        const double t = (c / 2) * 12000.0;
        const uint16_t sm = (uint16_t)(c % 2);
        for (uint16_t w = 0; w < 2; w++) {
            synth_warp(&s, c, w, sm, t, t + 12000);
            synth_event(&s, c, w, GS_MAINLOOP, t, t + 10000, (uint16_t)c);
            synth_event(&s, c, w, WAIT_ID, t + 1000, t + 4000, (uint16_t)c);
            synth_event(&s, c, w, GS_EPILOGUE, t + 10000, t + 12000, (uint16_t)c);
        }
    }
    gs_record *seg = synth_segments(&s);
    snprintf(p, sizeof p, "%s/stamps-detail.gss", dir);
    assert_int_equal(gs_file_write(p, 32, 4, 2, 8, s.w, seg, err, sizeof err), 0);
    free(seg);
    free(s.ev);
    free(s.w);
}

/* The fixture run with WAIT named (inside MAINLOOP) and a detail timing row. */
static void write_run(const char *dir, int detail)
{
    char p[512], err[256];
    assert_int_equal(fixture_write_run(dir, 8), 0);
    gs_meta m = {0};
    snprintf(p, sizeof p, "%s/meta.txt", dir);
    assert_int_equal(gs_meta_read(&m, p, err, sizeof err), 0);
    gs_meta_set(&m, "phase.5.name", "WAIT");
    gs_meta_set(&m, "phase.5.within", "MAINLOOP");
    gs_meta_set(&m, "phase.5.role", "wait");
    gs_meta_set(&m, "stamps.build", "twin");
    assert_int_equal(gs_meta_write(&m, p, err, sizeof err), 0);
    gs_meta_free(&m);
    gs_timings t = {0};
    snprintf(p, sizeof p, "%s/timings.tsv", dir);
    assert_int_equal(gs_timings_read(&t, p, err, sizeof err), 0);
    double d[3] = {0.6, 0.6, 0.6};
    gs_timings_add(&t, "detail", d, 3);
    assert_int_equal(gs_timings_write(&t, p, err, sizeof err), 0);
    gs_timings_free(&t);
    if (detail)
        write_detail(dir);
}

/* A fresh run folder inside the group's scratch folder. */
static void sub_run(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
    assert_int_equal(mkdir(out, 0755), 0);
}

static const char *report_text(gs_rundata *r, const char *dir)
{
    char p[512], err[256];
    snprintf(p, sizeof p, "%s/report.md", dir);
    if (gs_report_write(r, p, NULL, err, sizeof err))
        fail_msg("%s", err);
    return slurp(p);
}

static void phases_from_the_twin_subphases_from_the_detail_twin(void **state)
{
    (void)state;
    char run[256], err[512];
    sub_run(run, sizeof run, "both");
    write_run(run, 1);
    gs_rundata r;
    if (gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err))
        fail_msg("%s", err);
    assert_true(r.has_detail);
    assert_float_equal(r.phases.ph[GS_MAINLOOP].busy_share, 0.80, 1e-9);  /* the twin's, not 10/12 */
    assert_float_equal(r.phases.ph[GS_EPILOGUE].busy_share, 0.10, 1e-9);  /* the twin's, not 2/12 */
    assert_float_equal(r.phases.ph[WAIT_ID].busy_share, 0.25, 1e-9);      /* only the detail twin has it */
    assert_int_equal(r.phases.ph[WAIT_ID].instances, 8);
    assert_float_equal(r.phases.cta_time_ns, 4 * 10000.0, 1e-6);
    const char *text = report_text(&r, run);
    assert_non_null(strstr(text, "only the main loop's sub-phases come from the detail twin's"));
    assert_non_null(strstr(text, "the indented sub-phases from the detail twin's"));
    assert_null(strstr(text, "The stamps below come from the detail twin"));
    gs_rundata_free(&r);
}

/* Without the detail twin's file: no sub-phase, and no word of a detail twin's stamps. */
static void one_file_is_read_alone(void **state)
{
    (void)state;
    char run[256], err[512];
    sub_run(run, sizeof run, "one");
    write_run(run, 0);
    gs_rundata r;
    if (gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err))
        fail_msg("%s", err);
    assert_false(r.has_detail);
    assert_int_equal(r.phases.ph[WAIT_ID].instances, 0);
    assert_float_equal(r.phases.ph[GS_MAINLOOP].busy_share, 0.80, 1e-9);
    const char *text = report_text(&r, run);
    assert_null(strstr(text, "detail twin's"));
    gs_rundata_free(&r);
}

/* A damaged detail file is refused with its name, not skipped. */
static void a_bad_detail_file_is_refused(void **state)
{
    (void)state;
    char run[256], err[512], p[512];
    sub_run(run, sizeof run, "bad");
    write_run(run, 1);
    snprintf(p, sizeof p, "%s/stamps-detail.gss", run);
    FILE *f = fopen(p, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    fputc(0x5a, f);
    fclose(f);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err), -1);
    assert_non_null(strstr(err, "stamps-detail.gss"));
}

/* The duration histograms draw a sub-phase from the detail twin's stamps, where its instances
 * are (the twin's have none: its block was 40 bins at inf), and say so. */
static void subphase_histogram_from_the_detail_twin(void **state)
{
    (void)state;
    char run[256], err[512], p[512];
    sub_run(run, sizeof run, "hist");
    write_run(run, 1);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, run, GS_NEED_ALL, err, sizeof err), 0);
    const long instances = r.phases.ph[WAIT_ID].instances;
    assert_true(instances > 0);
    assert_int_equal(gs_plots_write(&r, run, err, sizeof err), 0);
    gs_rundata_free(&r);
    snprintf(p, sizeof p, "%s/plots/phase_hist.dat", run);
    const char *dat = slurp(p);
    if (strstr(dat, "inf") || strstr(dat, "nan"))
        fail_msg("phase_hist.dat prints a value no run has:\n%s", dat);
    const char *block = strstr(dat, "# phase WAIT ");
    assert_non_null(block);
    assert_non_null(strstr(block, "(detail twin)"));
    /* its 40 bins hold every instance, each 3 us long */
    const char *line = strchr(block, '\n') + 1;
    long sum = 0;
    for (int b = 0; b < 40; b++) {
        double center;
        long count;
        assert_int_equal(sscanf(line, "%lf %ld", &center, &count), 2);
        if (count)
            assert_true(fabs(center - 3.0) < 0.05);
        sum += count;
        line = strchr(line, '\n') + 1;
    }
    assert_int_equal(sum, instances);
    snprintf(p, sizeof p, "%s/plots/phase_hist.gp", run);
    assert_non_null(strstr(slurp(p), "set title 'WAIT (detail twin)'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(phases_from_the_twin_subphases_from_the_detail_twin),
        cmocka_unit_test(subphase_histogram_from_the_detail_twin),
        cmocka_unit_test(one_file_is_read_alone),
        cmocka_unit_test(a_bad_detail_file_is_refused),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
