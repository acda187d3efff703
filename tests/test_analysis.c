/* Analyzer tests on synthetic traces whose answers are known by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include "synth.h"
#include "analysis/boundaries.h"
#include "analysis/checks.h"
#include "analysis/phases.h"
#include "analysis/timeline.h"
#include "analysis/smtime.h"
#include "analysis/verdicts.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct built {
    gs_trace t;
    gs_timeline tl;
    gs_phases ph;
} built;

static void build(synth *s, built *b)
{
    char err[256];
    assert_int_equal(synth_trace(s, &b->t), 0);
    assert_int_equal(gs_timeline_build(&b->t, &b->tl, err, sizeof err), 0);
    assert_int_equal(gs_phases_compute(&b->tl, &b->ph), 0);
}

static void drop(built *b)
{
    gs_phases_free(&b->ph);
    gs_timeline_free(&b->tl);
    gs_trace_free(&b->t);
}

/* One CTA, one warp, phases back to back: shares are their lengths over the span. */
static void shares_of_sequential_phases(void **state)
{
    (void)state;
    synth s;
    built b;
    synth_init(&s, 1, 1, 16);
    synth_warp(&s, 0, 0, 3, 0, 10000);
    synth_event(&s, 0, 0, GS_MAINLOOP, 0, 8000, 0);
    synth_event(&s, 0, 0, GS_ACC_TO_REG, 8000, 8500, 0);
    synth_event(&s, 0, 0, GS_EPILOGUE, 8500, 9500, 0);
    synth_event(&s, 0, 0, GS_STORE, 9500, 10000, 0);
    build(&s, &b);
    assert_float_equal(b.ph.ph[GS_MAINLOOP].busy_share, 0.80, 1e-3);
    assert_float_equal(b.ph.ph[GS_ACC_TO_REG].busy_share, 0.05, 1e-3);
    assert_float_equal(b.ph.ph[GS_EPILOGUE].busy_share, 0.10, 1e-3);
    assert_float_equal(b.ph.ph[GS_STORE].busy_share, 0.05, 1e-3);
    assert_int_equal(b.ph.ph[GS_PROLOGUE].instances, 0);
    assert_float_equal(b.tl.span_ns, 10000, 1);
    drop(&b);
}

/* The same phase on two warps of a CTA counts once where they overlap;
 * different phases overlapping each other each count in full. */
static void overlapping_phases_union_per_cta(void **state)
{
    (void)state;
    synth s;
    built b;
    synth_init(&s, 2, 2, 16);
    synth_warp(&s, 0, 0, 0, 0, 1000);
    synth_warp(&s, 0, 1, 0, 0, 1000);
    synth_event(&s, 0, 0, GS_MAINLOOP, 0, 600, 0);
    synth_event(&s, 0, 1, GS_MAINLOOP, 400, 1000, 0); /* union 0..1000 */
    synth_event(&s, 0, 1, GS_EPILOGUE, 500, 700, 0);  /* inside MAINLOOP of warp 0 */
    synth_warp(&s, 1, 0, 1, 0, 2000);
    synth_warp(&s, 1, 1, 1, 0, 2000);
    synth_event(&s, 1, 0, GS_MAINLOOP, 0, 500, 1);
    synth_event(&s, 1, 1, GS_MAINLOOP, 1000, 1500, 1); /* disjoint: 1000 */
    build(&s, &b);
    /* CTA time 3000; MAINLOOP 1000 + 1000 */
    assert_float_equal(b.ph.cta_time_ns, 3000, 1);
    assert_float_equal(b.ph.ph[GS_MAINLOOP].busy_share, 2000.0 / 3000, 1e-3);
    assert_float_equal(b.ph.ph[GS_EPILOGUE].busy_share, 200.0 / 3000, 1e-3);
    assert_int_equal(b.ph.ph[GS_MAINLOOP].instances, 4);
    assert_int_equal(b.ph.ph[GS_MAINLOOP].ctas, 2);
    assert_float_equal(b.ph.ph[GS_MAINLOOP].cta_max, 1000, 1);
    drop(&b);
}

/* A warp that recorded more events than its buffer holds: the excess is counted, not lost silently. */
static void overflow_is_counted(void **state)
{
    (void)state;
    synth s;
    built b;
    synth_init(&s, 1, 2, 2);
    synth_warp(&s, 0, 0, 0, 0, 1000);
    synth_warp(&s, 0, 1, 0, 0, 1000);
    for (int i = 0; i < 5; i++)
        synth_event(&s, 0, 0, SYN_MMA, i * 100, i * 100 + 50, 0);
    synth_event(&s, 0, 1, SYN_MMA, 0, 10, 0);
    build(&s, &b);
    assert_int_equal(b.tl.dropped, 3);
    assert_int_equal(b.tl.warps_overflowed, 1);
    assert_int_equal(b.tl.n_events, 3);
    drop(&b);
}

/* SMs whose cycle counters differ in origin and rate: the fit puts
 * simultaneous events at the same nanosecond. */
static void skewed_sm_clocks_are_aligned(void **state)
{
    (void)state;
    synth s;
    built b;
    synth_init(&s, 3, 1, 8);
    s.clk_off[5] = 123456789012345ull;
    s.ghz[5] = 1.755;
    s.clk_off[9] = 42;
    s.ghz[9] = 1.98;
    s.clk_off[77] = 9000000000000ull;
    s.ghz[77] = 1.41;
    synth_warp(&s, 0, 0, 5, 100, 50100);
    synth_warp(&s, 1, 0, 9, 0, 60000);
    synth_warp(&s, 2, 0, 77, 3000, 40000);
    synth_event(&s, 0, 0, SYN_SEEN, 20000, 20500, 0);
    synth_event(&s, 1, 0, SYN_SEEN, 20000, 20300, 0);
    synth_event(&s, 2, 0, SYN_SEEN, 20000, 20400, 0);
    build(&s, &b);
    assert_int_equal(b.tl.sms_used, 3);
    assert_true(b.tl.resid_max_ns < 1.0);
    assert_float_equal(b.tl.fit[5].b_ns_per_cycle, 1 / 1.755, 1e-6);
    assert_float_equal(b.tl.fit[77].b_ns_per_cycle, 1 / 1.41, 1e-6);
    for (size_t i = 0; i < b.tl.n_events; i++)
        assert_float_equal(b.tl.ev[i].t0, 20000, 1.0);
    /* the release check reads the phases the run declares for it */
    gs_rundata r;
    gs_release_stats rs;
    char err[128];
    memset(&r, 0, sizeof r);
    r.tl = b.tl;
    gs_phase_table_init(&r.names);
    assert_int_equal(gs_release_compute(&r, &rs, err, sizeof err), 0); /* declares none */
    assert_int_equal(gs_phase_table_name(&r.names, SYN_SEEN, "SEEN", -1, NULL, err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r.names, SYN_POLL, "POLLING", -1, NULL, err, sizeof err), 0);
    gs_meta_set(&r.meta, "expect.release.seen", "SEEN");
    gs_meta_set(&r.meta, "expect.release.polling", "POLLING");
    assert_int_equal(gs_release_compute(&r, &rs, err, sizeof err), 1);
    assert_int_equal(rs.ctas, 3);
    assert_float_equal(rs.spread_ns, 200, 1.5);
    assert_float_equal(rs.poll_max_ns, 500, 1.5);
    /* a declared phase the run does not name is an error, not a silent pass */
    gs_meta_set(&r.meta, "expect.release.seen", "FLAG");
    assert_int_equal(gs_release_compute(&r, &rs, err, sizeof err), -1);
    assert_non_null(strstr(err, "FLAG"));
    gs_meta_free(&r.meta);
    drop(&b);
}

/* A kernel whose SM clock drops from 1.98 to 1.80 GHz 20 us in (a power limit), with one
 * event in the middle.  From the warps' start and end pairs alone the event lands 784 ns
 * late and nothing can say so (no knot between the ends); with a clock sampler's pairs
 * every 512 ns it lands within a nanosecond, the pairs do not count as events, and the
 * held-out error measures the step between knots. */
static void clock_change(int sampled, built *b)
{
    synth s;
    synth_init(&s, 1, 2, 512);
    s.slow_at[4] = 20000;
    s.ghz_after[4] = 1.80;
    synth_warp(&s, 0, 0, 4, 0, 100000);
    synth_warp(&s, 0, 1, 4, 0, 100000);
    synth_event(&s, 0, 0, GS_MAINLOOP, 60000, 61000, 0);
    for (double t = 0; sampled && t <= 100000; t += 512)
        synth_clock_pair(&s, 0, 1, t);
    build(&s, b);
}

static void clock_change_without_sampler_misplaces(void **state)
{
    (void)state;
    built b;
    clock_change(0, &b);
    assert_int_equal(b.tl.clock_pairs, 0);
    assert_int_equal(b.tl.fit[4].knots, 2);
    assert_true(isnan(b.tl.heldout_max_ns));
    assert_int_equal(b.tl.n_events, 1);
    assert_float_equal(b.tl.ev[0].t0, 60784, 2);
    drop(&b);
}

static void clock_change_followed_by_sampler_pairs(void **state)
{
    (void)state;
    built b;
    clock_change(1, &b);
    assert_int_equal(b.tl.clock_pairs, 196);
    assert_int_equal(b.tl.n_events, 1);
    assert_int_equal(b.ph.ph[GS_MAINLOOP].instances, 1);
    assert_float_equal(b.tl.ev[0].t0, 60000, 1);
    assert_float_equal(b.tl.ev[0].t1, 61000, 1);
    /* knots every 512 ns: the worst is the last knot before the step (19968 ns), predicted
     * from its neighbours at 19456 and 20480 ns, whose cycle counts straddle the step */
    double x0 = 1.98 * 19456, x1 = 1.98 * 19968, x2 = 1.98 * 20000 + 1.80 * 480;
    double expect = fabs(19968 - (19456 + 1024 * (x1 - x0) / (x2 - x0)));
    assert_float_equal(b.tl.heldout_max_ns, expect, 1.0);
    assert_true(b.tl.heldout_max_ns > 10 && b.tl.heldout_max_ns < 32);
    assert_float_equal(b.tl.clock_ghz_lo, 1.80, 0.005);
    assert_float_equal(b.tl.clock_ghz_hi, 1.98, 0.005);
    drop(&b);
}

/* A warp that never reached GS_FINISH is reported; its CTA is still placed. */
static void unfinished_warp_is_reported(void **state)
{
    (void)state;
    synth s;
    built b;
    synth_init(&s, 1, 2, 4);
    synth_warp(&s, 0, 0, 0, 0, 1000);
    synth_warp(&s, 0, 1, 0, 0, -1);
    synth_event(&s, 0, 1, GS_MAINLOOP, 0, 900, 0);
    build(&s, &b);
    assert_int_equal(b.tl.warps_unfinished, 1);
    assert_float_equal(b.ph.ph[GS_MAINLOOP].busy_share, 0.9, 1e-3);
    drop(&b);
}

static void quantiles_interpolate(void **state)
{
    (void)state;
    double v[] = {5, 1, 4, 2, 3};
    assert_float_equal(gs_quantile(v, 5, 0.5), 3, 1e-12);
    assert_float_equal(gs_quantile(v, 5, 0.9), 4.6, 1e-12);
    assert_float_equal(gs_quantile(v, 5, 1.0), 5, 1e-12);
    assert_true(isnan(gs_quantile(v, 0, 0.5)));
}

/* Instance quantiles equal gs_quantile over every instance's duration, both
 * when durations repeat and when there are too many distinct ones to count. */
static void instance_quantiles_match(int distinct)
{
    synth s;
    built b;
    uint32_t n = distinct ? 200000 : 3000;
    synth_init(&s, 1, 2, n);
    synth_warp(&s, 0, 0, 0, 0, 1e9);
    synth_warp(&s, 0, 1, 0, 0, 1e9);
    for (uint32_t i = 0; i < n; i++) {
        double t = 10000.0 * i, len = distinct ? 100 + 0.37 * i : 100 + 50 * (i % 7);
        synth_event(&s, 0, (uint16_t)(i % 2), i % 3 ? SYN_MMA : SYN_WAIT, t, t + len, 0);
    }
    build(&s, &b);
    double *v = malloc(n * sizeof *v);
    for (int p = SYN_WAIT; p <= SYN_MMA; p += SYN_MMA - SYN_WAIT) {
        size_t m = 0;
        for (size_t i = 0; i < b.tl.n_events; i++)
            if (b.tl.ev[i].phase == p)
                v[m++] = b.tl.ev[i].t1 - b.tl.ev[i].t0;
        assert_int_equal(b.ph.ph[p].instances, m);
        assert_true(b.ph.ph[p].inst_p50 == gs_quantile(v, m, 0.5));
        assert_true(b.ph.ph[p].inst_p90 == gs_quantile(v, m, 0.9));
        assert_true(b.ph.ph[p].inst_max == gs_quantile(v, m, 1.0));
    }
    free(v);
    drop(&b);
}

static void instance_quantiles_repeated(void **state)
{
    (void)state;
    instance_quantiles_match(0);
}

static void instance_quantiles_distinct(void **state)
{
    (void)state;
    instance_quantiles_match(1);
}

/* A trace with no started warp cannot be placed on a timeline: clear error. */
static void no_started_warp_is_an_error(void **state)
{
    (void)state;
    synth s;
    gs_trace t;
    gs_timeline tl;
    char err[256] = "";
    synth_init(&s, 1, 1, 4);
    assert_int_equal(synth_trace(&s, &t), 0);
    assert_int_equal(gs_timeline_build(&t, &tl, err, sizeof err), -1);
    assert_non_null(strstr(err, "GS_INIT"));
    gs_trace_free(&t);
}


/* Two CTAs resident together on one SM, as in a kernel that overlaps one
 * tile's epilogue with the next tile's main loop.  CTA 0: MAINLOOP 0..1000,
 * EPILOGUE 1000..1400.  CTA 1: MAINLOOP from `m1` to `m1 + 1000`.  The
 * epilogue is hidden where CTA 1's main loop runs. */
static void epilogue_hidden(double m1, double expect_exposed_ns, int resident)
{
    synth s;
    built b;
    gs_smtime t;
    synth_init(&s, 2, 1, 8);
    synth_warp(&s, 0, 0, 0, 0, 1400);
    synth_event(&s, 0, 0, GS_MAINLOOP, 0, 1000, 0);
    synth_event(&s, 0, 0, GS_EPILOGUE, 1000, 1400, 0);
    synth_warp(&s, 1, 0, 0, m1, m1 + 1000);
    synth_event(&s, 1, 0, GS_MAINLOOP, m1, m1 + 1000, 1);
    build(&s, &b);
    assert_int_equal(gs_smtime_compute(&b.tl, 1, &t), 0);
    double span = fmax(1400, m1 + 1000);
    assert_float_equal(t.span_ns, span, 1);
    assert_float_equal(t.exposed_share[GS_EPILOGUE], expect_exposed_ns / span, 1e-3);
    assert_float_equal(t.amdahl_bound[GS_EPILOGUE], expect_exposed_ns / span, 1e-3);
    double sum = 0;
    for (int c = 0; c < GS_SMT_CATEGORIES; c++)
        sum += t.share[c];
    assert_float_equal(sum, 1.0, 1e-9);
    assert_int_equal(t.resident_per_sm, resident);
    gs_smtime_free(&t);
    drop(&b);
}

static void epilogue_fully_hidden(void **state)
{
    (void)state;
    epilogue_hidden(900, 0, 2);     /* CTA 1's main loop covers 1000..1400 */
}

static void epilogue_half_hidden(void **state)
{
    (void)state;
    epilogue_hidden(200, 200, 2);   /* main loop until 1200: 1200..1400 exposed */
}

static void epilogue_fully_exposed(void **state)
{
    (void)state;
    epilogue_hidden(1400, 400, 1);  /* CTA 1 starts only after the epilogue */
}

/* 3 SMs, 4 CTAs of 1000 ns, one resident per SM: 1.33 waves; the second wave
 * runs on one SM, two SMs idle for its whole length: a tail. */
static void waves_and_idle_tail(void **state)
{
    (void)state;
    synth s;
    built b;
    gs_smtime t;
    synth_init(&s, 4, 1, 4);
    for (uint32_t c = 0; c < 4; c++) {
        uint16_t sm = (uint16_t)(c % 3);
        double t0 = c < 3 ? 0 : 1000;
        synth_warp(&s, c, 0, sm, t0, t0 + 1000);
        synth_event(&s, c, 0, GS_MAINLOOP, t0, t0 + 900, 0);
        synth_event(&s, c, 0, GS_STORE, t0 + 900, t0 + 1000, 0);
    }
    build(&s, &b);
    assert_int_equal(gs_smtime_compute(&b.tl, 3, &t), 0);
    assert_float_equal(t.waves, 4.0 / 3, 1e-9);
    assert_int_equal(t.resident_per_sm, 1);
    assert_int_equal(t.ctas_per_sm_max, 2);
    assert_int_equal(t.ctas_per_sm_min, 1);
    assert_float_equal(t.tail_ns, 1000, 1);
    assert_float_equal(t.tail_share, 0.5, 1e-3);
    /* SM-time 6000: mainloop 3600, store 400, idle 2000 */
    assert_float_equal(t.share[GS_MAINLOOP], 3600.0 / 6000, 1e-3);
    assert_float_equal(t.share[GS_STORE], 400.0 / 6000, 1e-3);
    assert_float_equal(t.share[GS_SMT_IDLE], 2000.0 / 6000, 1e-3);
    assert_float_equal(t.exposed_share[GS_STORE], 400.0 / 6000, 1e-3);
    assert_float_equal(t.amdahl_bound[GS_STORE], 200.0 / 2000, 1e-3); /* SM 0: two stores of 100 */
    /* an SM the device has but nothing ran on is idle all along */
    gs_smtime t4;
    assert_int_equal(gs_smtime_compute(&b.tl, 4, &t4), 0);
    assert_float_equal(t4.share[GS_SMT_IDLE], 4000.0 / 8000, 1e-3);
    assert_int_equal(t4.ctas_per_sm_min, 0);
    /* balance: SMs end at 2000, 1000, 1000 (mean 1333 of a 2000 span); with the fourth SM,
     * which ran nothing, at 0 too (mean 1000) */
    assert_float_equal(t.end_min_ns, 1000, 1);
    assert_float_equal(t.end_median_ns, 1000, 1);
    assert_float_equal(t.end_max_ns, 2000, 1);
    assert_float_equal(t.balance_bound, 1 - 4000.0 / 3 / 2000, 1e-3);
    assert_float_equal(t4.end_min_ns, 0, 1e-9);
    assert_float_equal(t4.balance_bound, 0.5, 1e-3);
    gs_smtime_free(&t);
    gs_smtime_free(&t4);
    drop(&b);
}

/* A run of `sms` SMs over 100 us, everything else zero: what the verdict tests fill in. */
static gs_rundata *verdict_run(int sms)
{
    gs_rundata *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->smt.sms = sms;
    r->smt.span_ns = 100e3;
    r->smt.sm_time_ns = sms * 100e3;
    return r;
}

/* Whether r's verdicts hold one that starts with `text` (anywhere: contains it). */
static int says(const gs_rundata *r, const char *text, int anywhere)
{
    gs_verdicts v;
    gs_verdicts_compute(r, &v);
    for (int i = 0; i < v.n; i++) {
        const char *at = strstr(v.text[i], text);
        if (at && (anywhere || at == v.text[i]))
            return 1;
    }
    return 0;
}

/* The "Slow start" verdict: from the main loop's line (widths.h), a CTA's first unit's start
 * less a later unit's over the span, at the width with the most first units; said from
 * GS_START_BOUND, not below it, not without a fitted later start, and never from a width with
 * fewer first units. */
/* The case the verdict speaks on: one wave, 100 first and 30 later units at width 128 with a
 * cost of 1 us per K block and a residual of 100 ns; `tweak` then spoils one thing. */
enum { SLOW_AS_IS, SLOW_TWO_WAVES, SLOW_FEW_LATER, SLOW_FLAT, SLOW_LOOSE, SLOW_NOT_OK };
static int says_slow_start(double first_ns, double later_ns, double other_first_ns, int tweak)
{
    gs_rundata *r = verdict_run(132); /* a span of 100 us */
    r->smt.waves = tweak == SLOW_TWO_WAVES ? 2.0 : 0.97;
    gs_widths *w = &r->widths;
    w->applies = 1, w->ok = tweak != SLOW_NOT_OK;
    w->n = 2;
    w->row[0] = (gs_width_row){.width = 64, .first_units = 10, .later_units = 30};
    w->row[0].fit_first_ns = other_first_ns, w->row[0].fit_later_ns = 0, w->row[0].fit_kb_ns = 1000;
    w->row[1] = (gs_width_row){.width = 128, .first_units = 100, .later_units = tweak == SLOW_FEW_LATER ? 3 : 30};
    w->row[1].fit_first_ns = first_ns, w->row[1].fit_later_ns = later_ns;
    w->row[1].fit_kb_ns = tweak == SLOW_FLAT ? -5 : 1000;
    w->row[1].fit_resid_p90_ns = tweak == SLOW_LOOSE ? 3000 : 100;
    const int said = says(r, "Slow start: a CTA's first unit spends ", 0);
    free(r);
    return said;
}

static void slow_start_verdict(void **state)
{
    (void)state;
    assert_true(says_slow_start(6000, 500, 0, SLOW_AS_IS));    /* 5.5 us of 100: 5.5% */
    assert_true(says_slow_start(3501, 500, 0, SLOW_AS_IS));    /* just over the bound */
    assert_false(says_slow_start(3000, 500, 0, SLOW_AS_IS));   /* 2.5% */
    assert_false(says_slow_start(6000, NAN, 0, SLOW_AS_IS));   /* no later start fitted */
    assert_false(says_slow_start(1000, 500, 20e3, SLOW_AS_IS)); /* the width with fewer first units does not speak */
    assert_false(says_slow_start(6000, 500, 0, SLOW_TWO_WAVES)); /* each wave pays its own first start */
    assert_false(says_slow_start(6000, 500, 0, SLOW_FEW_LATER)); /* 3 later units */
    assert_false(says_slow_start(6000, 500, 0, SLOW_FLAT));      /* no positive cost per K block */
    assert_false(says_slow_start(6000, 500, 0, SLOW_LOOSE));     /* the residual covers the gap */
    assert_false(says_slow_start(6000, 500, 0, SLOW_NOT_OK));    /* no table */
}

/* The "above its steady K blocks" verdict: at the width with the most main-loop time that has
 * the figure, from GS_ABOVE_STEADY of its main loop, not below it, not from a smaller width's
 * larger share, and not without the figure. */
static int says_above_steady(double share_big, double share_small, int have_big, const char *text)
{
    gs_rundata *r = verdict_run(132);
    gs_widths *w = &r->widths;
    w->applies = 1, w->ok = 1, w->n = 2;
    w->row[0] = (gs_width_row){.width = 64, .main_share = 0.2, .steady_kb_ns = 500, .above_steady_ns = 9000,
                               .above_steady_share = share_small};
    w->row[1] = (gs_width_row){.width = 128, .main_share = 0.8, .steady_kb_ns = have_big ? 771 : NAN,
                               .above_steady_ns = have_big ? 3450 : NAN,
                               .above_steady_share = have_big ? share_big : NAN};
    for (int i = 0; i < 2; i++)
        w->row[i].fit_first_ns = w->row[i].fit_later_ns = w->row[i].fit_kb_ns = NAN;
    const int said = says(r, text, 0);
    free(r);
    return said;
}

static void above_steady_verdict(void **state)
{
    (void)state;
    const char *any = "Main loop above its steady K blocks:";
    assert_true(says_above_steady(0.074, 0.5, 1, "Main loop above its steady K blocks: at width 128 a unit's main loop "
                                                 "runs 3.45 us (7% of it) longer than its K blocks at the steady "
                                                 "0.771 us each (plain twin)"));
    assert_true(says_above_steady(GS_ABOVE_STEADY, 0.0, 1, any));
    assert_false(says_above_steady(0.049, 0.5, 1, any)); /* below the bound; the smaller width's 50% does not speak */
    assert_true(says_above_steady(NAN, 0.5, 0, "Main loop above its steady K blocks: at width 64 ")); /* the one with it */
    assert_false(says_above_steady(NAN, 0.01, 0, any));
}

/* The "Unbalanced" verdict: said from a full wave when an even spread saves at least
 * GS_BALANCE_BOUND, not below it and not under one wave (the idle SMs say that). */
static int says_unbalanced(double waves, double bound)
{
    gs_rundata *r = verdict_run(132);
    r->smt.waves = waves;
    r->smt.end_min_ns = 90e3;
    r->smt.end_max_ns = 100e3;
    r->smt.balance_bound = bound;
    const int said = says(r, "Unbalanced: SMs run out of work between 90.0 and 100.0 us;", 0);
    free(r);
    return said;
}

static void unbalanced_verdict(void **state)
{
    (void)state;
    assert_true(says_unbalanced(1.0, 0.05));
    assert_true(says_unbalanced(2.3, GS_BALANCE_BOUND));
    assert_false(says_unbalanced(1.0, 0.02));
    assert_false(says_unbalanced(0.8, 0.30));
}

/* The "waits on instruction fetch" verdict: an exposed phase (>= GS_EXPOSED_LARGE) holding at
 * least GS_FETCH_MIN of the PC samples, GS_FETCH_SHARE or more of them in no_instructions; not
 * below any of the three, and not without PC samples. */
static int says_fetch(double exposed, double phase_samples, double fetch_samples, int present)
{
    gs_rundata *r = verdict_run(132);
    snprintf(r->names.p[GS_EPILOGUE].name, sizeof r->names.p[GS_EPILOGUE].name, "EPILOGUE");
    r->smt.exposed_share[GS_EPILOGUE] = exposed;
    gs_stalls *st = &r->stalls;
    st->present = present;
    st->nreasons = 2;
    snprintf(st->reason[0], sizeof st->reason[0], "wait");
    snprintf(st->reason[1], sizeof st->reason[1], "no_instructions");
    st->total = 10000;
    st->phase_total[GS_EPILOGUE] = phase_samples;
    st->by[GS_EPILOGUE][1] = fetch_samples;
    st->by[GS_EPILOGUE][0] = phase_samples - fetch_samples;
    const int said = says(r, "EPILOGUE waits on instruction fetch: no_instructions is ", 0);
    free(r);
    return said;
}

static void fetch_verdict(void **state)
{
    (void)state;
    assert_true(says_fetch(0.06, 500, 300, 1));                /* 60% of its samples */
    assert_true(says_fetch(GS_EXPOSED_LARGE, 50, 15, 1));      /* every threshold met exactly */
    assert_false(says_fetch(0.06, 500, 140, 1));               /* 28% */
    assert_false(says_fetch(0.04, 500, 300, 1));               /* hidden enough not to matter */
    assert_false(says_fetch(0.06, 40, 30, 1));                 /* 0.4% of all samples */
    assert_false(says_fetch(0.06, 500, 300, 0));               /* no PC samples */
}

/* Planned work per CTA from a units list: loads per CTA summed over its units, levels heaviest
 * first, idle CTAs, split units, widths; the bound over CTAs and over more SMs; a unit on a CTA
 * the run does not have leaves the table out with the reason. */
static void add_unit(gs_units *us, unsigned tag, unsigned cta, unsigned width, unsigned k0, unsigned k1, unsigned parts)
{
    char err[128];
    gs_unit u = {tag, cta, 0, width, k0, k1, parts, 1e6 * width * (k1 - k0)};
    assert_int_equal(gs_units_add(us, &u, err, sizeof err), 0);
}

static void planned_work(void **state)
{
    (void)state;
    gs_units us;
    memset(&us, 0, sizeof us);
    add_unit(&us, 0, 0, 128, 0, 30, 2); /* CTA 0: 30 K blocks, the owner of a split tile */
    add_unit(&us, 1, 1, 128, 30, 56, 2); /* CTA 1: 26 */
    add_unit(&us, 2, 2, 128, 0, 15, 1);  /* CTA 2: 15 + 15 = 30 */
    add_unit(&us, 3, 2, 128, 0, 15, 1);
    gs_workload w;
    assert_int_equal(gs_workload_compute(&us, 4, &w), 0); /* CTA 3: none */
    assert_true(w.valid);
    assert_int_equal(w.ctas, 4);
    assert_int_equal(w.idle_ctas, 1);
    assert_int_equal(w.units, 4);
    assert_int_equal(w.split_units, 2);
    assert_int_equal(w.widths, 1);
    assert_int_equal(w.nlevels, 2);
    assert_int_equal(w.level_ctas[0], 2);
    assert_float_equal(w.level_flops[0], 128e6 * 30, 1);
    assert_int_equal(w.level_ctas[1], 1);
    assert_float_equal(w.level_flops[1], 128e6 * 26, 1);
    assert_float_equal(gs_workload_bound(&w, 4), 1 - 86.0 / (4 * 30), 1e-12);
    assert_float_equal(gs_workload_bound(&w, 8), 1 - 86.0 / (8 * 30), 1e-12);
    add_unit(&us, 4, 3, 64, 0, 10, 1); /* a second width */
    assert_int_equal(gs_workload_compute(&us, 4, &w), 0);
    assert_int_equal(w.widths, 2);
    assert_int_equal(w.idle_ctas, 0);
    assert_int_equal(gs_workload_compute(&us, 3, &w), 0); /* CTA 3 is not in a 3-CTA run */
    assert_false(w.valid);
    assert_non_null(strstr(w.why, "unit 4 is on CTA 3"));
    gs_units empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(gs_workload_compute(&empty, 4, &w), 0);
    assert_false(w.valid);
    assert_int_equal(w.why[0], 0);
    assert_float_equal(gs_workload_bound(&w, 4), 0, 0);
    gs_units_free(&us);
}

/* The planned bound over the SMs applies with one width and at most one CTA per SM only. */
static void planned_bound_applies(void **state)
{
    (void)state;
    gs_rundata *r = verdict_run(4);
    gs_units us;
    memset(&us, 0, sizeof us);
    add_unit(&us, 0, 0, 128, 0, 30, 1);
    add_unit(&us, 1, 1, 128, 0, 20, 1);
    assert_int_equal(gs_workload_compute(&us, 2, &r->work), 0);
    r->have = GS_NEED_SMTIME;
    r->smt.ctas_per_sm_max = 1;
    unsigned slots = 0;
    assert_float_equal(gs_rundata_planned_bound(r, &slots), 1 - 50.0 / (4 * 30), 1e-12);
    assert_int_equal(slots, 4);
    /* the "Unbalanced" verdict then says how much of it the plan holds (here all: 58.3% planned) */
    r->smt.waves = 1.0;
    r->smt.end_max_ns = 100e3;
    r->smt.balance_bound = 0.55;
    assert_true(says(r, "The schedule's main loops alone: 58.3% (the imbalance is planned).", 1));
    r->smt.ctas_per_sm_max = 2;
    assert_true(isnan(gs_rundata_planned_bound(r, &slots)));
    r->smt.ctas_per_sm_max = 1;
    r->have = 0;
    assert_true(isnan(gs_rundata_planned_bound(r, &slots)));
    r->have = GS_NEED_SMTIME;
    add_unit(&us, 2, 1, 64, 20, 30, 1);
    assert_int_equal(gs_workload_compute(&us, 2, &r->work), 0);
    assert_true(isnan(gs_rundata_planned_bound(r, &slots)));
    gs_units_free(&us);
    free(r);
}

/* Overlapping non-main-loop phases: the decomposition gives the time to the
 * first in GS_EXPOSE_ORDER; each phase's own exposed time counts it fully. */
static void overlapping_exposed_phases(void **state)
{
    (void)state;
    synth s;
    built b;
    gs_smtime t;
    synth_init(&s, 1, 2, 4);
    synth_warp(&s, 0, 0, 0, 0, 1000);
    synth_warp(&s, 0, 1, 0, 0, 1000);
    synth_event(&s, 0, 0, GS_EPILOGUE, 0, 600, 0);
    synth_event(&s, 0, 1, GS_STORE, 400, 1000, 0);
    build(&s, &b);
    assert_int_equal(gs_smtime_compute(&b.tl, 1, &t), 0);
    assert_float_equal(t.share[GS_STORE], 0.6, 1e-3);
    assert_float_equal(t.share[GS_EPILOGUE], 0.4, 1e-3);
    assert_float_equal(t.exposed_share[GS_EPILOGUE], 0.6, 1e-3);
    assert_float_equal(t.exposed_share[GS_STORE], 0.6, 1e-3);
    gs_smtime_free(&t);
    drop(&b);
}

/* Between main loops: one warp runs two units, with the first unit's drain, epilogue and
 * store and 500 ns of nothing before the second main loop; another warp runs one unit (no
 * boundary). */
static void gap_between_main_loops_is_split(void **state)
{
    (void)state;
    synth s;
    built b;
    gs_boundaries x;
    synth_init(&s, 1, 2, 16);
    synth_warp(&s, 0, 0, 0, 0, 20000);
    synth_warp(&s, 0, 1, 0, 0, 20000);
    synth_event(&s, 0, 0, GS_MAINLOOP, 0, 8000, 0);
    synth_event(&s, 0, 0, GS_ACC_TO_REG, 8000, 8500, 0);
    synth_event(&s, 0, 0, GS_EPILOGUE, 8500, 9500, 0);
    synth_event(&s, 0, 0, GS_STORE, 9500, 10000, 0);
    synth_event(&s, 0, 0, GS_MAINLOOP, 10500, 18000, 1);
    synth_event(&s, 0, 0, GS_STORE, 18000, 19000, 1);
    synth_event(&s, 0, 1, GS_MAINLOOP, 0, 19000, 0);
    build(&s, &b);
    assert_int_equal(gs_boundaries_compute(&b.tl, &x), 0);
    assert_int_equal(x.n, 1);
    assert_int_equal(x.warps, 1);
    assert_float_equal(x.gap_mean_ns, 2500, 1);
    assert_float_equal(x.gap_p90_ns, 2500, 1);
    assert_float_equal(x.acc_mean_ns, 500, 1);
    assert_float_equal(x.epi_mean_ns, 1000, 1);
    assert_float_equal(x.store_mean_ns, 500, 1); /* the second unit's store is after the last main loop */
    assert_float_equal(x.other_mean_ns, 500, 1);
    drop(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shares_of_sequential_phases),
        cmocka_unit_test(gap_between_main_loops_is_split), cmocka_unit_test(overlapping_phases_union_per_cta),
        cmocka_unit_test(overflow_is_counted),        cmocka_unit_test(skewed_sm_clocks_are_aligned),
        cmocka_unit_test(unfinished_warp_is_reported), cmocka_unit_test(quantiles_interpolate),
        cmocka_unit_test(clock_change_without_sampler_misplaces),
        cmocka_unit_test(clock_change_followed_by_sampler_pairs),
        cmocka_unit_test(no_started_warp_is_an_error),
        cmocka_unit_test(instance_quantiles_repeated), cmocka_unit_test(instance_quantiles_distinct),
        cmocka_unit_test(epilogue_fully_hidden),      cmocka_unit_test(epilogue_half_hidden),
        cmocka_unit_test(epilogue_fully_exposed),     cmocka_unit_test(waves_and_idle_tail),
        cmocka_unit_test(overlapping_exposed_phases), cmocka_unit_test(unbalanced_verdict), cmocka_unit_test(slow_start_verdict), cmocka_unit_test(above_steady_verdict), cmocka_unit_test(fetch_verdict),
        cmocka_unit_test(planned_work), cmocka_unit_test(planned_bound_applies),
    };
    return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
