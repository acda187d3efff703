/* The evidence points' launchers in a program built without them (gemm_evidence.cu and
 * gemm_dual_evidence.cu hold the real ones): each refuses, and says how to build the point. */
#include <stdio.h>

#include "nvfp4_internal.h"
#include "variants.h"

int nvfp4_evidence_built(void)
{
    return 0;
}

static int not_built(const nvfp4_variant *v)
{
    fprintf(stderr, "nvfp4: %s is an evidence point, not built into this program (`make nvfp4-evidence` builds it)\n",
            v ? v->name : "(null)");
    return (int)cudaErrorNotSupported;
}

#define NOT_BUILT(launcher)                                                                                   \
    int launcher(const nvfp4_variant *v, const nvfp4_kparams *kp, gs_buffer stamps, cudaStream_t s)           \
    {                                                                                                         \
        (void)kp, (void)stamps, (void)s;                                                                      \
        return not_built(v);                                                                                  \
    }
NOT_BUILT(nvfp4_gemm_evidence_launch_prod)
NOT_BUILT(nvfp4_gemm_evidence_launch_twin)
NOT_BUILT(nvfp4_gemm_evidence_launch_detail)
NOT_BUILT(nvfp4_gemm_dual_evidence_launch_prod)
NOT_BUILT(nvfp4_gemm_dual_evidence_launch_twin)
NOT_BUILT(nvfp4_gemm_dual_evidence_launch_detail)
