/* The CPU reference on a sample of the output (reference.h). */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

float og_half_to_float(uint16_t h)
{
    const int sign = h >> 15, exp = h >> 10 & 0x1f, man = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)man, -24); /* subnormal */
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexpf((float)(man | 0x400), exp - 25);
    return sign ? -v : v;
}

int og_sample_index(int i, int count, int extent)
{
    const int block = extent / count;
    return i * block + (i * 37 + 11) % block;
}

/* Rows r of a [rows][k] fp16 matrix on the GPU into `out` as floats, [count][k]. */
static int download_rows(const uint16_t *dev, int k, const int *r, int count, float *out)
{
    uint16_t *row = malloc((size_t)k * sizeof *row);
    if (!row) {
        fprintf(stderr, "own-gemm: out of host memory\n");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        const cudaError_t e = cudaMemcpy(row, dev + (size_t)r[i] * k, (size_t)k * sizeof *row, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            fprintf(stderr, "own-gemm: downloading input rows: %s\n", cudaGetErrorString(e));
            free(row);
            return -1;
        }
        for (int j = 0; j < k; j++)
            out[(size_t)i * k + j] = og_half_to_float(row[j]);
    }
    free(row);
    return 0;
}

int og_reference_init(og_reference *ref, const uint16_t *a_dev, const uint16_t *b_dev, int m, int n, int k)
{
    memset(ref, 0, sizeof *ref);
    ref->m = m;
    ref->n = n;
    ref->k = k;
    for (int i = 0; i < OG_SAMPLE_ROWS; i++)
        ref->rows[i] = og_sample_index(i, OG_SAMPLE_ROWS, m);
    for (int j = 0; j < OG_SAMPLE_COLS; j++)
        ref->cols[j] = og_sample_index(j, OG_SAMPLE_COLS, n);
    float *a = malloc((size_t)OG_SAMPLE_ROWS * k * sizeof *a), *b = malloc((size_t)OG_SAMPLE_COLS * k * sizeof *b);
    ref->want = malloc((size_t)OG_SAMPLE_ROWS * OG_SAMPLE_COLS * sizeof *ref->want);
    ref->c_rows = malloc((size_t)OG_SAMPLE_ROWS * n * sizeof *ref->c_rows);
    int rc = -1;
    if (!a || !b || !ref->want || !ref->c_rows) {
        fprintf(stderr, "own-gemm: out of host memory for the reference\n");
        goto out;
    }
    if (download_rows(a_dev, k, ref->rows, OG_SAMPLE_ROWS, a) || download_rows(b_dev, k, ref->cols, OG_SAMPLE_COLS, b))
        goto out;
    for (int i = 0; i < OG_SAMPLE_ROWS; i++)
        for (int j = 0; j < OG_SAMPLE_COLS; j++) {
            double sum = 0;
            for (int x = 0; x < k; x++)
                sum += (double)a[(size_t)i * k + x] * b[(size_t)j * k + x];
            ref->want[i * OG_SAMPLE_COLS + j] = sum;
        }
    rc = 0;
out:
    free(a);
    free(b);
    if (rc)
        og_reference_free(ref);
    return rc;
}

int og_reference_check(og_reference *ref, const uint16_t *c_dev, og_sample_check *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < OG_SAMPLE_ROWS; i++) {
        const cudaError_t e = cudaMemcpy(ref->c_rows + (size_t)i * ref->n, c_dev + (size_t)ref->rows[i] * ref->n,
                                         (size_t)ref->n * sizeof *ref->c_rows, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            fprintf(stderr, "own-gemm: downloading output rows: %s\n", cudaGetErrorString(e));
            return -1;
        }
    }
    for (int i = 0; i < OG_SAMPLE_ROWS; i++)
        for (int j = 0; j < OG_SAMPLE_COLS; j++) {
            const double want = ref->want[i * OG_SAMPLE_COLS + j];
            const double got = og_half_to_float(ref->c_rows[(size_t)i * ref->n + ref->cols[j]]);
            const double err = fabs(got - want);
            out->checked++;
            if (!(err <= OG_ATOL + OG_RTOL * fabs(want)))
                out->bad++;
            if (err > out->max_abs_err || isnan(err))
                out->max_abs_err = err;
        }
    return 0;
}

void og_reference_free(og_reference *ref)
{
    free(ref->want);
    free(ref->c_rows);
    ref->want = NULL;
    ref->c_rows = NULL;
}
