/* summary.json (parsed with a real JSON parser), report.md and the gnuplot
 * scripts of a synthetic run whose figures are known. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include "slurp.h"
#include "tmpdir.h"

#include <jansson.h>
#include <stdio.h>
#include <sys/stat.h>
#include "run_fixture.h"
#include "analysis/hwmetrics.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/run.h"


static int setup(void **state)
{
    return tmpdir_setup(state) == 0 && fixture_write_run(dir, 8) == 0 ? 0 : -1;
}

static double num_at(json_t *root, const char *a, const char *b, const char *c)
{
    json_t *v = json_object_get(root, a);
    if (b)
        v = json_object_get(v, b);
    if (c)
        v = json_object_get(v, c);
    assert_non_null(v);
    return json_number_value(v);
}

/* r's summary.json, written into run directory d and read back with a real JSON parser
 * (the test fails if it does not parse).  The caller owns the result (json_decref). */
static json_t *summary_of(const gs_rundata *r, const char *d)
{
    char p[512], err[256];
    json_error_t je;
    snprintf(p, sizeof p, "%s/summary.json", d);
    assert_int_equal(gs_summary_write(r, p, err, sizeof err), 0);
    json_t *root = json_load_file(p, 0, &je);
    if (!root)
        fail_msg("summary.json does not parse: %s (line %d)", je.text, je.line);
    return root;
}

static void summary_json_has_the_figures(void **state)
{
    (void)state;
    gs_rundata r;
    char err[256];
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    json_t *root = summary_of(&r, dir);
    gs_rundata_free(&r);

    assert_string_equal(json_string_value(json_object_get(root, "format")), "gemmscope-summary");
    assert_float_equal(num_at(root, "time_ms", NULL, NULL), 0.5, 1e-9);
    assert_float_equal(num_at(root, "twin_time_ms", NULL, NULL), 0.505, 1e-9);
    assert_float_equal(num_at(root, "overhead_ratio", NULL, NULL), 1.01, 1e-9);
    assert_float_equal(num_at(root, "timer_tick_ns", NULL, NULL), 32, 0);
    assert_float_equal(num_at(root, "dropped_records", NULL, NULL), 0, 0);
    assert_float_equal(num_at(root, "phases", "MAINLOOP", "busy_share"), 0.80, 1e-3);
    assert_float_equal(num_at(root, "phases", "ACC_TO_REG", "busy_share"), 0.05, 1e-3);
    assert_float_equal(num_at(root, "phases", "EPILOGUE", "busy_share"), 0.10, 1e-3);
    assert_float_equal(num_at(root, "phases", "STORE", "busy_share"), 0.05, 1e-3);
    assert_float_equal(num_at(root, "phases", "MAINLOOP", "cta_p50_us"), 8.0, 1e-2);
    assert_float_equal(num_at(root, "kernel_span_us", NULL, NULL), 20.0, 1e-2);
    assert_null(json_object_get(json_object_get(root, "phases"), "PROLOGUE"));
    json_t *checks = json_object_get(root, "checks");
    assert_true(json_is_array(checks));
    assert_true(json_array_size(checks) >= 3);
    for (size_t i = 0; i < json_array_size(checks); i++)
        assert_true(json_is_true(json_object_get(json_array_get(checks, i), "pass")));
    json_decref(root);
}

static void report_leads_with_the_summary_line(void **state)
{
    (void)state;
    gs_rundata r;
    char err[256], p[512];
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/report.md", dir);
    assert_int_equal(gs_report_write(&r, p, "Plots not rendered: test.", err, sizeof err), 0);
    gs_rundata_free(&r);
    const char *md = slurp(p);
    char *line2 = strchr(md, '\n') + 2; /* after the title and the blank line */
    assert_memory_equal(line2, "**calib on Synthetic GPU: 0.5000 ms (twin 0.5050 ms, overhead x1.010); MAINLOOP 80.0%", 80);
    assert_non_null(strstr(md, "Plots not rendered: test."));
    assert_non_null(strstr(md, "| EPILOGUE | 10.00% |"));
    assert_null(strstr(md, "WARNING"));
}

/* The seeds' first line from the CUPTI keys of meta.txt: the sol percentages when collected,
 * the default set's bytes otherwise, nothing of either when neither; and the hardware
 * section names every collector's state and says how the metrics were taken. */
static void seed_line_and_hardware_section(void **state)
{
    (void)state;
    gs_rundata r;
    char err[256], line[256];
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    gs_meta_set(&r.meta, "kernel.registers", "168");
    gs_meta_set(&r.meta, "kernel.local_bytes_per_thread", "0");
    assert_int_equal(gs_seed_line(&r, line, sizeof line), 0);
    assert_string_equal(line, "0.5000 ms, 168 regs, 0 spills.");
    gs_meta_set(&r.meta, "metric.l1tex__t_bytes.sum", "1.86e7");
    gs_meta_set(&r.meta, "metric.lts__t_bytes.sum", "4.72e8");
    gs_meta_set(&r.meta, "metric.dram__bytes.sum", "1.541e8");
    assert_int_equal(gs_seed_line(&r, line, sizeof line), 0);
    assert_string_equal(line, "0.5000 ms, 168 regs, 0 spills. L1 tex 18.6 MB, L2 472.0 MB, DRAM 154.1 MB "
                              "(METRICS=sol for %).");
    gs_meta_set(&r.meta, "metric.l1tex__throughput.avg.pct_of_peak_sustained_active", "40.95");
    gs_meta_set(&r.meta, "metric.lts__throughput.avg.pct_of_peak_sustained_elapsed", "44.45");
    gs_meta_set(&r.meta, "metric.gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "37.2");
    assert_int_equal(gs_seed_line(&r, line, sizeof line), 0);
    assert_string_equal(line, "0.5000 ms, 168 regs, 0 spills. L1 tex at 41%, L2 at 44%, DRAM at 37%.");

    gs_meta_set(&r.meta, "collector.metrics_sol", "ok");
    gs_meta_set(&r.meta, "collector.stalls", "skipped: another profiler holds the counters");
    gs_meta_set(&r.meta, "metrics.replay", "user (L2 emptied before every pass)");
    gs_meta_set(&r.meta, "metrics.collections", "5");
    gs_meta_set(&r.meta, "metrics.default.passes", "1");
    gs_meta_set(&r.meta, "metrics.sol.passes", "9");
    gs_buf b = {0};
    gs_hwmetrics_markdown(&r, &b);
    assert_false(b.oom);
    assert_non_null(strstr(b.s, "| stalls | skipped: another profiler holds the counters |"));
    assert_non_null(strstr(b.s, "| metrics_sol | ok |"));
    assert_non_null(strstr(b.s, "replay: user (L2 emptied before every pass); medians of 5 collections;"));
    assert_non_null(strstr(b.s, "passes: default 1, sol 9."));
    assert_non_null(strstr(b.s, "| `lts__throughput.avg.pct_of_peak_sustained_elapsed` | 44.45 | % |"));
    assert_non_null(strstr(b.s, "| `dram__bytes.sum` | 1.541e8 | bytes |"));
    gs_buf_free(&b);
    gs_rundata_free(&r);
}

/* meta.txt of a run recorded with the launch sequence (NVFP4: the token pre-pass, then the
 * GEMM as a programmatic dependent launch that starts 4.3 us before the pre-pass ends). */
static void add_sequence_keys(const char *d)
{
    static const char *const kv[][2] = {
        {"cupti.kernel", "_Z22nvfp4_gemm_kernel_prodILi3ELi128ELi256ELi1ELi1ELi2ELi1EEv13nvfp4_kparams9gs_buffer"},
        {"cupti.launches", "50"},
        {"cupti.time_ms", "0.121200"},
        {"cupti.time_min_ms", "0.118624"},
        {"cupti.time_max_ms", "0.125824"},
        {"cupti.events_time_ms", "0.129936"},
        {"cupti.sequence_kernels", "1"},
        {"cupti.sequence_mismatched", "0"},
        {"cupti.span_ms", "0.128400"},
        {"cupti.before.0.name", "(anonymous namespace)::nvfp4_tokens_kernel"},
        {"cupti.before.0.time_ms", "0.011520"},
        {"cupti.before.0.gap_ms", "-0.004300"},
    };
    gs_meta m;
    char p[512], err[256];
    snprintf(p, sizeof p, "%s/meta.txt", d);
    assert_int_equal(gs_meta_read(&m, p, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        assert_int_equal(gs_meta_set(&m, kv[i][0], "%s", kv[i][1]), 0);
    assert_int_equal(gs_meta_write(&m, p, err, sizeof err), 0);
    gs_meta_free(&m);
}

/* The launch sequence: a table and one sentence in the report, launch_sequence in
 * summary.json; a run without the keys (the fixture, every run recorded before them) has
 * neither. */
static void launch_sequence_in_report_and_summary(void **state)
{
    (void)state;
    char d2[] = "/tmp/gs-test-report-seq-XXXXXX", err[256], p[512], cmd[128];
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    gs_buf b = {0};
    gs_hwmetrics_markdown(&r, &b);
    assert_null(strstr(b.s, "Launch sequence"));
    gs_buf_free(&b);
    json_t *root = summary_of(&r, dir);
    gs_rundata_free(&r);
    assert_null(json_object_get(root, "launch_sequence"));
    json_decref(root);

    assert_non_null(mkdtemp(d2));
    assert_int_equal(fixture_write_run(d2, 8), 0);
    add_sequence_keys(d2);
    assert_int_equal(gs_rundata_load(&r, d2, GS_NEED_ALL, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/report.md", d2);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    const char *md = slurp(p);
    assert_non_null(strstr(md, "\n### Launch sequence (CUPTI activity, the same launches)\n"));
    assert_non_null(strstr(md, "| kernel | median duration us | ends / starts relative to the GEMM start us |\n"
                               "|---|---:|---:|\n"
                               "| `(anonymous namespace)::nvfp4_tokens_kernel` | 11.52 | +4.30 |\n"
                               "| `nvfp4_gemm_kernel_prod` | 121.20 | 0.00 |\n"));
    assert_non_null(strstr(md, "From the first kernel's start to the GEMM's end: 128.40 us (median); the GEMM "
                               "kernel alone: 121.20 us; CUDA events around the launch: 129.94 us.\n"));
    assert_null(strstr(md, "another sequence"));

    /* launches that ran another sequence are named */
    gs_meta_set(&r.meta, "cupti.sequence_mismatched", "2");
    gs_hwmetrics_markdown(&r, &b);
    assert_non_null(strstr(b.s, "129.94 us. 2 of 50 launches ran another sequence and are not in these medians.\n"));
    gs_buf_free(&b);

    root = summary_of(&r, d2);
    gs_rundata_free(&r);
    json_t *seq = json_object_get(root, "launch_sequence");
    assert_true(json_is_object(seq));
    assert_int_equal(json_integer_value(json_object_get(seq, "kernels_before")), 1);
    assert_int_equal(json_integer_value(json_object_get(seq, "mismatched_launches")), 2);
    assert_float_equal(json_number_value(json_object_get(seq, "span_ms")), 0.1284, 1e-9);
    json_t *before = json_object_get(seq, "before");
    assert_true(json_is_array(before));
    assert_int_equal(json_array_size(before), 1);
    json_t *k = json_array_get(before, 0);
    assert_string_equal(json_string_value(json_object_get(k, "name")), "(anonymous namespace)::nvfp4_tokens_kernel");
    assert_float_equal(json_number_value(json_object_get(k, "time_ms")), 0.01152, 1e-9);
    assert_float_equal(json_number_value(json_object_get(k, "gap_ms")), -0.0043, 1e-9);
    json_decref(root);
    snprintf(cmd, sizeof cmd, "rm -rf %s", d2);
    assert_int_equal(system(cmd), 0);
}

/* Adds meta keys to the run in d. */
static void add_keys(const char *d, const char *const (*kv)[2], size_t n)
{
    gs_meta m;
    char p[512], err[256];
    snprintf(p, sizeof p, "%s/meta.txt", d);
    assert_int_equal(gs_meta_read(&m, p, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(gs_meta_set(&m, kv[i][0], "%s", kv[i][1]), 0);
    assert_int_equal(gs_meta_write(&m, p, err, sizeof err), 0);
    gs_meta_free(&m);
}

/* The keys of a GEMM run's speed table (the fixture is a calibration run without them). */
static const char *const perf_keys[][2] = {
    {"flops", "1e9"},         {"min_bytes", "1e6"},        {"ceiling_tflops", "800"},
    {"ceiling_gbps", "3000"}, {"cublas.time_ms", "1.0"}, {"correct", "1"},
};

/* A fixture run in d (a mkdtemp template) with the speed table's keys and kv, loaded into r,
 * its report written to `report`. */
static void speed_fixture(char *d, const char *const (*kv)[2], size_t n, gs_rundata *r, char *report, size_t len)
{
    char err[256];
    assert_non_null(mkdtemp(d));
    assert_int_equal(fixture_write_run(d, 8), 0);
    add_keys(d, perf_keys, sizeof perf_keys / sizeof perf_keys[0]);
    if (n)
        add_keys(d, kv, n);
    snprintf(report, len, "%s/report.md", d);
    assert_int_equal(gs_rundata_load(r, d, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_report_write(r, report, NULL, err, sizeof err), 0);
}

/* The run in d with kv added: its report written again to `report`, its summary returned. */
static json_t *rerender(const char *d, const char *const (*kv)[2], size_t n, const char *report)
{
    gs_rundata r;
    char err[256];
    add_keys(d, kv, n);
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_report_write(&r, report, NULL, err, sizeof err), 0);
    json_t *root = summary_of(&r, d);
    gs_rundata_free(&r);
    return root;
}

/* The timing under the subject's benchmark harness: one row of the performance table and
 * `harness` in summary.json where the run has it, with the anchor's ratio; neither where it
 * has not; a harness time no run produces refuses the run. */
static void harness_timing_in_report_and_summary(void **state)
{
    (void)state;
    static const char *const harness[][2] = {
        {"harness.inputs", "15"},
        {"harness.what", "15 problems back to back after one L2 flush"},
        {"harness.time_ms", "0.4"},
        {"harness.cublas.time_ms", "0.44"},
        {"harness.correct", "1"},
    };
    char d2[] = "/tmp/gs-test-report-harness-XXXXXX", err[256], p[512], cmd[128];
    gs_rundata r;
    speed_fixture(d2, NULL, 0, &r, p, sizeof p);
    assert_non_null(strstr(slurp(p), "| cuBLAS ("));
    assert_null(strstr(slurp(p), "harness timing"));
    json_t *root = summary_of(&r, d2);
    gs_rundata_free(&r);
    assert_null(json_object_get(root, "harness"));
    json_decref(root);

    add_keys(d2, harness, sizeof harness / sizeof harness[0]);
    assert_int_equal(gs_rundata_load(&r, d2, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    assert_non_null(strstr(slurp(p), "| harness timing (15 problems back to back after one L2 flush) | 0.4000 ms per "
                                     "launch; cuBLAS 0.4400 ms: cuBLAS time / ours = 1.10; outputs correct |\n"));
    root = summary_of(&r, d2);
    gs_rundata_free(&r);
    json_t *h = json_object_get(root, "harness");
    assert_true(json_is_object(h));
    assert_float_equal(json_number_value(json_object_get(h, "time_ms")), 0.4, 1e-9);
    assert_float_equal(json_number_value(json_object_get(h, "cublas_time_ms")), 0.44, 1e-9);
    assert_float_equal(json_number_value(json_object_get(h, "cublas_ratio")), 1.1, 1e-9);
    assert_int_equal(json_integer_value(json_object_get(h, "inputs")), 15);
    assert_true(json_is_true(json_object_get(h, "correct")));
    assert_null(json_object_get(h, "cublas_route"));
    json_decref(root);

    /* a route named where the subject names one */
    static const char *const route[][2] = {{"harness.cublas.route", "two"}};
    root = rerender(d2, route, 1, p);
    assert_non_null(strstr(slurp(p), "cuBLAS 0.4400 ms (route two): cuBLAS time / ours = 1.10"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "harness"), "cublas_route")), "two");
    json_decref(root);

    /* an output a harness input got wrong is loud */
    static const char *const wrong[][2] = {{"harness.correct", "0"}};
    root = rerender(d2, wrong, 1, p);
    assert_non_null(strstr(slurp(p), "1.10; outputs **NOT all correct** |"));
    assert_true(json_is_false(json_object_get(json_object_get(root, "harness"), "correct")));
    json_decref(root);

    /* a harness with no anchor and no check: no cuBLAS part, "not checked", nulls */
    char d3[] = "/tmp/gs-test-report-harness1-XXXXXX", p3[512];
    static const char *const bare[][2] = {{"harness.what", "bare"}, {"harness.time_ms", "0.4"}};
    speed_fixture(d3, bare, 2, &r, p3, sizeof p3);
    assert_non_null(strstr(slurp(p3), "| harness timing (bare) | 0.4000 ms per launch; outputs not checked |\n"));
    root = summary_of(&r, d3);
    gs_rundata_free(&r);
    h = json_object_get(root, "harness");
    assert_true(json_is_null(json_object_get(h, "cublas_ratio")));
    assert_true(json_is_null(json_object_get(h, "correct")));
    json_decref(root);

    /* a harness that could not run says why */
    char d4[] = "/tmp/gs-test-report-harness2-XXXXXX", p4[512];
    static const char *const skip[][2] = {{"harness.skipped", "could not create the harness's inputs"}};
    speed_fixture(d4, skip, 1, &r, p4, sizeof p4);
    gs_rundata_free(&r);
    assert_non_null(strstr(slurp(p4), "| harness timing | skipped: could not create the harness's inputs |\n"));
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d3, d4);
    assert_int_equal(system(cmd), 0);

    /* values no run produces */
    static const char *const bad[][2] = {{"harness.time_ms", "-0.4"}, {"harness.inputs", "0"},
                                         {"harness.inputs", "1.5"}, {"harness.cublas.time_ms", "nan"},
                                         {"harness.correct", "2"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        add_keys(d2, harness, sizeof harness / sizeof harness[0]);
        add_keys(d2, &bad[i], 1);
        assert_int_not_equal(gs_rundata_load(&r, d2, GS_NEED_ALL, err, sizeof err), 0);
        assert_non_null(strstr(err, bad[i][0]));
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", d2);
    assert_int_equal(system(cmd), 0);
}

/* With too small a buffer the report must say so loudly. */
static void overflow_is_loud_in_the_report(void **state)
{
    (void)state;
    char d2[] = "/tmp/gs-test-report-ovf-XXXXXX", err[256], p[512], cmd[128];
    assert_non_null(mkdtemp(d2));
    assert_int_equal(fixture_write_run(d2, 3), 0);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, d2, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(r.tl.dropped, 8);
    snprintf(p, sizeof p, "%s/report.md", d2);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    gs_rundata_free(&r);
    const char *md = slurp(p);
    assert_non_null(strstr(md, "8 records dropped"));
    assert_non_null(strstr(md, "WARNING: incomplete stamps"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", d2);
    assert_int_equal(system(cmd), 0);
}

static void write_text(const char *d, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", d, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* The twin's PC samples against production's: extra samples per reason, largest first
 * (ties in the twin's order), the samples on gs_stamp.cuh apart, sub-counts left out. */
static void twin_stall_samples_compared(void **state)
{
    (void)state;
    char d2[] = "/tmp/gs-test-report-twst-XXXXXX", err[256], cmd[128];
    assert_non_null(mkdtemp(d2));
    assert_int_equal(fixture_write_run(d2, 8), 0);
    const char *pre = "smsp__pcsamp_warps_issue_stalled_";
    char prod[1024], twin[1024];
    snprintf(prod, sizeof prod,
             "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\n"
             "kernels/k.cu\t10\t%slong_scoreboard\t100\nkernels/k.cu\t11\t%sno_instructions\t50\n"
             "kernels/k.cu\t11\t%sno_instructions_not_issued\t7\n",
             pre, pre, pre);
    snprintf(twin, sizeof twin,
             "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\n"
             "kernels/k.cu\t10\t%slong_scoreboard\t100\nkernels/k.cu\t11\t%sno_instructions\t80\n"
             "instrument/gs_stamp.cuh\t5\t%sbranch_resolving\t30\nkernels/k.cu\t12\t%sselected\t5\n",
             pre, pre, pre, pre);
    write_text(d2, "pcsamp.tsv", prod);
    write_text(d2, "pcsamp-twin.tsv", twin);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, d2, GS_NEED_ALL, err, sizeof err), 0);
    gs_meta_set(&r.meta, "stalls.period_log2", "6");
    gs_meta_set(&r.meta, "stalls_twin.period_log2", "6");
    gs_buf b = {0};
    gs_twin_stalls_markdown(&r, &b);
    assert_false(b.oom);
    assert_non_null(strstr(b.s, "The twin's launch drew 215 samples, production's 150: x1.433"));
    assert_non_null(strstr(b.s, "30 samples (14.0% of the twin's) fell on the twin's own code"));
    const char *rows = "| no_instructions | 50 | 80 | +30 | 0 |\n| branch_resolving | 0 | 30 | +30 | 30 |\n"
                       "| selected | 0 | 5 | +5 | 0 |\n| long_scoreboard | 100 | 100 | +0 | 0 |\n"
                       "| all | 150 | 215 | +65 | 30 |\n";
    assert_non_null(strstr(b.s, rows));
    gs_buf_free(&b);
    /* this run holds no copy of kernels/k.cu: the production section gives no phase, and says why;
     * a source newer than the recording program is flagged, a count no recorder writes is not */
    gs_buf ps = {0};
    gs_meta_set(&r.meta, "stalls.sources_newer", "1");
    gs_stalls_markdown(&r, &ps);
    assert_non_null(strstr(ps.s, "The run carries no copy of the kernel source"));
    assert_non_null(strstr(ps.s, "| all | 100.0% | long_scoreboard 66.7%, no_instructions 33.3% |"));
    assert_null(strstr(ps.s, "changed after the recording program"));
    gs_buf_free(&ps);
    r.stalls.no_sources = 0; /* as if it had one: the warning and the per-phase table */
    r.stalls.no_copy = 50;   /* and a third of the samples on a file it lacks */
    gs_stalls_markdown(&r, &ps);
    assert_non_null(strstr(ps.s, "**1 of the source files were changed after the recording program was built**"));
    assert_non_null(strstr(ps.s, " 33.3% of the samples are on source files the run holds no readable copy of"));
    gs_buf_free(&ps);
    gs_meta_set(&r.meta, "stalls.sources_newer", "0");
    r.stalls.no_copy = 0;
    gs_stalls_markdown(&r, &ps);
    assert_null(strstr(ps.s, "changed after the recording program"));
    assert_null(strstr(ps.s, "no readable copy"));
    gs_buf_free(&ps);
    r.stalls.no_copy = 50;
    json_t *rs = summary_of(&r, d2);
    assert_float_equal(num_at(rs, "stalls", "no_copy_share", NULL), 50.0 / 150.0, 1e-9);
    json_decref(rs);
    r.stalls.no_copy = 0;
    gs_meta_set(&r.meta, "stalls.sources_newer", "99999999999999999999");
    gs_stalls_markdown(&r, &ps);
    assert_null(strstr(ps.s, "changed after the recording program"));
    gs_buf_free(&ps);
    r.stalls.no_sources = 1;
    json_t *root = summary_of(&r, d2);
    assert_float_equal(num_at(root, "stalls", "phases_from_source", NULL), 0, 0);
    json_decref(root);
    root = summary_of(&r, d2);
    assert_float_equal(num_at(root, "stalls_twin", "stamp_code_samples", NULL), 30, 1e-9);
    assert_float_equal(num_at(root, "stalls_twin", "extra_by_reason", "no_instructions"), 30, 1e-9);
    assert_float_equal(num_at(root, "stalls_twin", "extra_by_reason", "long_scoreboard"), 0, 1e-9);
    json_decref(root);
    /* sampled at different periods: said, not compared */
    gs_meta_set(&r.meta, "stalls_twin.period_log2", "7");
    gs_buf c = {0};
    gs_twin_stalls_markdown(&r, &c);
    assert_non_null(strstr(c.s, "sampled at different periods (2^6 and 2^7 cycles): not compared"));
    assert_null(strstr(c.s, "| all |"));
    gs_buf_free(&c);
    root = summary_of(&r, d2);
    assert_null(json_object_get(root, "stalls_twin"));
    json_decref(root);
    gs_rundata_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", d2);
    assert_int_equal(system(cmd), 0);
}

/* A file's text, at most 64 KB. */
/* Every plot's title names the run; a stacked bar's key carries each segment's share (a
 * segment of 0.2% is too thin to read); histograms say what they count. */
static void plot_scripts_name_their_run_and_numbers(void **state)
{
    (void)state;
    gs_rundata r;
    char err[512], p[512];
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_plots_write(&r, dir, err, sizeof err), 0);
    gs_rundata_free(&r);
    for (int i = 0; gs_plot_names[i]; i++) {
        snprintf(p, sizeof p, "%s/plots/%s.gp", dir, gs_plot_names[i]);
        if (!strstr(slurp(p), "calib / default, commit unknown"))
            fail_msg("%s names no run", gs_plot_names[i]);
    }
    snprintf(p, sizeof p, "%s/plots/phase_shares.gp", dir);
    assert_non_null(strstr(slurp(p), "title 'EPILOGUE 10.0%'"));
    snprintf(p, sizeof p, "%s/plots/sm_time.gp", dir);
    assert_non_null(strstr(slurp(p), "title 'idle "));
    snprintf(p, sizeof p, "%s/plots/phase_hist.gp", dir);
    assert_non_null(strstr(slurp(p), "set ylabel 'instances'"));
}

/* The plot scripts must run under gnuplot and produce non-empty PNG and SVG files. */
static void plot_scripts_render(void **state)
{
    (void)state;
    gs_rundata r;
    char err[512], p[512];
    assert_int_equal(gs_rundata_load(&r, dir, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(gs_plots_write(&r, dir, err, sizeof err), 0);
    gs_rundata_free(&r);
    if (!gs_gnuplot_available())
        fail_msg("gnuplot with pngcairo/svg is needed for this test (apt-get install gnuplot-nox)");
    if (gs_plots_render(dir, err, sizeof err))
        fail_msg("%s", err);
    for (int i = 0; gs_plot_names[i]; i++) {
        const char *ext[] = {"png", "svg"};
        for (int e = 0; e < 2; e++) {
            struct stat st;
            snprintf(p, sizeof p, "%s/plots/%s.%s", dir, gs_plot_names[i], ext[e]);
            assert_int_equal(stat(p, &st), 0);
            assert_true(st.st_size > 1000);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_json_has_the_figures),
        cmocka_unit_test(report_leads_with_the_summary_line),
        cmocka_unit_test(seed_line_and_hardware_section),
        cmocka_unit_test(launch_sequence_in_report_and_summary),
        cmocka_unit_test(harness_timing_in_report_and_summary),
        cmocka_unit_test(overflow_is_loud_in_the_report),
        cmocka_unit_test(twin_stall_samples_compared),
        cmocka_unit_test(plot_scripts_name_their_run_and_numbers),
        cmocka_unit_test(plot_scripts_render),
    };
    return cmocka_run_group_tests_name("report", tests, setup, tmpdir_teardown);
}
