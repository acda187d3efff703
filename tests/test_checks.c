/* The figures that decide verdicts, with known answers on both sides of every threshold:
 * the known-answer checks (analysis/checks.c: phase shares, the clock model, complete stamps,
 * the release spread) and speed against the ceilings (analysis/roofline.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "synth.h"
#include "analysis/checks.h"
#include "analysis/roofline.h"

/* A run with nothing in it but what a check reads; the caller sets those. */
static void blank(gs_rundata *r)
{
    memset(r, 0, sizeof *r);
    gs_phase_table_init(&r->names);
    gs_meta_set(&r->meta, "subject", "s");
    r->trace.timer_tick_ns = 32;
    r->tl.heldout_max_ns = 10;
    r->tl.span_ns = 100000;
    r->tl.heldout_knots = 100;
    r->tl.heldout_sms = 10;
}

/* The row whose name ends with `suffix`; fails the test when there is none. */
static const gs_check_row *row(const gs_checklist *cl, const char *suffix)
{
    for (int i = 0; i < cl->n; i++) {
        const size_t n = strlen(cl->row[i].name), k = strlen(suffix);
        if (n >= k && !strcmp(cl->row[i].name + n - k, suffix))
            return &cl->row[i];
    }
    fail_msg("no check row ending in '%s'", suffix);
    return NULL;
}

static int passes(gs_rundata *r, const char *suffix)
{
    gs_checklist cl;
    gs_checks_run(r, &cl);
    return row(&cl, suffix)->pass;
}

/* expect.<PHASE>: within one point of CTA time, for a fixed phase and a named own phase. */
static void phase_shares_within_a_point(void **state)
{
    (void)state;
    gs_rundata r;
    char err[128];
    blank(&r);
    assert_int_equal(gs_phase_table_name(&r.names, SYN_WAIT, "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    gs_meta_set(&r.meta, "expect.MAINLOOP", "0.80");
    gs_meta_set(&r.meta, "expect.LOAD_WAIT", "0.08");
    r.phases.ph[GS_MAINLOOP].busy_share = 0.8095;
    r.phases.ph[SYN_WAIT].busy_share = 0.0705;
    assert_true(passes(&r, "MAINLOOP share"));
    assert_true(passes(&r, "LOAD_WAIT share"));
    r.phases.ph[GS_MAINLOOP].busy_share = 0.8105;
    r.phases.ph[SYN_WAIT].busy_share = 0.0695;
    assert_false(passes(&r, "MAINLOOP share"));
    assert_false(passes(&r, "LOAD_WAIT share"));
    gs_meta_free(&r.meta);
}

/* The clock model places records across SMs within a percent of the span (the bound the tail,
 * balance and timeline need); a run that declares the known answer of its calibration kernel
 * (expect.clock_heldout_ticks) is also held to that many timer ticks.  Without an interior
 * knot the pairs' residual against their line stands in for the held-out error. */
static void clock_model_within_its_bounds(void **state)
{
    (void)state;
    gs_rundata r;
    blank(&r);
    r.tl.span_ns = 20000; /* 1%: 200 ns */
    r.tl.heldout_max_ns = 199;
    assert_true(passes(&r, "clock model placement"));
    r.tl.heldout_max_ns = 201;
    assert_false(passes(&r, "clock model placement"));
    r.tl.heldout_max_ns = NAN;
    r.tl.resid_max_ns = 150;
    assert_true(passes(&r, "clock model placement"));
    r.tl.resid_max_ns = 250;
    assert_false(passes(&r, "clock model placement"));
    /* the calibration kernels' known answer: one tick (32 ns) */
    gs_meta_set(&r.meta, "expect.clock_heldout_ticks", "1");
    r.tl.heldout_max_ns = 31.9;
    assert_true(passes(&r, "clock model held-out error"));
    assert_true(passes(&r, "clock model placement"));
    r.tl.heldout_max_ns = 32.1;
    assert_false(passes(&r, "clock model held-out error"));
    assert_true(passes(&r, "clock model placement"));
    r.tl.heldout_max_ns = NAN;
    r.tl.resid_max_ns = 40;
    assert_false(passes(&r, "clock pairs to their line"));
    gs_meta_free(&r.meta);
}

static void incomplete_stamps_fail(void **state)
{
    (void)state;
    gs_rundata r;
    blank(&r);
    assert_true(passes(&r, "stamps complete"));
    r.tl.dropped = 1;
    assert_false(passes(&r, "stamps complete"));
    r.tl.dropped = 0;
    r.tl.warps_unfinished = 1;
    assert_false(passes(&r, "stamps complete"));
    gs_meta_free(&r.meta);
}

/* Three CTAs see one flag, their SEEN polls ending `spread` ns apart (only the first
 * seen_ctas stamp one); each POLLING spans about 4000 ns of 10 polls (its group tag): a poll
 * period of at least 400 ns. */
static void release_timeline(gs_rundata *r, double spread, uint32_t seen_ctas)
{
    synth s;
    char err[256];
    synth_init(&s, 3, 1, 8);
    for (uint32_t c = 0; c < 3; c++) {
        synth_warp(&s, c, 0, (uint16_t)c, 0, 40000);
        synth_event(&s, c, 0, SYN_POLL, 16000, 20000 + spread * c / 2, 0);
        s.ev[s.n_ev - 1].r.group = 10; /* the group tag carries the poll count */
        if (c < seen_ctas)
            synth_event(&s, c, 0, SYN_SEEN, 19800 + spread * c / 2, 20000 + spread * c / 2, 0);
    }
    assert_int_equal(synth_trace(&s, &r->trace), 0);
    assert_int_equal(gs_timeline_build(&r->trace, &r->tl, err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r->names, SYN_SEEN, "SEEN", -1, NULL, err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r->names, SYN_POLL, "POLLING", -1, NULL, err, sizeof err), 0);
    gs_meta_set(&r->meta, "expect.release.seen", "SEEN");
    gs_meta_set(&r->meta, "expect.release.polling", "POLLING");
}

static void release_spread_within_a_poll_period(void **state)
{
    (void)state;
    const struct {
        double spread;
        uint32_t seen;
        int pass;
    } cases[] = {{300, 3, 1}, {500, 3, 0}, {300, 2, 0}}; /* period: at least 4000 / 10 = 400 ns */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_rundata r;
        blank(&r);
        release_timeline(&r, cases[i].spread, cases[i].seen);
        r.tl.heldout_max_ns = 10;
        gs_checklist cl;
        gs_checks_run(&r, &cl);
        const gs_check_row *x = row(&cl, "release spread");
        if (x->pass != cases[i].pass)
            fail_msg("spread %.0f ns over %u CTAs: expected %s, got %s (%s; %s)", cases[i].spread, cases[i].seen,
                     cases[i].pass ? "pass" : "FAIL", x->pass ? "pass" : "FAIL", x->expected, x->measured);
        gs_timeline_free(&r.tl);
        gs_trace_free(&r.trace);
        gs_meta_free(&r.meta);
    }
}

/* A run that declares no release check has no such row; one that declares a phase it does
 * not name has a failing one. */
static void release_check_only_where_declared(void **state)
{
    (void)state;
    gs_rundata r;
    gs_checklist cl;
    blank(&r);
    gs_checks_run(&r, &cl);
    for (int i = 0; i < cl.n; i++)
        assert_null(strstr(cl.row[i].name, "release"));
    gs_meta_set(&r.meta, "expect.release.seen", "FLAG");
    gs_meta_set(&r.meta, "expect.release.polling", "POLLS");
    assert_false(passes(&r, "release spread"));
    gs_meta_free(&r.meta);
}

/* Probes the clock model never saw: (clock64, timer, clock64) read back to back.  On clocks the
 * model fits exactly, every probe lies within half a tick of its timer reading; one whose timer
 * reads 500 ns off is beyond its allowance, and the check fails. */
static void clock_probes_check_the_model(void **state)
{
    (void)state;
    gs_rundata r;
    synth s;
    char err[256];
    blank(&r);
    synth_init(&s, 2, 1, 8);
    for (uint32_t c = 0; c < 2; c++) {
        synth_warp(&s, c, 0, (uint16_t)(3 + c), 0, 50000);
        synth_event(&s, c, 0, GS_MAINLOOP, 1000, 49000, 0);
    }
    gs_probe p[6];
    for (int k = 0; k < 6; k++) {
        const uint32_t c = (uint32_t)(k % 2);
        const double t = 5000.0 + 7000.0 * k + 3.0 * k;   /* ns */
        const double truth = floor(t / 32) * 32;          /* the timer's value at t */
        const uint64_t clk = synth_clk(&s, 3 + (int)c, t);
        p[k] = (gs_probe){c, clk - 20, SYNTH_GT_BASE + (uint64_t)truth, clk + 20};
    }
    assert_int_equal(synth_trace(&s, &r.trace), 0);
    assert_int_equal(gs_timeline_build(&r.trace, &r.tl, err, sizeof err), 0);
    for (int k = 0; k < 6; k++)
        assert_int_equal(gs_probes_add(&r.probes, &p[k], err, sizeof err), 0);
    gs_probe_stats ps;
    assert_int_equal(gs_probes_check(&r, &ps), 0);
    assert_int_equal(ps.probes, 6);
    assert_int_equal(ps.outside, 0);
    assert_true(ps.worst_ns <= 32);
    assert_true(passes(&r, "clock model against probes"));
    r.probes.p[3].gt += 500;
    assert_int_equal(gs_probes_check(&r, &ps), 0);
    assert_int_equal(ps.outside, 1);
    assert_false(passes(&r, "clock model against probes"));
    gs_probes_free(&r.probes);
    gs_timeline_free(&r.tl);
    gs_trace_free(&r.trace);
    gs_meta_free(&r.meta);
}

/* 1.2e12 flop in 1 ms, 2e9 bytes, ceilings 2000 TFLOP/s and 4000 GB/s, cuBLAS 3 ms, 1.5e12
 * flop computed: every figure by hand. */
static void roofline_figures(void **state)
{
    (void)state;
    gs_meta m = {0};
    gs_perf p;
    gs_meta_set(&m, "flops", "1.2e12");
    gs_meta_set(&m, "min_bytes", "2e9");
    gs_meta_set(&m, "ceiling_tflops", "2000");
    gs_meta_set(&m, "ceiling_gbps", "4000");
    gs_meta_set(&m, "cublas.time_ms", "3");
    gs_meta_set(&m, "flops_computed", "1.5e12");
    gs_meta_set(&m, "correct", "1");
    gs_perf_compute(&m, 1.0, &p);
    assert_true(p.valid);
    assert_float_equal(p.tflops, 1200, 1e-9);
    assert_float_equal(p.gbps, 2000, 1e-9);
    assert_float_equal(p.ceiling_fraction, 0.6, 1e-12);
    assert_float_equal(p.bandwidth_fraction, 0.5, 1e-12);
    assert_float_equal(p.cublas_ratio, 3.0, 1e-12); /* cuBLAS time over ours: above 1, we are faster */
    assert_float_equal(p.padding, 0.2, 1e-12);
    assert_float_equal(p.intensity, 600, 1e-9);
    assert_float_equal(p.ridge, 500, 1e-9);
    assert_float_equal(p.floor_ms, 0.6, 1e-12); /* max(1.2e12 / 2e15, 2e9 / 4e12) s */
    assert_int_equal(p.correct, 1);
    assert_int_equal(p.bound, GS_BOUND_LATENCY); /* 60% and 50%: under both roofs */
    /* 70% of a roof is bound by it: tensor first, then memory */
    gs_perf_compute(&m, 1.2e12 / (0.7 * 2000e12) * 1e3, &p);
    assert_int_equal(p.bound, GS_BOUND_TENSOR);
    gs_meta_set(&m, "ceiling_tflops", "20000");
    gs_perf_compute(&m, 2e9 / (0.71 * 4000e9) * 1e3, &p);
    assert_int_equal(p.bound, GS_BOUND_MEMORY);
    /* no ceilings: no roofline figure is claimed */
    gs_meta_free(&m);
    gs_meta_set(&m, "flops", "1.2e12");
    gs_perf_compute(&m, 1.0, &p);
    assert_false(p.valid);
    assert_int_equal(p.bound, GS_BOUND_UNKNOWN);
    gs_meta_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(phase_shares_within_a_point),
        cmocka_unit_test(clock_model_within_its_bounds),
        cmocka_unit_test(incomplete_stamps_fail),
        cmocka_unit_test(release_spread_within_a_poll_period),
        cmocka_unit_test(release_check_only_where_declared),
        cmocka_unit_test(clock_probes_check_the_model),
        cmocka_unit_test(roofline_figures),
    };
    return cmocka_run_group_tests_name("checks", tests, NULL, NULL);
}
