/* The null twin: the production points of gemm.cu compiled once more, as production, under a
 * launcher of their own (nvfp4_gemm_launch_null).  Linked into nvfp4-bench only, which times it
 * as the twin is launched: it costs nothing, so its ratio over production is what the timing
 * resolves (docs/method.md, "Twin overhead"). */
#define NVFP4_POINT_LIST NVFP4_PRODUCTION_POINTS
#define NVFP4_DUAL_POINT_LIST NVFP4_DUAL_PRODUCTION_POINTS
#define NVFP4_LAUNCHER nvfp4_gemm_launch_null
#include "gemm.cu"
