/* Stall reasons per source line with the CUPTI PC Sampling API
 * (KERNEL_SERIALIZED, start/stop control around one launch).  Cubins come
 * from CUPTI's module-load callback (gs_cupti_pcsamp_init) or from files;
 * PCs are mapped to lines with cuptiGetSassToSourceCorrelation (the kernels
 * are built with -lineinfo).  See gs_cupti.h. */
#define _POSIX_C_SOURCE 200809L
#include "gs_cupti.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>
#include <cupti_result.h>


/* ---------------------------------------------------------------- cubins */

typedef struct cubin {
    uint64_t crc;
    char *bytes;
    size_t size;
} cubin;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cubin *g_cubins;
static int g_ncubins, g_capcubins;
static CUpti_SubscriberHandle g_sub;

/* Keeps a copy of the cubin; 0, or a CUPTI code / -1 (out of memory). */
static int add_cubin(const void *bytes, size_t size)
{
    CUpti_GetCubinCrcParams p;
    memset(&p, 0, sizeof p);
    p.size = CUpti_GetCubinCrcParamsSize;
    p.cubinSize = size;
    p.cubin = bytes;
    CUptiResult r = cuptiGetCubinCrc(&p);
    if (r != CUPTI_SUCCESS)
        return (int)r;
    int rc = 0;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < g_ncubins; i++)
        if (g_cubins[i].crc == p.cubinCrc && g_cubins[i].size == size)
            goto out;
    if (g_ncubins == g_capcubins) {
        int cap = g_capcubins ? 2 * g_capcubins : 16;
        cubin *c = realloc(g_cubins, (size_t)cap * sizeof *c);
        if (!c) {
            rc = -1;
            goto out;
        }
        g_cubins = c;
        g_capcubins = cap;
    }
    char *copy = malloc(size);
    if (!copy) {
        rc = -1;
        goto out;
    }
    memcpy(copy, bytes, size);
    g_cubins[g_ncubins].crc = p.cubinCrc;
    g_cubins[g_ncubins].bytes = copy;
    g_cubins[g_ncubins].size = size;
    g_ncubins++;
out:
    pthread_mutex_unlock(&g_lock);
    return rc;
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *cbdata)
{
    (void)userdata;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED || !cbdata)
        return;
    const CUpti_ResourceData *rd = (const CUpti_ResourceData *)cbdata;
    const CUpti_ModuleResourceData *m = (const CUpti_ModuleResourceData *)rd->resourceDescriptor;
    if (m && m->pCubin && m->cubinSize) {
        int r = add_cubin(m->pCubin, m->cubinSize);
        if (r)
            fprintf(stderr, "gemmscope: cannot keep a loaded cubin (%s)\n",
                    r > 0 ? gs_cupti_result_name(r) : "out of memory");
    }
}

int gs_cupti_pcsamp_init(char *why, size_t n)
{
    if (g_sub)
        return 0;
    CUptiResult r = cuptiSubscribe(&g_sub, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        g_sub = NULL;
        return gs_cupti_fail(why, n, "cuptiSubscribe", (int)r);
    }
    r = cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    if (r != CUPTI_SUCCESS)
        return gs_cupti_fail(why, n, "cuptiEnableCallback(MODULE_LOADED)", (int)r);
    return 0;
}

void gs_cupti_pcsamp_release(void)
{
    if (g_sub) {
        CUptiResult r = cuptiUnsubscribe(g_sub);
        if (r != CUPTI_SUCCESS)
            fprintf(stderr, "gemmscope: cuptiUnsubscribe: %s (%d)\n", gs_cupti_result_name((int)r), (int)r);
        g_sub = NULL;
    }
}

int gs_cupti_pcsamp_cubin_count(void)
{
    pthread_mutex_lock(&g_lock);
    int n = g_ncubins;
    pthread_mutex_unlock(&g_lock);
    return n;
}

int gs_cupti_pcsamp_add_cubin_file(const char *path, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gs_cupti_failf(why, n, "cannot open cubin %s", path);
    char *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)size)) ||
        fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(buf);
        return gs_cupti_failf(why, n, "cannot read cubin %s", path);
    }
    fclose(f);
    int r = add_cubin(buf, (size_t)size);
    free(buf);
    if (r)
        return r > 0 ? gs_cupti_fail(why, n, "cuptiGetCubinCrc", r) : gs_cupti_failf(why, n, "out of memory");
    return 0;
}

/* ---------------------------------------------------------------- collection */

#define MAX_PCS 8192
#define SCRATCH_BYTES (32u << 20)

typedef struct collector {
    gs_pcsamp_result *out;
    const char *substring;
    int cap_lines;
} collector;

static int reason_pos(const gs_pcsamp_result *r, uint32_t index)
{
    for (int i = 0; i < r->nreasons; i++)
        if (r->reasons[i].index == index)
            return i;
    return -1;
}

static const cubin *find_cubin(uint64_t crc)
{
    for (int i = 0; i < g_ncubins; i++)
        if (g_cubins[i].crc == crc)
            return &g_cubins[i];
    return NULL;
}

/* Line entry for (file, line); NULL when out of memory. */
static gs_pcsamp_line *line_entry(collector *c, const char *file, unsigned line)
{
    gs_pcsamp_result *r = c->out;
    for (int i = 0; i < r->nlines; i++)
        if (r->lines[i].line == line && strcmp(r->lines[i].file, file) == 0)
            return &r->lines[i];
    if (r->nlines == c->cap_lines) {
        int cap = c->cap_lines ? 2 * c->cap_lines : 64;
        gs_pcsamp_line *l = realloc(r->lines, (size_t)cap * sizeof *l);
        if (!l)
            return NULL;
        r->lines = l;
        c->cap_lines = cap;
    }
    gs_pcsamp_line *e = &r->lines[r->nlines];
    memset(e, 0, sizeof *e);
    e->by_reason = calloc((size_t)(r->nreasons > 0 ? r->nreasons : 1), sizeof *e->by_reason);
    if (!e->by_reason)
        return NULL;
    snprintf(e->file, sizeof e->file, "%s", file);
    e->line = line;
    r->nlines++;
    return e;
}

static int take_pcs(collector *c, const CUpti_PCSamplingData *d, char *why, size_t n)
{
    gs_pcsamp_result *r = c->out;
    r->cupti_total += d->totalSamples;
    r->non_user_samples += d->nonUsrKernelsTotalSamples;
    r->dropped += d->droppedSamples;
    r->hardware_buffer_full |= d->hardwareBufferFull != 0;
    for (size_t i = 0; i < d->totalNumPcs; i++) {
        const CUpti_PCSamplingPCData *pc = &d->pPcData[i];
        const char *fname = pc->functionName ? pc->functionName : "?";
        unsigned long long sum = 0;
        for (size_t k = 0; k < pc->stallReasonCount; k++) {
            int pos = reason_pos(r, pc->stallReason[k].pcSamplingStallReasonIndex);
            if (pos >= 0 && !r->reasons[pos].not_issued)
                sum += pc->stallReason[k].samples;
        }
        if (c->substring && *c->substring && !strstr(fname, c->substring)) {
            r->other_samples += sum;
            continue;
        }
        if (!r->function[0])
            snprintf(r->function, sizeof r->function, "%s", fname);
        r->pcs++;
        r->samples += sum;

        char file[512] = "?";
        unsigned line = 0;
        const cubin *cb = find_cubin(pc->cubinCrc);
        if (cb) {
            CUpti_GetSassToSourceCorrelationParams p;
            memset(&p, 0, sizeof p);
            p.size = CUpti_GetSassToSourceCorrelationParamsSize;
            p.cubin = cb->bytes;
            p.cubinSize = cb->size;
            p.functionName = fname;
            p.pcOffset = pc->pcOffset;
            /* fails when the PC has no line-table entry: counted as unmapped */
            if (cuptiGetSassToSourceCorrelation(&p) == CUPTI_SUCCESS && p.fileName) {
                if (p.dirName && *p.dirName && p.fileName[0] != '/')
                    snprintf(file, sizeof file, "%s/%s", p.dirName, p.fileName);
                else
                    snprintf(file, sizeof file, "%s", p.fileName);
                line = p.lineNumber;
            }
            free(p.fileName);
            free(p.dirName);
        }
        if (line == 0)
            r->unmapped_samples += sum;
        gs_pcsamp_line *e = line_entry(c, file, line);
        if (!e)
            return gs_cupti_failf(why, n, "out of memory");
        e->samples += sum;
        for (size_t k = 0; k < pc->stallReasonCount; k++) {
            int pos = reason_pos(r, pc->stallReason[k].pcSamplingStallReasonIndex);
            if (pos < 0)
                continue;
            e->by_reason[pos] += pc->stallReason[k].samples;
            r->reasons[pos].samples += pc->stallReason[k].samples;
        }
    }
    return 0;
}

static int cmp_lines(const void *a, const void *b)
{
    const gs_pcsamp_line *x = a, *y = b;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    int s = strcmp(x->file, y->file);
    return s ? s : (x->line > y->line) - (x->line < y->line);
}

static void free_buffer(CUpti_PCSamplingData *d)
{
    if (d->pPcData) {
        for (size_t i = 0; i < d->collectNumPcs; i++)
            free(d->pPcData[i].stallReason);
        free(d->pPcData);
    }
    memset(d, 0, sizeof *d);
}

static int alloc_buffer(CUpti_PCSamplingData *d, size_t pcs, size_t reasons)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->collectNumPcs = pcs;
    d->pPcData = calloc(pcs, sizeof *d->pPcData);
    if (!d->pPcData)
        return -1;
    for (size_t i = 0; i < pcs; i++) {
        d->pPcData[i].size = sizeof d->pPcData[i];
        d->pPcData[i].stallReason = calloc(reasons ? reasons : 1, sizeof *d->pPcData[i].stallReason);
        if (!d->pPcData[i].stallReason) {
            free_buffer(d);
            return -1;
        }
    }
    return 0;
}

#define CUPTI_TRY(call)                                       \
    do {                                                      \
        CUptiResult r_ = (call);                              \
        if (r_ != CUPTI_SUCCESS) {                            \
            gs_cupti_fail(why, n, #call, (int)r_);            \
            goto fail;                                        \
        }                                                     \
    } while (0)

int gs_cupti_pcsamp_collect(gs_launch_fn fn, void *arg, cudaStream_t s, const char *kernel_substring,
                            int period_log2, gs_pcsamp_result *out, char *why, size_t n)
{
    void *vctx = NULL;
    int enabled = 0, rc = -1;
    size_t nreasons = 0;
    uint32_t *indices = NULL;
    char **names = NULL;
    CUpti_PCSamplingData buf, rbuf;
    collector col;
    cudaError_t ce;

    memset(out, 0, sizeof *out);
    memset(&buf, 0, sizeof buf);
    memset(&rbuf, 0, sizeof rbuf);
    memset(&col, 0, sizeof col);
    col.out = out;
    col.substring = kernel_substring;
    if (period_log2 == 0)
        period_log2 = 6;
    if (period_log2 < 5 || period_log2 > 31)
        return gs_cupti_failf(why, n, "PC sampling period 2^%d is outside 2^5..2^31 cycles", period_log2);
    out->sampling_period_log2 = period_log2;
    if (!fn)
        return gs_cupti_failf(why, n, "gs_cupti_pcsamp_collect: no launch function");
    if (gs_cupti_current_context(&vctx, why, n))
        return -1;
    CUcontext ctx = (CUcontext)vctx;

    {
        CUpti_PCSamplingEnableParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingEnableParamsSize;
        p.ctx = ctx;
        CUPTI_TRY(cuptiPCSamplingEnable(&p));
        enabled = 1;
    }
    {
        CUpti_PCSamplingGetNumStallReasonsParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
        p.ctx = ctx;
        p.numStallReasons = &nreasons;
        CUPTI_TRY(cuptiPCSamplingGetNumStallReasons(&p));
    }
    if (nreasons == 0) {
        gs_cupti_failf(why, n, "CUPTI reports no stall reasons");
        goto fail;
    }
    indices = calloc(nreasons, sizeof *indices);
    names = calloc(nreasons, sizeof *names);
    out->reasons = calloc(nreasons, sizeof *out->reasons);
    if (!indices || !names || !out->reasons) {
        gs_cupti_failf(why, n, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < nreasons; i++)
        if (!(names[i] = calloc(1, CUPTI_STALL_REASON_STRING_SIZE))) {
            gs_cupti_failf(why, n, "out of memory");
            goto fail;
        }
    {
        CUpti_PCSamplingGetStallReasonsParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingGetStallReasonsParamsSize;
        p.ctx = ctx;
        p.numStallReasons = nreasons;
        p.stallReasonIndex = indices;
        p.stallReasons = names;
        CUPTI_TRY(cuptiPCSamplingGetStallReasons(&p));
    }
    out->nreasons = (int)nreasons;
    for (size_t i = 0; i < nreasons; i++) {
        gs_pcsamp_reason *rr = &out->reasons[i];
        snprintf(rr->name, sizeof rr->name, "%s", names[i]);
        rr->index = indices[i];
        rr->not_issued = strstr(names[i], "not_issued") != NULL;
    }
    if (alloc_buffer(&buf, MAX_PCS, nreasons)) {
        gs_cupti_failf(why, n, "out of memory (PC buffer)");
        goto fail;
    }
    {
        CUpti_PCSamplingConfigurationInfo a[6];
        memset(a, 0, sizeof a);
        a[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        a[0].attributeData.samplingPeriodData.samplingPeriod = (uint32_t)period_log2;
        a[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
        a[1].attributeData.stallReasonData.stallReasonCount = nreasons;
        a[1].attributeData.stallReasonData.pStallReasonIndex = indices;
        a[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
        a[2].attributeData.scratchBufferSizeData.scratchBufferSize = SCRATCH_BYTES;
        a[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
        a[3].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
        a[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
        a[4].attributeData.enableStartStopControlData.enableStartStopControl = 1;
        a[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
        a[5].attributeData.samplingDataBufferData.samplingDataBuffer = &buf;
        CUpti_PCSamplingConfigurationInfoParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
        p.ctx = ctx;
        p.numAttributes = sizeof a / sizeof a[0];
        p.pPCSamplingConfigurationInfo = a;
        CUptiResult r = cuptiPCSamplingSetConfigurationAttribute(&p);
        for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
            if (a[i].attributeStatus != CUPTI_SUCCESS) {
                char call[96];
                snprintf(call, sizeof call, "cuptiPCSamplingSetConfigurationAttribute(attribute %d)",
                         (int)a[i].attributeType);
                gs_cupti_fail(why, n, call, (int)a[i].attributeStatus);
                goto fail;
            }
        if (r != CUPTI_SUCCESS) {
            gs_cupti_fail(why, n, "cuptiPCSamplingSetConfigurationAttribute", (int)r);
            goto fail;
        }
    }
    if ((ce = cudaStreamSynchronize(s)) != cudaSuccess) {
        gs_cupti_failf(why, n, "cudaStreamSynchronize before sampling: %s", cudaGetErrorString(ce));
        goto fail;
    }
    {
        CUpti_PCSamplingStartParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingStartParamsSize;
        p.ctx = ctx;
        CUPTI_TRY(cuptiPCSamplingStart(&p));
    }
    {
        ce = gs_cupti_launch_and_wait(fn, arg, s);
        CUpti_PCSamplingStopParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingStopParamsSize;
        p.ctx = ctx;
        CUPTI_TRY(cuptiPCSamplingStop(&p));
        if (ce != cudaSuccess) {
            gs_cupti_failf(why, n, "sampled launch failed: %s", cudaGetErrorString(ce));
            goto fail;
        }
    }
    /* In KERNEL_SERIALIZED mode CUPTI moves the finished kernel's records into
     * the configured buffer itself; GetData (into a buffer of its own, or it
     * would overwrite them) returns what did not fit. */
    if (take_pcs(&col, &buf, why, n))
        goto fail;
    if (alloc_buffer(&rbuf, MAX_PCS, nreasons)) {
        gs_cupti_failf(why, n, "out of memory (PC buffer)");
        goto fail;
    }
    for (int round = 0;; round++) {
        CUpti_PCSamplingGetDataParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingGetDataParamsSize;
        p.ctx = ctx;
        p.pcSamplingData = &rbuf;
        rbuf.totalNumPcs = rbuf.remainingNumPcs = 0;
        rbuf.totalSamples = rbuf.droppedSamples = rbuf.nonUsrKernelsTotalSamples = 0;
        CUptiResult r = cuptiPCSamplingGetData(&p);
        if (r == CUPTI_ERROR_OUT_OF_MEMORY) {
            gs_cupti_failf(why, n, "PC sampling hardware buffer full: raise the period (now 2^%d cycles)", period_log2);
            goto fail;
        }
        if (r != CUPTI_SUCCESS) {
            if (out->pcs > 0) { /* keep what the configured buffer had */
                fprintf(stderr, "gemmscope: cuptiPCSamplingGetData: %s (%d); using the %d PCs already read\n",
                        gs_cupti_result_name((int)r), (int)r, out->pcs);
                break;
            }
            gs_cupti_fail(why, n, "cuptiPCSamplingGetData", (int)r);
            goto fail;
        }
        if (take_pcs(&col, &rbuf, why, n))
            goto fail;
        if (rbuf.remainingNumPcs == 0)
            break;
        if (round > 100000) {
            gs_cupti_failf(why, n, "PC data did not drain");
            goto fail;
        }
    }
    if (out->pcs == 0) {
        gs_cupti_failf(why, n,
              "no PC record for a kernel matching '%s' (CUPTI counted %llu samples, %llu of them in kernels it "
              "treats as non-user, %llu in other kernels' records)%s",
              kernel_substring ? kernel_substring : "", out->cupti_total, out->non_user_samples, out->other_samples,
              out->cupti_total ? ": was the kernel's module loaded before PC sampling was enabled? sample before "
                                 "the kernel's first launch"
                               : "");
        goto fail;
    }
    qsort(out->lines, (size_t)out->nlines, sizeof *out->lines, cmp_lines);
    rc = 0;
fail:
    if (enabled) {
        CUpti_PCSamplingDisableParams p;
        memset(&p, 0, sizeof p);
        p.size = CUpti_PCSamplingDisableParamsSize;
        p.ctx = ctx;
        CUptiResult r = cuptiPCSamplingDisable(&p);
        if (r != CUPTI_SUCCESS && rc == 0)
            rc = gs_cupti_fail(why, n, "cuptiPCSamplingDisable", (int)r);
    }
    free_buffer(&buf);
    free_buffer(&rbuf);
    if (names)
        for (size_t i = 0; i < nreasons; i++)
            free(names[i]);
    free(names);
    free(indices);
    if (rc)
        gs_pcsamp_result_free(out);
    return rc;
}

/* Source paths relative to the folder the kernels were compiled in (the repository root), so a
 * run names files, not one machine's folders. */
static const char *relative_path(const char *file, const char *cwd, size_t cwd_len)
{
    if (cwd_len && !strncmp(file, cwd, cwd_len) && file[cwd_len] == '/')
        return file + cwd_len + 1;
    return file;
}

int gs_pcsamp_write_tsv(const gs_pcsamp_result *r, const char *root, const char *path, char *why, size_t n)
{
    char cwd[4096];
    if (root && snprintf(cwd, sizeof cwd, "%s", root) >= (int)sizeof cwd)
        root = NULL;
    size_t cwd_len = root ? strlen(cwd) : getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    while (cwd_len > 1 && cwd[cwd_len - 1] == '/') /* "/repo/" names "/repo/k.cu" as "k.cu" too */
        cwd[--cwd_len] = 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gs_cupti_failf(why, n, "cannot write %s", path);
    fprintf(f, "# gemmscope-pcsamp 1\n# function\t%s\n# samples\t%llu\n# unmapped_samples\t%llu\n"
               "# dropped\t%llu\n# period_log2\t%d\nfile\tline\treason\tsamples\n",
            r->function, r->samples, r->unmapped_samples, r->dropped, r->sampling_period_log2);
    for (int i = 0; i < r->nlines; i++)
        for (int k = 0; k < r->nreasons; k++)
            if (r->lines[i].by_reason[k])
                fprintf(f, "%s\t%u\t%s\t%llu\n", relative_path(r->lines[i].file, cwd, cwd_len), r->lines[i].line,
                        r->reasons[k].name, r->lines[i].by_reason[k]);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return gs_cupti_failf(why, n, "error writing %s", path);
    }
    return 0;
}

void gs_pcsamp_result_free(gs_pcsamp_result *r)
{
    if (r->lines)
        for (int i = 0; i < r->nlines; i++)
            free(r->lines[i].by_reason);
    free(r->lines);
    free(r->reasons);
    r->lines = NULL;
    r->reasons = NULL;
    r->nlines = r->nreasons = 0;
}
