/* float64 CPU reference for the NVFP4 grouped GEMM, from host copies of the raw
 * FP4 bytes and blocked scales, and the GPU MODE tolerance test.  Pure C11. */
#ifndef NVFP4_REFERENCE_CPU_H
#define NVFP4_REFERENCE_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C[m,n] = sum_k A[m,k]*SFA[m,k/16] * B[n,k]*SFB[n,k/16] in float64 (exact for K <= 2^20:
 * every product has <= 12 significant bits).  A: [M, K/2] bytes, B: [N, K/2] bytes, low
 * nibble = even k; SFA/SFB: whole blocked scale tensors of A and B (format.h). */
double nvfp4_ref_element(const uint8_t *A, const uint8_t *SFA, const uint8_t *B, const uint8_t *SFB,
                         int K, int m, int n);

/* All M x N outputs of one group into out[m*N + n] (for small problems). */
void nvfp4_ref_gemm(const uint8_t *A, const uint8_t *SFA, const uint8_t *B, const uint8_t *SFB, int M,
                    int N, int K, double *out);

/* GPU MODE test: ok when |out-ref| <= 1e-3 + 1e-3*|ref|; a NaN must meet a NaN, an infinity
 * the same infinity.  1 ok, 0 fail. */
int nvfp4_tol_ok(double out, double ref);

/* Same test with another tolerance (atol + rtol*|ref|). */
int nvfp4_tol_ok_with(double out, double ref, double atol, double rtol);

#ifdef __cplusplus
}
#endif
#endif
