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


/* The nvcc command that compiles src to PTX (twin or not) into out. */
static void ptx_command(const char *src, int twin, char *out, size_t outlen, char *cmd, size_t cmdlen)
{
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(out, outlen, "%s/%s.%s.ptx", dir, base, twin ? "twin" : "prod");
    snprintf(cmd, cmdlen, "%s -std=c++17 -O3 -I. -gencode=arch=compute_90a,code=compute_90a %s -ptx %s -o %s",
             GS_NVCC, twin ? "-DGS_TWIN=1" : "", src, out);
}

/* Compiles every source both ways at once (the sources are independent and nvcc is the test's
 * whole time); a compilation that fails leaves no file, and ptx_of then runs it again alone
 * and reports it. */
static void ptx_prebuild(const char *const *srcs)
{
    char cmd[8192] = "", one[1024], out[512];
    size_t used = 0;
    for (int i = 0; srcs[i]; i++)
        for (int twin = 0; twin < 2; twin++) {
            ptx_command(srcs[i], twin, out, sizeof out, one, sizeof one);
            const int n = snprintf(cmd + used, sizeof cmd - used, "(%s) >/dev/null 2>&1 & ", one);
            if (n < 0 || (size_t)n >= sizeof cmd - used)
                return; /* too long: each compiles alone in ptx_of */
            used += (size_t)n;
        }
    if (used + 5 < sizeof cmd) {
        strcat(cmd, "wait");
        if (system(cmd) == -1)
            return;
    }
}

/* src's PTX (twin or not), compiled unless ptx_prebuild made it; the text (malloc'd). */
static char *ptx_of(const char *src, int twin)
{
    char out[512], cmd[2048];
    ptx_command(src, twin, out, sizeof out, cmd, sizeof cmd);
    if (access(out, R_OK) != 0 && system(cmd) != 0)
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

/* The PTX of one kernel entry of a module: from its ".entry NAME" to the next entry (a copy). */
static char *entry_of(const char *ptx, const char *name)
{
    char key[256];
    snprintf(key, sizeof key, ".entry %s(", name);
    const char *a = strstr(ptx, key);
    if (!a)
        return NULL;
    const char *b = strstr(a + 1, ".entry ");
    const size_t n = b ? (size_t)(b - a) : strlen(a);
    char *out = malloc(n + 1);
    memcpy(out, a, n);
    out[n] = 0;
    return out;
}

/* Every kernel of every source: the production PTX never reads %globaltimer or %smid (only
 * stamps do; a kernel may read clock64 for its own reasons, as the calibration kernel's spin
 * loops do), except a calibration workload that reads the globaltimer itself (the clock
 * kernel's naps and probes): there the twin must read it more often than production does. */
static void kernels_production_has_no_timer_reads(void **state)
{
    (void)state;
    const char *srcs[] = {"kernels/calib.cu", GS_EXTRA_KERNELS NULL};
    static const char *const workloads[] = {"clock_kernel"}; /* by design, in every build */
    ptx_prebuild(srcs);
    for (int i = 0; srcs[i]; i++) {
        char *prod = ptx_of(srcs[i], 0), *twin = ptx_of(srcs[i], 1);
        int entries = 0;
        for (const char *p = prod; (p = strstr(p, ".entry ")); p++) {
            char name[200];
            if (sscanf(p, ".entry %199[A-Za-z0-9_$](", name) != 1)
                continue;
            entries++;
            char *e = entry_of(prod, name);
            int workload = 0;
            for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++)
                workload |= strstr(name, workloads[w]) != NULL;
            if (count(e, "%smid"))
                fail_msg("%s: production kernel %s reads %%smid", srcs[i], name);
            if (!workload && count(e, "%globaltimer"))
                fail_msg("%s: production kernel %s reads the globaltimer", srcs[i], name);
            if (workload) {
                char twin_name[256];
                snprintf(twin_name, sizeof twin_name, "%.*s_twin%s", (int)(strstr(name, "_prod") - name), name,
                         strstr(name, "_prod") + 5);
                char *t = entry_of(twin, twin_name);
                if (!t || count(t, "%globaltimer") <= count(e, "%globaltimer"))
                    fail_msg("%s: twin of %s stamps no more than production reads the timer", srcs[i], name);
                free(t);
            }
            free(e);
        }
        if (!entries)
            fail_msg("%s: no kernel entry in its production PTX", srcs[i]);
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
