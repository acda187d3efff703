/* libFuzzer: a shape name or custom spec as `gemmscope record NAME` hands it to the NVFP4
 * subjects' parsers, the grouped GEMM's and the dual GEMM's; an accepted dual shape must keep
 * the kernel's rules (dual.h), else the harness aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/nvfp4/dual.h"
#include "kernels/nvfp4/shapes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = malloc(size + 1), err[1024];
    nvfp4_shape s;
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = 0;
    if (nvfp4_shape_parse(spec, &s, err, sizeof err) == 0) {
        /* what the recorder computes from an accepted shape */
        (void)nvfp4_shape_flops(&s);
        (void)nvfp4_shape_min_bytes(&s);
    }
    if (nvfp4_dual_shape_parse(spec, &s, err, sizeof err) == 0) {
        if (!s.dual || s.groups != 1 || s.m[0] < 1 || s.n[0] < NVFP4_DUAL_N_STEP || s.n[0] % NVFP4_DUAL_N_STEP ||
            s.k[0] < NVFP4_DUAL_K_STEP || s.k[0] % NVFP4_DUAL_K_STEP || s.m[0] > 65536 || s.n[0] > 65536 ||
            s.k[0] > 65536)
            abort();
        (void)nvfp4_dual_flops(&s);
        (void)nvfp4_dual_min_bytes(&s);
    } else if (!memchr(err, 0, sizeof err) || !err[0]) {
        abort(); /* a refusal always says why, in one string */
    }
    free(spec);
    return 0;
}
