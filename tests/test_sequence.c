/* The launch sequence (instrument/gs_sequence.c) on synthetic kernel records with known
 * answers: the kernels each main launch ran before it, their durations and where they end
 * relative to the main kernel's start, medians over the launches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <string.h>

#include "instrument/gs_sequence.h"

#define TOKENS "_ZN41_GLOBAL__N__6669994f_9_tokens_cu_11381da019nvfp4_tokens_kernelE13nvfp4_tparams"
#define GEMM "_Z22nvfp4_gemm_kernel_prodILi3ELi128ELi256ELi1ELi1ELi2ELi1EEv13nvfp4_kparams9gs_buffer"
#define US 1000u /* ns */
/* cmocka compares as float: 1e-7 ms (0.1 ns) is above a float's step at 0.2 ms */
#define TOL 1e-7

typedef struct recs {
    gs_seq_rec r[256];
    size_t n;
} recs;

static void add(recs *v, uint64_t start_us, uint64_t end_us, const char *name)
{
    assert_true(v->n < sizeof v->r / sizeof v->r[0]);
    v->r[v->n++] = (gs_seq_rec){start_us * US, end_us * US, name};
}

/* One NVFP4 launch at t: the pre-pass runs `pre` us, the GEMM (PDL) starts `gemm_at` us
 * after it and runs `gemm` us; 20 us to the next launch (the flush is a memset: no record). */
static uint64_t nvfp4_launch(recs *v, uint64_t t, uint64_t pre, uint64_t gemm_at, uint64_t gemm)
{
    add(v, t, t + pre, TOKENS);
    add(v, t + gemm_at, t + gemm_at + gemm, GEMM);
    return t + gemm_at + gemm + 20;
}

static void pre_pass_overlapped_by_the_gemm(void **state)
{
    (void)state;
    recs v = {0};
    uint64_t t = 0;
    for (int i = 0; i < 5; i++) /* warm-up: slower, dropped below */
        t = nvfp4_launch(&v, t, 50, 40, 300);
    for (int i = 0; i < 7; i++)
        t = nvfp4_launch(&v, t, 10 + (uint64_t)i % 3, 8, 120 + (uint64_t)i);
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.launches, 12);
    gs_sequence_drop_first(&s, 5);
    assert_int_equal(s.launches, 7);
    assert_int_equal(s.kernels, 1);
    assert_int_equal(s.shown, 1);
    assert_int_equal(s.used, 7);
    assert_int_equal(s.mismatched, 0);
    assert_string_equal(s.name[0], "(anonymous namespace)::nvfp4_tokens_kernel");
    /* pre-pass 10, 11, 12, 10, 11, 12, 10 us: median 11; the GEMM starts 8 us after it */
    assert_float_equal(s.time_ms[0], 0.011, TOL);
    assert_float_equal(s.gap_ms[0], 0.008 - 0.011, TOL);
    /* span: 8 + 120..126 us, median 8 + 123 */
    assert_float_equal(s.span_ms, 0.131, TOL);
    gs_sequence_free(&s);
}

static void gemm_after_the_pre_pass_ended(void **state)
{
    (void)state;
    recs v = {0};
    uint64_t t = 100;
    for (int i = 0; i < 4; i++)
        t = nvfp4_launch(&v, t, 10, 13, 100);
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.kernels, 1);
    assert_float_equal(s.gap_ms[0], 0.003, TOL); /* positive: an idle gap */
    assert_float_equal(s.span_ms, 0.113, TOL);
    gs_sequence_free(&s);
}

static void kernel_launched_alone(void **state)
{
    (void)state;
    recs v = {0};
    for (uint64_t i = 0; i < 6; i++)
        add(&v, 200 * i, 200 * i + 50, "_Z17calib_kernel_prod12calib_config9gs_buffer");
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.launches, 6);
    assert_int_equal(s.kernels, 0);
    assert_int_equal(s.shown, 0);
    assert_int_equal(s.mismatched, 0);
    assert_float_equal(s.span_ms, 0.05, TOL); /* the kernel itself */
    gs_sequence_free(&s);
}

/* Flush kernels are not kernels of the launch; records after the last main one belong to
 * no launch; no main record at all gives no launch. */
static void flushes_and_trailing_records_ignored(void **state)
{
    (void)state;
    recs v = {0};
    uint64_t t = 0;
    for (int i = 0; i < 3; i++) {
        add(&v, t, t + 30, "gs_l2_flush_kernel");
        t = nvfp4_launch(&v, t + 40, 10, 5, 100);
    }
    add(&v, t, t + 10, TOKENS); /* a pre-pass whose GEMM is not in the records */
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.launches, 3);
    assert_int_equal(s.kernels, 1);
    assert_int_equal(s.mismatched, 0);
    assert_float_equal(s.span_ms, 0.105, TOL); /* from the pre-pass, not the flush */
    gs_sequence_free(&s);

    assert_int_equal(gs_sequence_build(v.r, v.n, "no_such_kernel", &s), 0);
    assert_int_equal(s.launches, 0);
    assert_int_equal(s.kernels, 0);
    gs_sequence_free(&s);
}

/* A record that starts while a GEMM runs (another stream) starts after that GEMM's start:
 * it belongs to the next launch, whose shape then differs from the others'. */
static void launches_that_disagree(void **state)
{
    (void)state;
    recs v = {0};
    uint64_t t = 0;
    t = nvfp4_launch(&v, t, 10, 5, 100);
    add(&v, t - 50, t - 40, "other_kernel"); /* inside the first GEMM */
    for (int i = 0; i < 4; i++)
        t = nvfp4_launch(&v, t, 10, 5, 100);
    /* one launch whose first kernel has another name: same count, another shape */
    add(&v, t, t + 30, "void helper<2>(int)");
    add(&v, t + 20, t + 120, GEMM);
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.launches, 6);
    assert_int_equal(s.kernels, 1);
    assert_int_equal(s.used, 4);
    assert_int_equal(s.mismatched, 2);
    assert_string_equal(s.name[0], "(anonymous namespace)::nvfp4_tokens_kernel");
    assert_float_equal(s.time_ms[0], 0.010, TOL);
    assert_float_equal(s.span_ms, 0.105, TOL);
    /* launches 5 (pre-pass) and 6 (helper) left: a tie, the earlier one's shape wins */
    gs_sequence_drop_first(&s, 4);
    assert_int_equal(s.launches, 2);
    assert_int_equal(s.used, 1);
    assert_int_equal(s.mismatched, 1);
    assert_string_equal(s.name[0], "(anonymous namespace)::nvfp4_tokens_kernel");
    gs_sequence_drop_first(&s, 1);
    assert_int_equal(s.mismatched, 0);
    assert_string_equal(s.name[0], "helper");
    assert_float_equal(s.gap_ms[0], -0.010, TOL);
    gs_sequence_drop_first(&s, 1);
    assert_int_equal(s.launches, 0);
    assert_int_equal(s.kernels, 0);
    gs_sequence_free(&s);
}

static void at_most_four_kernels_kept(void **state)
{
    (void)state;
    const char *names[] = {"void k0(int)", "void k1<float>(float*)", "k2", "k3", "k4", "k5"};
    recs v = {0};
    uint64_t t = 0;
    for (int l = 0; l < 3; l++) {
        for (uint64_t i = 0; i < 6; i++)
            add(&v, t + 10 * i, t + 10 * i + 5 + i, names[i]);
        add(&v, t + 70, t + 170, GEMM);
        t += 200;
    }
    gs_sequence s;
    assert_int_equal(gs_sequence_build(v.r, v.n, "_prod", &s), 0);
    assert_int_equal(s.kernels, 6);
    assert_int_equal(s.shown, GS_SEQ_MAX_BEFORE);
    assert_string_equal(s.name[0], "k0");
    assert_string_equal(s.name[1], "k1");
    assert_string_equal(s.name[3], "k3");
    assert_float_equal(s.time_ms[3], 0.008, TOL);
    assert_float_equal(s.gap_ms[3], 0.070 - 0.038, TOL);
    assert_float_equal(s.span_ms, 0.170, TOL);
    gs_sequence_free(&s);
}

static void short_names(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {TOKENS, "(anonymous namespace)::nvfp4_tokens_kernel"},
        {GEMM, "nvfp4_gemm_kernel_prod"},
        {"_ZL5local9gs_buffer", "local"},
        {"_ZN2ns5inner6kernelIiEEvv", "ns::inner::kernel"},
        {"void (anonymous namespace)::nvfp4_tokens_kernel(nvfp4_tparams)",
         "(anonymous namespace)::nvfp4_tokens_kernel"},
        {"(anonymous namespace)::nvfp4_tokens_kernel", "(anonymous namespace)::nvfp4_tokens_kernel"},
        {"void nvfp4_gemm_kernel_prod<3, 128>(nvfp4_kparams, gs_buffer)", "nvfp4_gemm_kernel_prod"},
        {"void k<(anonymous namespace)::t>(int)", "k"},
        {"plain_name", "plain_name"},
        {"_ZNSt3foo", "_ZNSt3foo"}, /* a substitution: not read, kept as is */
        {"_Z99short", "_Z99short"},  /* a length past the end */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[GS_SEQ_NAME_LEN];
        gs_kernel_short_name(cases[i][0], out, sizeof out);
        assert_string_equal(out, cases[i][1]);
    }
    char small[8];
    gs_kernel_short_name(GEMM, small, sizeof small);
    assert_string_equal(small, "nvfp4_g");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pre_pass_overlapped_by_the_gemm),
        cmocka_unit_test(gemm_after_the_pre_pass_ended),
        cmocka_unit_test(kernel_launched_alone),
        cmocka_unit_test(flushes_and_trailing_records_ignored),
        cmocka_unit_test(launches_that_disagree),
        cmocka_unit_test(at_most_four_kernels_kept),
        cmocka_unit_test(short_names),
    };
    return cmocka_run_group_tests_name("sequence", tests, NULL, NULL);
}
