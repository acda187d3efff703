/* The gated dual GEMM (GPU MODE "nvfp4_dual_gemm"): C = silu(A B1^T) * (A B2^T), A M x K,
 * B1 and B2 N x K, FP4 e2m1 with e4m3 scales per 16 elements (blocked layout, format.h), both
 * GEMMs and silu(x) = x / (1 + exp(-x)) and the product in fp32, C M x N fp16 row-major.  The
 * part that needs no CUDA headers: shapes, flops and bytes, the full distribution's scale cap,
 * the float64 reference.  Pure C11.  A dual shape is an nvfp4_shape with dual = 1 and one
 * group (m[0], n[0], k[0]). */
#ifndef NVFP4_DUAL_H
#define NVFP4_DUAL_H

#include <stddef.h>
#include <stdint.h>

#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernel needs of a dual shape: N a multiple of 64 (the 64-column tiles; points
 * with 128 columns per CTA refuse an N that is not a multiple of 128), K a multiple of 256
 * (as the grouped GEMM's), each of M, N, K at most 65536. */
#define NVFP4_DUAL_N_STEP 64
#define NVFP4_DUAL_K_STEP 256

/* Parse a registered name (d256n4096k7168 d256n3072k4096 d512n4096k7168 d512n3072k7168,
 * name = d<M>n<N>k<K>; the tests dt0..dt8) or a custom spec "dual:m=M;n=N;k=K" (keys in any
 * order, each once, one value each).  0 ok; -1 with a one-line reason (and the valid names
 * and syntax) in err. */
int nvfp4_dual_shape_parse(const char *spec, nvfp4_shape *out, char *err, size_t errlen);
/* Space-separated registered names, "d256n4096k7168 ... dt8" (whole names, truncated to len). */
void nvfp4_dual_shape_names(char *buf, size_t len);
/* 4 M N K: two GEMMs. */
double nvfp4_dual_flops(const nvfp4_shape *s);
/* Bytes a perfect kernel must move: A, B1, B2 and their scales as stored (rows padded to
 * 128), C written once. */
double nvfp4_dual_min_bytes(const nvfp4_shape *s);

/* The "full" distribution's largest scale code of B1 and B2 for depth K (A's scales are
 * codes 0..0x08: zero, the subnormals and 2^-6; all 16 FP4 codes, random signs): the largest
 * e4m3 code c such that the typical GEMM value sqrt(K) E[v^2] rms(SFA) rms(SFB(c)) stays at
 * most NVFP4_DUAL_FULL_SIGMA.  The product of the two GEMMs amplifies each one's fp32
 * accumulation error by the other's magnitude, so the distribution keeps both near 8 whatever
 * K is (a worst-case bound would leave outputs below the 1e-3 tolerance at K = 7168), and an
 * overflow of fp16 needs a product of two values some tens of sigma out. */
#define NVFP4_DUAL_FULL_SIGMA 8.0
#define NVFP4_DUAL_NARROW_CAP 0x08
int nvfp4_dual_full_cap_code(int K);
/* The root mean square of the e4m3 values of codes 0..cap (uniform codes). */
double nvfp4_e4m3_rms(int cap);

/* The check of a cuBLAS route's element (dual_anchor.cu): got against the reference want,
 * where the route rounded g = A B1^T and u = A B2^T to bf16 (relative error <= 2^-8 each;
 * g and u here are the rounded values) before silu(g) * u.  1 when |got - want| <= 1e-2 +
 * 1e-2 |want| + 2 * 2^-8 |u| (|g silu'(g)| + |silu(g)|), what those roundings can move it;
 * 0 otherwise, and for any NaN. */
int nvfp4_dual_bf16_route_ok(double got, double want, double g, double u);

/* silu(g) * u = g / (1 + exp(-g)) * u, in float64. */
double nvfp4_silu_mul(double g, double u);
/* silu(A B1^T)[m,n] * (A B2^T)[m,n] in float64 from host copies of the raw FP4 bytes and the
 * whole blocked scale tensors (reference_cpu.h for the layout). */
double nvfp4_dual_ref_element(const uint8_t *A, const uint8_t *SFA, const uint8_t *B1, const uint8_t *SFB1,
                              const uint8_t *B2, const uint8_t *SFB2, int K, int m, int n);

#ifdef __cplusplus
}
#endif
#endif
