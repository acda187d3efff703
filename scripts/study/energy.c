#define _POSIX_C_SOURCE 200809L
/* study (not kept): energy, power and SM clock of back-to-back launches (NVML through dlopen):
 * our dual default against the two cuBLAS routes.  No L2 flush between launches. */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernels/nvfp4/nvfp4.h"
#include "kernels/nvfp4/dual.h"
#include "kernels/nvfp4/variants.h"

typedef void *dev_t_;
static int (*p_init)(void);
static int (*p_handle)(unsigned, dev_t_ *);
static int (*p_energy)(dev_t_, unsigned long long *);
static int (*p_clock)(dev_t_, int, unsigned *);
static int (*p_reasons)(dev_t_, unsigned long long *);
static int (*p_power)(dev_t_, unsigned *);
static int (*p_limit)(dev_t_, unsigned *);
static dev_t_ dev;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef int (*launch_fn)(void *, cudaStream_t);
static const nvfp4_variant *g_v;
static int ours(void *p, cudaStream_t s)
{
    gs_buffer none;
    memset(&none, 0, sizeof none);
    return nvfp4_launch(g_v, NVFP4_PROD, (nvfp4_problem *)p, none, s);
}

static void measure(const char *shape, const char *name, launch_fn fn, void *arg)
{
    for (int i = 0; i < 50; i++)
        fn(arg, 0);
    cudaDeviceSynchronize();
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    unsigned long long mj0, mj1;
    p_energy(dev, &mj0);
    const double t0 = now();
    cudaEventRecord(e0, 0);
    long n = 0;
    double clk_sum = 0, pw_sum = 0;
    int polls = 0;
    unsigned long long reasons_or = 0;
    while (now() - t0 < 2.0) {
        for (int i = 0; i < 200; i++)
            fn(arg, 0);
        n += 200;
        unsigned c = 0, pw = 0;
        unsigned long long r = 0;
        p_clock(dev, 1, &c);
        p_power(dev, &pw);
        p_reasons(dev, &r);
        if (now() - t0 > 0.5) { /* after the first half second */
            clk_sum += c;
            pw_sum += pw;
            polls++;
            reasons_or |= r;
        }
    }
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    const double t1 = now();
    p_energy(dev, &mj1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    printf("%s\t%s\t%ld\t%.3f\t%.2f\t%.1f\t%.0f\t%.1f\t0x%llx\n", shape, name, n, 1e3 * ms / n,
           1e3 * (double)(mj1 - mj0) / n, (double)(mj1 - mj0) / (t1 - t0) / 1.0, polls ? clk_sum / polls : 0,
           polls ? pw_sum / polls / 1e3 : 0, reasons_or);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!h) {
        fprintf(stderr, "no nvml\n");
        return 1;
    }
    p_init = (int (*)(void))dlsym(h, "nvmlInit_v2");
    p_handle = (int (*)(unsigned, dev_t_ *))dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
    p_energy = (int (*)(dev_t_, unsigned long long *))dlsym(h, "nvmlDeviceGetTotalEnergyConsumption");
    p_clock = (int (*)(dev_t_, int, unsigned *))dlsym(h, "nvmlDeviceGetClockInfo");
    p_reasons = (int (*)(dev_t_, unsigned long long *))dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
    p_power = (int (*)(dev_t_, unsigned *))dlsym(h, "nvmlDeviceGetPowerUsage");
    p_limit = (int (*)(dev_t_, unsigned *))dlsym(h, "nvmlDeviceGetEnforcedPowerLimit");
    if (!p_init || !p_handle || !p_energy || !p_clock || !p_reasons || !p_power || !p_limit || p_init() ||
        p_handle(0, &dev)) {
        fprintf(stderr, "nvml init failed\n");
        return 1;
    }
    unsigned lim = 0;
    p_limit(dev, &lim);
    printf("# power limit %.0f W; columns: shape, what, launches, us per launch (events), mJ per launch, W (energy/time), SM MHz mean, W mean (polled), clock event reasons OR\n",
           lim / 1e3);
    for (int a = 1; a < argc; a++) {
        nvfp4_shape s;
        char err[256];
        if (nvfp4_dual_shape_parse(argv[a], &s, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        nvfp4_problem *p;
        if (nvfp4_problem_create(&s, NVFP4_DIST_GPUMODE, 1, &p))
            return 1;
        g_v = nvfp4_dual_variant_default(&s);
        nvfp4_dual_cublas *c;
        if (nvfp4_dual_cublas_create(p, &c))
            return 1;
        for (int r = 0; r < 2; r++) {
            measure(argv[a], g_v->name, ours, p);
            measure(argv[a], "cublas_cat", nvfp4_dual_cublas_launch_cat, c);
            measure(argv[a], "cublas_two", nvfp4_dual_cublas_launch_two, c);
        }
        nvfp4_dual_cublas_destroy(c);
        nvfp4_problem_destroy(p);
    }
    return 0;
}
