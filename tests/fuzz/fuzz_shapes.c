/* libFuzzer: a shape name or custom spec as `gemmscope record NAME` hands it to the NVFP4
 * subject's parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    free(spec);
    return 0;
}
