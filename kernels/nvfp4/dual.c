/* The gated dual GEMM's host-only parts (see dual.h). */
#include "dual.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "reference_cpu.h"

typedef struct {
    const char *name;
    int m, n, k;
} dual_entry;

/* The four benchmarks, then the nine tests (shared/notes/problem.md, in its order). */
static const dual_entry k_dual[] = {
    {"d256n4096k7168", 256, 4096, 7168}, {"d256n3072k4096", 256, 3072, 4096}, {"d512n4096k7168", 512, 4096, 7168},
    {"d512n3072k7168", 512, 3072, 7168}, {"dt0", 1536, 512, 7168},           {"dt1", 256, 512, 256},
    {"dt2", 3072, 1024, 1536},           {"dt3", 7168, 1024, 256},           {"dt4", 7168, 2304, 2048},
    {"dt5", 4608, 384, 7168},            {"dt6", 7168, 384, 2304},           {"dt7", 512, 768, 7168},
    {"dt8", 4096, 768, 512},
};
#define N_DUAL ((int)(sizeof k_dual / sizeof k_dual[0]))
#define DIM_MAX 65536
#define PREFIX "dual:"

void nvfp4_dual_shape_names(char *buf, size_t len)
{
    size_t used = 0;
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < N_DUAL && nvfp4_name_append(buf, len, &used, k_dual[i].name) == 0; i++)
        ;
}

/* One line: what went wrong, then the names and the syntax. */
static void set_err(char *err, size_t errlen, const char *spec, const char *why)
{
    char names[256];
    if (!err || errlen == 0)
        return;
    nvfp4_dual_shape_names(names, sizeof names);
    snprintf(err, errlen,
             "bad dual shape '%s': %s; valid names: %s; or custom '" PREFIX "m=M;n=N;k=K' (one value each, M >= 1, "
             "N a multiple of %d, K a multiple of %d, each <= %d)",
             spec ? spec : "(null)", why, names, NVFP4_DUAL_N_STEP, NVFP4_DUAL_K_STEP, DIM_MAX);
}

static void make(nvfp4_shape *s, const char *name, int m, int n, int k)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->groups = 1;
    s->dual = 1;
    s->m[0] = m;
    s->n[0] = n;
    s->k[0] = k;
}

/* The kernel's rules (dual.h): 0, or -1 with the reason in why. */
static int validate(int m, int n, int k, char *why, size_t whylen)
{
    if (m < 1 || m > DIM_MAX) {
        snprintf(why, whylen, "M=%d not in 1..%d", m, DIM_MAX);
        return -1;
    }
    if (n < NVFP4_DUAL_N_STEP || n > DIM_MAX || n % NVFP4_DUAL_N_STEP) {
        snprintf(why, whylen, "N=%d must be a multiple of %d in %d..%d (64-column tiles must not straddle the end)", n,
                 NVFP4_DUAL_N_STEP, NVFP4_DUAL_N_STEP, DIM_MAX);
        return -1;
    }
    if (k < NVFP4_DUAL_K_STEP || k > DIM_MAX || k % NVFP4_DUAL_K_STEP) {
        snprintf(why, whylen, "K=%d must be a multiple of %d in %d..%d (the kernels step K by 256 = four 512-byte "
                 "scale atoms)", k, NVFP4_DUAL_K_STEP, NVFP4_DUAL_K_STEP, DIM_MAX);
        return -1;
    }
    return 0;
}

int nvfp4_dual_shape_parse(const char *spec, nvfp4_shape *out, char *err, size_t errlen)
{
    char why[200];
    nvfp4_shape s;
    if (err && errlen)
        err[0] = '\0';
    if (!spec || !out) {
        set_err(err, errlen, spec, "no spec given");
        return -1;
    }
    for (int i = 0; i < N_DUAL; i++)
        if (strcmp(spec, k_dual[i].name) == 0) {
            make(out, k_dual[i].name, k_dual[i].m, k_dual[i].n, k_dual[i].k);
            return 0;
        }
    if (strncmp(spec, PREFIX, strlen(PREFIX)) != 0) {
        set_err(err, errlen, spec, "unknown name");
        return -1;
    }
    /* the grouped GEMM's list syntax after the prefix, one value per key */
    if (nvfp4_shape_parse_custom(spec + strlen(PREFIX), &s, why, sizeof why) != 0) {
        set_err(err, errlen, spec, why);
        return -1;
    }
    if (s.groups != 1) {
        set_err(err, errlen, spec, "one value per key (the dual GEMM has one A and one group)");
        return -1;
    }
    if (validate(s.m[0], s.n[0], s.k[0], why, sizeof why) != 0) {
        set_err(err, errlen, spec, why);
        return -1;
    }
    make(out, strlen(spec) < sizeof out->name ? spec : "dual:custom", s.m[0], s.n[0], s.k[0]);
    return 0;
}

double nvfp4_dual_flops(const nvfp4_shape *s)
{
    return 4.0 * (double)s->m[0] * (double)s->n[0] * (double)s->k[0];
}

double nvfp4_dual_min_bytes(const nvfp4_shape *s)
{
    const double M = s->m[0], N = s->n[0], K = s->k[0];
    const double Mp = nvfp4_pad_rows(s->m[0]), Np = nvfp4_pad_rows(s->n[0]);
    return M * K / 2.0 + 2.0 * N * K / 2.0 /* FP4 A, B1, B2 */
           + Mp * K / 16.0 + 2.0 * Np * K / 16.0 /* e4m3 scales incl. padding rows */
           + M * N * 2.0;                         /* fp16 C once */
}

double nvfp4_e4m3_rms(int cap)
{
    double sum = 0.0;
    if (cap < 0)
        return 0.0;
    for (int c = 0; c <= cap; c++) {
        const double v = nvfp4_e4m3_decode((unsigned)c);
        sum += v * v;
    }
    return sqrt(sum / (cap + 1));
}

int nvfp4_dual_full_cap_code(int K)
{
    /* E[v^2] of the 16 FP4 codes: (0 + 0.25 + 1 + 2.25 + 4 + 9 + 16 + 36) / 8 */
    const double ev2 = 68.5 / 8.0, per = sqrt((double)(K > 0 ? K : 1)) * ev2 * nvfp4_e4m3_rms(NVFP4_DUAL_NARROW_CAP);
    int best = NVFP4_DUAL_NARROW_CAP;
    for (int c = NVFP4_DUAL_NARROW_CAP + 1; c <= 0x7E; c++) /* 0x7F is NaN */
        if (per * nvfp4_e4m3_rms(c) <= NVFP4_DUAL_FULL_SIGMA)
            best = c;
    return best;
}

double nvfp4_silu_mul(double g, double u)
{
    return g / (1.0 + exp(-g)) * u;
}

double nvfp4_dual_ref_element(const uint8_t *A, const uint8_t *SFA, const uint8_t *B1, const uint8_t *SFB1,
                              const uint8_t *B2, const uint8_t *SFB2, int K, int m, int n)
{
    return nvfp4_silu_mul(nvfp4_ref_element(A, SFA, B1, SFB1, K, m, n), nvfp4_ref_element(A, SFA, B2, SFB2, K, m, n));
}

int nvfp4_dual_bf16_route_ok(double got, double want, double g, double u)
{
    const double sig = 1.0 / (1.0 + exp(-g)), silu = g * sig, dsilu = sig * (1.0 + g * (1.0 - sig));
    const double slack = 2.0 * ldexp(fabs(u) * (fabs(g * dsilu) + fabs(silu)), -8);
    return fabs(got - want) <= 1e-2 + 1e-2 * fabs(want) + slack; /* false for any NaN */
}
