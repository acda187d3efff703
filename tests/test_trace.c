/* gemmscope trace: the JSON parses (jansson), every slice carries its CTA,
 * tile and group, slices on one track nest or are disjoint (what Perfetto's
 * JSON importer needs), and dropped
 * records appear as instants. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <jansson.h>
#include <sys/stat.h>
#include "run_fixture.h"
#include "analysis/run.h"
#include "analysis/trace.h"

typedef struct slice {
    long pid, tid;
    double ts, end;
} slice;

static int cmp_slice(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->end > y->end ? -1 : (x->end < y->end); /* parents first */
}

/* Writes the trace of the fixture run made with `capacity` and parses it. */
static json_t *trace_of(const char *name, uint32_t capacity)
{
    char d[256], p[300], err[256];
    snprintf(d, sizeof d, "%s/%s", dir, name);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(fixture_write_run(d, capacity), 0);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/trace.json", d);
    assert_int_equal(gs_trace_write(&r, p, err, sizeof err), 0);
    gs_rundata_free(&r);
    json_error_t je;
    json_t *root = json_load_file(p, 0, &je);
    if (!root)
        fail_msg("trace.json does not parse: %s (line %d)", je.text, je.line);
    return root;
}

static void slices_carry_args_and_nest(void **state)
{
    (void)state;
    json_t *root = trace_of("full", 8);
    json_t *ev = json_object_get(root, "traceEvents");
    assert_true(json_is_array(ev));
    size_t n = json_array_size(ev), ns = 0, meta = 0;
    slice *s = calloc(n, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(ev, i);
        const char *ph = json_string_value(json_object_get(e, "ph"));
        assert_non_null(ph);
        if (!strcmp(ph, "M")) {
            meta++;
            continue;
        }
        assert_string_equal(ph, "X");
        json_t *args = json_object_get(e, "args");
        assert_true(json_is_integer(json_object_get(args, "cta")));
        assert_true(json_is_integer(json_object_get(args, "tile")));
        assert_true(json_is_integer(json_object_get(args, "group")));
        double dur = json_number_value(json_object_get(e, "dur"));
        assert_true(dur >= 0);
        s[ns++] = (slice){json_integer_value(json_object_get(e, "pid")), json_integer_value(json_object_get(e, "tid")),
                          json_number_value(json_object_get(e, "ts")), 0};
        s[ns - 1].end = s[ns - 1].ts + dur;
    }
    assert_int_equal(ns, 32); /* 4 CTAs x 2 warps x 4 phases */
    assert_true(meta >= 2 + 8);
    qsort(s, ns, sizeof *s, cmp_slice);
    /* on each track: a slice starting inside the previous one must end inside it too */
    for (size_t i = 1; i < ns; i++)
        if (s[i].pid == s[i - 1].pid && s[i].tid == s[i - 1].tid && s[i].ts < s[i - 1].end - 1e-6)
            assert_true(s[i].end <= s[i - 1].end + 1e-6);
    free(s);
    json_decref(root);
}

static void dropped_records_are_instants(void **state)
{
    (void)state;
    json_t *root = trace_of("overflow", 3);
    json_t *ev = json_object_get(root, "traceEvents");
    int instants = 0;
    long dropped = 0;
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *e = json_array_get(ev, i);
        if (strcmp(json_string_value(json_object_get(e, "ph")), "i") == 0) {
            instants++;
            dropped += (long)json_integer_value(json_object_get(json_object_get(e, "args"), "dropped"));
        }
    }
    assert_int_equal(instants, 8); /* every warp recorded 4 into 3 slots */
    assert_int_equal(dropped, 8);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slices_carry_args_and_nest),
        cmocka_unit_test(dropped_records_are_instants),
    };
    return cmocka_run_group_tests_name("trace", tests, tmpdir_setup, tmpdir_teardown);
}
