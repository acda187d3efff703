/* The CPU reference on a sample of the output: OG_SAMPLE_ROWS rows x OG_SAMPLE_COLS columns
 * spread over every tile row and column, each element an exact sum in double of the fp16
 * inputs the GPU holds. */
#ifndef OG_REFERENCE_H
#define OG_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#define OG_SAMPLE_ROWS 64
#define OG_SAMPLE_COLS 64
/* fp16 output of an fp32 accumulation: |got - want| <= OG_ATOL + OG_RTOL |want| */
#define OG_ATOL 1e-2
#define OG_RTOL 1e-2

typedef struct og_reference {
    int m, n, k;
    int rows[OG_SAMPLE_ROWS], cols[OG_SAMPLE_COLS];
    double *want;     /* [OG_SAMPLE_ROWS][OG_SAMPLE_COLS] */
    uint16_t *c_rows; /* host copy of the sampled output rows, [OG_SAMPLE_ROWS][n] */
} og_reference;

typedef struct og_sample_check {
    long long checked, bad; /* bad: out of tolerance, or not a number */
    double max_abs_err;
} og_sample_check;

/* The i-th of `count` sampled indices in [0, extent): one per extent / count block, at an
 * offset that changes from block to block (so the sample meets every warp and lane position);
 * extent a multiple of count. */
int og_sample_index(int i, int count, int extent);

/* Downloads the sampled rows of A ([m][k]) and B ([n][k]) and computes the reference; -1 with a
 * message on stderr. */
int og_reference_init(og_reference *ref, const uint16_t *a_dev, const uint16_t *b_dev, int m, int n, int k);
/* Downloads the sampled rows of an output C ([m][n]) and compares. */
int og_reference_check(og_reference *ref, const uint16_t *c_dev, og_sample_check *out);
void og_reference_free(og_reference *ref);

/* fp16 bits to float (subnormals, infinities and NaN included). */
float og_half_to_float(uint16_t h);

#endif
