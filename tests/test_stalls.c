/* Stall reasons by phase (analysis/stalls.c): sampled source lines get their phase from the
 * kernel source's GS_BEGIN/GS_END markers, read by the run's phase names (an identifier is
 * the name, or ends in _<name>), and from the call sites of the device functions they are
 * in.  Known answers on a small source file written here. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "synth.h"
#include "analysis/stalls.h"

/* Relative to the repository root, where the tests run: the reader looks sources up there. */
#define SRC_DIR "build/tests/stalls-src"
#define SRC SRC_DIR "/k.cu"

static const char *const source[] = {
    "__device__ __forceinline__ float helper(float x)", /* 1 */
    "{",                                                /* 2 */
    "    return x * 2.0f;",                             /* 3: only called inside MAINLOOP */
    "}",                                                /* 4 */
    "__global__ void k(float *p)",                      /* 5 */
    "{",                                                /* 6 */
    "    GS_BEGIN(gs, GS_MAINLOOP);",                   /* 7 */
    "    p[0] = helper(p[1]);",                         /* 8 */
    "    GS_BEGIN(gs, MYK_LOAD_WAIT);",                 /* 9 */
    "    while (p[2] == 0) {}",                         /* 10 */
    "    GS_END(gs, MYK_LOAD_WAIT);",                   /* 11 */
    "    GS_END(gs, GS_MAINLOOP);",                     /* 12 */
    "    GS_BEGIN(gs, GS_EPILOGUE);",                   /* 13 */
    "    p[3] = 1.0f;",                                 /* 14 */
    "    GS_END(gs, GS_EPILOGUE);",                     /* 15 */
    "    p[4] = 0.0f;",                                 /* 16: in no phase */
    "}",                                                /* 17 */
};

static int setup(void **state)
{
    (void)state;
    mkdir("build", 0755);
    mkdir("build/tests", 0755);
    mkdir(SRC_DIR, 0755);
    FILE *f = fopen(SRC, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < sizeof source / sizeof source[0]; i++)
        fprintf(f, "%s\n", source[i]);
    fclose(f);
    /* the PC samples of one launch: 10 at every line that holds code */
    f = fopen(SRC_DIR "/pcsamp.tsv", "w");
    if (!f)
        return -1;
    fprintf(f, "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\n");
    const int lines[] = {3, 8, 10, 14, 16};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        fprintf(f, "%s\t%d\tsmsp__pcsamp_warps_issue_stalled_wait\t10\n", SRC, lines[i]);
    fclose(f);
    return 0;
}

static void load(const gs_phase_table *names, gs_stalls *st)
{
    char err[256];
    assert_int_equal(gs_stalls_load(SRC_DIR, "pcsamp.tsv", names, st, err, sizeof err), 0);
    assert_int_equal(st->present, 1);
    assert_float_equal(st->total, 50, 0);
}

static void lines_take_the_phases_the_run_names(void **state)
{
    (void)state;
    gs_phase_table names;
    gs_stalls st;
    char err[128];
    gs_phase_table_init(&names);
    assert_int_equal(gs_phase_table_name(&names, SYN_WAIT, "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    load(&names, &st);
    assert_int_equal(gs_stalls_phase_of(SRC, 3), GS_MAINLOOP); /* its only call site's */
    assert_int_equal(gs_stalls_phase_of(SRC, 8), GS_MAINLOOP);
    assert_int_equal(gs_stalls_phase_of(SRC, 10), SYN_WAIT); /* MYK_LOAD_WAIT is the run's LOAD_WAIT */
    assert_int_equal(gs_stalls_phase_of(SRC, 14), GS_EPILOGUE);
    assert_int_equal(gs_stalls_phase_of(SRC, 16), GS_STALL_NONE);
    assert_float_equal(st.phase_total[GS_MAINLOOP], 20, 0);
    assert_float_equal(st.phase_total[SYN_WAIT], 10, 0);
    assert_float_equal(st.phase_total[GS_EPILOGUE], 10, 0);
    assert_float_equal(st.phase_total[GS_STALL_NONE], 10, 0);
}

/* A run that does not name the kernel's phase: its marker is no phase, and the line falls
 * to the enclosing MAINLOOP; a name that only ends like the identifier without the '_'
 * boundary (OAD_WAIT) does not match either. */
static void unnamed_markers_do_not_count(void **state)
{
    (void)state;
    gs_phase_table names;
    gs_stalls st;
    char err[128];
    gs_phase_table_init(&names);
    load(&names, &st);
    assert_int_equal(gs_stalls_phase_of(SRC, 10), GS_MAINLOOP);
    assert_float_equal(st.phase_total[GS_MAINLOOP], 30, 0);
    assert_int_equal(gs_phase_table_name(&names, SYN_WAIT, "OAD_WAIT", GS_MAINLOOP, NULL, err, sizeof err), 0);
    load(&names, &st);
    assert_int_equal(gs_stalls_phase_of(SRC, 10), GS_MAINLOOP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_take_the_phases_the_run_names),
        cmocka_unit_test(unnamed_markers_do_not_count),
    };
    return cmocka_run_group_tests_name("stalls", tests, setup, NULL);
}
