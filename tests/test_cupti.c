/* Host tests of the CUPTI metric lists (cmocka, no GPU): the Profiler Host API
 * checks names and counts passes for chip GH100 on any x86-64 machine with
 * libcupti and libnvperf_host.
 *
 *   g++ -std=c++17 -O2 -Wall -Wextra -Werror -I. -I$CUPTI_INC -c instrument/gs_cupti_metrics.cpp
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror -I. -I$CUPTI_INC -c instrument/gs_cupti_activity.c
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror -I. -I$CUPTI_INC tests/test_cupti.c gs_cupti_metrics.o \
 *       gs_cupti_activity.o -L$CUPTI_LIB -lcupti -lcudart -lstdc++ -ldl -lpthread -lcmocka -o test_cupti
 * (instrument/cupti.mk: CUPTI_LIBS) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "instrument/gs_cupti.h"

static int count(const char *const *set)
{
    int n = 0;
    while (set[n])
        n++;
    return n;
}

static void test_default_set_passes(void **state)
{
    (void)state;
    char why[512] = "";
    int passes = -1;
    int rc = gs_cupti_metrics_validate("GH100", gs_cupti_metrics_default, count(gs_cupti_metrics_default),
                                       &passes, why, sizeof why);
    if (rc)
        print_error("%s\n", why);
    assert_int_equal(rc, 0);
    /* CUPTI 13.0 (API 130001) reports 1 */
    assert_in_range(passes, 1, 2);
}

static void test_sol_set_passes(void **state)
{
    (void)state;
    char why[512] = "";
    int passes = -1;
    int rc = gs_cupti_metrics_validate("GH100", gs_cupti_metrics_sol, count(gs_cupti_metrics_sol), &passes, why,
                                       sizeof why);
    if (rc)
        print_error("%s\n", why);
    assert_int_equal(rc, 0);
    /* CUPTI 13.0 reports 9: Nsight Compute's speed-of-light header */
    assert_in_range(passes, 8, 10);
}

static void test_single_metrics(void **state)
{
    (void)state;
    /* duration alone and the DRAM throughput alone: one pass each (cupti.md table) */
    const char *one[] = {"gpu__time_duration.sum"};
    const char *dram[] = {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"};
    char why[512] = "";
    int passes = -1;
    assert_int_equal(gs_cupti_metrics_validate("GH100", one, 1, &passes, why, sizeof why), 0);
    assert_int_equal(passes, 1);
    assert_int_equal(gs_cupti_metrics_validate("GH100", dram, 1, &passes, why, sizeof why), 0);
    assert_int_equal(passes, 1);
}

static void test_union_needs_at_least_sol(void **state)
{
    (void)state;
    const char *all[2 * GS_CUPTI_MAX_METRICS];
    int n = 0, p_sol = -1, p_all = -1;
    char why[512] = "";
    for (int i = 0; gs_cupti_metrics_sol[i]; i++)
        all[n++] = gs_cupti_metrics_sol[i];
    for (int i = 0; gs_cupti_metrics_default[i]; i++)
        if (strcmp(gs_cupti_metrics_default[i], "gpu__time_duration.sum") != 0)
            all[n++] = gs_cupti_metrics_default[i];
    assert_int_equal(gs_cupti_metrics_validate("GH100", gs_cupti_metrics_sol, count(gs_cupti_metrics_sol), &p_sol,
                                               why, sizeof why),
                     0);
    assert_int_equal(gs_cupti_metrics_validate("GH100", all, n, &p_all, why, sizeof why), 0);
    assert_true(p_all >= p_sol);
}

static void assert_one_line(const char *why)
{
    assert_true(strlen(why) > 0);
    assert_null(strchr(why, '\n'));
}

static void test_bad_name_rejected(void **state)
{
    (void)state;
    const char *names[] = {"gpu__time_duration.sum", "sm__bogus_counter.sum", "dram__bytes.sum"};
    char why[512] = "";
    int passes = 12345;
    assert_int_equal(gs_cupti_metrics_validate("GH100", names, 3, &passes, why, sizeof why), -1);
    assert_int_equal(passes, 12345); /* untouched on failure */
    assert_one_line(why);
    assert_non_null(strstr(why, "unknown metric 'sm__bogus_counter.sum'"));
    assert_non_null(strstr(why, "GH100"));
    assert_non_null(strstr(why, "CUPTI_ERROR_INVALID_METRIC_NAME"));
}

static void test_bad_rollup_rejected(void **state)
{
    (void)state;
    const char *names[] = {"gpu__time_duration.bogus"};
    char why[512] = "";
    int passes = 0;
    assert_int_equal(gs_cupti_metrics_validate("GH100", names, 1, &passes, why, sizeof why), -1);
    assert_one_line(why);
    assert_non_null(strstr(why, "gpu__time_duration.bogus"));
}

static void test_base_name_needs_rollup(void **state)
{
    (void)state;
    /* the base metric is known to the host API but cannot be configured as named */
    const char *names[] = {"lts__t_bytes.sum", "dram__bytes"};
    char why[512] = "";
    int passes = 0;
    assert_int_equal(gs_cupti_metrics_validate("GH100", names, 2, &passes, why, sizeof why), -1);
    assert_one_line(why);
    assert_non_null(strstr(why, "'dram__bytes'"));
    assert_non_null(strstr(why, "rollup"));
}

static void test_ncu_only_names_rejected(void **state)
{
    (void)state;
    /* computed by Nsight Compute itself, not CUPTI metrics (cupti.md) */
    const char *names[][1] = {{"launch__registers_per_thread"}, {"smsp__pcsamp_sample_count"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char why[512] = "";
        int passes = 0;
        assert_int_equal(gs_cupti_metrics_validate("GH100", names[i], 1, &passes, why, sizeof why), -1);
        assert_non_null(strstr(why, names[i][0]));
    }
}

static void test_bad_inputs(void **state)
{
    (void)state;
    const char *empty[] = {""};
    const char *ok[] = {"gpu__time_duration.sum"};
    char why[512] = "";
    int passes = 0;
    assert_int_equal(gs_cupti_metrics_validate("GH100", ok, 0, &passes, why, sizeof why), -1);
    assert_one_line(why);
    assert_int_equal(gs_cupti_metrics_validate("GH100", empty, 1, &passes, why, sizeof why), -1);
    assert_non_null(strstr(why, "empty"));
    why[0] = 0;
    assert_int_equal(gs_cupti_metrics_validate("GX999", ok, 1, &passes, why, sizeof why), -1);
    assert_one_line(why);
    assert_non_null(strstr(why, "GX999"));
}

static void test_sets_by_name(void **state)
{
    (void)state;
    int n = 0;
    assert_ptr_equal(gs_cupti_metric_set("default", &n), gs_cupti_metrics_default);
    assert_int_equal(n, 9);
    assert_ptr_equal(gs_cupti_metric_set("sol", &n), gs_cupti_metrics_sol);
    assert_int_equal(n, 6);
    assert_null(gs_cupti_metric_set("nope", &n));
    /* both sets carry the duration, so every profiled launch can be checked against the events */
    int found = 0;
    for (int i = 0; gs_cupti_metrics_sol[i]; i++)
        found |= strcmp(gs_cupti_metrics_sol[i], "gpu__time_duration.sum") == 0;
    assert_true(found);
}

static void test_error_names(void **state)
{
    (void)state;
    char why[256];
    assert_string_equal(gs_cupti_result_name(39), "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    assert_string_equal(gs_cupti_result_name(35), "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    assert_int_equal(gs_cupti_fail(why, sizeof why, "cuptiSubscribe", 39), -1);
    assert_non_null(strstr(why, "cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)"));
    assert_non_null(strstr(why, "ncu"));
    assert_one_line(why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_set_passes),   cmocka_unit_test(test_sol_set_passes),
        cmocka_unit_test(test_single_metrics),       cmocka_unit_test(test_union_needs_at_least_sol),
        cmocka_unit_test(test_bad_name_rejected),    cmocka_unit_test(test_bad_rollup_rejected),
        cmocka_unit_test(test_base_name_needs_rollup), cmocka_unit_test(test_ncu_only_names_rejected),
        cmocka_unit_test(test_bad_inputs),           cmocka_unit_test(test_sets_by_name),
        cmocka_unit_test(test_error_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
