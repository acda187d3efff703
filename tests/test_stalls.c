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
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "synth.h"
#include "analysis/stalls.h"
#include "instrument/gs_sources.h"

/* Relative to the repository root, where the tests run: the run's copy of the source is made
 * from the program's own table of texts (gs_sources_write, as the recorder does with the one
 * gs-embed compiled into it), and the reader reads only that copy. */
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

/* The source above as one text, as a program would hold it. */
static char text[2048];
static void source_text(char *out, size_t n)
{
    out[0] = 0;
    for (size_t i = 0; i < sizeof source / sizeof source[0]; i++)
        snprintf(out + strlen(out), n - strlen(out), "%s\n", source[i]);
}

static int setup(void **state)
{
    (void)state;
    mkdir("build", 0755);
    mkdir("build/tests", 0755);
    mkdir(SRC_DIR, 0755);
    /* the PC samples of one launch: 10 at every line that holds code */
    FILE *f = fopen(SRC_DIR "/pcsamp.tsv", "w");
    if (!f)
        return -1;
    fprintf(f, "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\n");
    const int lines[] = {3, 8, 10, 14, 16};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        fprintf(f, "%s\t%d\tsmsp__pcsamp_warps_issue_stalled_wait\t10\n", SRC, lines[i]);
    fclose(f);
    /* the run's copy, made afresh (a copy left by an earlier run of the test would count), from
     * the program's text while the working folder holds another version of the file */
    if (system("rm -rf " SRC_DIR "/sources") != 0)
        return -1;
    source_text(text, sizeof text);
    f = fopen(SRC, "w");
    if (!f)
        return -1;
    fprintf(f, "another version\n");
    fclose(f);
    const gs_source_text texts[] = {{SRC, (const unsigned char *)text, strlen(text)}};
    char err[256];
    int copied = -1, missing = -1;
    if (gs_sources_write(SRC_DIR, SRC_DIR "/pcsamp.tsv", texts, 1, &copied, &missing, err, sizeof err) != 0 ||
        copied != 1 || missing != 0)
        return -1;
    /* it holds the program's text, not the working folder's */
    f = fopen(SRC, "w");
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    if (system("gzip -dc " SRC_DIR "/sources/" SRC ".gz | cmp -s - " SRC) != 0)
        return -1;
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

/* The phases come from the run's copy of the source: a working folder whose file has since
 * changed (a line inserted above every marker) does not move them; a run with no copy gives no
 * line a phase; names that would leave the run's sources/ folder are never looked up. */
static void phases_come_from_the_runs_copy(void **state)
{
    (void)state;
    gs_phase_table names;
    gs_stalls st;
    gs_phase_table_init(&names);
    FILE *f = fopen(SRC, "w");
    assert_non_null(f);
    fprintf(f, "// a line added after the run was recorded\n");
    for (size_t i = 0; i < sizeof source / sizeof source[0]; i++)
        fprintf(f, "%s\n", source[i]);
    fclose(f);
    load(&names, &st);
    assert_int_equal(st.no_sources, 0);
    assert_int_equal(gs_stalls_phase_of(SRC, 14), GS_EPILOGUE); /* the working copy's 14 is a marker line in no phase */
    assert_int_equal(gs_stalls_phase_of(SRC, 16), GS_STALL_NONE);
    assert_float_equal(st.phase_total[GS_EPILOGUE], 10, 0);
    /* a copy cut short (a damaged gzip stream) gives no line a phase rather than wrong ones */
    char gz[128];
    snprintf(gz, sizeof gz, "%s/sources/%s.gz", SRC_DIR, SRC);
    FILE *g = fopen(gz, "rb");
    assert_non_null(g);
    unsigned char bytes[4096];
    size_t nb = fread(bytes, 1, sizeof bytes, g);
    fclose(g);
    assert_true(nb > 40);
#define CUT_DIR "build/tests/stalls-cut"
    assert_int_equal(system("rm -rf " CUT_DIR " && mkdir -p " CUT_DIR "/sources/" SRC_DIR " && cp " SRC_DIR
                            "/pcsamp.tsv " CUT_DIR "/"),
                     0);
    g = fopen(CUT_DIR "/sources/" SRC ".gz", "wb");
    assert_non_null(g);
    assert_int_equal(fwrite(bytes, 1, nb - 12, g), nb - 12); /* without the stream's end and trailer */
    fclose(g);
    char err0[256];
    assert_int_equal(gs_stalls_load(CUT_DIR, "pcsamp.tsv", &names, &st, err0, sizeof err0), 0);
    assert_int_equal(st.no_sources, 0);
    assert_float_equal(st.phase_total[GS_STALL_NONE], 50, 0);
    assert_float_equal(st.no_copy, 50, 0); /* and the report says why */
    /* sources/ without the file: the same */
    assert_int_equal(system("rm -f " CUT_DIR "/sources/" SRC ".gz"), 0);
    assert_int_equal(gs_stalls_load(CUT_DIR, "pcsamp.tsv", &names, &st, err0, sizeof err0), 0);
    assert_float_equal(st.no_copy, 50, 0);
    load(&names, &st); /* the whole copy: nothing missing */
    assert_float_equal(st.no_copy, 0, 0);
    /* a copy of the run without sources/: the samples are read, no line has a phase */
    const char *bare = "build/tests/stalls-bare";
    mkdir(bare, 0755);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp " SRC_DIR "/pcsamp.tsv %s/pcsamp.tsv", bare);
    assert_int_equal(system(cmd), 0);
    char err[256];
    assert_int_equal(gs_stalls_load(bare, "pcsamp.tsv", &names, &st, err, sizeof err), 0);
    assert_int_equal(st.present, 1);
    assert_int_equal(st.no_sources, 1);
    assert_float_equal(st.phase_total[GS_STALL_NONE], 50, 0);
    assert_int_equal(gs_stalls_phase_of(SRC, 14), GS_STALL_NONE);
    /* the names a run may hold a copy of */
    assert_true(gs_source_name_ok("kernels/nvfp4/gemm.cu"));
    assert_true(gs_source_name_ok("k.cu"));
    const char *bad[] = {"", "/usr/include/x.h", "../k.cu", "a/../../k.cu", "a/..", "a//b.cu", "a\\b.cu", "a\tb"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(gs_source_name_ok(bad[i]));
    /* a file whose write fails (its folder's name taken by a file) is the error and the file
     * after it is still written; a name the program does not hold is counted, a system header
     * is not */
    assert_int_equal(system("rm -rf build/tests/stalls-two && mkdir -p build/tests/stalls-two/sources && "
                            "touch build/tests/stalls-two/sources/a"),
                     0);
    f = fopen("build/tests/stalls-two/pcsamp.tsv", "w");
    assert_non_null(f);
    fprintf(f, "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\na/x.cu\t1\tx\t1\n" SRC "\t1\tx\t1\n"
               "other.cu\t1\tx\t1\n/usr/include/x.h\t1\tx\t1\n");
    fclose(f);
    const gs_source_text two[] = {{"a/x.cu", (const unsigned char *)"x\n", 2},
                                  {SRC, (const unsigned char *)text, strlen(text)}};
    int copied = -1, missing = -1;
    assert_int_equal(gs_sources_write("build/tests/stalls-two", "build/tests/stalls-two/pcsamp.tsv", two, 2, &copied,
                                      &missing, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "cannot make build/tests/stalls-two/sources/a: Not a directory"));
    assert_int_equal(copied, 1);
    assert_int_equal(missing, 1);
    assert_int_equal(access("build/tests/stalls-two/sources/" SRC ".gz", F_OK), 0);
    assert_int_equal(access("build/tests/stalls-two/sources/other.cu.gz", F_OK), -1);
    char path[64];
    assert_int_equal(gs_source_path("run", "k.cu", path, sizeof path), 0);
    assert_string_equal(path, "run/sources/k.cu.gz");
    assert_int_equal(gs_source_path("run", "../k.cu", path, sizeof path), -1);
    assert_int_equal(gs_source_path("run", "a/very/long/name/that/does/not/fit.cu", path, 16), -1);
}

/* A NUL byte inside a line does not move the lines after it; a copy whose gzip check fails (its
 * CRC trailer changed) gives no line a phase. */
static void nul_bytes_and_bad_checks(void **state)
{
    (void)state;
#define NUL_DIR "build/tests/stalls-nul"
    static const char text[] = "__global__ void k(float *p)\n{\n    int x = 0; /* \0 */\n"
                               "    GS_BEGIN(gs, GS_EPILOGUE);\n    p[0] = 1.0f;\n    GS_END(gs, GS_EPILOGUE);\n"
                               "    p[1] = 2.0f;\n}\n"; /* line 6, GS_END's, is EPILOGUE's; line 7 no phase's */
    assert_int_equal(system("rm -rf " NUL_DIR " && mkdir -p " NUL_DIR "/sources"), 0);
    gzFile z = gzopen(NUL_DIR "/sources/k2.cu.gz", "wb");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, text, sizeof text - 1), (int)(sizeof text - 1));
    assert_int_equal(gzclose(z), Z_OK);
    FILE *f = fopen(NUL_DIR "/pcsamp.tsv", "w");
    assert_non_null(f);
    fprintf(f, "# gemmscope-pcsamp 1\nfile\tline\treason\tsamples\nk2.cu\t6\tsmsp__pcsamp_warps_issue_stalled_wait\t10\n");
    fclose(f);
    gs_phase_table names;
    gs_stalls st;
    char err[256];
    gs_phase_table_init(&names);
    assert_int_equal(gs_stalls_load(NUL_DIR, "pcsamp.tsv", &names, &st, err, sizeof err), 0);
    assert_int_equal(gs_stalls_phase_of("k2.cu", 6), GS_EPILOGUE); /* line 6 is still line 6 */
    assert_int_equal(gs_stalls_phase_of("k2.cu", 7), GS_STALL_NONE);
    assert_float_equal(st.phase_total[GS_EPILOGUE], 10, 0);
    /* the CRC trailer's first byte changed: the stream reads whole, its check fails */
    f = fopen(NUL_DIR "/sources/k2.cu.gz", "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, -8, SEEK_END), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, -8, SEEK_END), 0);
    fputc(c ^ 0xff, f);
    fclose(f);
    assert_int_equal(gs_stalls_load(NUL_DIR, "pcsamp.tsv", &names, &st, err, sizeof err), 0);
    assert_int_equal(gs_stalls_phase_of("k2.cu", 6), GS_STALL_NONE);
    assert_float_equal(st.no_copy, 10, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_take_the_phases_the_run_names),
        cmocka_unit_test(unnamed_markers_do_not_count),
        cmocka_unit_test(phases_come_from_the_runs_copy),
        cmocka_unit_test(nul_bytes_and_bad_checks),
    };
    return cmocka_run_group_tests_name("stalls", tests, setup, NULL);
}
