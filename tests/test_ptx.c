/* The production build of every kernel source has no timer read and no stamp
 * store; its twin has them.  Compiles the sources to PTX with nvcc (GS_NVCC). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GS_EXTRA_KERNELS
#define GS_EXTRA_KERNELS
#endif

#ifndef GS_NVCC
#define GS_NVCC "nvcc"
#endif


/* Compiles src to PTX (twin or not) and returns the text (malloc'd). */
static char *ptx_of(const char *src, int twin)
{
    char out[512], cmd[2048];
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(out, sizeof out, "%s/%s.%s.ptx", dir, base, twin ? "twin" : "prod");
    snprintf(cmd, sizeof cmd,
             "%s -std=c++17 -O3 -I. -gencode=arch=compute_90a,code=compute_90a %s -ptx %s -o %s",
             GS_NVCC, twin ? "-DGS_TWIN=1" : "", src, out);
    if (system(cmd) != 0)
        fail_msg("nvcc failed: %s", cmd);
    FILE *f = fopen(out, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The probe uses every macro around one store of its own. */
static void probe_production_has_no_stamps(void **state)
{
    (void)state;
    char *prod = ptx_of("tests/probe_kernel.cu", 0), *twin = ptx_of("tests/probe_kernel.cu", 1);
    assert_int_equal(count(prod, "%globaltimer"), 0);
    assert_int_equal(count(prod, "%clock64"), 0);
    assert_int_equal(count(prod, "%smid"), 0);
    assert_int_equal(count(prod, "st.global"), 1);
    assert_non_null(strstr(prod, "probe_kernel_prod"));
    assert_true(count(twin, "%globaltimer") > 0);
    assert_true(count(twin, "%clock64") > 0);
    assert_true(count(twin, "st.global") > 1);
    assert_non_null(strstr(twin, "probe_kernel_twin"));
    free(prod);
    free(twin);
}

/* Every kernel source: the production PTX never reads %globaltimer or %smid
 * (only stamps do; a kernel may read clock64 for its own reasons, as the
 * calibration kernel's spin loops do). */
static void kernels_production_has_no_timer_reads(void **state)
{
    (void)state;
    const char *srcs[] = {"kernels/calib.cu", GS_EXTRA_KERNELS NULL};
    for (int i = 0; srcs[i]; i++) {
        char *prod = ptx_of(srcs[i], 0), *twin = ptx_of(srcs[i], 1);
        if (count(prod, "%globaltimer") || count(prod, "%smid"))
            fail_msg("%s: production PTX reads a timer", srcs[i]);
        if (!count(twin, "%globaltimer"))
            fail_msg("%s: twin PTX has no stamps", srcs[i]);
        free(prod);
        free(twin);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probe_production_has_no_stamps),
        cmocka_unit_test(kernels_production_has_no_timer_reads),
    };
    return cmocka_run_group_tests_name("ptx", tests, tmpdir_setup, tmpdir_teardown);
}
