/* Host tests of the gated dual GEMM's pure-C parts (cmocka): its shapes and their errors, flops
 * and bytes, the full distribution's scale cap, the float64 reference and the tolerance on it
 * (cases that must fail included), the dual points' knob names, stamp geometry, partial-sum
 * sizes and defaults, and their schedules. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "instrument/gs_format.h"
#include "kernels/nvfp4/dual.h"
#include "kernels/nvfp4/format.h"
#include "kernels/nvfp4/reference_cpu.h"
#include "kernels/nvfp4/schedule.h"
#include "kernels/nvfp4/shapes.h"
#include "kernels/nvfp4/variants.h"

/* ---------------------------------------------------------------- shapes */

static void test_dual_names(void **state)
{
    char buf[256];
    (void)state;
    nvfp4_dual_shape_names(buf, sizeof buf);
    assert_string_equal(buf, "d256n4096k7168 d256n3072k4096 d512n4096k7168 d512n3072k7168 dt0 dt1 dt2 dt3 dt4 dt5 "
                             "dt6 dt7 dt8");
    nvfp4_dual_shape_names(buf, 20); /* whole names only */
    assert_string_equal(buf, "d256n4096k7168");
}

static void expect_shape(const char *name, int m, int n, int k)
{
    nvfp4_shape s;
    char err[512];
    if (nvfp4_dual_shape_parse(name, &s, err, sizeof err) != 0)
        fail_msg("%s: %s", name, err);
    assert_int_equal(s.dual, 1);
    assert_int_equal(s.groups, 1);
    assert_int_equal(s.m[0], m);
    assert_int_equal(s.n[0], n);
    assert_int_equal(s.k[0], k);
}

static void test_dual_registry(void **state)
{
    (void)state;
    /* the benchmarks: name = d<M>n<N>k<K> */
    expect_shape("d256n4096k7168", 256, 4096, 7168);
    expect_shape("d256n3072k4096", 256, 3072, 4096);
    expect_shape("d512n4096k7168", 512, 4096, 7168);
    expect_shape("d512n3072k7168", 512, 3072, 7168);
    /* the nine tests, (M, N, K) in problem.md's order */
    static const int t[9][3] = {{1536, 512, 7168}, {256, 512, 256},   {3072, 1024, 1536},
                                {7168, 1024, 256}, {7168, 2304, 2048}, {4608, 384, 7168},
                                {7168, 384, 2304}, {512, 768, 7168},  {4096, 768, 512}};
    for (int i = 0; i < 9; i++) {
        char name[8];
        snprintf(name, sizeof name, "dt%d", i);
        expect_shape(name, t[i][0], t[i][1], t[i][2]);
    }
    nvfp4_shape s;
    char err[512];
    assert_int_equal(nvfp4_dual_shape_parse("dt3", &s, err, sizeof err), 0);
    assert_string_equal(s.name, "dt3");
}

static void test_dual_custom_good(void **state)
{
    nvfp4_shape s, b;
    char err[512];
    (void)state;
    assert_int_equal(nvfp4_dual_shape_parse("dual:m=256;n=4096;k=7168", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_dual_shape_parse("d256n4096k7168", &b, err, sizeof err), 0);
    assert_int_equal(s.m[0], b.m[0]);
    assert_int_equal(s.n[0], b.n[0]);
    assert_int_equal(s.k[0], b.k[0]);
    assert_string_equal(s.name, "dual:m=256;n=4096;k=7168");
    /* key order, spaces, a trailing ';', N a multiple of 64 only, M any */
    expect_shape("dual: k = 512 ; n=64; m=1;", 1, 64, 512);
    expect_shape("dual:m=77;n=192;k=256", 77, 192, 256);
    expect_shape("dual:m=65536;n=65536;k=65536", 65536, 65536, 65536);
}

/* every error is one line naming the dual names and the custom syntax */
static void expect_bad(const char *spec, const char *must_mention)
{
    nvfp4_shape s;
    char err[600];
    memset(err, 0, sizeof err);
    if (nvfp4_dual_shape_parse(spec, &s, err, sizeof err) != -1)
        fail_msg("'%s' was accepted", spec ? spec : "(null)");
    assert_non_null(strstr(err, "bad dual shape"));
    assert_non_null(strstr(err, "d256n4096k7168"));
    assert_non_null(strstr(err, "dt8"));
    assert_non_null(strstr(err, "dual:m="));
    assert_null(strchr(err, '\n'));
    if (must_mention && !strstr(err, must_mention))
        fail_msg("error for '%s' does not mention '%s': %s", spec, must_mention, err);
}

static void test_dual_custom_bad(void **state)
{
    (void)state;
    expect_bad("d256n4096k7169", "unknown name");
    expect_bad("d128n512k1024", "unknown name"); /* registered names only; other shapes by the syntax */
    expect_bad("g8k7168", "unknown name");       /* the grouped GEMM's */
    expect_bad("m=256;n=4096;k=7168", "unknown name");
    expect_bad("", "unknown name");
    expect_bad("dual:", "required");
    expect_bad("dual:m=256;n=4096", "required");
    expect_bad("dual:m=1;n=100;k=256", "multiple of 64");
    expect_bad("dual:m=1;n=32;k=256", "multiple of 64");
    expect_bad("dual:m=1;n=64;k=320", "multiple of 256");
    expect_bad("dual:m=1;n=64;k=128", "multiple of 256");
    expect_bad("dual:m=0;n=64;k=256", "M=0");
    expect_bad("dual:m=-3;n=64;k=256", NULL);
    expect_bad("dual:m=1;n=131072;k=256", "N=131072");
    expect_bad("dual:m=1,2;n=64;k=256", "one value per key");
    expect_bad("dual:m=1;m=2;n=64;k=256", "twice");
    expect_bad("dual:m=1;n=64;k=256;q=1", "unknown key");
    expect_bad("dual:m=1x;n=64;k=256", NULL);
    expect_bad("DUAL:m=1;n=64;k=256", "unknown name");
    expect_bad(NULL, NULL);
}

static void test_dual_flops_bytes(void **state)
{
    nvfp4_shape s;
    char err[512];
    (void)state;
    assert_int_equal(nvfp4_dual_shape_parse("d256n4096k7168", &s, err, sizeof err), 0);
    assert_true(nvfp4_dual_flops(&s) == 4.0 * 256 * 4096 * 7168);
    /* A 256*3584 + B1, B2 2*4096*3584 + SFA 256*448 + SFB1, SFB2 2*4096*448 + C 256*4096*2 */
    assert_true(nvfp4_dual_min_bytes(&s) ==
                256.0 * 3584 + 2.0 * 4096 * 3584 + 256.0 * 448 + 2.0 * 4096 * 448 + 256.0 * 4096 * 2);
    /* scale rows pad to 128: M = 77 stores 128, N = 192 stores 256 */
    assert_int_equal(nvfp4_dual_shape_parse("dual:m=77;n=192;k=256", &s, err, sizeof err), 0);
    assert_true(nvfp4_dual_min_bytes(&s) ==
                77.0 * 128 + 2.0 * 192 * 128 + 128.0 * 16 + 2.0 * 256 * 16 + 77.0 * 192 * 2);
}

/* ---------------------------------------------------------------- the full distribution */

static void test_dual_full_cap(void **state)
{
    (void)state;
    /* rms of codes 0..0: 0; of 0..0x38 (zero, subnormals, normals to 1.0) between 0.2 and 0.5 */
    assert_true(nvfp4_e4m3_rms(0) == 0.0);
    assert_true(nvfp4_e4m3_rms(0x38) > 0.2 && nvfp4_e4m3_rms(0x38) < 0.5);
    const double per_k = 68.5 / 8.0 * nvfp4_e4m3_rms(NVFP4_DUAL_NARROW_CAP);
    int prev = 0x7E;
    static const int ks[] = {256, 512, 1536, 2048, 2304, 4096, 7168, 65536};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        const int K = ks[i], c = nvfp4_dual_full_cap_code(K);
        /* the largest code whose typical GEMM value stays at or under the target, and a valid one */
        assert_true(c > NVFP4_DUAL_NARROW_CAP && c < 0x7F);
        assert_true(sqrt((double)K) * per_k * nvfp4_e4m3_rms(c) <= NVFP4_DUAL_FULL_SIGMA);
        assert_true(c == 0x7E || sqrt((double)K) * per_k * nvfp4_e4m3_rms(c + 1) > NVFP4_DUAL_FULL_SIGMA);
        assert_true(c <= prev); /* deeper K, smaller scales */
        prev = c;
    }
    /* the test shapes' caps, as docs/dual.md lists them */
    assert_int_equal(nvfp4_dual_full_cap_code(256), 0x5C);  /* 24 */
    assert_int_equal(nvfp4_dual_full_cap_code(7168), 0x47); /* 3.75 */
    assert_true(nvfp4_e4m3_decode(0x5C) == 24.0 && nvfp4_e4m3_decode(0x47) == 3.75);
}

/* ---------------------------------------------------------------- the reference */

/* A small problem built by hand: every element of a row the same code, one scale per row. */
typedef struct mat {
    int rows, K;
    uint8_t *q, *sf;
} mat;

static void mat_init(mat *t, int rows, int K)
{
    t->rows = rows;
    t->K = K;
    t->q = calloc((size_t)rows * (K / 2), 1);
    t->sf = malloc(nvfp4_sf_bytes(rows, K));
    assert_non_null(t->q);
    assert_non_null(t->sf);
    memset(t->sf, 0x7F, nvfp4_sf_bytes(rows, K)); /* NaN junk in the padding rows */
}

static void mat_row(mat *t, int row, unsigned code, uint8_t scale)
{
    for (int k = 0; k < t->K / 2; k++)
        t->q[(size_t)row * (t->K / 2) + k] = (uint8_t)(code | code << 4);
    for (int j = 0; j < t->K / 16; j++)
        t->sf[nvfp4_sf_offset(row, j, t->K)] = scale;
}

static void mat_free(mat *t)
{
    free(t->q);
    free(t->sf);
}

static void test_silu_mul(void **state)
{
    (void)state;
    assert_true(nvfp4_silu_mul(0.0, 5.0) == 0.0);
    assert_true(fabs(nvfp4_silu_mul(1.0, 1.0) - 1.0 / (1.0 + exp(-1.0))) < 1e-15);
    assert_true(fabs(nvfp4_silu_mul(-1.0, 2.0) - (-2.0 / (1.0 + exp(1.0)))) < 1e-15);
    assert_true(fabs(nvfp4_silu_mul(40.0, 0.5) - 20.0) < 1e-12); /* silu(x) -> x */
    assert_true(nvfp4_silu_mul(-800.0, 3.0) == 0.0);             /* exp overflows: -0 */
    assert_true(isnan(nvfp4_silu_mul(NAN, 1.0)));
}

/* The cuBLAS routes' element check: exact and bf16-rounded answers pass, a wrong one, a NaN and
 * a poisoned (unwritten) one fail, and the slack grows only with what bf16 rounding of g and u
 * can move silu(g) * u. */
static void test_bf16_route_check(void **state)
{
    (void)state;
    const double g = -9.0, u = 800.0, ref = nvfp4_silu_mul(g, u); /* silu(-9) ~ -1.1e-3: ref ~ -0.89 */
    assert_true(nvfp4_dual_bf16_route_ok(ref, ref, g, u));
    /* g off by one bf16 rounding (2^-8 relative) moves silu(g) by ~ |g| 2^-8 relative: that passes */
    const double g_rounded = g * (1.0 + 0x1p-8), moved = nvfp4_silu_mul(g_rounded, u);
    assert_true(fabs(moved - ref) > 1e-2 + 1e-2 * fabs(ref)); /* beyond the plain tolerance ... */
    assert_true(nvfp4_dual_bf16_route_ok(moved, ref, g_rounded, u)); /* ... within the route's */
    /* ten times that is a wrong answer */
    assert_false(nvfp4_dual_bf16_route_ok(ref + 10.0 * (moved - ref), ref, g_rounded, u));
    /* no slack where g and u are zero: only the plain tolerance */
    assert_true(nvfp4_dual_bf16_route_ok(0.009, 0.0, 0.0, 0.0));
    assert_false(nvfp4_dual_bf16_route_ok(0.011, 0.0, 0.0, 0.0));
    /* large values: relative 1e-2 plus 2 x 2^-8 of |silu(g) u| (with g silu'(g) ~ silu(g) here) */
    assert_true(nvfp4_dual_bf16_route_ok(1000.0 * 1.02, 1000.0, 100.0, 10.0));
    assert_false(nvfp4_dual_bf16_route_ok(1000.0 * 1.05, 1000.0, 100.0, 10.0));
    /* NaN anywhere fails: the poisoned output a route never wrote */
    assert_false(nvfp4_dual_bf16_route_ok(NAN, ref, g, u));
    assert_false(nvfp4_dual_bf16_route_ok(ref, NAN, g, u));
}

static void test_dual_ref(void **state)
{
    mat a, b1, b2;
    (void)state;
    mat_init(&a, 2, 64);
    mat_init(&b1, 3, 64);
    mat_init(&b2, 3, 64);
    mat_row(&a, 0, 0x2, 0x38);  /* 1.0 */
    mat_row(&a, 1, 0xA, 0x30);  /* -1.0 x 0.5 */
    mat_row(&b1, 0, 0x1, 0x38); /* 0.5 */
    mat_row(&b1, 1, 0x0, 0x38); /* 0 */
    mat_row(&b1, 2, 0x3, 0x40); /* 1.5 x 2 */
    mat_row(&b2, 0, 0x4, 0x38); /* 2.0 */
    mat_row(&b2, 1, 0x6, 0x38); /* 4.0 */
    mat_row(&b2, 2, 0x9, 0x01); /* -0.5 x 2^-9 */
    /* g = 64 * 1 * 0.5 = 32, u = 64 * 2 = 128: silu(32) * 128 */
    const double e00 = 32.0 / (1.0 + exp(-32.0)) * 128.0;
    assert_true(fabs(nvfp4_dual_ref_element(a.q, a.sf, b1.q, b1.sf, b2.q, b2.sf, 64, 0, 0) - e00) < 1e-9);
    /* g = 0: silu(0) * u = 0 whatever u is */
    assert_true(nvfp4_dual_ref_element(a.q, a.sf, b1.q, b1.sf, b2.q, b2.sf, 64, 0, 1) == 0.0);
    /* g = 64 * -0.5 * 3 = -96, u = 64 * -0.5 * -2^-10 = 2^-5: silu(-96) * u ~ -1e-42 */
    const double e12 = nvfp4_dual_ref_element(a.q, a.sf, b1.q, b1.sf, b2.q, b2.sf, 64, 1, 2);
    assert_true(e12 <= 0.0 && e12 > -1e-30);
    assert_true(nvfp4_ref_element(a.q, a.sf, b2.q, b2.sf, 64, 1, 2) == 0.03125);

    /* what the check must refuse, and what it must pass, at (0, 1) with g = 48, u = -96 */
    mat_row(&a, 0, 0x3, 0x38);  /* A row 0 = 1.5 */
    mat_row(&b1, 1, 0x2, 0x30); /* B1 row 1 = 0.5: g = 64 * 1.5 * 0.5 = 48 at (0, 1) */
    mat_row(&b2, 1, 0xA, 0x38); /* B2 row 1 = -1: u = -96 */
    const double r01 = nvfp4_dual_ref_element(a.q, a.sf, b1.q, b1.sf, b2.q, b2.sf, 64, 0, 1);
    assert_true(fabs(r01 - (48.0 / (1.0 + exp(-48.0))) * -96.0) < 1e-9);
    assert_false(nvfp4_tol_ok(-r01, r01));                              /* a lost sign */
    assert_false(nvfp4_tol_ok(nvfp4_silu_mul(-96.0, 48.0), r01));        /* the GEMMs swapped */
    assert_false(nvfp4_tol_ok(nvfp4_silu_mul(48.0, -96.0) * 1.01, r01)); /* 1% off */
    assert_false(nvfp4_tol_ok(48.0 * -96.0 / 2.0, r01));                 /* silu as x / 2 */
    assert_true(nvfp4_tol_ok(-4608.0, r01));                            /* fp16(r01) */
    assert_false(nvfp4_tol_ok(NAN, r01));                               /* an unwritten (poisoned) output */
    mat_free(&a);
    mat_free(&b1);
    mat_free(&b2);
}

/* A negative sign on a gate near zero: silu is not odd, the reference must not be either. */
static void test_dual_ref_silu_negative(void **state)
{
    mat a, b1, b2;
    (void)state;
    mat_init(&a, 1, 64);
    mat_init(&b1, 1, 64);
    mat_init(&b2, 1, 64);
    mat_row(&a, 0, 0x2, 0x38);
    mat_row(&b1, 0, 0x9, 0x20); /* -0.5 x 0.125: g = -4 */
    mat_row(&b2, 0, 0x2, 0x38); /* u = 64 */
    const double r = nvfp4_dual_ref_element(a.q, a.sf, b1.q, b1.sf, b2.q, b2.sf, 64, 0, 0);
    assert_true(fabs(r - (-4.0 / (1.0 + exp(4.0)) * 64.0)) < 1e-12);
    assert_false(nvfp4_tol_ok(-nvfp4_silu_mul(4.0, 64.0), r)); /* silu(-x) != -silu(x) */
    mat_free(&a);
    mat_free(&b1);
    mat_free(&b2);
}

/* ---------------------------------------------------------------- points */

static void test_dual_points(void **state)
{
    (void)state;
    int production = 0;
    assert_true(nvfp4_dual_variant_count() >= 20);
    for (int i = 0; i < nvfp4_dual_variant_count(); i++) {
        const nvfp4_variant *v = nvfp4_dual_variant_at(i);
        char name[64];
        snprintf(name, sizeof name, "s%d_w%d_t%d%s%s%s%s%s_g%d", v->stages, v->tile_w, v->tile_t,
                 v->warp_spec ? "_ws" : "", v->persistent ? "_p" : "",
                 v->tma_store == 1 ? "_tma" : v->tma_store == 2 ? "_tmr" : "",
                 v->split_k == 1 ? "_sk" : v->split_k == 2 ? "_skr" : v->split_k == 3 ? "_skp" : "",
                 v->pingpong ? "_pp" : "", v->gate);
        assert_string_equal(v->name, name);
        assert_true(v->gate == 1 || v->gate == 2);
        assert_true(v->gate != 1 || v->tile_w == 64);  /* a B1 and a B2 warpgroup on 64 columns */
        assert_true(v->gate != 2 || v->tile_t <= 128); /* two accumulators per thread */
        assert_true(v->split_k == 0 || v->persistent);
        /* the cluster pair: the 256-token B1/B2 pair, three stages, the ring-staged store */
        assert_true(v->split_k != 3 || (v->gate == 1 && v->tile_t == 256 && v->stages == 3 && v->tma_store == 2));
        assert_true(v->tma_store != 2 || (v->warp_spec && v->stages >= 2));
        assert_true(v->stages >= 1 && v->stages <= 4);
        /* ping-pong: whole 64-column units of gate 2, fed by a producer warpgroup, on persistent CTAs */
        assert_true(!v->pingpong || (v->gate == 2 && v->tile_w == 64 && v->warp_spec && v->persistent));
        assert_ptr_equal(nvfp4_dual_variant_find(v->name), v);
        assert_null(nvfp4_variant_find(v->name)); /* never a grouped point */
        for (int j = i + 1; j < nvfp4_dual_variant_count(); j++)
            assert_string_not_equal(v->name, nvfp4_dual_variant_at(j)->name);
        production += !v->evidence;
    }
    /* the production points are what the defaults name: the four benchmarks' and the rule's */
    assert_int_equal(production, 5);
    {
        const char *const used[] = {"d256n4096k7168", "d256n3072k4096", "d512n4096k7168", "d512n3072k7168",
                                    "dual:m=256;n=4096;k=1024", "dual:m=256;n=320;k=1024"};
        int hit[64] = {0};
        for (size_t u = 0; u < sizeof used / sizeof used[0]; u++) {
            nvfp4_shape sh;
            char err[512];
            assert_int_equal(nvfp4_dual_shape_parse(used[u], &sh, err, sizeof err), 0);
            const nvfp4_variant *d = nvfp4_dual_variant_default(&sh);
            assert_non_null(d);
            for (int i = 0; i < nvfp4_dual_variant_count() && i < 64; i++)
                hit[i] |= nvfp4_dual_variant_at(i) == d;
        }
        for (int i = 0; i < nvfp4_dual_variant_count() && i < 64; i++)
            if (!nvfp4_dual_variant_at(i)->evidence && !hit[i])
                fail_msg("production point %s is no shape's default", nvfp4_dual_variant_at(i)->name);
    }
    assert_null(nvfp4_dual_variant_at(-1));
    assert_null(nvfp4_dual_variant_at(nvfp4_dual_variant_count()));
    assert_null(nvfp4_dual_variant_find("s4_w128_t128_ws_p_tma")); /* a grouped point */
    /* the grouped points carry no gate and no ping-pong */
    for (int i = 0; i < nvfp4_variant_count(); i++) {
        assert_int_equal(nvfp4_variant_at(i)->gate, 0);
        assert_int_equal(nvfp4_variant_at(i)->pingpong, 0);
    }
    /* each seed proposal is a switch of the dual knob space: pairs differing in that knob alone */
    static const char *const pairs[][2] = {
        {"s1_w64_t128_g1", "s4_w64_t128_g1"},                       /* stages */
        {"s1_w64_t128_ws_p_tma_g1", "s4_w64_t128_ws_p_tma_g1"},
        {"s2_w64_t256_ws_p_tmr_g1", "s3_w64_t256_ws_p_tmr_g1"},
        {"s2_w64_t256_ws_p_tmr_sk_g1", "s3_w64_t256_ws_p_tmr_sk_g1"},
        {"s1_w64_t128_g1", "s1_w64_t64_g1"},                        /* tile size: tokens */
        {"s1_w64_t128_g2", "s1_w128_t128_g2"},                      /* tile size: weight rows */
        {"s4_w64_t128_ws_p_tmr_g2", "s4_w128_t128_ws_p_tmr_g2"},
        {"s1_w64_t128_g1", "s1_w64_t128_tma_g1"},                   /* TMA-store epilogue */
        {"s4_w64_t128_ws_p_g1", "s4_w64_t128_ws_p_tma_g1"},
        {"s2_w64_t256_ws_p_g1", "s2_w64_t256_ws_p_tmr_g1"},
        {"s2_w64_t256_ws_p_sk_g1", "s2_w64_t256_ws_p_tmr_sk_g1"},
        {"s1_w64_t128_g1", "s1_w64_t128_ws_g1"},                    /* warp specialisation */
        {"s4_w64_t128_p_tma_g1", "s4_w64_t128_ws_p_tma_g1"},
        {"s3_w128_t128_p_tma_g2", "s3_w128_t128_ws_p_tma_g2"},
        {"s2_w64_t256_p_g1", "s2_w64_t256_ws_p_g1"},
        {"s2_w64_t256_p_sk_g1", "s2_w64_t256_ws_p_sk_g1"},
        {"s4_w64_t128_ws_g1", "s4_w64_t128_ws_p_g1"},               /* persistent */
        {"s4_w64_t128_ws_p_tma_g1", "s4_w64_t128_ws_p_tma_sk_g1"},  /* split K */
        {"s4_w64_t128_ws_p_tma_g1", "s4_w64_t128_ws_p_tma_skr_g1"},
        {"s3_w64_t256_ws_p_tmr_g1", "s3_w64_t256_ws_p_tmr_sk_g1"},
        {"s3_w64_t256_ws_p_tmr_g1", "s3_w64_t256_ws_p_tmr_skr_g1"},
        {"s4_w64_t128_ws_p_tmr_g1", "s4_w64_t128_ws_p_tmr_sk_g1"},
        {"s4_w128_t128_ws_p_tmr_g2", "s4_w128_t128_ws_p_tmr_skr_g2"},
        {"s4_w64_t128_ws_p_tma_g1", "s4_w64_t128_ws_p_tma_g2"},     /* the gate itself */
        {"s4_w64_t128_ws_p_g2", "s4_w64_t128_ws_p_pp_g2"},          /* ping-pong */
        {"s4_w64_t128_ws_p_tma_g2", "s4_w64_t128_ws_p_tma_pp_g2"},
        {"s4_w64_t128_ws_p_tmr_skr_g2", "s4_w64_t128_ws_p_tmr_skr_pp_g2"},
        {"s4_w64_t128_ws_p_tmr_sk_g2", "s4_w64_t128_ws_p_tmr_sk_pp_g2"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const nvfp4_variant *x = nvfp4_dual_variant_find(pairs[i][0]), *y = nvfp4_dual_variant_find(pairs[i][1]);
        if (!x || !y)
            fail_msg("no point %s", !x ? pairs[i][0] : pairs[i][1]);
        const int differ = (x->stages != y->stages) + (x->tile_w != y->tile_w) + (x->tile_t != y->tile_t) +
                           (x->warp_spec != y->warp_spec) + (x->persistent != y->persistent) +
                           (x->tma_store != y->tma_store) + (x->split_k != y->split_k) + (x->gate != y->gate) +
                           (x->pingpong != y->pingpong);
        assert_int_equal(differ, 1);
    }
}

static void test_dual_geometry(void **state)
{
    (void)state;
    const nvfp4_variant *g1 = nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_g1"),
                        *g2 = nvfp4_dual_variant_find("s4_w128_t128_ws_p_tmr_g2"),
                        *g2n = nvfp4_dual_variant_find("s1_w64_t128_g2"),
                        *grp = nvfp4_variant_find("s4_w128_t128_ws_p_tma");
    assert_true(g1 && g2 && g2n && grp);
    /* gate 1: two consumer warpgroups on 64 columns, the producer's, the sampler after the loader */
    assert_int_equal(nvfp4_variant_consumers(g1), 2);
    assert_int_equal(nvfp4_variant_warps(g1), 12);
    assert_int_equal(nvfp4_variant_sampler_warp(g1), 9);
    assert_int_equal(nvfp4_variant_consumers(g2), 2);
    assert_int_equal(nvfp4_variant_consumers(g2n), 1);
    assert_int_equal(nvfp4_variant_warps(g2n), 4);
    assert_int_equal(nvfp4_variant_sampler_warp(g2n), -1);
    /* partial sums: every warpgroup's accumulators; gate 2 two sets each */
    assert_int_equal(nvfp4_variant_partial_floats(grp), 128 * 128);
    assert_int_equal(nvfp4_variant_partial_floats(g1), 2 * 64 * 128);
    assert_int_equal(nvfp4_variant_partial_floats(g2), 2 * 2 * 64 * 128);
    assert_int_equal(nvfp4_variant_partial_floats(g2n), 2 * 64 * 128);
    /* records per unit: the detail twin stamps B1's and B2's DEQUANT with gate 2 */
    assert_int_equal(nvfp4_variant_unit_events(grp, 56, 0), 4u);
    assert_int_equal(nvfp4_variant_unit_events(grp, 56, 1), NVFP4_TILE_EVENTS(56, 1));
    assert_int_equal(nvfp4_variant_unit_events(g1, 56, 1), 4u + 3u * 56u);
    assert_int_equal(nvfp4_variant_unit_events(g2, 56, 1), 4u + 4u * 56u);
    assert_int_equal(nvfp4_variant_dequants(g2), 2);
    assert_int_equal(nvfp4_variant_dequants(g1), 1);
    /* ping-pong: two warpgroups, one per unit, taking the CTA's units in turn */
    const nvfp4_variant *pp = nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_pp_g2");
    assert_non_null(pp);
    assert_int_equal(nvfp4_variant_consumers(pp), 2);
    assert_int_equal(nvfp4_variant_unit_warpgroups(pp), 1);
    assert_int_equal(nvfp4_variant_warps(pp), 12);
    assert_int_equal(nvfp4_variant_sampler_warp(pp), 9);
    assert_int_equal(nvfp4_variant_partial_floats(pp), 2 * 64 * 128);
    assert_int_equal(nvfp4_variant_unit_warpgroups(g2), 2);
    for (int pos = 0; pos < 4; pos++) {
        assert_int_equal(nvfp4_variant_runs_unit(pp, pos, 0), pos % 2 == 0);
        assert_int_equal(nvfp4_variant_runs_unit(pp, pos, 1), pos % 2 == 1);
        assert_true(nvfp4_variant_runs_unit(g2, pos, 0) && nvfp4_variant_runs_unit(g2, pos, 1));
    }

    /* one CTA per tile: dt1 (256 x 512 x 256) at 64 columns x 128 tokens is 2 x 8 tiles */
    nvfp4_shape s;
    char err[512];
    unsigned ctas, wpc, ev;
    assert_int_equal(nvfp4_dual_shape_parse("dt1", &s, err, sizeof err), 0);
    const nvfp4_variant *base = nvfp4_dual_variant_find("s1_w64_t128_g1");
    assert_int_equal(nvfp4_stamp_geometry(base, &s, 132, 0, &ctas, &wpc, &ev), 0);
    assert_int_equal(ctas, 16u);
    assert_int_equal(wpc, 8u);
    assert_int_equal(ev, 4u);
    assert_int_equal(nvfp4_stamp_geometry(base, &s, 132, 1, &ctas, &wpc, &ev), 0);
    assert_int_equal(ev, 4u + 3u * 2u);
    assert_int_equal(nvfp4_stamp_geometry(nvfp4_dual_variant_find("s1_w128_t128_g2"), &s, 132, 1, &ctas, &wpc, &ev),
                     0);
    assert_int_equal(ctas, 8u);
    assert_int_equal(ev, 4u + 4u * 2u);
    /* ping-pong: 256 units of 128 K blocks on 132 CTAs, 124 of them with two: a warp records one
     * unit's phases, never both (K long enough that they outnumber the clock sampler's pairs) */
    assert_int_equal(nvfp4_dual_shape_parse("dual:m=512;n=4096;k=16384", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_stamp_geometry(pp, &s, 132, 1, &ctas, &wpc, &ev), 0);
    assert_int_equal(ctas, 132u);
    assert_int_equal(wpc, 12u);
    assert_int_equal(ev, 4u + 4u * 128u);
    const nvfp4_variant *one_wg = nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_g2");
    assert_int_equal(nvfp4_stamp_geometry(one_wg, &s, 132, 1, &ctas, &wpc, &ev), 0);
    assert_int_equal(wpc, 8u);
    assert_int_equal(ev, 2u * (4u + 4u * 128u)); /* its one warpgroup runs both */
}

/* Every dual point's schedule on every dual shape it can tile: each (token tile, column tile)
 * once, K blocks partitioned; a point with 128 columns refuses an N that is not a multiple. */
static void test_dual_schedules(void **state)
{
    (void)state;
    char names[256];
    nvfp4_dual_shape_names(names, sizeof names);
    strcat(names, " dual:m=200;n=320;k=4096 dual:m=1;n=64;k=256");
    for (char *save = NULL, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        nvfp4_shape s;
        char err[512];
        assert_int_equal(nvfp4_dual_shape_parse(t, &s, err, sizeof err), 0);
        for (int i = 0; i < nvfp4_dual_variant_count(); i++) {
            const nvfp4_variant *v = nvfp4_dual_variant_at(i);
            nvfp4_schedule sc;
            const int fits = s.n[0] % v->tile_w == 0;
            const int rc = nvfp4_variant_schedule(v, &s, 132, &sc, err, sizeof err);
            if (!fits) {
                assert_int_equal(rc, -1);
                assert_non_null(strstr(err, "does not tile"));
                continue;
            }
            if (rc)
                fail_msg("%s on %s: %s", v->name, t, err);
            const int ttiles = (s.m[0] + v->tile_t - 1) / v->tile_t, wtiles = s.n[0] / v->tile_w;
            long long *kb = calloc((size_t)ttiles * (size_t)wtiles, sizeof *kb);
            assert_non_null(kb);
            for (int u = 0; u < sc.ntiles; u++) {
                const nvfp4_tile *x = &sc.tiles[u];
                assert_int_equal(x->group, 0);
                assert_true(x->ttile < ttiles && x->wtile < wtiles);
                kb[(size_t)x->ttile * wtiles + x->wtile] += x->kb1 - x->kb0;
            }
            for (int q = 0; q < ttiles * wtiles; q++)
                assert_int_equal(kb[q], s.k[0] / NVFP4_BK);
            free(kb);
            nvfp4_schedule_free(&sc);
        }
    }
}

static void test_dual_defaults(void **state)
{
    (void)state;
    char names[256];
    nvfp4_dual_shape_names(names, sizeof names);
    strcat(names, " dual:m=200;n=320;k=4096");
    for (char *save = NULL, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        nvfp4_shape s;
        nvfp4_schedule sc;
        char err[512];
        assert_int_equal(nvfp4_dual_shape_parse(t, &s, err, sizeof err), 0);
        const nvfp4_variant *v = nvfp4_dual_variant_default(&s);
        assert_non_null(v);
        assert_false(v->evidence); /* in every program */
        assert_int_equal(nvfp4_variant_schedule(v, &s, 132, &sc, err, sizeof err), 0);
        nvfp4_schedule_free(&sc);
    }
}

/* The one-width kernel's condition (kp.full_width): a gate-1 point whose every unit is at its
 * tile's full height, and only then. */
static void test_full_width(void **state)
{
    (void)state;
    const struct {
        const char *shape, *variant;
        int full;
    } cases[] = {
        {"d256n4096k7168", "s4_w64_t128_ws_p_tma_g1", 1},          /* M = 2 tiles of 128 */
        {"d512n3072k7168", "s3_w64_t256_ws_p_tmr_sk_g1", 1},       /* split parts too */
        {"dual:m=300;n=512;k=1024", "s3_w64_t256_ws_p_tmr_g1", 0}, /* the second tile: 44 rows */
        {"dual:m=64;n=512;k=1024", "s4_w64_t128_ws_p_tma_sk_g1", 0}, /* n_eff 64: tile_w, not tile_t */
        {"d256n4096k7168", "s4_w128_t128_ws_p_tmr_skr_g2", 0},     /* gate 2: the switch only */
        {"d256n4096k7168", "s3_w64_t256_ws_p_tmr_skp_g1", 0},      /* the pair: one kernel, one width */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nvfp4_shape s;
        nvfp4_schedule sc;
        char err[512];
        assert_int_equal(nvfp4_dual_shape_parse(cases[i].shape, &s, err, sizeof err), 0);
        const nvfp4_variant *v = nvfp4_dual_variant_find(cases[i].variant);
        assert_non_null(v);
        assert_int_equal(nvfp4_variant_schedule(v, &s, 132, &sc, err, sizeof err), 0);
        assert_int_equal(nvfp4_variant_full_width(v, &sc), cases[i].full);
        if (cases[i].full) { /* one unit short of the full height is enough to refuse it */
            sc.tiles[sc.ntiles - 1].n_eff = (uint16_t)(v->tile_t - 32);
            assert_int_equal(nvfp4_variant_full_width(v, &sc), 0);
        }
        nvfp4_schedule_free(&sc);
    }
    const nvfp4_variant *g1 = nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_g1");
    assert_int_equal(nvfp4_variant_full_width(g1, NULL), 0);
    nvfp4_schedule none = {0};
    assert_int_equal(nvfp4_variant_full_width(g1, &none), 0);
    assert_int_equal(nvfp4_variant_full_width(NULL, &none), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dual_names),
        cmocka_unit_test(test_dual_registry),
        cmocka_unit_test(test_dual_custom_good),
        cmocka_unit_test(test_dual_custom_bad),
        cmocka_unit_test(test_dual_flops_bytes),
        cmocka_unit_test(test_dual_full_cap),
        cmocka_unit_test(test_silu_mul),
        cmocka_unit_test(test_bf16_route_check),
        cmocka_unit_test(test_dual_ref),
        cmocka_unit_test(test_dual_ref_silu_negative),
        cmocka_unit_test(test_dual_points),
        cmocka_unit_test(test_dual_geometry),
        cmocka_unit_test(test_dual_schedules),
        cmocka_unit_test(test_dual_defaults),
        cmocka_unit_test(test_full_width),
    };
    return cmocka_run_group_tests_name("dual", tests, NULL, NULL);
}
