/* Main loop by tile width (analysis/widths.c) on stamps made from a known schedule: MAINLOOP
 * per K block set per unit, so the medians, shares and floors are known by construction;
 * then stamps the rebuilt schedule disagrees with (the mapping by group, or the table left
 * out). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/widths.h"
#include "kernels/nvfp4/schedule.h"
#include "kernels/nvfp4/shapes.h"
#include "kernels/nvfp4/variants.h"

/* ns per K block of the whole tiles of a width, dealt out in schedule order, cyclically */
static const double rate64[] = {1000, 1200}, rate128[] = {2000, 2100, 2200, 2600};
#define PART_RATE 5000.0 /* far from every whole tile's: a part counted would move the medians */
/* ceiling_tflops for a floor of 1000 ns per K block at n_eff 64 on 4 SMs (tile_w 128):
 * 2 x 128 x 64 x 128 flop x 4 SMs / 1000 ns */
#define CEILING_TFLOPS "8.388608"

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

/* Stamps of a launch that ran the schedule of (shape, variant, sms): warp 0 and warp 1 of each
 * CTA record every unit's MAINLOOP (warp 1's is longer and must not count); with detail, both
 * record each stage (warp 1's far off).  wrong_group: a unit tagged group 0 instead, or -1. */
static void stamp(gs_timeline *tl, const char *shape, const char *variant, int sms, int detail, int wrong_group)
{
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[256];
    const nvfp4_variant *v = nvfp4_variant_find(variant);
    assert_non_null(v);
    assert_int_equal(nvfp4_shape_parse(shape, &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_variant_schedule(v, &s, sms, &sc, err, sizeof err), 0);
    memset(tl, 0, sizeof *tl);
    size_t cap = 0;
    int k64 = 0, k128 = 0;
    for (int b = 0; b < sc.grid; b++) {
        double t0 = 1000;
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++) {
            const nvfp4_tile *u = &sc.tiles[t];
            const int kb = u->kb1 - u->kb0, group = t == wrong_group ? 0 : u->group;
            double rate = PART_RATE;
            if (u->parts == 1)
                rate = u->n_eff == 64 ? rate64[k64++ % 2] : rate128[k128++ % 4];
            const double ml = kb * rate;
            add(tl, &cap, (uint32_t)b, 0, t, group, GS_MAINLOOP, t0, t0 + ml);
            add(tl, &cap, (uint32_t)b, 1, t, group, GS_MAINLOOP, t0 + 20, t0 + ml + 500);
            for (int k = 0; detail && k < kb; k++) {
                const double at = t0 + k * rate;
                /* the first stage waits longest: the medians are the other stages' */
                const double wait = k == 0 ? 500 : u->n_eff == 64 ? 40 : 60;
                add(tl, &cap, (uint32_t)b, 0, t, group, GS_LOAD_WAIT, at, at + wait);
                add(tl, &cap, (uint32_t)b, 0, t, group, GS_DEQUANT, at, at + 200);
                add(tl, &cap, (uint32_t)b, 0, t, group, GS_MMA, at, at + 300 + u->n_eff);
                add(tl, &cap, (uint32_t)b, 1, t, group, GS_LOAD_WAIT, at, at + 9000);
                add(tl, &cap, (uint32_t)b, 1, t, group, GS_MMA, at, at + 9000);
            }
            add(tl, &cap, (uint32_t)b, 0, t, group, GS_EPILOGUE, t0 + ml, t0 + ml + 300);
            t0 += ml + 1000;
        }
    }
    nvfp4_schedule_free(&sc);
}

static void meta(gs_meta *m, const char *subject, const char *shape, const char *variant, int sms)
{
    memset(m, 0, sizeof *m);
    gs_meta_set(m, "subject", "%s", subject);
    gs_meta_set(m, "shape", "%s", shape);
    gs_meta_set(m, "variant", "%s", variant);
    gs_meta_set(m, "sm_count", "%d", sms);
    gs_meta_set(m, "ceiling_tflops", CEILING_TFLOPS);
    gs_meta_set(m, "git_commit", "abc1234");
}

/* Each test's stamps, meta.txt and table; teardown frees them whatever the test did. */
typedef struct fixture {
    gs_timeline tl;
    gs_meta m;
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
    gs_timeline_free(&f->tl);
    free(f);
    return 0;
}

/* The table of a launch of `point` on `shape` stamped on stamped_sms SMs (detail, wrong_group:
 * stamp's), read with a meta.txt of (subject, shape, point, meta_sms). */
static const gs_widths *run(void **state, const char *subject, const char *shape, const char *point, int stamped_sms,
                            int meta_sms, int detail, int wrong_group)
{
    fixture *f = *state;
    stamp(&f->tl, shape, point, stamped_sms, detail, wrong_group);
    meta(&f->m, subject, shape, point, meta_sms);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->w), 0);
    return &f->w;
}

/* The table of the plain shape below: group 0 (M 64) two tiles of width 64, group 1 (M 256)
 * four of width 128, 8 K blocks each; every tile whole. */
#define SHAPE1 "m=64,256;n=256;k=1024"
#define POINT1 "s4_w128_t128_ws_p_tma"

/* A row of whole tiles: its counts, quantiles (ns per K block) and floor. */
static void check_row(const gs_width_row *x, int n_eff, int units, long long kblocks, double p50, double p10,
                      double p90, double floor_ns)
{
    assert_int_equal(x->n_eff, n_eff);
    assert_int_equal(x->units, units);
    assert_int_equal(x->whole, units);
    assert_int_equal(x->parts, 0);
    assert_int_equal(x->kblocks, kblocks);
    assert_float_equal(x->kb_p50_ns, p50, 1e-6);
    assert_float_equal(x->kb_p10_ns, p10, 1e-6);
    assert_float_equal(x->kb_p90_ns, p90, 1e-6);
    assert_float_equal(x->ns_per_token, p50 / n_eff, 1e-9);
    assert_float_equal(x->floor_ns, floor_ns, 1e-6);
    assert_float_equal(x->ceiling_share, floor_ns / p50, 1e-9);
}

/* sms: meta.txt's SM count, whose share of the ceiling sets the floor */
static void check_rows1(const gs_widths *w, int sms)
{
    const double floor64 = 1000.0 * sms / 4;
    assert_int_equal(w->n, 2);
    const gs_width_row *a = &w->row[0], *b = &w->row[1];
    check_row(a, 64, 2, 16, 1100, 1020, 1180, floor64);
    check_row(b, 128, 4, 32, 2150, 2030, 2480, 2 * floor64);
    /* warp 0's MAINLOOP: 8 x (1000 + 1200) and 8 x (2000 + 2100 + 2200 + 2600) */
    assert_float_equal(a->main_share, 17600.0 / 88800, 1e-9);
    assert_float_equal(b->main_share, 71200.0 / 88800, 1e-9);
}

static void check_stages1(const gs_widths *w)
{
    assert_int_equal(w->detail, 1);
    assert_float_equal(w->row[0].stage_ns[0], 40, 1e-6);
    assert_float_equal(w->row[0].stage_ns[1], 200, 1e-6);
    assert_float_equal(w->row[0].stage_ns[2], 364, 1e-6);
    assert_float_equal(w->row[1].stage_ns[0], 60, 1e-6);
    assert_float_equal(w->row[1].stage_ns[2], 428, 1e-6);
}

static void schedule_agrees_plain(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE1, POINT1, 4, 4, 0, -1);
    assert_int_equal(w->applies, 1);
    assert_int_equal(w->from, GS_UNITS_SCHEDULE);
    assert_int_equal(w->stamped_units, 6);
    assert_int_equal(w->schedule_units, 6);
    assert_int_equal(w->detail, 0);
    check_rows1(w, 4);
    assert_true(isnan(w->row[0].stage_ns[0]));
}

static void schedule_agrees_detail(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE1, POINT1, 4, 4, 1, -1);
    assert_int_equal(w->from, GS_UNITS_SCHEDULE);
    check_rows1(w, 4);
    check_stages1(w);
}

/* Dealt split K, 6 tiles of 16 K blocks on 4 CTAs (24 each): tiles 1 and 4 are cut in two. */
#define SHAPE2 "m=64;n=768;k=2048"
#define POINT2 "s3_w128_t256_ws_p_tmr_sk"

static void parts_stay_out_of_the_median(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE2, POINT2, 4, 4, 0, -1);
    assert_int_equal(w->from, GS_UNITS_SCHEDULE);
    assert_int_equal(w->n, 1);
    assert_int_equal(w->row[0].units, 8);
    assert_int_equal(w->row[0].whole, 4);
    assert_int_equal(w->row[0].parts, 4);
    assert_int_equal(w->row[0].kblocks, 96);
    assert_float_equal(w->row[0].kb_p50_ns, 1100, 1e-6);
    assert_float_equal(w->row[0].kb_p90_ns, 1200, 1e-6);
    assert_float_equal(w->row[0].main_share, 1.0, 1e-12);
}

/* meta.txt says 3 SMs, the stamps ran on 4: the schedule disagrees; every group has one width
 * and the detail stamps count each unit's K blocks, so the table is the same. */
static void mismatch_detail_maps_by_group(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE1, POINT1, 4, 3, 1, -1);
    assert_int_equal(w->from, GS_UNITS_GROUPS);
    assert_non_null(strstr(w->note, "not by the schedule"));
    assert_non_null(strstr(w->note, "abc1234"));
    check_rows1(w, 3);
    check_stages1(w);
}

/* A plain twin, mismatched, no group split (as many units as tiles): every unit whole. */
static void mismatch_plain_unsplit_groups(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE1, POINT1, 4, 3, 0, -1);
    assert_int_equal(w->from, GS_UNITS_GROUPS);
    check_rows1(w, 3);
}

/* A plain twin, mismatched, its group split: whole tiles and owners cannot be told apart, so
 * the width shows units, K blocks and share only. */
static void mismatch_plain_split_group_is_open(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE2, POINT2, 4, 5, 0, -1);
    assert_int_equal(w->from, GS_UNITS_GROUPS);
    assert_int_equal(w->schedule_units, 10);
    assert_int_equal(w->n, 1);
    assert_int_equal(w->row[0].resolved, 0);
    assert_int_equal(w->row[0].units, 8);
    assert_int_equal(w->row[0].whole, -1);
    assert_int_equal(w->row[0].parts, -1);
    assert_int_equal(w->row[0].kblocks, 96);
    assert_true(isnan(w->row[0].kb_p50_ns));
    assert_true(isnan(w->row[0].ceiling_share));
    assert_float_equal(w->row[0].main_share, 1.0, 1e-12);
    assert_non_null(strstr(w->note, "Tiles of groups 0 were split"));
}

/* M = 160 in tiles of 128: token tiles of widths 128 and 32 in one group; mismatched, the
 * table is left out. */
static void mismatch_ambiguous_group_leaves_it_out(void **state)
{
    const gs_widths *w = run(state, "nvfp4", "m=160;n=256;k=1024", POINT1, 4, 3, 1, -1);
    assert_int_equal(w->applies, 1);
    assert_int_equal(w->from, GS_UNITS_NONE);
    assert_int_equal(w->n, 0);
    assert_non_null(strstr(w->note, "Left out"));
    assert_non_null(strstr(w->note, "two widths"));
}

/* One unit tagged with another group than the schedule's: no table. */
static void wrong_group_tag_leaves_it_out(void **state)
{
    const gs_widths *w = run(state, "nvfp4", SHAPE1, POINT1, 4, 4, 0, 0);
    assert_int_equal(w->from, GS_UNITS_NONE);
    assert_int_equal(w->n, 0);
    assert_non_null(strstr(w->note, "unit 0 is group 0 in the stamps, 1 in the schedule"));
}

/* A detail run whose unit ran one stage fewer than the schedule's K blocks: the schedule does
 * not agree, and without that stage the groups' K blocks do not add up either. */
static void missing_stage_leaves_it_out(void **state)
{
    fixture *f = *state;
    stamp(&f->tl, SHAPE1, POINT1, 4, 1, -1);
    for (size_t i = 0; i < f->tl.n_events; i++)
        if (f->tl.ev[i].phase == GS_LOAD_WAIT && f->tl.ev[i].warp == 0) {
            f->tl.ev[i].warp = 2; /* no longer the representative warp's */
            break;
        }
    meta(&f->m, "nvfp4", SHAPE1, POINT1, 4);
    assert_int_equal(gs_widths_compute(&f->tl, &f->m, &f->w), 0);
    assert_int_equal(f->w.from, GS_UNITS_NONE);
    assert_int_equal(f->w.n, 0);
    assert_non_null(strstr(f->w.note, "ran 7 stages, the schedule rebuilt from meta.txt gives it 8 K blocks"));
}

static void other_subjects_have_no_section(void **state)
{
    const gs_widths *w = run(state, "calib", SHAPE1, POINT1, 4, 4, 0, -1);
    assert_int_equal(w->applies, 0);
    assert_int_equal(w->n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(schedule_agrees_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(schedule_agrees_detail, setup, teardown),
        cmocka_unit_test_setup_teardown(parts_stay_out_of_the_median, setup, teardown),
        cmocka_unit_test_setup_teardown(mismatch_detail_maps_by_group, setup, teardown),
        cmocka_unit_test_setup_teardown(mismatch_plain_unsplit_groups, setup, teardown),
        cmocka_unit_test_setup_teardown(mismatch_plain_split_group_is_open, setup, teardown),
        cmocka_unit_test_setup_teardown(mismatch_ambiguous_group_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(wrong_group_tag_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_stage_leaves_it_out, setup, teardown),
        cmocka_unit_test_setup_teardown(other_subjects_have_no_section, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
