/* Host tests of the NVFP4 pure-C parts: number formats, the blocked scale layout,
 * shape parsing, the float64 reference and the tolerance test (cmocka).
 *
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror -I. tests/test_nvfp4.c kernels/nvfp4/format.c \
 *       kernels/nvfp4/shapes.c kernels/nvfp4/reference_cpu.c -lcmocka -lm -o test_nvfp4 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/nvfp4/dual.h"
#include "kernels/nvfp4/format.h"
#include "kernels/nvfp4/reference_cpu.h"
#include "kernels/nvfp4/schedule.h"
#include "kernels/nvfp4/shapes.h"
#include "kernels/nvfp4/variants.h"
#include "instrument/gs_format.h"

/* ---------------------------------------------------------------- number formats */

static void test_e2m1_every_code(void **state)
{
    (void)state;
    /* written out from the e2m1 definition: +-{0, 0.5, 1, 1.5, 2, 3, 4, 6} */
    static const double expect[16] = {0.0,  0.5,  1.0,  1.5,  2.0,  3.0,  4.0,  6.0,
                                      -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0};
    for (unsigned c = 0; c < 16; c++) {
        double v = nvfp4_e2m1_decode(c);
        assert_true(v == expect[c]);
        assert_int_equal(signbit(v) != 0, c >= 8);
        /* only the low nibble counts */
        assert_true(nvfp4_e2m1_decode(c | 0xF0u) == expect[c]);
    }
}

/* e4m3fn magnitudes of codes 0x00..0x7F (0x7F is NaN). */
static const double k_e4m3_pos[128] = {
    0.0, 0.001953125, 0.00390625, 0.005859375, 0.0078125, 0.009765625, 0.01171875, 0.013671875,  /* 0x00 */
    0.015625, 0.017578125, 0.01953125, 0.021484375, 0.0234375, 0.025390625, 0.02734375, 0.029296875,  /* 0x08 */
    0.03125, 0.03515625, 0.0390625, 0.04296875, 0.046875, 0.05078125, 0.0546875, 0.05859375,  /* 0x10 */
    0.0625, 0.0703125, 0.078125, 0.0859375, 0.09375, 0.1015625, 0.109375, 0.1171875,  /* 0x18 */
    0.125, 0.140625, 0.15625, 0.171875, 0.1875, 0.203125, 0.21875, 0.234375,  /* 0x20 */
    0.25, 0.28125, 0.3125, 0.34375, 0.375, 0.40625, 0.4375, 0.46875,  /* 0x28 */
    0.5, 0.5625, 0.625, 0.6875, 0.75, 0.8125, 0.875, 0.9375,  /* 0x30 */
    1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,  /* 0x38 */
    2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75,  /* 0x40 */
    4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5,  /* 0x48 */
    8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0,  /* 0x50 */
    16.0, 18.0, 20.0, 22.0, 24.0, 26.0, 28.0, 30.0,  /* 0x58 */
    32.0, 36.0, 40.0, 44.0, 48.0, 52.0, 56.0, 60.0,  /* 0x60 */
    64.0, 72.0, 80.0, 88.0, 96.0, 104.0, 112.0, 120.0,  /* 0x68 */
    128.0, 144.0, 160.0, 176.0, 192.0, 208.0, 224.0, 240.0,  /* 0x70 */
    256.0, 288.0, 320.0, 352.0, 384.0, 416.0, 448.0, NAN,  /* 0x78 */
};

static void test_e4m3_every_code(void **state)
{
    (void)state;
    /* a few anchors spelled out, so a wrong table cannot hide */
    assert_true(k_e4m3_pos[0x01] == 1.0 / 512.0); /* smallest subnormal 2^-9 */
    assert_true(k_e4m3_pos[0x07] == 7.0 / 512.0); /* largest subnormal */
    assert_true(k_e4m3_pos[0x08] == 1.0 / 64.0);  /* smallest normal 2^-6 */
    assert_true(k_e4m3_pos[0x38] == 1.0);
    assert_true(k_e4m3_pos[0x40] == 2.0);
    assert_true(k_e4m3_pos[0x7E] == 448.0); /* largest finite */
    for (unsigned c = 0; c < 256; c++) {
        double v = nvfp4_e4m3_decode(c);
        unsigned mag = c & 0x7Fu;
        if (mag == 0x7F) {
            assert_true(isnan(v));
            continue;
        }
        assert_false(isnan(v));
        assert_true(fabs(v) == k_e4m3_pos[mag]);
        assert_int_equal(signbit(v) != 0, (c & 0x80u) != 0);
    }
}

static void test_half_decode(void **state)
{
    (void)state;
    assert_true(nvfp4_half_to_double(0x3C00) == 1.0);
    assert_true(nvfp4_half_to_double(0xC000) == -2.0);
    assert_true(nvfp4_half_to_double(0x0001) == ldexp(1.0, -24));
    assert_true(nvfp4_half_to_double(0x0400) == ldexp(1.0, -14));
    assert_true(nvfp4_half_to_double(0x7BFF) == 65504.0);
    assert_true(nvfp4_half_to_double(0x3555) == 0.333251953125);
    assert_true(isinf(nvfp4_half_to_double(0x7C00)) && nvfp4_half_to_double(0x7C00) > 0);
    assert_true(isinf(nvfp4_half_to_double(0xFC00)) && nvfp4_half_to_double(0xFC00) < 0);
    assert_true(isnan(nvfp4_half_to_double(0x7E00)));
    assert_true(isnan(nvfp4_half_to_double(0x7D5A))); /* the poison pattern is a NaN */
    assert_true(signbit(nvfp4_half_to_double(0x8000)) && nvfp4_half_to_double(0x8000) == 0.0);
}

/* ---------------------------------------------------------------- scale layout */

static void test_pad_rows(void **state)
{
    (void)state;
    assert_int_equal(nvfp4_pad_rows(1), 128);
    assert_int_equal(nvfp4_pad_rows(40), 128);
    assert_int_equal(nvfp4_pad_rows(128), 128);
    assert_int_equal(nvfp4_pad_rows(129), 256);
    assert_int_equal(nvfp4_pad_rows(4096), 4096);
    assert_int_equal((int)nvfp4_sf_bytes(40, 256), 128 * 16);
    assert_int_equal((int)nvfp4_sf_bytes(248, 7168), 256 * 448);
}

/* Separate transcription of torch's to_blocked(): pad rows to 128, view as
 * (rows/128, 128, cols/4, 4), permute(0,2,1,3) -> (rows/128, cols/4, 128, 4); each 128x4
 * block (memory order r*4+c) is reshaped to (4, 32, 4) -- element (a, b, c) is block row
 * 32a+b, column c -- then transposed (1,2) to (32, 4, 4) and flattened in (b, a, c) order.
 * Walks the output in order and records the source (row, column) of every byte. */
static void to_blocked_sources(int rows, int K, int *src_row, int *src_col)
{
    int R = (rows + 127) / 128 * 128, cols = K / 16;
    size_t pos = 0;
    for (int rb = 0; rb < R / 128; rb++)
        for (int cb = 0; cb < cols / 4; cb++)
            for (int b = 0; b < 32; b++)
                for (int a = 0; a < 4; a++)
                    for (int c = 0; c < 4; c++) {
                        src_row[pos] = rb * 128 + 32 * a + b;
                        src_col[pos] = cb * 4 + c;
                        pos++;
                    }
}

static void test_sf_offset_matches_to_blocked(void **state)
{
    static const int sizes[][2] = {{1, 64}, {40, 256}, {128, 256}, {130, 512}, {300, 768}, {248, 7168}, {512, 1536}};
    (void)state;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int rows = sizes[s][0], K = sizes[s][1];
        size_t n = nvfp4_sf_bytes(rows, K);
        int *r = malloc(n * sizeof *r), *c = malloc(n * sizeof *c);
        assert_non_null(r);
        assert_non_null(c);
        to_blocked_sources(rows, K, r, c);
        for (size_t pos = 0; pos < n; pos++) {
            size_t off = nvfp4_sf_offset(r[pos], c[pos], K);
            if (off != pos)
                fail_msg("rows=%d K=%d: (%d,%d) -> %zu, to_blocked puts it at %zu", rows, K, r[pos], c[pos], off,
                         pos);
        }
        free(r);
        free(c);
    }
}

/* ---------------------------------------------------------------- shapes */

static void test_shape_names(void **state)
{
    char buf[256];
    (void)state;
    nvfp4_shape_names(buf, sizeof buf);
    assert_string_equal(buf, "g8k7168 g8k2048 g2k4096 g2k1536 t0 t1 t2 t3 t4 t5 t6 t7 t8 t9");
    nvfp4_shape_names(buf, 10); /* truncation keeps whole names and a terminator */
    assert_string_equal(buf, "g8k7168");
}

static void test_shape_registry(void **state)
{
    nvfp4_shape s;
    char err[512];
    int sum = 0;
    (void)state;
    assert_int_equal(nvfp4_shape_parse("g8k7168", &s, err, sizeof err), 0);
    assert_string_equal(s.name, "g8k7168");
    assert_int_equal(s.groups, 8);
    for (int g = 0; g < 8; g++) {
        sum += s.m[g];
        assert_int_equal(s.n[g], 4096);
        assert_int_equal(s.k[g], 7168);
    }
    assert_int_equal(sum, 1024);
    assert_int_equal(s.m[5], 248);

    assert_int_equal(nvfp4_shape_parse("g8k2048", &s, err, sizeof err), 0);
    assert_int_equal(s.m[0], 40);
    assert_int_equal(s.m[1], 76);
    assert_int_equal(s.n[7], 7168);
    assert_int_equal(s.k[3], 2048);

    assert_int_equal(nvfp4_shape_parse("g2k4096", &s, err, sizeof err), 0);
    assert_int_equal(s.groups, 2);
    assert_int_equal(s.m[1], 320);
    assert_int_equal(s.n[0], 3072);

    assert_int_equal(nvfp4_shape_parse("t3", &s, err, sizeof err), 0);
    assert_int_equal(s.groups, 3);
    assert_int_equal(s.m[0], 80);
    assert_int_equal(s.n[0], 384);
    assert_int_equal(s.k[1], 512);

    assert_int_equal(nvfp4_shape_parse("t8", &s, err, sizeof err), 0);
    assert_int_equal(s.groups, 4);
    assert_int_equal(s.m[0], 40);
    assert_int_equal(s.m[1], 56);
    assert_int_equal(s.n[0], 512);
    assert_int_equal(s.n[3], 128);

    assert_int_equal(nvfp4_shape_parse("t9", &s, err, sizeof err), 0);
    assert_int_equal(s.k[1], 768);
    assert_int_equal(s.m[0], 512);

    for (int i = 0; i <= 9; i++) { /* every test shape obeys the validation rules */
        char name[4];
        snprintf(name, sizeof name, "t%d", i);
        assert_int_equal(nvfp4_shape_parse(name, &s, err, sizeof err), 0);
        for (int g = 0; g < s.groups; g++) {
            assert_int_equal(s.n[g] % 128, 0);
            assert_int_equal(s.k[g] % 256, 0);
        }
    }
}

static void test_shape_custom_good(void **state)
{
    nvfp4_shape s, t0;
    char err[512];
    (void)state;
    assert_int_equal(nvfp4_shape_parse("m=96,128;n=128,256;k=256,512", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_shape_parse("t0", &t0, err, sizeof err), 0);
    assert_int_equal(s.groups, t0.groups);
    for (int g = 0; g < 2; g++) {
        assert_int_equal(s.m[g], t0.m[g]);
        assert_int_equal(s.n[g], t0.n[g]);
        assert_int_equal(s.k[g], t0.k[g]);
    }
    assert_string_equal(s.name, "m=96,128;n=128,256;k=256,512");

    /* broadcast, other key order, spaces, trailing ';' */
    assert_int_equal(nvfp4_shape_parse(" k = 2048 ; m=40, 76,168 ;n=7168;", &s, err, sizeof err), 0);
    assert_int_equal(s.groups, 3);
    assert_int_equal(s.m[2], 168);
    assert_int_equal(s.n[2], 7168);
    assert_int_equal(s.k[0], 2048);
    assert_int_equal(s.k[2], 2048);

    assert_int_equal(nvfp4_shape_parse("m=1;n=128;k=256", &s, err, sizeof err), 0);
    assert_int_equal(s.groups, 1);
    assert_int_equal(s.m[0], 1);
}

/* every error is one line naming the valid names and the custom syntax */
static void expect_bad(const char *spec, const char *must_mention)
{
    nvfp4_shape s;
    char err[512];
    memset(err, 0, sizeof err);
    if (nvfp4_shape_parse(spec, &s, err, sizeof err) != -1)
        fail_msg("'%s' was accepted", spec ? spec : "(null)");
    assert_non_null(strstr(err, "g8k7168"));
    assert_non_null(strstr(err, "g2k1536"));
    assert_non_null(strstr(err, "t0"));
    assert_non_null(strstr(err, "t9"));
    assert_non_null(strstr(err, "m="));
    assert_null(strchr(err, '\n'));
    if (must_mention && !strstr(err, must_mention))
        fail_msg("error for '%s' does not mention '%s': %s", spec, must_mention, err);
}

static void test_shape_custom_bad(void **state)
{
    (void)state;
    expect_bad("foo", "unknown name");
    expect_bad("", NULL);
    expect_bad("g8k7169", "unknown name");
    expect_bad("m=1;n=100;k=256", "multiple of 128");
    expect_bad("m=1;n=128;k=100", "multiple of 256");
    expect_bad("m=1;n=128;k=320", "multiple of 256");
    expect_bad("m=0;n=128;k=256", "M=0");
    expect_bad("m=-5;n=128;k=256", NULL);
    expect_bad("m=1,2;n=128,256,384;k=256", "lengths differ");
    expect_bad("m=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17;n=128;k=256", "more than 16");
    expect_bad("m=1;n=128", "required");
    expect_bad("m=1;m=2;n=128;k=256", "twice");
    expect_bad("m=1x;n=128;k=256", NULL);
    expect_bad("m=1,,2;n=128;k=256", NULL);
    expect_bad("q=1;n=128;k=256", "unknown key");
    expect_bad("m=1;n=131072;k=256", NULL);
    expect_bad(NULL, NULL);
}

static void test_flops_bytes(void **state)
{
    nvfp4_shape s;
    char err[512];
    (void)state;
    assert_int_equal(nvfp4_shape_parse("g2k1536", &s, err, sizeof err), 0);
    assert_true(nvfp4_shape_flops(&s) == 2.0 * 512 * 4096 * 1536);
    /* A 512*768 + B 2*4096*768 + SFA (128+384)*96 + SFB 2*4096*96 + C 512*4096*2 */
    assert_true(nvfp4_shape_min_bytes(&s) == 393216.0 + 6291456.0 + 49152.0 + 786432.0 + 4194304.0);
    /* padding counts: M=40 stores 128 scale rows */
    assert_int_equal(nvfp4_shape_parse("m=40;n=128;k=256", &s, err, sizeof err), 0);
    assert_true(nvfp4_shape_min_bytes(&s) == 40 * 128.0 + 128 * 128.0 + 128 * 16.0 + 128 * 16.0 + 40 * 128 * 2.0);
}

static void test_dist_parse(void **state)
{
    nvfp4_dist d = NVFP4_DIST_FULL;
    (void)state;
    assert_int_equal(nvfp4_dist_parse("gpumode", &d), 0);
    assert_int_equal(d, NVFP4_DIST_GPUMODE);
    assert_int_equal(nvfp4_dist_parse("full", &d), 0);
    assert_int_equal(d, NVFP4_DIST_FULL);
    assert_int_equal(nvfp4_dist_parse("Full", &d), -1);
    assert_int_equal(nvfp4_dist_parse(NULL, &d), -1);
    assert_string_equal(nvfp4_dist_name(NVFP4_DIST_GPUMODE), "gpumode");
}

/* ---------------------------------------------------------------- CPU reference */

/* A small problem built by hand: FP4 rows filled from per-element codes, scales written
 * through the to_blocked transcription above (not through nvfp4_sf_offset). */
typedef struct tiny {
    int rows, K;
    uint8_t *q;  /* [rows, K/2] */
    uint8_t *sf; /* blocked, padded */
} tiny;

static void tiny_init(tiny *t, int rows, int K, uint8_t pad_junk)
{
    size_t n = nvfp4_sf_bytes(rows, K);
    t->rows = rows;
    t->K = K;
    t->q = calloc((size_t)rows * (K / 2), 1);
    t->sf = malloc(n);
    assert_non_null(t->q);
    assert_non_null(t->sf);
    memset(t->sf, pad_junk, n); /* padding rows keep the junk */
}

static void tiny_free(tiny *t)
{
    free(t->q);
    free(t->sf);
}

static void tiny_set_code(tiny *t, int row, int k, unsigned code)
{
    uint8_t *b = &t->q[(size_t)row * (t->K / 2) + k / 2];
    if (k & 1)
        *b = (uint8_t)((*b & 0x0F) | (code << 4));
    else
        *b = (uint8_t)((*b & 0xF0) | (code & 0xF));
}

static void tiny_fill_row(tiny *t, int row, unsigned code)
{
    for (int k = 0; k < t->K; k++)
        tiny_set_code(t, row, k, code);
}

static void tiny_set_scale(tiny *t, int row, int col, uint8_t code)
{
    size_t n = nvfp4_sf_bytes(t->rows, t->K);
    int *r = malloc(n * sizeof *r), *c = malloc(n * sizeof *c);
    assert_non_null(r);
    assert_non_null(c);
    to_blocked_sources(t->rows, t->K, r, c);
    for (size_t pos = 0; pos < n; pos++)
        if (r[pos] == row && c[pos] == col)
            t->sf[pos] = code;
    free(r);
    free(c);
}

static void tiny_scale_row(tiny *t, int row, uint8_t code)
{
    for (int j = 0; j < t->K / 16; j++)
        tiny_set_scale(t, row, j, code);
}

static void test_ref_uniform(void **state)
{
    tiny a, b;
    (void)state;
    tiny_init(&a, 1, 64, 0x7F);
    tiny_init(&b, 1, 64, 0x7F);
    tiny_fill_row(&a, 0, 0x2); /* 1.0 */
    tiny_fill_row(&b, 0, 0x1); /* 0.5 */
    tiny_scale_row(&a, 0, 0x38); /* 1.0 */
    tiny_scale_row(&b, 0, 0x40); /* 2.0 */
    /* 64 * (1 * 1) * (0.5 * 2) = 64 */
    assert_true(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 64, 0, 0) == 64.0);
    tiny_free(&a);
    tiny_free(&b);
}

static void test_ref_signs_and_subnormal_scale(void **state)
{
    tiny a, b;
    (void)state;
    tiny_init(&a, 1, 64, 0xFF);
    tiny_init(&b, 1, 64, 0xFF);
    for (int k = 0; k < 16; k++) {
        tiny_set_code(&a, 0, k, 0x7); /* 6.0 */
        tiny_set_code(&b, 0, k, 0xB); /* -1.5 */
    }
    for (int k = 16; k < 64; k++)
        tiny_set_code(&b, 0, k, 0x7); /* A is 0 there: must not matter */
    tiny_set_scale(&a, 0, 0, 0x01);  /* 2^-9 */
    tiny_set_scale(&a, 0, 1, 0x7E);  /* 448 on zero data */
    tiny_set_scale(&a, 0, 2, 0x7E);
    tiny_set_scale(&a, 0, 3, 0x7E);
    tiny_scale_row(&b, 0, 0x38);
    /* 16 * 6 * 2^-9 * -1.5 = -144/512 = -0.28125 */
    assert_true(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 64, 0, 0) == -0.28125);

    /* both scales the smallest subnormal: 64 * 6 * 6 * 2^-18 = 2304/262144 */
    tiny_fill_row(&a, 0, 0x7);
    tiny_fill_row(&b, 0, 0x7);
    tiny_scale_row(&a, 0, 0x01);
    tiny_scale_row(&b, 0, 0x01);
    assert_true(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 64, 0, 0) == 0.0087890625);
    tiny_free(&a);
    tiny_free(&b);
}

static void test_ref_scale_columns_and_padding(void **state)
{
    static const uint8_t sc[8] = {0x38, 0x40, 0x48, 0x50, 0x30, 0x28, 0x20, 0x18}; /* 1 2 4 8 .5 .25 .125 .0625 */
    tiny a, b;
    (void)state;
    tiny_init(&a, 2, 128, 0x7F); /* rows 2..127 padding = NaN junk */
    tiny_init(&b, 1, 128, 0x7F);
    tiny_fill_row(&a, 1, 0x2);
    for (int j = 0; j < 8; j++)
        tiny_set_scale(&a, 1, j, sc[j]);
    tiny_fill_row(&b, 0, 0x2);
    tiny_scale_row(&b, 0, 0x38);
    /* row 0 keeps zero data and NaN scales */
    /* 16 * (1+2+4+8+0.5+0.25+0.125+0.0625) = 255 */
    assert_true(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 128, 1, 0) == 255.0);
    assert_true(isnan(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 128, 0, 0)));
    tiny_free(&a);
    tiny_free(&b);
}

static void test_ref_second_band(void **state)
{
    tiny a, b;
    (void)state;
    tiny_init(&a, 130, 64, 0x7F);
    tiny_init(&b, 1, 64, 0x7F);
    tiny_fill_row(&a, 129, 0x3);      /* 1.5 */
    tiny_scale_row(&a, 129, 0x40);    /* 2.0 */
    tiny_fill_row(&b, 0, 0x1);        /* 0.5 */
    tiny_scale_row(&b, 0, 0x38);
    /* 64 * 1.5 * 2 * 0.5 = 96 */
    assert_true(nvfp4_ref_element(a.q, a.sf, b.q, b.sf, 64, 129, 0) == 96.0);
    tiny_free(&a);
    tiny_free(&b);
}

static void test_ref_gemm_2x2(void **state)
{
    tiny a, b;
    double out[4];
    (void)state;
    tiny_init(&a, 2, 64, 0x00);
    tiny_init(&b, 2, 64, 0x00);
    tiny_fill_row(&a, 0, 0x2); /* 1 */
    tiny_fill_row(&a, 1, 0xA); /* -1 */
    tiny_fill_row(&b, 0, 0x1); /* 0.5 */
    tiny_fill_row(&b, 1, 0x6); /* 4 */
    tiny_scale_row(&a, 0, 0x38);
    tiny_scale_row(&a, 1, 0x38);
    tiny_scale_row(&b, 0, 0x38);
    tiny_scale_row(&b, 1, 0x30); /* 0.5 */
    nvfp4_ref_gemm(a.q, a.sf, b.q, b.sf, 2, 2, 64, out);
    assert_true(out[0] == 32.0);   /* 64 * 1 * 0.5 */
    assert_true(out[1] == 128.0);  /* 64 * 1 * 4 * 0.5 */
    assert_true(out[2] == -32.0);
    assert_true(out[3] == -128.0);
    tiny_free(&a);
    tiny_free(&b);
}

static void test_tolerance(void **state)
{
    (void)state;
    assert_true(nvfp4_tol_ok(1.0, 1.0));
    assert_true(nvfp4_tol_ok(1.0019, 1.0));
    assert_false(nvfp4_tol_ok(1.0021, 1.0));
    assert_true(nvfp4_tol_ok(0.0009, 0.0));
    assert_false(nvfp4_tol_ok(0.0011, 0.0));
    assert_true(nvfp4_tol_ok(-1000.9, -1000.0));  /* 1e-3 + 1.0 */
    assert_false(nvfp4_tol_ok(-1001.1, -1000.0));
    assert_true(nvfp4_tol_ok(NAN, NAN));
    assert_false(nvfp4_tol_ok(NAN, 1.0));
    assert_false(nvfp4_tol_ok(1.0, NAN));
    assert_true(nvfp4_tol_ok(INFINITY, INFINITY));
    assert_false(nvfp4_tol_ok(INFINITY, -INFINITY));
    assert_false(nvfp4_tol_ok(INFINITY, 65504.0));
    assert_false(nvfp4_tol_ok(65504.0, INFINITY));
    assert_true(nvfp4_tol_ok_with(1.009, 1.0, 1e-2, 1e-2));
    assert_false(nvfp4_tol_ok_with(1.021, 1.0, 1e-2, 1e-2));
}


/* ---- the K permutation shared by the token pre-pass and the kernel's fragments ---- */

static void test_kperm_bijection_per_block(void **state)
{
    (void)state;
    for (int blk = 0; blk < 3; blk++) {
        int seen[NVFP4_BK] = {0};
        for (int q = 0; q < NVFP4_BK; q++) {
            int L = nvfp4_kperm(blk * NVFP4_BK + q);
            assert_true(L >= blk * NVFP4_BK && L < (blk + 1) * NVFP4_BK);
            seen[L - blk * NVFP4_BK]++;
        }
        for (int q = 0; q < NVFP4_BK; q++)
            assert_int_equal(seen[q], 1);
    }
}

/* Quad lane c, word i, nibble pair (p, p+4) must land in k16 step 2i + p/2 at the columns
 * of register a[2*(p%2)] of the m64k16 fp16 fragment: 2c + 8*(p%2) + {0, 1}; and the 16
 * values of one thread's word pair share one scale block. */
static void test_kperm_matches_fragment_layout(void **state)
{
    (void)state;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 4; i++)
            for (int p = 0; p < 4; p++)
                for (int h = 0; h < 2; h++) {
                    const int P = 32 * c + 8 * i + 4 * h + p, L = nvfp4_kperm(P);
                    assert_int_equal(L / 16, 2 * i + p / 2);
                    assert_int_equal(L % 16, 2 * c + 8 * (p % 2) + h);
                }
}

/* ---- the tile schedule ---- */

static void check_schedule(const char *name, int tile_w, int tile_t, int persistent, int sms)
{
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[512];
    assert_int_equal(nvfp4_shape_parse(name, &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, tile_w, tile_t, persistent, 0, sms, &sc, err, sizeof err), 0);
    int expect = 0;
    for (int g = 0; g < s.groups; g++)
        expect += (s.n[g] / tile_w) * ((s.m[g] + tile_t - 1) / tile_t);
    assert_int_equal(sc.ntiles, expect);
    assert_int_equal(sc.grid, persistent ? (expect < sms ? expect : sms) : expect);
    assert_int_equal(sc.cta_first[0], 0);
    assert_int_equal(sc.cta_first[sc.grid], sc.ntiles);
    /* every (group, token tile, weight tile) exactly once, with a sound width */
    unsigned char *seen = calloc((size_t)NVFP4_MAX_GROUPS * 64 * 1024, 1);
    assert_non_null(seen);
    long long most = 0, least = -1, biggest = 0;
    for (int b = 0; b < sc.grid; b++) {
        long long load = 0;
        assert_true(sc.cta_first[b + 1] >= sc.cta_first[b]);
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++) {
            const nvfp4_tile *x = &sc.tiles[t];
            const int valid = s.m[x->group] - x->ttile * tile_t;
            assert_true(valid > 0);
            assert_true(x->n_eff % NVFP4_N_STEP == 0 && x->n_eff <= tile_t);
            assert_true(x->n_eff >= (valid < tile_t ? valid : tile_t) && x->n_eff - NVFP4_N_STEP < valid);
            size_t key = ((size_t)x->group * 64 + x->ttile) * 1024 + x->wtile;
            assert_int_equal(seen[key], 0);
            seen[key] = 1;
            const long long cost = nvfp4_tile_cost(NVFP4_SPLIT_NONE, s.k[x->group], x->n_eff, tile_w);
            load += cost;
            if (cost > biggest)
                biggest = cost;
        }
        if (load > most)
            most = load;
        if (least < 0 || load < least)
            least = load;
    }
    /* longest-processing-time first: no CTA ends more than one tile behind another */
    if (persistent)
        assert_true(most - least <= biggest);
    free(seen);
    nvfp4_schedule_free(&sc);
}

static void test_schedule_covers_each_tile_once(void **state)
{
    (void)state;
    const char *shapes[] = {"g8k7168", "g8k2048", "g2k4096", "g2k1536", "t1", "t8", "t9"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        check_schedule(shapes[i], 128, 128, 0, 132);
        check_schedule(shapes[i], 128, 128, 1, 132);
        check_schedule(shapes[i], 128, 256, 1, 132);
        check_schedule(shapes[i], 128, 64, 1, 7);
    }
}

static void test_schedule_rejects_what_does_not_tile(void **state)
{
    (void)state;
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[512] = "";
    assert_int_equal(nvfp4_shape_parse("m=64;n=128;k=256", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, 256, 128, 0, 0, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not tile"));
    assert_int_equal(nvfp4_schedule_build(&s, 128, 100, 0, 0, 132, &sc, err, sizeof err), -1);
    assert_int_equal(nvfp4_schedule_build(&s, 128, 128, 1, 0, 0, &sc, err, sizeof err), -1);
    /* split K needs the persistent schedule */
    assert_int_equal(nvfp4_schedule_build(&s, 128, 128, 0, 1, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "split"));
    /* one tile of 1600 K blocks on 400 CTAs: either split would cut it into about 400 parts,
     * more than a unit's 8-bit part fields hold; on 200 CTAs it fits.  (The shape parser
     * stops K at 65536, 128 parts at most; the schedule guards itself for any caller.) */
    memset(&s, 0, sizeof s);
    s.groups = 1, s.m[0] = 64, s.n[0] = 128, s.k[0] = 204800;
    for (int mode = NVFP4_SPLIT_DEAL; mode <= NVFP4_SPLIT_REBALANCE; mode++) {
        err[0] = 0;
        assert_int_equal(nvfp4_schedule_build(&s, 128, 64, 1, mode, 400, &sc, err, sizeof err), -1);
        assert_non_null(strstr(err, "more than 255 parts"));
        assert_int_equal(nvfp4_schedule_build(&s, 128, 64, 1, mode, 200, &sc, err, sizeof err), 0);
        int most = 0;
        for (int t = 0; t < sc.ntiles; t++)
            most = sc.tiles[t].parts > most ? sc.tiles[t].parts : most;
        assert_true(most > 100 && most <= 200);
        nvfp4_schedule_free(&sc);
    }
    /* 256-token tiles: the dealt split charges the owner a read per part, so it cuts the same
     * tile into far fewer parts whatever the CTAs (about sqrt(1600 / 2.25)) */
    for (int sms = 200; sms <= 400; sms += 200) {
        assert_int_equal(nvfp4_schedule_build(&s, 128, 256, 1, NVFP4_SPLIT_DEAL, sms, &sc, err, sizeof err), 0);
        int most = 0;
        for (int t = 0; t < sc.ntiles; t++)
            most = sc.tiles[t].parts > most ? sc.tiles[t].parts : most;
        assert_true(most >= 20 && most <= 40);
        nvfp4_schedule_free(&sc);
    }
}

/* The dealt split at 256-token tiles (deal_pass): d512n3072k7168's 96 tiles of 56 K blocks on
 * 132 CTAs.  Equal shares (0.73 of a tile) cut a quarter of them in three, whose owners read two
 * partial sums after a part that is all its CTA runs; with the fixed costs no tile has more than
 * two parts, and a CTA that runs only a part does at least a fixed cost's K blocks fewer than
 * the most loaded CTA (its owner reads it, then gates and stores, after it ends; the equal
 * shares gave both 41 or 42). */
static void test_deal_fixed_costs(void **state)
{
    (void)state;
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[256];
    assert_int_equal(nvfp4_dual_shape_parse("d512n3072k7168", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 1, NVFP4_SPLIT_DEAL, 132, &sc, err, sizeof err), 0);
    int most_kb = 0, only_part_kb = 0, only_parts = 0;
    for (int b = 0; b < sc.grid; b++) {
        int kb = 0;
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++) {
            assert_true(sc.tiles[t].parts <= 2);
            kb += sc.tiles[t].kb1 - sc.tiles[t].kb0;
        }
        most_kb = kb > most_kb ? kb : most_kb;
        if (sc.cta_first[b + 1] - sc.cta_first[b] == 1 && sc.tiles[sc.cta_first[b]].part > 0) {
            only_parts++;
            only_part_kb = kb > only_part_kb ? kb : only_part_kb;
        }
    }
    assert_true(only_parts > 0);
    assert_true(4 * (most_kb - only_part_kb) >= NVFP4_DEAL_FIXED_QKB);
    nvfp4_schedule_free(&sc);
    /* 128-token tiles keep equal shares: every CTA 81 or 82 of the 192 x 56 K blocks (the fixed
     * costs would leave four CTAs empty and give others 85) */
    assert_int_equal(nvfp4_schedule_build(&s, 64, 128, 1, NVFP4_SPLIT_DEAL, 132, &sc, err, sizeof err), 0);
    int least = 1 << 30, most = 0;
    for (int b = 0; b < sc.grid; b++) {
        int kb = 0;
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++)
            kb += sc.tiles[t].kb1 - sc.tiles[t].kb0;
        least = kb < least ? kb : least;
        most = kb > most ? kb : most;
    }
    assert_true(least >= 81 && most <= 82);
    nvfp4_schedule_free(&sc);
}

/* Split K: the units of every tile partition its K blocks, part numbers in K order; the
 * owner (part 0, K from 0) ends its CTA's list and every other part runs before any whole
 * tile or owner on its CTA, so an owner only ever waits for parts that never wait; no CTA
 * exceeds the mean cost by more than the rounding of a minimal part (and, rebalanced, one part's own cost). */
static void check_split_schedule(const char *name, int tile_w, int tile_t, int sms, int mode)
{
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[512];
    assert_int_equal(nvfp4_shape_parse(name, &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, tile_w, tile_t, 1, mode, sms, &sc, err, sizeof err), 0);
    assert_int_equal(sc.grid, sms);
    assert_int_equal(sc.cta_first[0], 0);
    assert_int_equal(sc.cta_first[sc.grid], sc.ntiles);
    /* per (group, token tile, weight tile): which K blocks are covered, by which part */
    const size_t keys = (size_t)NVFP4_MAX_GROUPS * 64 * 1024;
    unsigned char *parts_seen = calloc(keys, 1);
    unsigned char *slot_used = calloc(65536, 1);
    unsigned *buf_used = calloc((size_t)sc.partial_bufs + 1, sizeof *buf_used);
    assert_true(parts_seen && slot_used && buf_used);
    long long total = 0, most = 0, per_max = 0;
    int cut_units = 0;
    for (int b = 0; b < sc.grid; b++) {
        long long load = 0;
        int prefix = 1; /* still in the CTA's run of handed-over parts */
        for (int t = sc.cta_first[b]; t < sc.cta_first[b + 1]; t++) {
            const nvfp4_tile *x = &sc.tiles[t];
            const int nkb = s.k[x->group] / NVFP4_BK;
            assert_true(x->kb0 < x->kb1 && x->kb1 <= nkb);
            assert_true(x->part < x->parts);
            if (x->parts == 1) {
                assert_int_equal(x->kb0, 0);
                assert_int_equal(x->kb1, nkb);
                prefix = 0;
            } else {
                cut_units++;
                assert_true(x->kb1 - x->kb0 >= NVFP4_MIN_PART_KB);
                assert_true(x->slot < sc.split_tiles);
                if (x->part == 0) {
                    assert_int_equal(x->kb0, 0);
                    assert_int_equal(t, sc.cta_first[b + 1] - 1); /* last on its CTA */
                    assert_true(x->pbuf + x->parts - 1 <= (unsigned)sc.partial_bufs);
                    slot_used[x->slot]++;
                    prefix = 0;
                } else {
                    assert_true(prefix); /* before every whole tile and owner */
                    assert_true(x->pbuf < (unsigned)sc.partial_bufs);
                    buf_used[x->pbuf]++;
                }
            }
            parts_seen[((size_t)x->group * 64 + x->ttile) * 1024 + x->wtile]++;
            const long long per = nvfp4_tile_cost(mode, NVFP4_BK, x->n_eff, tile_w);
            if (per > per_max)
                per_max = per;
            load += nvfp4_unit_cost(mode, x, tile_w); /* with a handed-over part's own cost */
        }
        total += load;
        if (load > most)
            most = load;
    }
    /* every tile's units, found wherever they run, partition its K blocks in part order */
    int tiles = 0;
    for (int g = 0; g < s.groups; g++)
        for (int tt = 0; tt * tile_t < s.m[g]; tt++)
            for (int wt = 0; wt < s.n[g] / tile_w; wt++, tiles++) {
                int kb = 0, parts = -1;
                for (int part = 0; parts < 0 || part < parts; part++) {
                    int found = 0;
                    for (int t = 0; t < sc.ntiles; t++) {
                        const nvfp4_tile *x = &sc.tiles[t];
                        if (x->group != g || x->ttile != tt || x->wtile != wt || x->part != part)
                            continue;
                        found++;
                        assert_int_equal(x->kb0, kb); /* no gap, no overlap */
                        kb = x->kb1;
                        parts = x->parts;
                    }
                    assert_int_equal(found, 1);
                }
                assert_int_equal(kb, s.k[g] / NVFP4_BK);
                assert_int_equal(parts_seen[((size_t)g * 64 + tt) * 1024 + wt], parts);
            }
    assert_int_equal(sc.ntiles, tiles + sc.partial_bufs);
    for (int i = 0; i < sc.split_tiles; i++)
        assert_int_equal(slot_used[i], 1);
    for (int i = 0; i < sc.partial_bufs; i++)
        assert_int_equal(buf_used[i], 1);
    if (mode == NVFP4_SPLIT_DEAL) {
        /* dealt non-owning parts start the next CTA's list: one at most per CTA */
        for (int b = 0; b < sc.grid; b++)
            for (int t = sc.cta_first[b] + 1; t < sc.cta_first[b + 1]; t++)
                assert_true(sc.tiles[t].parts == 1 || sc.tiles[t].part == 0);
        /* equal shares: a CTA exceeds the mean by less than an unsplittable tile (< 2 minimal
         * parts) plus the minimal part its predecessor may have left it */
        assert_true(most <= (total + sms - 1) / sms + 3 * NVFP4_MIN_PART_KB * per_max);
    } else {
        /* balanced within the rounding of a minimal part, unless tiles too short to cut
         * (fewer than 2 minimal parts of K) are what is left over */
        nvfp4_schedule whole;
        assert_int_equal(nvfp4_schedule_build(&s, tile_w, tile_t, 1, 0, sms, &whole, err, sizeof err), 0);
        long long whole_most = 0;
        int short_tiles = 0;
        for (int b = 0; b < whole.grid; b++) {
            long long load = 0;
            for (int t = whole.cta_first[b]; t < whole.cta_first[b + 1]; t++) {
                load += nvfp4_tile_cost(mode, s.k[whole.tiles[t].group], whole.tiles[t].n_eff, tile_w);
                short_tiles += s.k[whole.tiles[t].group] / NVFP4_BK < 2 * NVFP4_MIN_PART_KB;
            }
            if (load > whole_most)
                whole_most = load;
        }
        /* (a part's own cost, NVFP4_PART_NS, cannot be cut either) */
        if (!short_tiles && sc.ntiles - sc.partial_bufs >= sms)
            assert_true(most <= (total + sms - 1) / sms + NVFP4_MIN_PART_KB * per_max + NVFP4_PART_NS);
        /* never worse than whole tiles (the same weighting), and no cut where they balance */
        assert_true(most <= whole_most);
        if (whole_most <= (total + sms - 1) / sms + NVFP4_MIN_PART_KB * per_max / 2)
            assert_int_equal(cut_units, 0);
        nvfp4_schedule_free(&whole);
    }
    free(parts_seen), free(slot_used), free(buf_used);
    nvfp4_schedule_free(&sc);
}

static void test_split_schedule(void **state)
{
    (void)state;
    /* the last shape (the sanitizer's) is one whose rebalanced schedule cuts tiles on few
     * CTAs, where the balance bound applies too */
    const char *shapes[] = {"g8k7168", "g8k2048", "g2k4096", "g2k1536", "t1", "t8", "t9", "m=200;n=512;k=4096"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (int mode = NVFP4_SPLIT_DEAL; mode <= NVFP4_SPLIT_REBALANCE; mode++) {
            check_split_schedule(shapes[i], 128, 128, 132, mode);
            check_split_schedule(shapes[i], 128, 256, 132, mode);
            check_split_schedule(shapes[i], 128, 64, 7, mode);
        }
    }
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[256];
    assert_int_equal(nvfp4_shape_parse("m=200;n=512;k=4096", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, 128, 64, 1, NVFP4_SPLIT_REBALANCE, 7, &sc, err, sizeof err), 0);
    assert_true(sc.split_tiles > 0); /* the cutting path above was walked */
    nvfp4_schedule_free(&sc);
}

/* The cluster pair: clusters of two consecutive CTAs, no more than sms / 2 of them; both CTAs of
 * a cluster run the same tiles in the same order, CTA 2c + r the K blocks of half r of each (part
 * r of 2); every tile in exactly one cluster; no workspace or flags. */
static int enumerate_count(const nvfp4_shape *s, int tile_w, int tile_t)
{
    int n = 0;
    for (int g = 0; g < s->groups; g++)
        n += (s->m[g] + tile_t - 1) / tile_t * (s->n[g] / tile_w);
    return n;
}

static void check_pair_schedule(const char *name, int tile_w, int tile_t, int sms)
{
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[512];
    assert_int_equal(nvfp4_shape_parse(name, &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_schedule_build(&s, tile_w, tile_t, 1, NVFP4_SPLIT_PAIR, sms, &sc, err, sizeof err), 0);
    const int tiles = enumerate_count(&s, tile_w, tile_t), clusters = tiles < sms / 2 ? tiles : sms / 2;
    assert_int_equal(sc.grid, 2 * clusters);
    assert_int_equal(sc.ntiles, 2 * tiles);
    assert_int_equal(sc.split_tiles, 0);
    assert_int_equal(sc.partial_bufs, 0);
    assert_int_equal(sc.cta_first[0], 0);
    assert_int_equal(sc.cta_first[sc.grid], sc.ntiles);
    const size_t keys = (size_t)NVFP4_MAX_GROUPS * 64 * 1024;
    unsigned char *seen = calloc(keys, 1);
    assert_non_null(seen);
    for (int c = 0; c < clusters; c++) {
        const int a0 = sc.cta_first[2 * c], a1 = sc.cta_first[2 * c + 1], b1 = sc.cta_first[2 * c + 2];
        assert_int_equal(a1 - a0, b1 - a1);
        assert_true(a1 > a0); /* no cluster without work */
        for (int i = 0; i < a1 - a0; i++) {
            const nvfp4_tile *x = &sc.tiles[a0 + i], *y = &sc.tiles[a1 + i];
            assert_true(x->group == y->group && x->ttile == y->ttile && x->wtile == y->wtile && x->n_eff == y->n_eff);
            const int nkb = s.k[x->group] / NVFP4_BK, h = nkb / 2;
            assert_int_equal(x->part, 0);
            assert_int_equal(y->part, 1);
            assert_int_equal(x->parts, 2);
            assert_int_equal(y->parts, 2);
            assert_int_equal(x->kb0, 0);
            assert_int_equal(x->kb1, h);
            assert_int_equal(y->kb0, h);
            assert_int_equal(y->kb1, nkb);
            const size_t key = ((size_t)x->group * 64 + x->ttile) * 1024 + x->wtile;
            assert_true(key < keys);
            assert_int_equal(seen[key], 0);
            seen[key] = 1;
        }
    }
    int covered = 0;
    for (size_t k = 0; k < keys; k++)
        covered += seen[k];
    assert_int_equal(covered, tiles);
    free(seen);
    nvfp4_schedule_free(&sc);
}

static void test_pair_schedule(void **state)
{
    (void)state;
    check_pair_schedule("m=256;n=4096;k=7168", 64, 256, 132); /* d256n4096k7168's B1: 64 tiles, 64 clusters */
    check_pair_schedule("m=512;n=3072;k=7168", 64, 256, 132); /* 96 tiles on 66 clusters */
    check_pair_schedule("m=300;n=512;k=1024", 64, 256, 132);  /* a partial token tile */
    check_pair_schedule("g8k7168", 128, 256, 7);              /* odd SMs: 3 clusters; K of 56 blocks */
    check_pair_schedule("m=96;n=128;k=256", 64, 256, 132);    /* 2 K blocks: halves of one */
    nvfp4_shape s;
    nvfp4_schedule sc;
    char err[512] = "";
    /* one K block (the shape parser stops K at 256; the schedule guards itself for any caller) */
    memset(&s, 0, sizeof s);
    s.groups = 1, s.m[0] = 64, s.n[0] = 128, s.k[0] = 128;
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 1, NVFP4_SPLIT_PAIR, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "cluster pair"));
    /* an odd number of K blocks: the two CTAs' halves would differ, and their rings with them */
    s.k[0] = 384;
    err[0] = 0;
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 1, NVFP4_SPLIT_PAIR, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "even number"));
    assert_int_equal(nvfp4_shape_parse("m=64;n=128;k=256", &s, err, sizeof err), 0);
    err[0] = 0;
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 1, NVFP4_SPLIT_PAIR, 1, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad arguments"));
    err[0] = 0;
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 0, NVFP4_SPLIT_PAIR, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad arguments"));
    err[0] = 0;
    assert_int_equal(nvfp4_schedule_build(&s, 64, 256, 1, NVFP4_SPLIT_PAIR + 1, 132, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad arguments"));
}

/* ---- knob points ---- */

static void test_variants_and_stamp_geometry(void **state)
{
    (void)state;
    nvfp4_shape s;
    char err[512];
    for (int i = 0; i < nvfp4_variant_count(); i++)
        for (int j = i + 1; j < nvfp4_variant_count(); j++)
            assert_string_not_equal(nvfp4_variant_at(i)->name, nvfp4_variant_at(j)->name);
    const char *bench[] = {"g8k7168", "g8k2048", "g2k4096", "g2k1536", "t0"};
    for (size_t i = 0; i < sizeof bench / sizeof bench[0]; i++) {
        assert_int_equal(nvfp4_shape_parse(bench[i], &s, err, sizeof err), 0);
        assert_non_null(nvfp4_variant_default(&s));
    }
    /* one CTA per tile: twin = 4 records per warp, detail twin + 3 per K block of 128 */
    const nvfp4_variant *base = nvfp4_variant_find("s1_w128_t128");
    unsigned ctas, wpc, ev;
    assert_non_null(base);
    assert_int_equal(nvfp4_shape_parse("g2k1536", &s, err, sizeof err), 0);
    assert_int_equal(nvfp4_stamp_geometry(base, &s, 132, 0, &ctas, &wpc, &ev), 0);
    assert_int_equal(ctas, 32u * 1u + 32u * 3u);
    assert_int_equal(wpc, 8u);
    assert_int_equal(ev, 4u);
    assert_int_equal(nvfp4_stamp_geometry(base, &s, 132, 1, &ctas, &wpc, &ev), 0);
    assert_int_equal(ev, 4u + 3u * (1536u / 128u));
    /* persistent with a producer warpgroup: 12 warps, at most grid = SMs CTAs */
    const nvfp4_variant *p = nvfp4_variant_find("s4_w128_t128_ws_p_tma");
    assert_non_null(p);
    assert_int_equal(nvfp4_stamp_geometry(p, &s, 100, 0, &ctas, &wpc, &ev), 0);
    assert_int_equal(ctas, 100u);
    assert_int_equal(wpc, 12u);
    /* the clock sampler (second producer warp) may store GS_CLOCK_SAMPLES pairs; without a
     * producer warpgroup no warp is free to run it */
    assert_true(nvfp4_variant_clock_sampler(p));
    assert_false(nvfp4_variant_clock_sampler(base));
    /* it is the warp after the first producer warp: 8 consumer warps, the loader, then it */
    assert_int_equal(nvfp4_variant_sampler_warp(p), 9);
    assert_int_equal(nvfp4_variant_sampler_warp(nvfp4_variant_find("s4_w64_t128_ws_p_tma")), 5);
    assert_int_equal(nvfp4_variant_sampler_warp(base), -1);
    assert_int_equal(ev, GS_CLOCK_SAMPLES);
    /* the name spells the knobs; the production points are each benchmark shape's default and
     * what the rule for other shapes picks (points.h) */
    int production = 0;
    for (int i = 0; i < nvfp4_variant_count(); i++) {
        const nvfp4_variant *v = nvfp4_variant_at(i);
        char name[64];
        snprintf(name, sizeof name, "s%d_w%d_t%d%s%s%s%s", v->stages, v->tile_w, v->tile_t, v->warp_spec ? "_ws" : "",
                 v->persistent ? "_p" : "", v->tma_store == 1 ? "_tma" : v->tma_store == 2 ? "_tmr" : "",
                 v->split_k == 1 ? "_sk" : v->split_k == 2 ? "_skr" : "");
        assert_string_equal(v->name, name);
        assert_true(v->split_k == 0 || v->persistent);
        production += !v->evidence;
        /* the TMA-store epilogue: own staging (_tma) or the unit's last ring slot (_tmr), whose
         * consumers hold it while a producer warpgroup loads the next unit into the others */
        assert_true(v->tma_store >= 0 && v->tma_store <= 2);
        assert_int_equal(strstr(v->name, "_tma") != NULL, v->tma_store == 1);
        assert_int_equal(strstr(v->name, "_tmr") != NULL, v->tma_store == 2);
        assert_true(v->tma_store != 2 || (v->warp_spec && v->stages >= 2));
    }
    assert_int_equal(production, 4);
    const char *shapes[] = {"g8k7168", "g8k2048", "g2k4096", "g2k1536", "t0", "t1", "t2", "t3", "t4", "t5",
                            "t6", "t7", "t8", "t9", "m=200;n=512;k=4096"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        assert_int_equal(nvfp4_shape_parse(shapes[i], &s, err, sizeof err), 0);
        assert_false(nvfp4_variant_default(&s)->evidence);
    }
}

/* The warp roles a recording names (meta.txt warp_role.*): for every point of both knob spaces
 * they cover the CTA's warps exactly, in order and without overlap, consumer warpgroups first
 * (gemm.cu's layout: warp >= 4 x consumers is the producer); gate 1's are B1's, then B2's. */
static void check_roles(const nvfp4_variant *v)
{
    nvfp4_warp_role r[4];
    const int n = nvfp4_variant_warp_roles(v, r, 4);
    assert_int_equal(n, nvfp4_variant_consumers(v) + (v->warp_spec ? 1 : 0));
    int next = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(r[i].first, next);
        assert_int_equal(r[i].last, next + 3);
        assert_true(strlen(r[i].name) > 0 && strlen(r[i].name) < 63);
        assert_null(strpbrk(r[i].name, "|`\t"));
        next = r[i].last + 1;
    }
    assert_int_equal(next, nvfp4_variant_warps(v));
    if (v->warp_spec)
        assert_string_equal(r[n - 1].name, "producer warpgroup (loads)");
    else
        assert_non_null(strstr(r[0].name, "issues the loads"));
    if (v->gate == 1) {
        assert_true(!strncmp(r[0].name, "B1 warpgroup (GEMM1", 19));
        assert_true(!strncmp(r[1].name, "B2 warpgroup (GEMM2", 19));
    }
    /* a short array takes the first roles only */
    assert_int_equal(nvfp4_variant_warp_roles(v, r, 1), 1);
}

static void test_warp_roles(void **state)
{
    (void)state;
    for (int i = 0; i < nvfp4_variant_count(); i++)
        check_roles(nvfp4_variant_at(i));
    for (int i = 0; i < nvfp4_dual_variant_count(); i++)
        check_roles(nvfp4_dual_variant_at(i));
    assert_int_equal(nvfp4_variant_warp_roles(NULL, NULL, 4), 0);
    nvfp4_warp_role r[4];
    assert_int_equal(nvfp4_variant_warp_roles(nvfp4_dual_variant_find("s4_w64_t128_ws_p_tma_pp_g2"), r, 4), 3);
    assert_string_equal(r[0].name, "ping-pong warpgroup 0 (even units)");
    assert_string_equal(r[1].name, "ping-pong warpgroup 1 (odd units)");
    assert_int_equal(nvfp4_variant_warp_roles(nvfp4_variant_find("s1_w128_t128"), r, 4), 2);
    assert_string_equal(r[0].name, "consumer warpgroup 0 (rows 0-63; issues the loads)");
    assert_string_equal(r[1].name, "consumer warpgroup 1 (rows 64-127)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_roles),
        cmocka_unit_test(test_e2m1_every_code),
        cmocka_unit_test(test_kperm_bijection_per_block),
        cmocka_unit_test(test_kperm_matches_fragment_layout),
        cmocka_unit_test(test_schedule_covers_each_tile_once),
        cmocka_unit_test(test_schedule_rejects_what_does_not_tile),
        cmocka_unit_test(test_split_schedule),
        cmocka_unit_test(test_deal_fixed_costs),
        cmocka_unit_test(test_pair_schedule),
        cmocka_unit_test(test_variants_and_stamp_geometry),
        cmocka_unit_test(test_e4m3_every_code),
        cmocka_unit_test(test_half_decode),
        cmocka_unit_test(test_pad_rows),
        cmocka_unit_test(test_sf_offset_matches_to_blocked),
        cmocka_unit_test(test_shape_names),
        cmocka_unit_test(test_shape_registry),
        cmocka_unit_test(test_shape_custom_good),
        cmocka_unit_test(test_shape_custom_bad),
        cmocka_unit_test(test_flops_bytes),
        cmocka_unit_test(test_dist_parse),
        cmocka_unit_test(test_ref_uniform),
        cmocka_unit_test(test_ref_signs_and_subnormal_scale),
        cmocka_unit_test(test_ref_scale_columns_and_padding),
        cmocka_unit_test(test_ref_second_band),
        cmocka_unit_test(test_ref_gemm_2x2),
        cmocka_unit_test(test_tolerance),
    };
    return cmocka_run_group_tests_name("nvfp4", tests, NULL, NULL);
}
