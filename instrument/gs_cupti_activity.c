/* Kernel durations and resources from the CUPTI Activity API
 * (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: does not serialise launches).
 * See gs_cupti.h. */
#define _GNU_SOURCE /* dladdr */
#include "gs_cupti.h"
#include "gs_stats.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

const char *gs_cupti_result_name(int code)
{
    const char *s = NULL;
    if (cuptiGetResultString((CUptiResult)code, &s) != CUPTI_SUCCESS || !s)
        return "?";
    return s;
}

/* What a code usually means for us, or "". */
static const char *hint(int code)
{
    switch (code) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return ": another profiler (ncu, nsys, cuda-gdb) or CUPTI client is attached";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return ": GPU counters need root or CAP_SYS_ADMIN (or the driver option "
               "NVreg_RestrictProfilingToAdminUsers=0)";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        return ": profiling is not enabled on this virtual GPU";
    case CUPTI_ERROR_NOT_INITIALIZED:
        return ": CUPTI could not initialise (is the CUDA library directory, with libnvperf_host.so, on "
               "the loader path? see instrument/cupti.mk)";
    case CUPTI_ERROR_NOT_SUPPORTED:
        return ": not supported on this device or configuration";
    default:
        return "";
    }
}

int gs_cupti_fail(char *why, size_t n, const char *call, int code)
{
    if (why && n)
        snprintf(why, n, "%s: %s (%d)%s", call, gs_cupti_result_name(code), code, hint(code));
    return -1;
}

cudaError_t gs_cupti_launch_and_wait(gs_launch_fn fn, void *arg, cudaStream_t s)
{
    const int le = fn(arg, s);
    const cudaError_t ce = cudaStreamSynchronize(s);
    return le ? (cudaError_t)le : ce;
}

int gs_cupti_failf(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int gs_cupti_preload_nvperf(char *why, size_t n)
{
    static void *handle;
    Dl_info info;
    char path[4096];
    if (handle || dlopen("libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD))
        return 0;
    memset(&info, 0, sizeof info);
    if (!dladdr((void *)cuptiGetResultString, &info) || !info.dli_fname)
        return gs_cupti_failf(why, n, "cannot locate libcupti (dladdr failed)");
    snprintf(path, sizeof path, "%s", info.dli_fname);
    char *slash = strrchr(path, '/');
    if (slash)
        snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "libnvperf_host.so");
    else
        snprintf(path, sizeof path, "libnvperf_host.so");
    handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) /* last try: the loader path */
        handle = dlopen("libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL);
    if (!handle)
        return gs_cupti_failf(why, n, "cannot load libnvperf_host.so (next to libcupti: %s): %s; put the CUDA library "
                     "directory on LD_LIBRARY_PATH", path, dlerror());
    return 0;
}

typedef CUresult (*ctx_get_fn)(CUcontext *);

int gs_cupti_current_context(void **ctx, char *why, size_t n)
{
    static ctx_get_fn get;
    cudaError_t e = cudaFree(NULL); /* makes the device's primary context current */
    if (e != cudaSuccess)
        return gs_cupti_failf(why, n, "cudaFree(NULL): %s", cudaGetErrorString(e));
    if (!get) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &p, 12000, cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p)
            return gs_cupti_failf(why, n, "cuCtxGetCurrent not available: %s (query %d)", cudaGetErrorString(e), (int)q);
        get = (ctx_get_fn)p;
    }
    CUcontext c = NULL;
    CUresult r = get(&c);
    if (r != CUDA_SUCCESS || !c)
        return gs_cupti_failf(why, n, "cuCtxGetCurrent: driver error %d%s", (int)r, c ? "" : " (no current context)");
    *ctx = (void *)c;
    return 0;
}

#define CUPTI_TRY(call)                                                  \
    do {                                                                 \
        CUptiResult r_ = (call);                                         \
        if (r_ != CUPTI_SUCCESS)                                         \
            return gs_cupti_fail(why, n, #call, (int)r_);                \
    } while (0)

/* ---- record store (the buffer-completed callback may run on a CUPTI thread) ---- */

typedef struct krec {
    uint64_t start, end;
    char *name;
    int regs, static_smem, dynamic_smem;
    unsigned local_mem;
    int grid[3], block[3];
} krec;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static krec *g_recs;
static size_t g_nrecs, g_caprecs;
static unsigned long long g_dropped;
static int g_oom;
static int g_registered;

#define BUF_BYTES (8u << 20)
#define BUF_ALIGN 8

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    void *p = NULL;
    if (posix_memalign(&p, BUF_ALIGN, BUF_BYTES) != 0)
        p = NULL;
    *buffer = (uint8_t *)p;
    *size = p ? BUF_BYTES : 0;
    *max_records = 0; /* as many as fit */
}

static void keep(const CUpti_ActivityKernel10 *k)
{
    if (g_nrecs == g_caprecs) {
        size_t cap = g_caprecs ? 2 * g_caprecs : 256;
        krec *r = realloc(g_recs, cap * sizeof *r);
        if (!r) {
            g_oom = 1;
            return;
        }
        g_recs = r;
        g_caprecs = cap;
    }
    krec *r = &g_recs[g_nrecs];
    memset(r, 0, sizeof *r);
    r->start = k->start;
    r->end = k->end;
    r->name = strdup(k->name ? k->name : "?");
    if (!r->name) {
        g_oom = 1;
        return;
    }
    r->regs = k->registersPerThread;
    r->static_smem = k->staticSharedMemory;
    r->dynamic_smem = k->dynamicSharedMemory;
    r->local_mem = k->localMemoryPerThread;
    r->grid[0] = k->gridX, r->grid[1] = k->gridY, r->grid[2] = k->gridZ;
    r->block[0] = k->blockX, r->block[1] = k->blockY, r->block[2] = k->blockZ;
    g_nrecs++;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&g_lock);
    for (;;) {
        CUptiResult r = cuptiActivityGetNextRecord(buffer, valid, &rec);
        if (r != CUPTI_SUCCESS)
            break; /* CUPTI_ERROR_MAX_LIMIT_REACHED: end of the buffer */
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            keep((const CUpti_ActivityKernel10 *)rec);
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        g_dropped += dropped;
    pthread_mutex_unlock(&g_lock);
    (void)size;
    free(buffer);
}

static void clear_records(void)
{
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nrecs; i++)
        free(g_recs[i].name);
    free(g_recs);
    g_recs = NULL;
    g_nrecs = g_caprecs = 0;
    g_dropped = 0;
    g_oom = 0;
    pthread_mutex_unlock(&g_lock);
}

int gs_cupti_activity_begin(char *why, size_t n)
{
    if (!g_registered) {
        CUPTI_TRY(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
        g_registered = 1;
    }
    clear_records();
    CUPTI_TRY(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    return 0;
}

static int cmp_start(const void *a, const void *b)
{
    const krec *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static void stats(gs_kernel_durations *d)
{
    d->median_ms = d->min_ms = d->max_ms = 0;
    if (d->count <= 0)
        return;
    double *s = malloc((size_t)d->count * sizeof *s);
    if (!s)
        return;
    memcpy(s, d->samples_ms, (size_t)d->count * sizeof *s);
    d->median_ms = gs_sort_median(s, d->count);
    d->min_ms = s[0];
    d->max_ms = s[d->count - 1];
    free(s);
}

/* The launch sequences of the matching kernel from the records kept (call with g_lock held). */
static int build_sequence(const char *kernel_substring, gs_sequence *seq)
{
    gs_seq_rec *v = malloc((g_nrecs ? g_nrecs : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < g_nrecs; i++) {
        v[i].start = g_recs[i].start;
        v[i].end = g_recs[i].end;
        v[i].name = g_recs[i].name;
    }
    const int rc = gs_sequence_build(v, g_nrecs, kernel_substring, seq);
    free(v);
    return rc;
}

int gs_cupti_activity_end(const char *kernel_substring, gs_kernel_durations *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    cudaError_t ce = cudaDeviceSynchronize();
    if (ce != cudaSuccess)
        return gs_cupti_failf(why, n, "cudaDeviceSynchronize: %s", cudaGetErrorString(ce));
    CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    CUPTI_TRY(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));

    int rc = 0;
    pthread_mutex_lock(&g_lock);
    if (g_oom) {
        rc = gs_cupti_failf(why, n, "out of memory while keeping activity records");
        goto out;
    }
    qsort(g_recs, g_nrecs, sizeof *g_recs, cmp_start);
    out->dropped = g_dropped;
    out->samples_ms = malloc((g_nrecs ? g_nrecs : 1) * sizeof *out->samples_ms);
    if (!out->samples_ms) {
        rc = gs_cupti_failf(why, n, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < g_nrecs; i++) {
        const krec *r = &g_recs[i];
        if (kernel_substring && *kernel_substring && !strstr(r->name, kernel_substring)) {
            out->other_kernels++;
            continue;
        }
        if (out->count == 0) {
            snprintf(out->name, sizeof out->name, "%s", r->name);
            out->registers_per_thread = r->regs;
            out->static_smem_bytes = r->static_smem;
            out->dynamic_smem_bytes = r->dynamic_smem;
            out->local_mem_per_thread = r->local_mem;
            memcpy(out->grid, r->grid, sizeof out->grid);
            memcpy(out->block, r->block, sizeof out->block);
        }
        out->samples_ms[out->count++] = (double)(r->end - r->start) * 1e-6;
    }
    if (out->count == 0) {
        rc = gs_cupti_failf(why, n, "no kernel launch matching '%s' among %zu kernel records%s",
                   kernel_substring ? kernel_substring : "", g_nrecs,
                   g_dropped ? " (records were dropped)" : "");
        goto out;
    }
    if (build_sequence(kernel_substring, &out->seq)) {
        rc = gs_cupti_failf(why, n, "out of memory while splitting the records into launches");
        goto out;
    }
    stats(out);
out:
    pthread_mutex_unlock(&g_lock);
    if (rc)
        gs_kernel_durations_free(out);
    clear_records();
    return rc;
}

void gs_kernel_durations_drop_first(gs_kernel_durations *d, int k)
{
    gs_sequence_drop_first(&d->seq, k);
    if (k <= 0 || !d->samples_ms)
        return;
    if (k > d->count)
        k = d->count;
    memmove(d->samples_ms, d->samples_ms + k, (size_t)(d->count - k) * sizeof *d->samples_ms);
    d->count -= k;
    stats(d);
}

void gs_kernel_durations_free(gs_kernel_durations *d)
{
    free(d->samples_ms);
    d->samples_ms = NULL;
    d->count = 0;
    gs_sequence_free(&d->seq);
}
