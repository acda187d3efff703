/* own-gemm: profiles the example kernel with gemmscope's library into a run directory that
 * `gemmscope report` reads (README.md).  In order: check the output of every build, time the
 * builds, cuBLAS and the ceilings, take the detail twin's stamps, write the run.
 *
 * Exit status: 0 run written, output correct; 3 run written, output wrong; 2 bad arguments;
 * 1 anything else (nothing written). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include <gemmscope/gemmscope.h>

#include "cublas_anchor.h"
#include "inputs.h"
#include "own_gemm.h"
#include "reference.h"
#include "run_meta.h"

#define OG_WARMUP 5
#define OG_MIN_REPS 50
#define OG_MAX_REPS 100000
#define OG_SEED_A 1u
#define OG_SEED_B 2u
#define OG_EXIT_WRONG 3
/* A launch not done after this long is taken for a hang (a barrier that never completes). */
#define OG_HANG_S 60

typedef struct og_options {
    int m, n, k, reps;
    const char *out;
    char command[1024];
} og_options;

/* ---- arguments ---- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: own-gemm [--m M] [--n N] [--k K] [--reps R] --out DIR\n"
            "  C[M,N] = A[M,K] B[N,K]^T in fp16 (fp32 accumulation), profiled into the new run directory DIR\n"
            "  M, N: multiples of %d; K: a multiple of %d; each at most %d (default 4096)\n"
            "  R: timed repetitions, %d to %d (default %d)\n",
            OG_BM, OG_BK, OG_MAX_DIM, OG_MIN_REPS, OG_MAX_REPS, OG_MIN_REPS);
}

/* `s` whole: a decimal number in [lo, hi] and a multiple of `step`. */
static int parse_int(const char *s, long lo, long hi, long step, int *out)
{
    char *end;
    if (s[0] < '0' || s[0] > '9') /* strtol would take blanks and signs */
        return -1;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi || v % step)
        return -1;
    *out = (int)v;
    return 0;
}

static void join_command(int argc, char **argv, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < argc && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", i ? " " : "", argv[i]);
}

/* 0 to run, 1 after --help, -1 after one line on stderr. */
static int parse_options(int argc, char **argv, og_options *o)
{
    memset(o, 0, sizeof *o);
    o->m = o->n = o->k = 4096;
    o->reps = OG_MIN_REPS;
    join_command(argc, argv, o->command, sizeof o->command);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            usage(stdout);
            return 1;
        }
        int *dim = !strcmp(opt, "--m") ? &o->m : !strcmp(opt, "--n") ? &o->n : !strcmp(opt, "--k") ? &o->k : NULL;
        if (!dim && strcmp(opt, "--reps") && strcmp(opt, "--out")) {
            fprintf(stderr, "own-gemm: unknown option '%s' (own-gemm --help)\n", opt);
            return -1;
        }
        if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)) {
            fprintf(stderr, "own-gemm: %s needs a value\n", opt);
            return -1;
        }
        const char *v = argv[++i];
        if (!strcmp(opt, "--out")) {
            o->out = v;
        } else if (!strcmp(opt, "--reps")) {
            if (parse_int(v, OG_MIN_REPS, OG_MAX_REPS, 1, &o->reps)) {
                fprintf(stderr, "own-gemm: --reps takes a whole number from %d to %d, not '%s'\n", OG_MIN_REPS,
                        OG_MAX_REPS, v);
                return -1;
            }
        } else {
            const int step = dim == &o->k ? OG_BK : dim == &o->m ? OG_BM : OG_BN;
            if (parse_int(v, step, OG_MAX_DIM, step, dim)) {
                fprintf(stderr, "own-gemm: %s takes a multiple of %d from %d to %d, not '%s'\n", opt, step, step,
                        OG_MAX_DIM, v);
                return -1;
            }
        }
    }
    if (!o->out || !*o->out) {
        fprintf(stderr, "own-gemm: --out DIR is required (own-gemm --help)\n");
        return -1;
    }
    return 0;
}

/* ---- the session: everything the run holds on the GPU and the host ---- */

typedef int (*og_launcher)(const own_gemm_args *p, gs_buffer stamps, cudaStream_t s);

/* One build of own_gemm.cu, as a gs_launch_fn argument. */
typedef struct og_build {
    const char *name; /* its timings' name in the run */
    og_launcher launch;
    const own_gemm_args *args;
    gs_buffer stamps;
} og_build;

enum { OG_PROD, OG_TWIN, OG_DETAIL, OG_BUILDS };

typedef struct og_session {
    og_geometry g;
    own_gemm_args args;
    uint16_t *c_cublas; /* cuBLAS's output: the reference of the full comparison */
    cudaStream_t s;
    gs_l2_flusher flusher;
    gs_stamps stamps;
    og_cublas cublas;
    og_reference ref;
    og_build builds[OG_BUILDS];
    gs_rundir rd;
} og_session;

static int launch_build(void *arg, cudaStream_t s)
{
    const og_build *b = arg;
    return b->launch(b->args, b->stamps, s);
}

/* -1 with one line when e is an error. */
static int cuda_check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    fprintf(stderr, "own-gemm: %s: %s\n", what, cudaGetErrorString(e));
    return -1;
}

/* Set when a launch hung: the CUDA context cannot be torn down, the program only exits. */
static int og_hung;

/* Waits for stream s, at most OG_HANG_S seconds (a hung kernel would hold the GPU forever). */
static int wait_stream(cudaStream_t s, const char *what)
{
    struct timespec t0, now;
    const struct timespec nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        const cudaError_t e = cudaStreamQuery(s);
        if (e != cudaErrorNotReady)
            return cuda_check(e, what);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > OG_HANG_S) {
            fprintf(stderr, "own-gemm: %s: not done after %d s: a hang; giving up\n", what, OG_HANG_S);
            og_hung = 1;
            return -1;
        }
        nanosleep(&nap, NULL);
    }
}

/* Device 0, a Hopper GPU (the kernel is built for sm_90a only); its SMs. */
static int select_device(int *sms)
{
    int count = 0;
    struct cudaDeviceProp prop;
    if (cuda_check(cudaGetDeviceCount(&count), "no CUDA device") || cuda_check(cudaSetDevice(0), "cudaSetDevice") ||
        cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"))
        return -1;
    if (prop.major != 9 || prop.minor != 0) {
        fprintf(stderr, "own-gemm: the kernel is built for sm_90a (Hopper); device 0 is %s (sm_%d%d)\n", prop.name,
                prop.major, prop.minor);
        return -1;
    }
    *sms = prop.multiProcessorCount;
    return 0;
}

static int device_alloc(uint16_t **p, size_t elements, const char *what)
{
    return cuda_check(cudaMalloc((void **)p, elements * sizeof **p), what);
}

/* Inputs (filled), outputs, stream, flusher, stamp buffer, cuBLAS, the CPU reference and the
 * builds. */
static int session_open(og_session *ss)
{
    const og_geometry *g = &ss->g;
    own_gemm_args *p = &ss->args;
    uint16_t *a = NULL, *b = NULL;
    const size_t na = (size_t)g->m * g->k, nb = (size_t)g->n * g->k, nc = (size_t)g->m * g->n;
    const int alloc_failed = device_alloc(&a, na, "cudaMalloc A") || device_alloc(&b, nb, "cudaMalloc B") ||
                             device_alloc(&p->c, nc, "cudaMalloc C") ||
                             device_alloc(&ss->c_cublas, nc, "cudaMalloc cuBLAS's C");
    p->a = a;
    p->b = b;
    p->m = g->m;
    p->n = g->n;
    p->k = g->k;
    p->grid = g->grid;
    if (alloc_failed || cuda_check(cudaStreamCreate(&ss->s), "cudaStreamCreate") ||
        cuda_check((cudaError_t)og_fill_inputs(a, na, OG_SEED_A, ss->s), "filling A") ||
        cuda_check((cudaError_t)og_fill_inputs(b, nb, OG_SEED_B, ss->s), "filling B") ||
        cuda_check(cudaStreamSynchronize(ss->s), "filling the inputs"))
        return -1;
    if (gs_l2_flusher_init(&ss->flusher, 0) ||
        gs_stamps_alloc(&ss->stamps, (uint32_t)g->grid, OG_WARPS, g->events_per_warp) ||
        og_cublas_create(&ss->cublas, a, b, ss->c_cublas, g->m, g->n, g->k) ||
        og_reference_init(&ss->ref, a, b, g->m, g->n, g->k))
        return -1;
    const og_build builds[OG_BUILDS] = {{"production", own_gemm_launch_prod, p, {0}},
                                        {"twin", own_gemm_launch_twin, p, ss->stamps.dev},
                                        {"detail", own_gemm_launch_detail, p, ss->stamps.dev}};
    memcpy(ss->builds, builds, sizeof builds);
    return 0;
}

static void session_close(og_session *ss)
{
    og_reference_free(&ss->ref);
    og_cublas_destroy(&ss->cublas);
    gs_stamps_free(&ss->stamps);
    gs_l2_flusher_free(&ss->flusher);
    const void *bufs[] = {ss->args.a, ss->args.b, ss->args.c, ss->c_cublas};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            cuda_check(cudaFree((void *)bufs[i]), "cudaFree");
    if (ss->s)
        cuda_check(cudaStreamDestroy(ss->s), "cudaStreamDestroy");
}

/* ---- 1. the output of every build ---- */

static int set_check(gs_meta *m, const char *build, const char *what, double v)
{
    char key[96];
    snprintf(key, sizeof key, "check.%s.%s", build, what);
    return gs_meta_set(m, key, "%.10g", v);
}

/* The sampled elements of `c` against the CPU reference, into meta as check.<build>.cpu_*;
 * *ok 0 where one is out of tolerance. */
static int check_sample(og_session *ss, const char *build, const uint16_t *c, int *ok)
{
    og_sample_check k;
    gs_meta *m = &ss->rd.meta;
    if (og_reference_check(&ss->ref, c, &k))
        return -1;
    if (set_check(m, build, "cpu_checked", (double)k.checked) || set_check(m, build, "cpu_bad", (double)k.bad) ||
        set_check(m, build, "max_abs_err", k.max_abs_err))
        return -1;
    *ok = k.checked > 0 && k.bad == 0;
    return 0;
}

/* cuBLAS once into its own output, checked on the sample: the reference of the full
 * comparisons. */
static int reference_output(og_session *ss)
{
    int ok = 0;
    if (og_cublas_launch(&ss->cublas, ss->s) || wait_stream(ss->s, "cuBLAS") ||
        check_sample(ss, "cublas", ss->c_cublas, &ok) || gs_meta_set(&ss->rd.meta, "cublas.correct", "%d", ok))
        return -1;
    if (!ok)
        fprintf(stderr, "own-gemm: WARNING: cuBLAS's output disagrees with the CPU reference\n");
    return 0;
}

/* One launch of build b on a poisoned output: every element against cuBLAS's, the sample
 * against the CPU reference.  *ok 1 when all agree and nothing is left unwritten. */
static int check_build(og_session *ss, og_build *b, int *ok)
{
    og_compare_counts cmp;
    gs_meta *m = &ss->rd.meta;
    const size_t n = (size_t)ss->g.m * ss->g.n;
    int sample_ok = 0;
    if (cuda_check(cudaMemsetAsync(ss->args.c, OG_POISON_BYTE, n * 2, ss->s), "poisoning C") ||
        cuda_check((cudaError_t)launch_build(b, ss->s), b->name) || wait_stream(ss->s, b->name) ||
        cuda_check(
            (cudaError_t)og_compare_outputs(ss->args.c, ss->c_cublas, n, (float)OG_ATOL, (float)OG_RTOL, &cmp, ss->s),
            "comparing outputs") ||
        check_sample(ss, b->name, ss->args.c, &sample_ok))
        return -1;
    if (set_check(m, b->name, "elements", (double)n) || set_check(m, b->name, "bad", (double)cmp.bad) ||
        set_check(m, b->name, "unwritten", (double)cmp.unwritten))
        return -1;
    *ok = sample_ok && cmp.bad == 0 && cmp.unwritten == 0;
    if (!*ok)
        fprintf(stderr, "own-gemm: WARNING: %s build: %llu of %zu elements off cuBLAS's, %llu unwritten%s\n", b->name,
                cmp.bad, n, cmp.unwritten, sample_ok ? "" : ", the CPU sample disagrees");
    return 0;
}

/* *correct: every build's output checked out. */
static int verify(og_session *ss, int *correct)
{
    *correct = 1;
    if (reference_output(ss))
        return -1;
    for (int i = 0; i < OG_BUILDS; i++) {
        int ok = 0;
        if (check_build(ss, &ss->builds[i], &ok))
            return -1;
        *correct = *correct && ok;
    }
    return gs_meta_set(&ss->rd.meta, "correct", "%d", *correct);
}

/* ---- 2. timings ---- */

static void say(const char *err) { fprintf(stderr, "own-gemm: %s\n", err); }

/* The three builds in one timing loop, blocks of repetitions in a balanced order (drift falls on all alike). */
static int time_builds(og_session *ss, int reps, double *median_ms)
{
    gs_launch_fn fns[OG_BUILDS];
    void *args[OG_BUILDS];
    gs_timing t[OG_BUILDS];
    char err[256];
    int rc = 0;
    for (int i = 0; i < OG_BUILDS; i++) {
        fns[i] = launch_build;
        args[i] = &ss->builds[i];
    }
    if (gs_time_interleaved(fns, args, OG_BUILDS, ss->s, &ss->flusher, OG_WARMUP, reps, t))
        return -1;
    for (int i = 0; i < OG_BUILDS; i++) {
        median_ms[i] = t[i].median_ms;
        if (!rc && gs_rundir_timing(&ss->rd, ss->builds[i].name, t[i].samples_ms, t[i].reps, err, sizeof err)) {
            say(err);
            rc = -1;
        }
        gs_timing_free(&t[i]);
    }
    return rc;
}

/* cuBLAS on the same inputs: the cublas.time_ms anchor. */
static int time_cublas(og_session *ss, int reps)
{
    gs_timing t;
    char err[256];
    gs_meta *m = &ss->rd.meta;
    if (gs_time_launches(og_cublas_launch, &ss->cublas, ss->s, &ss->flusher, OG_WARMUP, reps, &t))
        return -1;
    int rc = gs_rundir_timing(&ss->rd, "cublas", t.samples_ms, t.reps, err, sizeof err);
    if (rc)
        say(err);
    else if (gs_meta_set(m, "cublas.time_ms", "%.6f", t.median_ms) ||
             gs_meta_set(m, "cublas.method", "%s", OG_CUBLAS_METHOD) ||
             gs_meta_set(m, "cublas.what", "the same fp16 GEMM on the same inputs"))
        rc = -1;
    gs_timing_free(&t);
    return rc;
}

/* ---- 3. stamps ---- */

/* One launch of the detail twin after a fresh reset and an L2 flush, its buffers and the
 * timer tick into the run. */
static int capture_stamps(og_session *ss)
{
    gs_stamps *st = &ss->stamps;
    og_build *b = &ss->builds[OG_DETAIL];
    double tick = 0;
    char err[256];
    if (gs_stamps_reset(st, ss->s) ||
        gs_l2_flush(&ss->flusher, ss->s) ||
        cuda_check((cudaError_t)launch_build(b, ss->s), "detail twin launch") ||
        wait_stream(ss->s, "detail twin launch") || gs_stamps_download(st) || gs_measure_timer_tick(&tick))
        return -1;
    if (gs_rundir_stamps(&ss->rd, tick, st->ctas, st->dev.warps_per_cta, st->dev.capacity, st->warps, st->records, err,
                         sizeof err)) {
        say(err);
        return -1;
    }
    return 0;
}

/* ---- the run ---- */

/* Everything between gs_rundir_begin and gs_rundir_commit; *correct from the checks. */
static int record(og_session *ss, const og_options *o, int *correct)
{
    char err[512];
    double ms[OG_BUILDS];
    const og_run_info info = {o->command, o->reps, OG_WARMUP};
    int sms = 0;
    if (gs_device_meta(&ss->rd.meta, 0, &sms))
        return -1;
    if (og_run_describe(&ss->rd, &ss->g, &info, err, sizeof err)) {
        say(err);
        return -1;
    }
    if (session_open(ss) || verify(ss, correct) ||
        gs_meta_set(&ss->rd.meta, "timing.l2_flush_bytes", "%zu", ss->flusher.bytes) || time_builds(ss, o->reps, ms) ||
        time_cublas(ss, o->reps) ||
        gs_ceilings_measure(&ss->rd.meta, &ss->rd.tim, &ss->flusher, ss->s, OG_WARMUP, o->reps) || capture_stamps(ss))
        return -1;
    printf("own-gemm: m%dn%dk%d on %d CTAs: production %.4f ms, twin %.4f ms, detail twin %.4f ms (median of %d); "
           "output %s\n",
           ss->g.m, ss->g.n, ss->g.k, ss->g.grid, ms[OG_PROD], ms[OG_TWIN], ms[OG_DETAIL], o->reps,
           *correct ? "correct" : "WRONG");
    return 0;
}

static int run(const og_options *o)
{
    og_session ss;
    char err[512];
    int sms = 0, correct = 0;
    memset(&ss, 0, sizeof ss);
    if (select_device(&sms))
        return 1;
    if (og_geometry_make(o->m, o->n, o->k, sms, &ss.g, err, sizeof err)) {
        say(err);
        return 2;
    }
    if (gs_rundir_begin(&ss.rd, o->out, err, sizeof err)) {
        say(err);
        return 1;
    }
    int rc = 1;
    if (record(&ss, o, &correct) == 0) {
        if (gs_rundir_commit(&ss.rd, err, sizeof err) == 0)
            rc = correct ? 0 : OG_EXIT_WRONG;
        else
            say(err);
    }
    if (rc == 1)
        gs_rundir_abort(&ss.rd); /* nothing half-written lands */
    if (og_hung) {
        fflush(NULL);
        _exit(1); /* freeing would wait for the hung kernel */
    }
    session_close(&ss);
    if (rc != 1)
        printf("%s\n", ss.rd.dir);
    return rc;
}

int main(int argc, char **argv)
{
    og_options o;
    const int p = parse_options(argc, argv, &o);
    if (p)
        return p > 0 ? 0 : 2;
    return run(&o);
}
