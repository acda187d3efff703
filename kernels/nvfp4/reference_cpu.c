/* float64 CPU reference (see reference_cpu.h). */
#include "reference_cpu.h"

#include <math.h>
#include <stddef.h>

#include "format.h"

/* Element k of a K-major FP4 row: byte k/2, low nibble for even k. */
static unsigned fp4_code(const uint8_t *row, int k)
{
    uint8_t b = row[k / 2];
    return (k & 1) ? (unsigned)(b >> 4) : (unsigned)(b & 0xF);
}

double nvfp4_ref_element(const uint8_t *A, const uint8_t *SFA, const uint8_t *B, const uint8_t *SFB,
                         int K, int m, int n)
{
    const uint8_t *a = A + (size_t)m * (size_t)(K / 2);
    const uint8_t *b = B + (size_t)n * (size_t)(K / 2);
    double acc = 0.0;
    for (int j = 0; j < K / 16; j++) {
        double sa = nvfp4_e4m3_decode(SFA[nvfp4_sf_offset(m, j, K)]);
        double sb = nvfp4_e4m3_decode(SFB[nvfp4_sf_offset(n, j, K)]);
        for (int k = 16 * j; k < 16 * j + 16; k++)
            acc += (nvfp4_e2m1_decode(fp4_code(a, k)) * sa) * (nvfp4_e2m1_decode(fp4_code(b, k)) * sb);
    }
    return acc;
}

void nvfp4_ref_gemm(const uint8_t *A, const uint8_t *SFA, const uint8_t *B, const uint8_t *SFB, int M,
                    int N, int K, double *out)
{
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            out[(size_t)m * (size_t)N + (size_t)n] = nvfp4_ref_element(A, SFA, B, SFB, K, m, n);
}

int nvfp4_tol_ok_with(double out, double ref, double atol, double rtol)
{
    if (isnan(ref) || isnan(out))
        return isnan(ref) && isnan(out);
    if (isinf(ref) || isinf(out))
        return out == ref;
    return fabs(out - ref) <= atol + rtol * fabs(ref);
}

int nvfp4_tol_ok(double out, double ref)
{
    return nvfp4_tol_ok_with(out, ref, 1e-3, 1e-3);
}
