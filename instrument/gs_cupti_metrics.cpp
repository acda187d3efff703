/* Hardware metrics with the CUPTI Range Profiler (auto range, kernel replay)
 * and metric-list validation with the Profiler Host API (no GPU needed).
 * C++ only because cupti_profiler_host.h includes <string>; the code is C-like
 * and the exports are extern "C" (gs_cupti.h).  See gs_cupti.h. */
#include "gs_cupti.h"
#include "gs_stats.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

const char *const gs_cupti_metrics_default[] = {
    "gpu__time_duration.sum",
    "l1tex__t_bytes.sum",
    "lts__t_bytes.sum",
    "dram__bytes.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
    /* the clock the launch ran at, and its length in cycles: durations of launches made at
     * different clocks compare in cycles */
    "sm__cycles_elapsed.avg.per_second",
    "gpc__cycles_elapsed.max",
    NULL,
};

const char *const gs_cupti_metrics_sol[] = {
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__time_duration.sum",
    NULL,
};

const char *const *gs_cupti_metric_set(const char *name, int *n)
{
    const char *const *set = NULL;
    if (name && strcmp(name, "default") == 0)
        set = gs_cupti_metrics_default;
    else if (name && strcmp(name, "sol") == 0)
        set = gs_cupti_metrics_sol;
    if (set && n) {
        *n = 0;
        while (set[*n])
            (*n)++;
    }
    return set;
}


#define CUPTI_TRY(call)                                               \
    do {                                                              \
        CUptiResult r_ = (call);                                      \
        if (r_ != CUPTI_SUCCESS) {                                    \
            gs_cupti_fail(why, wn, #call, (int)r_);                   \
            goto fail;                                                \
        }                                                             \
    } while (0)

/* ---------------------------------------------------------------- host side */

typedef struct config {
    CUpti_Profiler_Host_Object *host;
    uint8_t *image;
    size_t image_size;
    size_t passes;
} config;

static void config_free(config *c)
{
    if (c->host) {
        CUpti_Profiler_Host_Deinitialize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        p.pHostObject = c->host;
        (void)cuptiProfilerHostDeinitialize(&p); /* teardown: nothing to do on failure */
    }
    free(c->image);
    memset(c, 0, sizeof *c);
}

static CUptiResult host_init(const char *chip, const uint8_t *avail, CUpti_Profiler_Host_Object **obj)
{
    CUpti_Profiler_Host_Initialize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = avail;
    CUptiResult r = cuptiProfilerHostInitialize(&p);
    *obj = r == CUPTI_SUCCESS ? p.pHostObject : NULL;
    return r;
}

static CUptiResult host_add(CUpti_Profiler_Host_Object *obj, const char *const *names, int n)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    p.pHostObject = obj;
    p.ppMetricNames = const_cast<const char **>(names);
    p.numMetrics = (size_t)n;
    return cuptiProfilerHostConfigAddMetrics(&p);
}

/* Names every metric must pass; builds the config image and counts passes.
 * Metrics must be added in ONE call: adding them one by one schedules them
 * separately (24 passes instead of 9 for the sol set on GH100). */
static int build_config(const char *chip, const uint8_t *avail, const char *const *names, int n, config *c,
                        char *why, size_t wn)
{
    memset(c, 0, sizeof *c);
    if (!chip || !*chip)
        return gs_cupti_failf(why, wn, "no chip name");
    if (!names || n < 1 || n > GS_CUPTI_MAX_METRICS)
        return gs_cupti_failf(why, wn, "metric list must have 1..%d names (got %d)", GS_CUPTI_MAX_METRICS, n);
    for (int i = 0; i < n; i++)
        if (!names[i] || !*names[i])
            return gs_cupti_failf(why, wn, "metric %d of the list is empty", i + 1);
    {
        CUptiResult r = host_init(chip, avail, &c->host);
        if (r != CUPTI_SUCCESS) {
            gs_cupti_fail(why, wn, "cuptiProfilerHostInitialize", (int)r);
            if (r == CUPTI_ERROR_INVALID_CHIP_NAME || r == CUPTI_ERROR_INVALID_PARAMETER) {
                char tmp[256];
                snprintf(tmp, sizeof tmp, "%s", why ? why : "");
                gs_cupti_failf(why, wn, "chip '%s' is not known to this CUPTI (%s)", chip, tmp);
            }
            goto fail;
        }
    }
    for (int i = 0; i < n; i++) {
        CUpti_Profiler_Host_GetMetricProperties_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
        p.pHostObject = c->host;
        p.pMetricName = names[i];
        CUptiResult r = cuptiProfilerHostGetMetricProperties(&p);
        if (r != CUPTI_SUCCESS) {
            gs_cupti_failf(why, wn, "unknown metric '%s' for %s (%s)", names[i], chip, gs_cupti_result_name((int)r));
            goto fail;
        }
    }
    {
        CUptiResult r = host_add(c->host, names, n);
        if (r != CUPTI_SUCCESS) {
            /* find the culprit, each name alone in a fresh host object */
            int culprit = -1;
            for (int i = 0; i < n && culprit < 0; i++) {
                CUpti_Profiler_Host_Object *o = NULL;
                if (host_init(chip, avail, &o) != CUPTI_SUCCESS)
                    break;
                if (host_add(o, names + i, 1) != CUPTI_SUCCESS)
                    culprit = i;
                config tmp;
                memset(&tmp, 0, sizeof tmp);
                tmp.host = o;
                config_free(&tmp);
            }
            if (culprit >= 0)
                gs_cupti_failf(why, wn, "metric '%s' cannot be collected on %s (%s)%s", names[culprit], chip,
                      gs_cupti_result_name((int)r),
                      strchr(names[culprit], '.') ? ""
                                                  : ": a base metric needs a rollup (.sum .avg .min .max) or "
                                                    "a submetric");
            else
                gs_cupti_failf(why, wn, "these %d metrics cannot be configured together on %s (%s)", n, chip,
                      gs_cupti_result_name((int)r));
            goto fail;
        }
    }
    {
        CUpti_Profiler_Host_GetConfigImageSize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
        p.pHostObject = c->host;
        CUPTI_TRY(cuptiProfilerHostGetConfigImageSize(&p));
        c->image_size = p.configImageSize;
        c->image = (uint8_t *)calloc(1, c->image_size ? c->image_size : 1);
        if (!c->image) {
            gs_cupti_failf(why, wn, "out of memory (config image of %zu bytes)", c->image_size);
            goto fail;
        }
    }
    {
        CUpti_Profiler_Host_GetConfigImage_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
        p.pHostObject = c->host;
        p.configImageSize = c->image_size;
        p.pConfigImage = c->image;
        CUPTI_TRY(cuptiProfilerHostGetConfigImage(&p));
    }
    {
        CUpti_Profiler_Host_GetNumOfPasses_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
        p.configImageSize = c->image_size;
        p.pConfigImage = c->image;
        CUPTI_TRY(cuptiProfilerHostGetNumOfPasses(&p));
        c->passes = p.numOfPasses;
    }
    return 0;
fail:
    config_free(c);
    return -1;
}

int gs_cupti_metrics_validate(const char *chip, const char *const *names, int n, int *passes, char *why,
                              size_t wn)
{
    config c;
    if (gs_cupti_preload_nvperf(why, wn))
        return -1;
    if (build_config(chip, NULL, names, n, &c, why, wn))
        return -1;
    if (passes)
        *passes = (int)c.passes;
    config_free(&c);
    return 0;
}

/* ---------------------------------------------------------------- target side */

static int g_profiler_initialized;

void gs_cupti_metrics_shutdown(void)
{
    if (!g_profiler_initialized)
        return;
    CUpti_Profiler_DeInitialize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    CUptiResult r = cuptiProfilerDeInitialize(&p);
    if (r != CUPTI_SUCCESS)
        fprintf(stderr, "gemmscope: cuptiProfilerDeInitialize: %s (%d)\n", gs_cupti_result_name((int)r), (int)r);
    g_profiler_initialized = 0;
}

static const char *level(CUpti_Profiler_Support_Level l)
{
    return l == CUPTI_PROFILER_CONFIGURATION_SUPPORTED  ? "supported"
           : l == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "disabled"
                                                        : "unsupported/unknown";
}

/* The profiler's own reasons when the device cannot be profiled. */
static int device_supported(int dev, CUpti_Profiler_API api, char *why, size_t wn)
{
    CUpti_Profiler_DeviceSupported_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    p.cuDevice = (CUdevice)dev;
    p.api = api;
    CUptiResult r = cuptiProfilerDeviceSupported(&p);
    if (r != CUPTI_SUCCESS)
        return gs_cupti_fail(why, wn, "cuptiProfilerDeviceSupported", (int)r);
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    return gs_cupti_failf(why, wn,
                 "device %d cannot be profiled: architecture %s, sli %s, vGpu %s, confidential compute %s, "
                 "cmp %s, wsl %s",
                 dev, level(p.architecture), level(p.sli), level(p.vGpu), level(p.confidentialCompute),
                 level(p.cmp), level(p.wsl));
}

static gs_cupti_progress_fn g_progress;
static void *g_progress_arg;
static int g_collection = 1, g_collections = 1; /* set by gs_cupti_metrics_collect_median */

void gs_cupti_set_progress(gs_cupti_progress_fn fn, void *arg)
{
    g_progress = fn;
    g_progress_arg = arg;
}

int gs_cupti_metrics_collect(gs_launch_fn fn, void *arg, gs_launch_fn before_pass, void *before_arg,
                             cudaStream_t s, const char *const *names, int n,
                             const char *kernel_substring, gs_metric_values *out, char *why, size_t wn)
{
    enum { MAX_RANGES = 16 };
    config c;
    CUpti_RangeProfiler_Object *obj = NULL;
    uint8_t *avail = NULL, *counter_data = NULL;
    size_t counter_data_size = 0;
    void *vctx = NULL;
    int dev = 0, rc = -1;
    const char *chip = NULL;
    cudaError_t ce;

    memset(&c, 0, sizeof c);
    memset(out, 0, sizeof *out);
    if (!fn || !names || n < 1 || n > GS_CUPTI_MAX_METRICS)
        return gs_cupti_failf(why, wn, "gs_cupti_metrics_collect: need a launch function and 1..%d metrics",
                     GS_CUPTI_MAX_METRICS);
    if (gs_cupti_preload_nvperf(why, wn) || gs_cupti_current_context(&vctx, why, wn))
        return -1;
    CUcontext ctx = (CUcontext)vctx;
    if ((ce = cudaGetDevice(&dev)) != cudaSuccess)
        return gs_cupti_failf(why, wn, "cudaGetDevice: %s", cudaGetErrorString(ce));

    if (!g_profiler_initialized) {
        CUpti_Profiler_Initialize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
        CUPTI_TRY(cuptiProfilerInitialize(&p));
        g_profiler_initialized = 1;
    }
    if (device_supported(dev, CUPTI_PROFILER_RANGE_PROFILING, why, wn))
        goto fail;
    {
        CUpti_Device_GetChipName_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
        p.deviceIndex = (size_t)dev;
        CUPTI_TRY(cuptiDeviceGetChipName(&p));
        chip = p.pChipName;
        snprintf(out->chip, sizeof out->chip, "%s", chip ? chip : "?");
    }
    {
        CUpti_Profiler_GetCounterAvailability_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
        p.ctx = ctx;
        CUPTI_TRY(cuptiProfilerGetCounterAvailability(&p));
        avail = (uint8_t *)calloc(1, p.counterAvailabilityImageSize ? p.counterAvailabilityImageSize : 1);
        if (!avail) {
            gs_cupti_failf(why, wn, "out of memory");
            goto fail;
        }
        p.pCounterAvailabilityImage = avail;
        CUPTI_TRY(cuptiProfilerGetCounterAvailability(&p));
    }
    if (build_config(out->chip, avail, names, n, &c, why, wn))
        goto fail;
    out->passes = (int)c.passes;
    {
        CUpti_RangeProfiler_Enable_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
        p.ctx = ctx;
        CUPTI_TRY(cuptiRangeProfilerEnable(&p));
        obj = p.pRangeProfilerObject;
    }
    {
        CUpti_RangeProfiler_GetCounterDataSize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = obj;
        p.pMetricNames = const_cast<const char **>(names);
        p.numMetrics = (size_t)n;
        p.maxNumOfRanges = MAX_RANGES;
        p.maxNumRangeTreeNodes = MAX_RANGES;
        CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize(&p));
        counter_data_size = p.counterDataSize;
        counter_data = (uint8_t *)calloc(1, counter_data_size ? counter_data_size : 1);
        if (!counter_data) {
            gs_cupti_failf(why, wn, "out of memory (counter data of %zu bytes)", counter_data_size);
            goto fail;
        }
    }
    {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = obj;
        p.counterDataSize = counter_data_size;
        p.pCounterData = counter_data;
        CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize(&p));
    }
    {
        CUpti_RangeProfiler_SetConfig_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = obj;
        p.configSize = c.image_size;
        p.pConfig = c.image;
        p.counterDataImageSize = counter_data_size;
        p.pCounterDataImage = counter_data;
        p.range = CUPTI_AutoRange;
        p.replayMode = before_pass ? CUPTI_UserReplay : CUPTI_KernelReplay;
        p.maxRangesPerPass = MAX_RANGES;
        p.numNestingLevels = 1;
        p.minNestingLevel = 1;
        p.passIndex = 0;
        p.targetNestingLevel = 1;
        CUptiResult r = cuptiRangeProfilerSetConfig(&p);
        if (r != CUPTI_SUCCESS && p.replayMode == CUPTI_UserReplay) { /* none here: kernel replay, said so */
            p.replayMode = CUPTI_KernelReplay;
            r = cuptiRangeProfilerSetConfig(&p);
        }
        if (r != CUPTI_SUCCESS) {
            gs_cupti_fail(why, wn, "cuptiRangeProfilerSetConfig", (int)r);
            goto fail;
        }
        snprintf(out->replay, sizeof out->replay, "%s", p.replayMode == CUPTI_UserReplay ? "user" : "kernel");
        if (p.replayMode == CUPTI_KernelReplay && before_pass) { /* the set-up runs once, before it */
            if ((ce = gs_cupti_launch_and_wait(before_pass, before_arg, s)) != cudaSuccess) {
                gs_cupti_failf(why, wn, "the set-up before the launch failed: %s", cudaGetErrorString(ce));
                goto fail;
            }
            before_pass = NULL;
        }
    }
    if ((ce = cudaStreamSynchronize(s)) != cudaSuccess) {
        gs_cupti_failf(why, wn, "cudaStreamSynchronize before profiling: %s", cudaGetErrorString(ce));
        goto fail;
    }
    /* Kernel replay submits every pass within the one launch (the loop only guards against
     * a configuration that needs the launch again); user replay needs one launch per pass. */
    for (int iter = 0;; iter++) {
        if (g_progress)
            g_progress(g_collection, g_collections, iter + 1, (int)c.passes, g_progress_arg);
        CUpti_RangeProfiler_Start_Params sp;
        memset(&sp, 0, sizeof sp);
        sp.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
        sp.pRangeProfilerObject = obj;
        CUPTI_TRY(cuptiRangeProfilerStart(&sp));
        /* the set-up's kernels become ranges of the pass too; the measured kernel is the last */
        ce = before_pass ? gs_cupti_launch_and_wait(before_pass, before_arg, s) : cudaSuccess;
        if (ce == cudaSuccess)
            ce = gs_cupti_launch_and_wait(fn, arg, s);
        CUpti_RangeProfiler_Stop_Params tp;
        memset(&tp, 0, sizeof tp);
        tp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
        tp.pRangeProfilerObject = obj;
        CUPTI_TRY(cuptiRangeProfilerStop(&tp));
        if (ce != cudaSuccess) {
            gs_cupti_failf(why, wn, "profiled launch failed: %s", cudaGetErrorString(ce));
            goto fail;
        }
        if (tp.isAllPassSubmitted)
            break;
        if (iter >= 64) {
            gs_cupti_failf(why, wn, "passes still pending after %d launches", iter + 1);
            goto fail;
        }
    }
    {
        CUpti_RangeProfiler_DecodeData_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = obj;
        CUPTI_TRY(cuptiRangeProfilerDecodeData(&p));
        if (p.numOfRangeDropped)
            fprintf(stderr, "gemmscope: CUPTI dropped %zu profiled ranges\n", p.numOfRangeDropped);
    }
    {
        CUpti_RangeProfiler_GetCounterDataInfo_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
        p.pCounterDataImage = counter_data;
        p.counterDataImageSize = counter_data_size;
        CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo(&p));
        out->ranges = (int)p.numTotalRanges;
    }
    if (out->ranges < 1) {
        gs_cupti_failf(why, wn, "no range was profiled (did the launch run a kernel?)");
        goto fail;
    }
    {
        /* without a name match: the launch's last kernel (helpers such as a pre-pass run first) */
        size_t pick = (size_t)out->ranges - 1;
        int found = 0;
        for (size_t i = 0; i < (size_t)out->ranges; i++) {
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params p;
            memset(&p, 0, sizeof p);
            p.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
            p.pCounterDataImage = counter_data;
            p.counterDataImageSize = counter_data_size;
            p.rangeIndex = i;
            p.rangeDelimiter = "/";
            CUPTI_TRY(cuptiRangeProfilerCounterDataGetRangeInfo(&p));
            const char *name = p.rangeName ? p.rangeName : "";
            if (i == pick && !found)
                snprintf(out->range_name, sizeof out->range_name, "%s", name);
            if (kernel_substring && *kernel_substring && strstr(name, kernel_substring) && !found) {
                pick = i;
                found = 1;
                snprintf(out->range_name, sizeof out->range_name, "%s", name);
            }
        }
        CUpti_Profiler_Host_EvaluateToGpuValues_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
        p.pHostObject = c.host;
        p.pCounterDataImage = counter_data;
        p.counterDataImageSize = counter_data_size;
        p.rangeIndex = pick;
        p.ppMetricNames = const_cast<const char **>(names);
        p.numMetrics = (size_t)n;
        p.pMetricValues = out->values;
        CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues(&p));
    }
    out->n = n;
    for (int i = 0; i < n; i++)
        out->names[i] = names[i];
    rc = 0;
fail:
    if (obj) {
        CUpti_RangeProfiler_Disable_Params p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = obj;
        CUptiResult r = cuptiRangeProfilerDisable(&p);
        if (r != CUPTI_SUCCESS && rc == 0)
            rc = gs_cupti_fail(why, wn, "cuptiRangeProfilerDisable", (int)r);
    }
    config_free(&c);
    free(counter_data);
    free(avail);
    return rc;
}

int gs_cupti_metrics_collect_median(gs_launch_fn fn, void *arg, gs_launch_fn before_pass, void *before_arg,
                                    cudaStream_t s, const char *const *names, int n,
                                    const char *kernel_substring, int reps, gs_metric_values *out, char *why,
                                    size_t wn)
{
    enum { MAX_REPS = GS_CUPTI_MAX_COLLECTIONS };
    static double vals[GS_CUPTI_MAX_METRICS][MAX_REPS];
    if (reps < 1 || reps > MAX_REPS)
        return gs_cupti_failf(why, wn, "gs_cupti_metrics_collect_median: 1..%d collections, not %d", MAX_REPS, reps);
    for (int r = 0; r < reps; r++) {
        g_collection = r + 1, g_collections = reps;
        const int bad = gs_cupti_metrics_collect(fn, arg, before_pass, before_arg, s, names, n, kernel_substring, out,
                                                 why, wn);
        g_collection = g_collections = 1;
        if (bad)
            return -1;
        for (int i = 0; i < out->n; i++)
            vals[i][r] = out->values[i];
    }
    for (int i = 0; i < out->n; i++) {
        out->values[i] = gs_sort_median(vals[i], reps);
        out->lo[i] = vals[i][0];
        out->hi[i] = vals[i][reps - 1];
    }
    out->collections = reps;
    return 0;
}
