/* NVFP4 shapes and input distributions: the part of the nvfp4 API that needs no CUDA
 * headers (shapes.c).  Included by nvfp4.h. */
#ifndef NVFP4_SHAPES_H
#define NVFP4_SHAPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NVFP4_MAX_GROUPS 16

typedef struct nvfp4_shape {
    char name[64];
    int groups;
    int m[NVFP4_MAX_GROUPS], n[NVFP4_MAX_GROUPS], k[NVFP4_MAX_GROUPS];
    int dual; /* 1: the gated dual GEMM C = silu(A B1^T) * (A B2^T), one group (dual.h) */
} nvfp4_shape;

/* Parse a registered name (g8k7168 g8k2048 g2k4096 g2k1536 t0..t9) or a custom spec
 * "m=96,128;n=128,256;k=256,512" (one value broadcasts; G = longest list).
 * 0 ok; -1 with a one-line reason (and the valid names + syntax) in err. */
int nvfp4_shape_parse(const char *spec, nvfp4_shape *out, char *err, size_t errlen);
/* The custom syntax alone, without the grouped GEMM's rules on M, N and K: the lists into
 * out (dual = 0, name = spec or "custom"), or -1 with the reason (no names) in why. */
int nvfp4_shape_parse_custom(const char *spec, nvfp4_shape *out, char *why, size_t whylen);
/* Appends name to the space-separated list in buf (len bytes, *used of them taken), whole
 * names only: 0, or -1 when it does not fit (buf unchanged). */
int nvfp4_name_append(char *buf, size_t len, size_t *used, const char *name);
/* Space-separated registered names, "g8k7168 g8k2048 ... t9" (truncated to len). */
void nvfp4_shape_names(char *buf, size_t len);
/* 2 * sum_g M_g*N_g*K_g. */
double nvfp4_shape_flops(const nvfp4_shape *s);
/* Bytes a perfect kernel must move: A, B, SFA and SFB as stored (rows padded to 128),
 * C written once.  (problem.md's B200 speed-of-light fit counts SFA unpadded.) */
double nvfp4_shape_min_bytes(const nvfp4_shape *s);

/* ---- input distributions ---- */

typedef enum nvfp4_dist { NVFP4_DIST_GPUMODE = 0, NVFP4_DIST_FULL = 1 } nvfp4_dist;
/* "gpumode" or "full" -> 0; anything else -> -1. */
int nvfp4_dist_parse(const char *s, nvfp4_dist *out);
/* "gpumode" / "full" / "?" */
const char *nvfp4_dist_name(nvfp4_dist d);

#ifdef __cplusplus
}
#endif
#endif
