/* The gated dual GEMM's evidence points (points.h), as gemm_evidence.cu holds the grouped
 * GEMM's: launchers nvfp4_gemm_dual_evidence_launch_prod / _twin / _detail, built only by
 * `make nvfp4-evidence` (evidence_none.c otherwise). */
#define NVFP4_POINT_LIST(X)
#define NVFP4_DUAL_POINT_LIST NVFP4_DUAL_EVIDENCE_POINTS
#define NVFP4_LAUNCHER GS_SYM(nvfp4_gemm_dual_evidence_launch)
#include "gemm.cu"
