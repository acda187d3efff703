/* The analyzers know no kernel: nothing under analysis/ includes a file from kernels/, the
 * gemmscope program links no object built from kernels/, and its symbols name no kernel's
 * code.  Runs from the repository root after `make all`. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Every #include line of the C files in `folder` that names kernels/, one per line in out. */
static int kernel_includes(const char *folder, char *out, size_t n)
{
    DIR *d = opendir(folder);
    int found = 0;
    assert_non_null(d);
    out[0] = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".c") && strcmp(dot, ".h")))
            continue;
        char path[512], line[1024];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        for (int ln = 1; fgets(line, sizeof line, f); ln++) {
            const char *s = line;
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s != '#')
                continue;
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            if (strncmp(s, "include", 7) == 0 && strstr(s, "kernels/")) {
                size_t used = strlen(out);
                snprintf(out + used, n - used, "%s:%d: %s", path, ln, line);
                found++;
            }
        }
        fclose(f);
    }
    closedir(d);
    return found;
}

static void analysis_includes_nothing_from_kernels(void **state)
{
    (void)state;
    char found[4096];
    if (kernel_includes("analysis", found, sizeof found))
        fail_msg("analysis/ includes kernel code:\n%s", found);
}

/* The check itself fails where it should: a folder that does include kernel code. */
static void the_include_check_sees_an_include(void **state)
{
    (void)state;
    char found[4096];
    assert_true(kernel_includes("instrument", found, sizeof found) > 0); /* the recorder includes subject.h */
    assert_non_null(strstr(found, "record_main.c"));
}

/* The objects make links into build/gemmscope: none from kernels/. */
static void gemmscope_links_nothing_from_kernels(void **state)
{
    (void)state;
    char line[16384] = "";
    FILE *p = popen("make -s --no-print-directory print-gemmscope-objects 2>/dev/null", "r");
    assert_non_null(p);
    size_t n = fread(line, 1, sizeof line - 1, p);
    line[n] = 0;
    assert_int_equal(pclose(p), 0);
    assert_non_null(strstr(line, "analysis/report.o")); /* the list is the link line's */
    if (strstr(line, "kernels/"))
        fail_msg("build/gemmscope links kernel objects: %s", line);
}

/* Whatever the Makefile says: the program's own symbols (defined, text or data) name none of
 * the kernels' host code (nvfp4_*, calib_*, release_*) or the subjects (gs_subject*). */
static void gemmscope_symbols_name_no_kernel(void **state)
{
    (void)state;
    char line[512], bad[2048] = "";
    int symbols = 0;
    FILE *p = popen("nm --defined-only build/gemmscope 2>/dev/null", "r");
    assert_non_null(p);
    while (fgets(line, sizeof line, p)) {
        const char *name = strrchr(line, ' ');
        name = name ? name + 1 : line;
        symbols++;
        if (!strncmp(name, "nvfp4_", 6) || !strncmp(name, "calib_", 6) || !strncmp(name, "release_", 8) ||
            !strncmp(name, "gs_subject", 10)) {
            size_t used = strlen(bad);
            snprintf(bad + used, sizeof bad - used, "%s", name);
        }
    }
    assert_int_equal(pclose(p), 0);
    assert_true(symbols > 100); /* nm read the program */
    if (bad[0])
        fail_msg("build/gemmscope defines kernel symbols:\n%s", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(analysis_includes_nothing_from_kernels),
        cmocka_unit_test(the_include_check_sees_an_include),
        cmocka_unit_test(gemmscope_links_nothing_from_kernels),
        cmocka_unit_test(gemmscope_symbols_name_no_kernel),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
