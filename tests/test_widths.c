/* Main loop by unit width (analysis/widths.c) on stamps made from a known list of units:
 * MAINLOOP per K block set per unit, so the medians, shares and floors are known by
 * construction; then stamps the run's units disagree with (the table left out, with why). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"
#include "analysis/widths.h"

#define PART_RATE 5000.0 /* far from every whole tile's: a part counted would move the medians */
/* ceiling_tflops for a floor of 1000 ns per K block at width 64 on 4 SMs (128-row tiles, K
 * blocks of 128): 2 x 128 x 64 x 128 flop x 4 SMs / 1000 ns */
#define CEILING_TFLOPS "8.388608"
#define FLOPS_PER_KB(width) (2.0 * 128 * (width) * 128)

typedef struct tunit {
    gs_unit u;
    double rate; /* ns per K block of its MAINLOOP */
} tunit;

/* Six whole tiles of 8 K blocks on 4 CTAs: group 0 two of width 64, group 1 four of 128. */
static const tunit units1[] = {
    {{0, 0, 0, 64, 0, 8, 1, 8 * FLOPS_PER_KB(64)}, 1000},  {{1, 1, 0, 64, 0, 8, 1, 8 * FLOPS_PER_KB(64)}, 1200},
    {{2, 2, 1, 128, 0, 8, 1, 8 * FLOPS_PER_KB(128)}, 2000}, {{3, 3, 1, 128, 0, 8, 1, 8 * FLOPS_PER_KB(128)}, 2100},
    {{4, 0, 1, 128, 0, 8, 1, 8 * FLOPS_PER_KB(128)}, 2200}, {{5, 1, 1, 128, 0, 8, 1, 8 * FLOPS_PER_KB(128)}, 2600},
};
/* Split K: four whole tiles of 16 K blocks and two tiles cut in two parts of 8, width 64. */
static const tunit units2[] = {
    {{0, 0, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)}, 1000}, {{1, 1, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)}, 1200},
    {{2, 2, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)}, 1000}, {{3, 3, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)}, 1200},
    {{4, 0, 0, 64, 0, 8, 2, 8 * FLOPS_PER_KB(64)}, PART_RATE}, {{5, 1, 0, 64, 8, 16, 2, 8 * FLOPS_PER_KB(64)}, PART_RATE},
    {{6, 2, 0, 64, 0, 8, 2, 8 * FLOPS_PER_KB(64)}, PART_RATE}, {{7, 3, 0, 64, 8, 16, 2, 8 * FLOPS_PER_KB(64)}, PART_RATE},
};

static void add(gs_timeline *tl, size_t *cap, uint32_t cta, uint16_t warp, int tile, int group, int phase, double t0,
                double t1)
{
    if (tl->n_events == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        tl->ev = realloc(tl->ev, *cap * sizeof *tl->ev);
        assert_non_null(tl->ev);
    }
    tl->ev[tl->n_events++] = (gs_event){t0, t1, cta, warp, 0, (uint16_t)tile, (uint16_t)group, (uint8_t)phase, 2};
}

/* Stamps of a launch that ran the units: warp 0 and warp 1 of each CTA record every unit's
 * MAINLOOP (warp 1's is longer and must not count); with detail, both record each K block's
 * sub-phases (warp 1's far off).  ramp: ns the first two K blocks take above the rest (3/4
 * of it the first's, 1/4 the second's), in MAINLOOP too. */
static void stamp_ramp(gs_timeline *tl, const tunit *us, size_t n, int detail, double ramp)
{
    memset(tl, 0, sizeof *tl);
    size_t cap = 0;
    for (uint32_t b = 0; b < 4; b++) {
        double t0 = 1000;
        for (size_t i = 0; i < n; i++) {
            const gs_unit *u = &us[i].u;
            if (u->cta != b)
                continue;
            const int kb = (int)(u->k1 - u->k0);
            const double rate = us[i].rate, ml = kb * rate + ramp;
            add(tl, &cap, b, 0, (int)u->unit, (int)u->group, GS_MAINLOOP, t0, t0 + ml);
            add(tl, &cap, b, 1, (int)u->unit, (int)u->group, GS_MAINLOOP, t0 + 20, t0 + ml + 500);
            for (int k = 0; detail && k < kb; k++) {
                const double at = t0 + k * rate + (k == 0 ? 0 : k == 1 ? 0.75 * ramp : ramp);
                /* the first K block waits longest: the medians are the others' */
                const double wait = k == 0 ? 500 : u->width == 64 ? 40 : 60;
                add(tl, &cap, b, 0, (int)u->unit, (int)u->group, SYN_WAIT, at, at + wait);
                add(tl, &cap, b, 0, (int)u->unit, (int)u->group, SYN_PREP, at, at + 200);
                add(tl, &cap, b, 0, (int)u->unit, (int)u->group, SYN_MMA, at, at + 300 + u->width);
                add(tl, &cap, b, 1, (int)u->unit, (int)u->group, SYN_WAIT, at, at + 9000);
                add(tl, &cap, b, 1, (int)u->unit, (int)u->group, SYN_MMA, at, at + 9000);
            }
            add(tl, &cap, b, 0, (int)u->unit, (int)u->group, GS_EPILOGUE, t0 + ml, t0 + ml + 300);
            t0 += ml + 1000;
        }
    }
}

static void stamp(gs_timeline *tl, const tunit *us, size_t n, int detail)
{
    stamp_ramp(tl, us, n, detail, 0);
}

/* Each test's stamps, meta.txt, names, units and table; teardown frees them. */
typedef struct fixture {
    gs_timeline tl;
    gs_meta m;
    gs_phase_table names;
    gs_units units;
    gs_widths w;
} fixture;

static int setup(void **state)
{
    *state = calloc(1, sizeof(fixture));
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gs_meta_free(&f->m);
    gs_units_free(&f->units);
    gs_timeline_free(&f->tl);
    free(f);
    return 0;
}

/* The run's side: meta (meta_sms SMs, the ceiling, the per-K-block phase), names of the
 * main loop's sub-phases, and the units as listed. */
static void describe(fixture *f, const tunit *us, size_t n, int meta_sms)
{
    char err[256];
    gs_meta_set(&f->m, "sm_count", "%d", meta_sms);
    gs_meta_set(&f->m, "ceiling_tflops", CEILING_TFLOPS);
    gs_meta_set(&f->m, "units.k_block", "128");
    gs_meta_set(&f->m, "units.kblock_phase", "WAIT");
    gs_phase_table_init(&f->names);
    assert_int_equal(gs_phase_table_name(&f->names, SYN_WAIT, "WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&f->names, SYN_PREP, "PREP", GS_MAINLOOP, "prep", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&f->names, SYN_MMA, "MMA", GS_MAINLOOP, "mma", err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(gs_units_add(&f->units, &us[i].u, err, sizeof err), 0);
}

static const gs_widths *run(void **state, const tunit *us, size_t n, int meta_sms, int detail)
{
    fixture *f = *state;
    stamp(&f->tl, us, n, detail);
    describe(f, us, n, meta_sms);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    return &f->w;
}

#define N1 (sizeof units1 / sizeof units1[0])
#define N2 (sizeof units2 / sizeof units2[0])

/* A row of whole tiles: its counts, quantiles (ns per K block) and floor. */
static void check_row(const gs_width_row *x, int width, int units, long long kblocks, double p50, double p10,
                      double p90, double floor_ns)
{
    assert_int_equal(x->width, width);
    assert_int_equal(x->units, units);
    assert_int_equal(x->whole, units);
    assert_int_equal(x->parts, 0);
    assert_int_equal(x->kblocks, kblocks);
    assert_float_equal(x->kb_p50_ns, p50, 1e-6);
    assert_float_equal(x->kb_p10_ns, p10, 1e-6);
    assert_float_equal(x->kb_p90_ns, p90, 1e-6);
    assert_float_equal(x->ns_per_column, p50 / width, 1e-9);
    assert_float_equal(x->floor_ns, floor_ns, 1e-6);
    assert_float_equal(x->ceiling_share, floor_ns / p50, 1e-9);
}

/* sms: meta.txt's SM count, whose share of the ceiling sets the floor */
static void check_rows1(const gs_widths *w, int sms)
{
    const double floor64 = 1000.0 * sms / 4;
    assert_int_equal(w->ok, 1);
    assert_int_equal(w->n, 2);
    const gs_width_row *a = &w->row[0], *b = &w->row[1];
    check_row(a, 64, 2, 16, 1100, 1020, 1180, floor64);
    check_row(b, 128, 4, 32, 2150, 2030, 2480, 2 * floor64);
    /* warp 0's MAINLOOP: 8 x (1000 + 1200) and 8 x (2000 + 2100 + 2200 + 2600) */
    assert_float_equal(a->main_share, 17600.0 / 88800, 1e-9);
    assert_float_equal(b->main_share, 71200.0 / 88800, 1e-9);
}

static void units_agree_plain(void **state)
{
    const gs_widths *w = run(state, units1, N1, 4, 0);
    assert_int_equal(w->applies, 1);
    assert_int_equal(w->stamped_units, 6);
    assert_int_equal(w->listed_units, 6);
    assert_int_equal(w->n_sub, 0); /* a plain twin: no sub-phase columns */
    check_rows1(w, 4);
}

static void units_agree_detail(void **state)
{
    const gs_widths *w = run(state, units1, N1, 4, 1);
    check_rows1(w, 4);
    assert_int_equal(w->n_sub, 3);
    assert_float_equal(w->row[0].sub_ns[SYN_WAIT], 40, 1e-6);
    assert_float_equal(w->row[0].sub_ns[SYN_PREP], 200, 1e-6);
    assert_float_equal(w->row[0].sub_ns[SYN_MMA], 364, 1e-6);
    assert_float_equal(w->row[1].sub_ns[SYN_WAIT], 60, 1e-6);
    assert_float_equal(w->row[1].sub_ns[SYN_MMA], 428, 1e-6);
    assert_float_equal(w->row[0].steady_kb_ns, 1100, 1e-6);
    assert_float_equal(w->row[0].above_steady_ns, 0, 1e-6);
}

/* The steady cost per K block is the median interval between the per-K-block records of a
 * unit (warp 0's: warp 1's lie on the same starts and must not count), so the first two K
 * blocks' 4000 ns above it stay out of it and make up "above steady"; the plain twin has no
 * such records. */
static void steady_cost_leaves_out_the_ramp(void **state)
{
    fixture *f = *state;
    stamp_ramp(&f->tl, units1, N1, 1, 4000);
    describe(f, units1, N1, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    const gs_widths *w = &f->w;
    assert_int_equal(w->ok, 1);
    /* per unit: its rate; medians over the width's units */
    assert_float_equal(w->row[0].steady_kb_ns, 1100, 1e-6);
    assert_float_equal(w->row[1].steady_kb_ns, 2150, 1e-6);
    assert_float_equal(w->row[0].above_steady_ns, 4000, 1e-6);
    assert_float_equal(w->row[1].above_steady_ns, 4000, 1e-6);
    /* 4000 over MAINLOOPs of 8 x rate + 4000: 64 wide 1000, 1200; 128 wide 2000 .. 2600 */
    assert_float_equal(w->row[0].above_steady_share, (4000.0 / 12000 + 4000.0 / 13600) / 2, 1e-9);
    assert_float_equal(w->row[1].above_steady_share, (4000.0 / 20800 + 4000.0 / 21600) / 2, 1e-9);
    /* the quantiles of MAINLOOP / K blocks carry the ramp: 1100 + 4000 / 8 */
    assert_float_equal(w->row[0].kb_p50_ns, 1600, 1e-6);
    /* the profile: K block 1 is 3000 above its rate, K block 2 1000, the rest at it; 7 intervals */
    assert_int_equal(w->row[0].kb_profile_n, 7);
    assert_float_equal(w->row[0].kb_interval_ns[0], 4100, 1e-6);
    assert_float_equal(w->row[0].kb_interval_ns[1], 2100, 1e-6);
    for (int j = 2; j < 7; j++)
        assert_float_equal(w->row[0].kb_interval_ns[j], 1100, 1e-6);
    assert_true(isnan(w->row[0].kb_interval_ns[7]));
    assert_float_equal(w->row[1].kb_interval_ns[0], 2150 + 3000, 1e-6);
}

static void steady_cost_none_without_per_kblock_records(void **state)
{
    const gs_widths *w = run(state, units1, N1, 4, 0);
    assert_true(isnan(w->row[0].steady_kb_ns) && isnan(w->row[1].steady_kb_ns));
    assert_true(isnan(w->row[0].above_steady_ns) && isnan(w->row[0].above_steady_share));
    assert_int_equal(w->row[0].kb_profile_n, 0);
}

/* Three K blocks make two intervals, both possibly the ramp's: no steady cost. */
static void steady_cost_needs_four_k_blocks(void **state)
{
    static const tunit short_units[] = {
        {{0, 0, 0, 64, 0, 3, 1, 3 * FLOPS_PER_KB(64)}, 1000},
        {{1, 1, 0, 64, 0, 4, 1, 4 * FLOPS_PER_KB(64)}, 1500},
    };
    const gs_widths *w = run(state, short_units, 2, 4, 1);
    assert_int_equal(w->ok, 1);
    assert_float_equal(w->row[0].steady_kb_ns, 1500, 1e-6); /* the 4-block unit's alone */
    fixture *f = *state;
    gs_meta_free(&f->m);
    gs_units_free(&f->units);
    gs_timeline_free(&f->tl);
    memset(f, 0, sizeof *f);
    w = run(state, short_units, 1, 4, 1);
    assert_int_equal(w->ok, 1);
    assert_true(isnan(w->row[0].steady_kb_ns));
}

/* Parts count for the steady cost as whole tiles do (its intervals are a part's K blocks too):
 * four tiles at 1000 and 1200 and four parts at PART_RATE, the median between them. */
static void steady_cost_takes_parts(void **state)
{
    const gs_widths *w = run(state, units2, N2, 4, 1);
    assert_int_equal(w->ok, 1);
    assert_float_equal(w->row[0].steady_kb_ns, (1200 + PART_RATE) / 2, 1e-6);
    assert_float_equal(w->row[0].above_steady_ns, 0, 1e-6);
}

/* The floor is a K block's flops at one SM's share: 3 SMs in meta.txt, 3/4 of 4's. */
static void floor_follows_the_sm_count(void **state)
{
    check_rows1(run(state, units1, N1, 3, 0), 3);
}

static void parts_stay_out_of_the_median(void **state)
{
    const gs_widths *w = run(state, units2, N2, 4, 0);
    assert_int_equal(w->n, 1);
    assert_int_equal(w->row[0].units, 8);
    assert_int_equal(w->row[0].whole, 4);
    assert_int_equal(w->row[0].parts, 4);
    assert_int_equal(w->row[0].kblocks, 96);
    assert_float_equal(w->row[0].kb_p50_ns, 1100, 1e-6);
    assert_float_equal(w->row[0].kb_p90_ns, 1200, 1e-6);
    assert_float_equal(w->row[0].floor_ns, 1000, 1e-6);
    assert_float_equal(w->row[0].main_share, 1.0, 1e-12);
}

/* The main loop as a line: a run whose units' MAINLOOP is exactly start + K blocks x cost
 * (the start FIRST_NS for a CTA's first unit, LATER_NS after it), K blocks varying, parts and
 * whole tiles mixed, CTAs with one, two or three units. */
#define LINE_KB_NS 1200.0
#define FIRST_NS 5000.0
#define LATER_NS 700.0
static const gs_unit line_units[] = {
    {0, 0, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)}, {1, 0, 0, 64, 0, 6, 2, 6 * FLOPS_PER_KB(64)},
    {2, 0, 0, 64, 6, 16, 2, 10 * FLOPS_PER_KB(64)}, {3, 1, 0, 64, 0, 12, 2, 12 * FLOPS_PER_KB(64)},
    {4, 2, 0, 64, 12, 16, 2, 4 * FLOPS_PER_KB(64)}, {5, 2, 0, 64, 0, 16, 1, 16 * FLOPS_PER_KB(64)},
    {6, 3, 0, 64, 0, 8, 1, 8 * FLOPS_PER_KB(64)},
};
#define NL (sizeof line_units / sizeof line_units[0])

/* Warp 0 of each CTA runs its units in list order, 1000 ns apart; MAINLOOP = start + kb x cost,
 * plus off_ns on unit `off_unit` (none where it is past the list); with tie, CTA 0's second unit
 * begins when its first does. */
static void stamp_line(gs_timeline *tl, int off_unit, double off_ns, int tie)
{
    memset(tl, 0, sizeof *tl);
    size_t cap = 0;
    for (uint32_t b = 0; b < 4; b++) {
        double t0 = 1000, prev_t0 = 1000;
        int first = 1;
        for (size_t i = 0; i < NL; i++) {
            const gs_unit *u = &line_units[i];
            if (u->cta != b)
                continue;
            const double ml = (first ? FIRST_NS : LATER_NS) + (u->k1 - u->k0) * LINE_KB_NS +
                              ((int)u->unit == off_unit ? off_ns : 0);
            const double at = tie && b == 0 && u->unit == 1 ? prev_t0 : t0;
            add(tl, &cap, b, 0, (int)u->unit, 0, GS_MAINLOOP, at, at + ml);
            prev_t0 = at;
            t0 = at + ml + 1000;
            first = 0;
        }
    }
}

/* The run lists the units in line_units' order, or (reversed) backwards: the stamps' times, not
 * the list, say which unit came first on a CTA. */
static const gs_widths *run_line_as(void **state, int off_unit, double off_ns, int tie, int reversed)
{
    fixture *f = *state;
    stamp_line(&f->tl, off_unit, off_ns, tie);
    tunit t[NL];
    for (size_t i = 0; i < NL; i++)
        t[i] = (tunit){line_units[reversed ? NL - 1 - i : i], 0};
    describe(f, t, NL, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    assert_int_equal(f->w.ok, 1);
    assert_int_equal(f->w.n, 1);
    return &f->w;
}

static const gs_widths *run_line(void **state, int off_unit, double off_ns)
{
    return run_line_as(state, off_unit, off_ns, 0, 0);
}

static void main_loop_as_a_line(void **state)
{
    const gs_width_row *r = &run_line(state, -1, 0)->row[0];
    assert_int_equal(r->first_units, 4);
    assert_int_equal(r->later_units, 3);
    assert_int_equal(r->kb_min, 4);
    assert_int_equal(r->kb_max, 16);
    assert_float_equal(r->fit_kb_ns, LINE_KB_NS, 1e-6);
    assert_float_equal(r->fit_first_ns, FIRST_NS, 1e-6);
    assert_float_equal(r->fit_later_ns, LATER_NS, 1e-6);
    assert_float_equal(r->fit_resid_p90_ns, 0, 1e-6);
}

/* The same line whatever order the run lists its units in, and with two units of a CTA
 * beginning at once (the lower tag is the first: still one first unit per CTA). */
static void line_first_unit_by_time(void **state)
{
    for (int c = 0; c < 2; c++) {
        const gs_width_row *r = &run_line_as(state, -1, 0, c == 1, c == 0)->row[0];
        assert_int_equal(r->first_units, 4);
        assert_int_equal(r->later_units, 3);
        assert_float_equal(r->fit_kb_ns, LINE_KB_NS, 1e-6);
        assert_float_equal(r->fit_first_ns, FIRST_NS, 1e-6);
        assert_float_equal(r->fit_later_ns, LATER_NS, 1e-6);
        fixture *f = *state;
        gs_meta_free(&f->m);
        gs_units_free(&f->units);
        gs_timeline_free(&f->tl);
        memset(f, 0, sizeof *f);
    }
}

/* One unit 2 us off the line: the fit moves and the residual shows it (a line that hid it
 * would read 0). */
static void line_residual_shows_a_unit_off_it(void **state)
{
    const gs_width_row *r = &run_line(state, 3, 2000)->row[0];
    assert_true(r->fit_resid_p90_ns > 500);
    assert_true(fabs(r->fit_kb_ns - LINE_KB_NS) > 1);
}

/* Where the K blocks do not vary within either kind the cost and the starts cannot be told
 * apart: no number, rather than one made up (units2: whole tiles of 16 first on their CTAs,
 * parts of 8 after them; units1: every unit 8 K blocks). */
static void line_needs_varying_k_blocks(void **state)
{
    const gs_widths *w = run(state, units2, N2, 4, 0);
    assert_int_equal(w->row[0].first_units, 4);
    assert_int_equal(w->row[0].later_units, 4);
    assert_true(isnan(w->row[0].fit_kb_ns));
    assert_true(isnan(w->row[0].fit_first_ns) && isnan(w->row[0].fit_later_ns));
    assert_true(isnan(w->row[0].fit_resid_p90_ns));
    fixture *f = *state;
    gs_meta_free(&f->m);
    gs_units_free(&f->units);
    gs_timeline_free(&f->tl);
    memset(f, 0, sizeof *f);
    w = run(state, units1, N1, 4, 0);
    for (int i = 0; i < w->n; i++)
        assert_true(isnan(w->row[i].fit_kb_ns));
}

/* The stamps and the run's units disagree: the table is left out, and the note says where. */
static void expect_left_out(void **state, const tunit *listed, size_t n, int detail, const char *needle)
{
    fixture *f = *state;
    stamp(&f->tl, units1, N1, detail);
    describe(f, listed, n, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    assert_int_equal(f->w.applies, 1);
    assert_int_equal(f->w.ok, 0);
    assert_int_equal(f->w.n, 0);
    if (!strstr(f->w.note, needle))
        fail_msg("note '%s' lacks '%s'", f->w.note, needle);
}

static void unit_on_another_cta_leaves_it_out(void **state)
{
    tunit t[N1];
    memcpy(t, units1, sizeof t);
    t[4].u.cta = 2;
    expect_left_out(state, t, N1, 0, "unit 4 ran on CTA 0, the run lists it on CTA 2");
}

static void unit_in_another_group_leaves_it_out(void **state)
{
    tunit t[N1];
    memcpy(t, units1, sizeof t);
    t[0].u.group = 1;
    expect_left_out(state, t, N1, 0, "unit 0 is group 0 in the stamps, 1 in the run");
}

static void unit_count_differs_leaves_it_out(void **state)
{
    expect_left_out(state, units1, N1 - 1, 0, "the run lists 5 units, the stamps have 6");
}

static void unlisted_unit_leaves_it_out(void **state)
{
    tunit t[N1];
    memcpy(t, units1, sizeof t);
    t[5].u.unit = 9;
    expect_left_out(state, t, N1, 0, "unit 9 of the run has no MAINLOOP in the stamps");
}

/* A unit whose per-K-block phase is recorded 7 times for 8 K blocks. */
static void missing_kblock_stamp_leaves_it_out(void **state)
{
    fixture *f = *state;
    stamp(&f->tl, units1, N1, 1);
    for (size_t i = 0; i < f->tl.n_events; i++)
        if (f->tl.ev[i].phase == SYN_WAIT && f->tl.ev[i].warp == 0) {
            f->tl.ev[i].warp = 2; /* no longer the representative warp's */
            break;
        }
    describe(f, units1, N1, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    assert_int_equal(f->w.ok, 0);
    assert_int_equal(f->w.n, 0);
    assert_non_null(strstr(f->w.note, "recorded 7 of its per-K-block phase, the run gives it 8 K blocks"));
}

static void runs_without_units_have_no_section(void **state)
{
    fixture *f = *state;
    stamp(&f->tl, units1, N1, 0);
    describe(f, units1, 0, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->names, &f->units, &f->w), 0);
    assert_int_equal(f->w.applies, 0);
    assert_int_equal(f->w.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(units_agree_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(units_agree_detail, setup, teardown),
        cmocka_unit_test_setup_teardown(steady_cost_leaves_out_the_ramp, setup, teardown),
        cmocka_unit_test_setup_teardown(steady_cost_none_without_per_kblock_records, setup, teardown),
        cmocka_unit_test_setup_teardown(steady_cost_needs_four_k_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(steady_cost_takes_parts, setup, teardown),
        cmocka_unit_test_setup_teardown(floor_follows_the_sm_count, setup, teardown),
        cmocka_unit_test_setup_teardown(parts_stay_out_of_the_median, setup, teardown),
        cmocka_unit_test_setup_teardown(main_loop_as_a_line, setup, teardown),
        cmocka_unit_test_setup_teardown(line_first_unit_by_time, setup, teardown),
        cmocka_unit_test_setup_teardown(line_residual_shows_a_unit_off_it, setup, teardown),
        cmocka_unit_test_setup_teardown(line_needs_varying_k_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(unit_on_another_cta_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(unit_in_another_group_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(unit_count_differs_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(unlisted_unit_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_kblock_stamp_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(runs_without_units_have_no_section, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
