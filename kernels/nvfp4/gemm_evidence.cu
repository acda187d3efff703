/* The grouped GEMM's evidence points (points.h): the kernel of gemm.cu instantiated for them,
 * with a launcher of their own (nvfp4_gemm_evidence_launch_prod / _twin / _detail).  Built only
 * by `make nvfp4-evidence`, for the programs that run them; the others link evidence_none.c.
 * The dual GEMM's evidence points are gemm_dual_evidence.cu's: two translation units build in
 * parallel. */
#define NVFP4_POINT_LIST NVFP4_EVIDENCE_POINTS
#define NVFP4_DUAL_POINT_LIST(X)
#define NVFP4_LAUNCHER GS_SYM(nvfp4_gemm_evidence_launch)
#include "gemm.cu"
