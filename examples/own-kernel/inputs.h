/* GPU helpers of the host program (inputs.cu, compiled once): deterministic inputs and the
 * element-by-element comparison of two fp16 outputs. */
#ifndef OG_INPUTS_H
#define OG_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bits an output element has before any kernel wrote it (a NaN no computation produces here). */
#define OG_POISON_BYTE 0xFF
#define OG_POISON_BITS 0xFFFFu

/* Fills n fp16 values, multiples of 1/128 in [-1, 1), from (seed, index) alone; 0 or a
 * cudaError_t. */
int og_fill_inputs(uint16_t *dst, size_t n, uint32_t seed, cudaStream_t s);

typedef struct og_compare_counts {
    unsigned long long bad;       /* |got - want| > atol + rtol |want|, or not a number */
    unsigned long long unwritten; /* still the poison bits */
} og_compare_counts;

/* Compares n outputs against `want` on the GPU and waits for the counts; 0 or a cudaError_t. */
int og_compare_outputs(const uint16_t *got, const uint16_t *want, size_t n, float atol, float rtol,
                       og_compare_counts *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
