/* Linked with the evidence points' objects (gemm_evidence.cu, gemm_dual_evidence.cu): this
 * program holds them (evidence_none.c says the opposite). */
#include "variants.h"

int nvfp4_evidence_built(void)
{
    return 1;
}
