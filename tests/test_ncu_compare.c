/* ncu-compare: medians of ncu's launches, the kernel filter of probe rows, the truth
 * verdicts, the bounds, ncu's own spread, pooled rounds and the result line.  Runs
 * build/ncu-compare on fixtures. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char out_text[16384];

static int setup(void **state)
{
    return access("build/ncu-compare", X_OK) == 0 ? tmpdir_setup(state) : -1;
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Runs ncu-compare on the named files of the test directory (OURS NCU pairs; words starting
 * with '-' passed as they are); returns its exit status, stdout in out_text. */
static int run_compare(int nfiles, const char *const *files)
{
    char cmd[1024] = "build/ncu-compare";
    size_t len = strlen(cmd);
    for (int i = 0; i < nfiles; i++)
        len += files[i][0] == '-' ? (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", files[i]) /* an option */
                                  : (size_t)snprintf(cmd + len, sizeof cmd - len, " %s/%s", dir, files[i]);
    snprintf(cmd + len, sizeof cmd - len, " >%s/out 2>&1", dir);
    const int st = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/out", dir);
    FILE *f = fopen(cmd, "r");
    assert_non_null(f);
    const size_t n = fread(out_text, 1, sizeof out_text - 1, f);
    out_text[n] = 0;
    fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs ncu-compare on the two fixtures. */
static int compare(const char *ours, const char *ncu)
{
    static const char *const files[] = {"ours.txt", "ncu.csv"};
    write_file("ours.txt", ours);
    write_file("ncu.csv", ncu);
    return run_compare(2, files);
}

/* The row of `metric` in set `set` (a copy of its line, "" when missing). */
static const char *row(const char *metric, const char *set)
{
    static char line[512];
    line[0] = 0;
    for (const char *p = out_text; *p;) {
        const char *e = strchr(p, '\n');
        const size_t n = e ? (size_t)(e - p) : strlen(p);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)n, p);
        char m[200], s[64];
        if (sscanf(buf, "%199s %63s", m, s) == 2 && !strcmp(m, metric) && !strcmp(s, set)) {
            snprintf(line, sizeof line, "%s", buf);
            break;
        }
        p = e ? e + 1 : p + n;
    }
    return line;
}

#define HEADER "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"

/* ncu gave five launches: the median is compared, not the last launch nor the mean. */
static void medians_of_ncu_launches(void **state)
{
    (void)state;
    const char *ours = "metric default gpu__time_duration.sum 100000\n"
                       "metric.range default gpu__time_duration.sum 98000 103000\n"
                       "metric sol sm__throughput.avg.pct_of_peak_sustained_elapsed 50\n";
    const char *ncu = HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"99,000\"\n"
                             "\"1\",\"gemm\",\"gpu__time_duration.sum\",\"usecond\",\"150\"\n"
                             "\"2\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"98000\"\n"
                             "\"3\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"100500\"\n"
                             "\"4\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"60000\"\n"
                             "\"0\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"46\"\n"
                             "\"1\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"48\"\n"
                             "\"2\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"60\"\n";
    assert_int_equal(compare(ours, ncu), 0);
    /* median 99000 ns (the 150 us outlier and the 60 us one do not move it): +1.01% */
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "99000"));
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "+1.01 %"));
    assert_non_null(strstr(row("sm__throughput.avg.pct_of_peak_sustained_elapsed", "sol"), "+2.00 pts pass"));
    assert_non_null(strstr(out_text, "2 passed, 0 failed"));
}

/* Bounds: 2% on durations, 3 points on percentages, bytes only shown. */
static void bounds_decide(void **state)
{
    (void)state;
    const char *ours = "metric default gpu__time_duration.sum 102500\n"
                       "metric sol gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed 44.5\n"
                       "metric default dram__bytes.sum 2e8\n";
    const char *ncu = HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"100000\"\n"
                             "\"0\",\"gemm\",\"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"41\"\n"
                             "\"0\",\"gemm\",\"dram__bytes.sum\",\"Mbyte\",\"100\"\n";
    assert_int_equal(compare(ours, ncu), 1);
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "FAIL"));
    assert_non_null(strstr(row("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "sol"), "FAIL"));
    assert_non_null(strstr(row("dram__bytes.sum", "default"), "+100.00 % info"));
    assert_non_null(strstr(out_text, "0 passed, 2 failed"));
}

/* Probe rows: only ncu's launches of that probe's kernel count, and the truth judges ours
 * (ncu's place against the truth is shown, not counted). */
static void probe_rows_use_their_kernel_and_the_truth(void **state)
{
    (void)state;
    const char *ours = "metric probe-write dram__bytes_write.sum 1.05e+09 gs_probe_write\n"
                       "metric probe-read dram__bytes_write.sum 9e+06 gs_probe_read\n"
                       "truth probe-write dram__bytes_write.sum 1.02e+09 1.074e+09\n"
                       "truth probe-read dram__bytes_write.sum 0 262144\n";
    const char *ncu = HEADER "\"0\",\"gs_probe_read(const uint4 *, unsigned long, unsigned int *)\","
                             "\"dram__bytes_write.sum\",\"byte\",\"0\"\n"
                             "\"1\",\"gs_probe_write(uint4 *, unsigned long, unsigned int)\","
                             "\"dram__bytes_write.sum\",\"Gbyte\",\"0.5\"\n"
                             "\"2\",\"gs_probe_write(uint4 *, unsigned long, unsigned int)\","
                             "\"dram__bytes_write.sum\",\"Gbyte\",\"0.5\"\n";
    assert_int_equal(compare(ours, ncu), 1);
    const char *w = row("dram__bytes_write.sum", "probe-write");
    assert_non_null(strstr(w, "5e+08"));
    assert_non_null(strstr(w, "pass (truth"));
    assert_non_null(strstr(w, "ncu OUTSIDE"));
    const char *r = row("dram__bytes_write.sum", "probe-read");
    assert_non_null(strstr(r, "FAIL (truth"));
    assert_non_null(strstr(r, "ncu inside"));
    assert_non_null(strstr(out_text, "1 passed, 1 failed"));
}

/* A row outside its bound passes, marked, only when the middle half of ncu's launches (their
 * interquartile range) spreads wider than the bound and ours lies inside it; outside it, or
 * with a tight spread, it fails. */
static void ncu_spread_wider_than_the_bound(void **state)
{
    (void)state;
    const char *ours = "metric sol lts__throughput.avg.pct_of_peak_sustained_elapsed 32.3\n"
                       "metric sol l1tex__throughput.avg.pct_of_peak_sustained_active 30\n"
                       "metric sol sm__throughput.avg.pct_of_peak_sustained_elapsed 45\n";
    /* lts: two groups of launches, 31.9-32.1 and 35.5-37.2 (quartiles 32.0 and 36.2) */
    const char *ncu = HEADER "\"0\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"31.9\"\n"
                             "\"1\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"32.0\"\n"
                             "\"2\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"32.1\"\n"
                             "\"3\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"35.5\"\n"
                             "\"4\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"36.2\"\n"
                             "\"5\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"36.8\"\n"
                             "\"6\",\"gemm\",\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"37.2\"\n"
                             "\"0\",\"gemm\",\"l1tex__throughput.avg.pct_of_peak_sustained_active\",\"%\",\"35\"\n"
                             "\"1\",\"gemm\",\"l1tex__throughput.avg.pct_of_peak_sustained_active\",\"%\",\"38\"\n"
                             "\"2\",\"gemm\",\"l1tex__throughput.avg.pct_of_peak_sustained_active\",\"%\",\"40\"\n"
                             "\"0\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"49\"\n"
                             "\"1\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"49.5\"\n";
    assert_int_equal(compare(ours, ncu), 1);
    /* 3.2 points under the median 35.5, inside the middle half 32.05..36.5 (4.45 points wide) */
    assert_non_null(strstr(row("lts__throughput.avg.pct_of_peak_sustained_elapsed", "sol"),
                           "pass (inside ncu's own interquartile spread 32.05..36.5)"));
    /* ncu's middle half spreads 2.5 points, less than the bound: ours 8 under the median fails */
    assert_non_null(strstr(row("l1tex__throughput.avg.pct_of_peak_sustained_active", "sol"),
                           "FAIL (ncu's launches' middle half 36.5..39)"));
    /* outside the bound, ncu's spread (0.5 points) tighter than it */
    assert_non_null(strstr(row("sm__throughput.avg.pct_of_peak_sustained_elapsed", "sol"), "FAIL"));
    assert_non_null(strstr(out_text, "1 passed, 2 failed"));
}

/* One outlying launch (100, 100.1, 150 us) must not let a value 40% off pass: the extremes
 * would have (100..150), the middle half does not. */
static void one_outlier_does_not_widen_the_spread(void **state)
{
    (void)state;
    const char *ncu = HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"usecond\",\"100\"\n"
                             "\"1\",\"gemm\",\"gpu__time_duration.sum\",\"usecond\",\"100.1\"\n"
                             "\"2\",\"gemm\",\"gpu__time_duration.sum\",\"usecond\",\"150\"\n";
    assert_int_equal(compare("metric default gpu__time_duration.sum 140000\n", ncu), 1);
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "FAIL"));
    assert_non_null(strstr(out_text, "0 passed, 1 failed"));
}

/* Small percentages are judged relatively: 3.9 against 3.0 is 30% off, far inside 3 points. */
static void small_percentages_are_relative(void **state)
{
    (void)state;
    const char *ncu = HEADER "\"0\",\"gemm\",\"sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active\","
                             "\"%\",\"3.0\"\n"
                             "\"0\",\"gemm\",\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"3.0\"\n";
    assert_int_equal(compare("metric default sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active 3.9\n"
                             "metric default sm__warps_active.avg.pct_of_peak_sustained_active 3.25\n",
                             ncu),
                     1);
    assert_non_null(strstr(row("sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active", "default"),
                           "+0.90 pts FAIL"));
    assert_non_null(strstr(row("sm__warps_active.avg.pct_of_peak_sustained_active", "default"), "+0.25 pts pass"));
}

/* Nothing compared is no pass: ours without a metric line fails the whole comparison. */
static void no_comparison_fails(void **state)
{
    (void)state;
    assert_int_equal(compare("durations 1 launches\n", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"1\"\n"),
                     1);
    assert_non_null(strstr(out_text, "FAIL (no metric of ours was compared)"));
    assert_non_null(strstr(out_text, "0 passed, 1 failed"));
}

/* A CSV header without the unit or value column is refused (it was read at fld[-1]). */
static void header_without_value_column(void **state)
{
    (void)state;
    assert_int_equal(compare("metric default gpu__time_duration.sum 1\n",
                             "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\"\n"
                             "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\"\n"),
                     2);
    assert_non_null(strstr(out_text, "the header names no \"Metric Value\" column"));
    assert_int_equal(compare("metric default gpu__time_duration.sum 1\n",
                             "\"ID\",\"Metric Name\",\"Metric Value\"\n\"0\",\"gpu__time_duration.sum\",\"1\"\n"),
                     2);
    assert_non_null(strstr(out_text, "the header names no \"Metric Unit\" column"));
}

/* --names: every metric of ncu's CSV once, in first-seen order, comma-separated; a CSV with
 * no metric is refused. */
static void names_of_ncu_csv(void **state)
{
    (void)state;
    static const char *const names[] = {"--names", "ncu.csv"};
    write_file("ncu.csv", "==PROF== noise\n" HEADER "\"0\",\"gemm\",\"lts__b.sum\",\"byte\",\"1,000\"\n"
                          "\"0\",\"gemm\",\"lts__a.sum\",\"byte\",\"2\"\n\"1\",\"gemm\",\"lts__b.sum\",\"byte\",\"3\"\n");
    assert_int_equal(run_compare(2, names), 0);
    assert_string_equal(out_text, "lts__b.sum,lts__a.sum\n");
    write_file("ncu.csv", "==PROF== no metrics\n");
    assert_int_equal(run_compare(2, names), 2);
}

/* Two rounds: ours is the median of the rounds' medians (here their mean), ncu's the
 * median of all its launches pooled. */
static void rounds_pool(void **state)
{
    (void)state;
    write_file("ours2.txt", "metric default gpu__time_duration.sum 104000\n");
    write_file("ncu2.csv", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"104000\"\n"
                                  "\"1\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"103000\"\n");
    write_file("ours.txt", "metric default gpu__time_duration.sum 100000\n");
    write_file("ncu.csv", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"100000\"\n");
    static const char *const both[] = {"ours.txt", "ncu.csv", "ours2.txt", "ncu2.csv"};
    assert_int_equal(run_compare(4, both), 0);
    /* ours (100000 + 104000) / 2 = 102000 against ncu's pooled median 103000: -0.97% */
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "102000"));
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "-0.97 % pass"));
    /* an odd number of files is a usage error */
    assert_int_equal(run_compare(3, both), 2);
    assert_non_null(strstr(out_text, "usage: ncu-compare"));
}

/* --durations: duration rows take ncu's figure from those files (pooled), the others from
 * the pairs' files; a --durations with no file is a usage error. */
static void durations_from_their_own_run(void **state)
{
    (void)state;
    write_file("ours.txt", "metric default gpu__time_duration.sum 15000\n"
                           "metric sol gpu__time_duration.sum 15100\n"
                           "metric default gpc__cycles_elapsed.max 27000\n"
                           "metric sol sm__throughput.avg.pct_of_peak_sustained_elapsed 44\n");
    write_file("ncu.csv", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"15500\"\n"
                                 "\"0\",\"gemm\",\"gpc__cycles_elapsed.max\",\"cycle\",\"28000\"\n"
                                 "\"0\",\"gemm\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"42\"\n");
    write_file("d1.csv", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"15100\"\n"
                                "\"0\",\"gemm\",\"gpc__cycles_elapsed.max\",\"cycle\",\"27100\"\n");
    write_file("d2.csv", HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"14900\"\n"
                                "\"1\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"15000\"\n");
    static const char *const plain[] = {"ours.txt", "ncu.csv"};
    assert_int_equal(run_compare(2, plain), 1); /* 15000 against 15500: -3.23% */
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "-3.23 % FAIL"));
    static const char *const with_d[] = {"ours.txt", "ncu.csv", "--durations", "d1.csv", "d2.csv"};
    assert_int_equal(run_compare(5, with_d), 0);
    /* pooled median of 15100, 14900, 15000: 15000 */
    assert_non_null(strstr(row("gpu__time_duration.sum", "default"), "+0.00 % pass [ncu: durations run]"));
    assert_non_null(strstr(row("gpu__time_duration.sum", "sol"), "+0.67 % pass [ncu: durations run]"));
    assert_non_null(strstr(row("gpc__cycles_elapsed.max", "default"), "-0.37 % pass [ncu: durations run]"));
    /* the throughput from the pair's file, unmarked */
    const char *t = row("sm__throughput.avg.pct_of_peak_sustained_elapsed", "sol");
    assert_non_null(strstr(t, "+2.00 pts pass"));
    assert_null(strstr(t, "durations run"));
    assert_non_null(strstr(out_text, "4 passed, 0 failed"));
    /* a duration the --durations files lack fails, saying where it was looked for */
    static const char *const only_d2[] = {"ours.txt", "ncu.csv", "--durations", "d2.csv"};
    assert_int_equal(run_compare(4, only_d2), 1);
    assert_non_null(strstr(row("gpc__cycles_elapsed.max", "default"), "FAIL (ncu has no value in the --durations"));
    static const char *const empty_d[] = {"ours.txt", "ncu.csv", "--durations"};
    assert_int_equal(run_compare(3, empty_d), 2);
    assert_non_null(strstr(out_text, "usage: ncu-compare"));
}

/* A metric ncu did not give fails; an empty CSV is an error with one line. */
static void missing_values_fail(void **state)
{
    (void)state;
    assert_int_equal(compare("metric default lts__t_bytes.sum 5\n",
                             HEADER "\"0\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"1\"\n"),
                     1);
    assert_non_null(strstr(row("lts__t_bytes.sum", "default"), "FAIL (ncu has no value)"));
    assert_int_equal(compare("metric default lts__t_bytes.sum 5\n", "==PROF== nothing profiled\n"), 2);
    assert_non_null(strstr(out_text, "ncu-compare: no metrics in"));
}

/* More metrics or ncu rows than it holds: an error, never a comparison of a cut list. */
static void too_many_rows_refused(void **state)
{
    (void)state;
    static char ours[200 * 64], ncu[5000 * 80];
    size_t o = 0, n = 0;
    for (int i = 0; i < 129; i++) /* one more metric than ncu-compare holds */
        o += (size_t)snprintf(ours + o, sizeof ours - o, "metric default m%d.sum %d\n", i, i);
    n += (size_t)snprintf(ncu + n, sizeof ncu - n, "%s", HEADER);
    assert_int_equal(compare(ours, ncu), 2);
    assert_non_null(strstr(out_text, "ncu-compare: more than 128 metrics in"));
    n = (size_t)snprintf(ncu, sizeof ncu, "%s", HEADER);
    for (int i = 0; i < 4097; i++) /* one more ncu row than it holds */
        n += (size_t)snprintf(ncu + n, sizeof ncu - n, "\"%d\",\"gemm\",\"gpu__time_duration.sum\",\"nsecond\",\"1\"\n",
                              i);
    assert_int_equal(compare("metric default gpu__time_duration.sum 1\n", ncu), 2);
    assert_non_null(strstr(out_text, "ncu-compare: more than 4096 metric rows"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(medians_of_ncu_launches),
        cmocka_unit_test(bounds_decide),
        cmocka_unit_test(probe_rows_use_their_kernel_and_the_truth),
        cmocka_unit_test(ncu_spread_wider_than_the_bound),
        cmocka_unit_test(one_outlier_does_not_widen_the_spread),
        cmocka_unit_test(small_percentages_are_relative),
        cmocka_unit_test(no_comparison_fails),
        cmocka_unit_test(header_without_value_column),
        cmocka_unit_test(rounds_pool),
        cmocka_unit_test(durations_from_their_own_run),
        cmocka_unit_test(missing_values_fail),
        cmocka_unit_test(too_many_rows_refused),
        cmocka_unit_test(names_of_ncu_csv),
    };
    return cmocka_run_group_tests_name("ncu-compare", tests, setup, tmpdir_teardown);
}
