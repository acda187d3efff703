/* launch-cost: what a launch costs in the toolkit's own timing (gs_timing.h: L2 flushed by a
 * memset, then CUDA events around the launch), as a function of the kernel's parameter
 * size.  The NVFP4 GEMM takes 7552 bytes of parameters with CUDA 13's headers (its tensor
 * maps and group tables; 7936 before the token pointers were given once), 1920 on problems
 * of at most four groups (gemm.cu, narrow_kparams); its reports show 3.3-3.8 us between the events and the span of its kernels (the launch
 * sequence, CUPTI activity).  Each row launches a kernel that does nothing, on the GEMM's
 * grid (one CTA of 384 threads per SM), so the time is the launch and the events alone.
 *
 * Usage: launch-cost [--reps N]    prints: param_bytes  median_us  min_us  max_us */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "gs_args.h"
#include "gs_timing.h"
}

namespace {

template <int BYTES> struct blob {
    unsigned char b[BYTES];
};

/* Reads one byte of its parameters (so they are not dropped) and writes nothing. */
template <int BYTES> __global__ void __launch_bounds__(384, 1) idle_kernel(const __grid_constant__ blob<BYTES> p)
{
    if (p.b[threadIdx.x % BYTES] == 0xA5 && threadIdx.x == 1024)
        asm volatile("trap;");
}

struct launch_arg {
    int sms;
};

template <int BYTES> int launch(void *arg, cudaStream_t s)
{
    blob<BYTES> p;
    memset(&p, 0, sizeof p);
    idle_kernel<BYTES><<<((launch_arg *)arg)->sms, 384, 0, s>>>(p);
    return (int)cudaGetLastError();
}

template <int BYTES> int row(launch_arg *a, const gs_l2_flusher *f, int reps)
{
    gs_timing t;
    if (gs_time_launches(launch<BYTES>, a, 0, f, 10, reps, &t)) {
        fprintf(stderr, "launch-cost: timing %d-byte launches failed\n", BYTES);
        return 1;
    }
    printf("%d\t%.3f\t%.3f\t%.3f\n", BYTES, 1e3 * t.median_ms, 1e3 * t.min_ms, 1e3 * t.max_ms);
    gs_timing_free(&t);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    long reps = 200;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc && !gs_parse_long(argv[i + 1], 1, 100000, &reps)) {
            i++;
        } else {
            fprintf(stderr, "usage: %s [--reps N]  (N from 1 to 100000)\n", argv[0]);
            return 2;
        }
    }
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        fprintf(stderr, "launch-cost: no CUDA device\n");
        return 1;
    }
    gs_l2_flusher f;
    if (gs_l2_flusher_init(&f, dev))
        return 1;
    launch_arg a = {sms};
    printf("param_bytes\tmedian_us\tmin_us\tmax_us\n");
    int bad = row<64>(&a, &f, (int)reps) || row<1024>(&a, &f, (int)reps) || row<1920>(&a, &f, (int)reps) ||
              row<4096>(&a, &f, (int)reps) ||
              row<7552>(&a, &f, (int)reps) || row<7936>(&a, &f, (int)reps) || row<16384>(&a, &f, (int)reps);
    gs_l2_flusher_free(&f);
    return bad;
}
