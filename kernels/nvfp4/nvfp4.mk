# NVFP4 grouped GEMM and gated dual GEMM sources (paths relative to the repository root).
# Variables only.
# NVFP4_HOST_C:   pure C11, no CUDA headers (also what tests/test_nvfp4.c links with).
# NVFP4_CUDA_C:   C11 that includes CUDA headers (-I$(CUDA)/include), no device code.
# NVFP4_CU:       .cu compiled once.
# NVFP4_KERNEL_CU: .cu compiled three times: production, -DGS_TWIN=1 (twin) and -DGS_TWIN=2
#                 (detail twin); gemm.cu holds the production points (points.h).
# NVFP4_EVIDENCE_CU: the evidence points (points.h), compiled the same three ways, but only
#                 for `make nvfp4-evidence`; programs built without them link
#                 NVFP4_EVIDENCE_NONE (C with CUDA headers) instead; those with them link
#                 NVFP4_EVIDENCE_BUILT (pure C; nvfp4_evidence_built() says which).
# NVFP4_NULL_CU:  gemm.cu's production points compiled once more as production under a launcher
#                 of their own (the null twin), for nvfp4-bench only.
# NVFP4_HEADERS:  what all of the above include (for dependencies).
# NVFP4_LIBS:     extra link libraries (cudart is assumed; libcuda is NOT needed:
#                 cuTensorMapEncodeTiled is reached through cudaGetDriverEntryPointByVersion).
NVFP4_HOST_C    := kernels/nvfp4/format.c kernels/nvfp4/shapes.c kernels/nvfp4/reference_cpu.c \
                   kernels/nvfp4/variants.c kernels/nvfp4/schedule.c kernels/nvfp4/dual.c
NVFP4_CUDA_C    := kernels/nvfp4/inputs.c
NVFP4_CU        := kernels/nvfp4/problem.cu kernels/nvfp4/tokens.cu kernels/nvfp4/cublas_anchor.cu \
                   kernels/nvfp4/dual_anchor.cu
NVFP4_KERNEL_CU := kernels/nvfp4/gemm.cu
NVFP4_EVIDENCE_CU := kernels/nvfp4/gemm_evidence.cu kernels/nvfp4/gemm_dual_evidence.cu
NVFP4_NULL_CU   := kernels/nvfp4/gemm_null.cu
NVFP4_EVIDENCE_NONE := kernels/nvfp4/evidence_none.c
NVFP4_EVIDENCE_BUILT := kernels/nvfp4/evidence_built.c
NVFP4_HEADERS   := kernels/nvfp4/nvfp4.h kernels/nvfp4/shapes.h kernels/nvfp4/format.h kernels/nvfp4/dual.h \
                   kernels/nvfp4/reference_cpu.h kernels/nvfp4/nvfp4_internal.h kernels/nvfp4/ptx.cuh kernels/nvfp4/dequant.cuh \
                   kernels/nvfp4/variants.h kernels/nvfp4/schedule.h kernels/nvfp4/points.h kernels/nvfp4/inputs.h \
                   instrument/gs_format.h instrument/gs_stamp.cuh
NVFP4_SELFCHECK := kernels/nvfp4/selfcheck.c
NVFP4_LIBS      := -lcublas -lm
