/* Host self-check of own-gemm (no GPU):
 *   1. the kernel's fragment addressing (tiles.h) run against the PTX layouts of ldmatrix .x4
 *      and mma.m16n8k16 on a small GEMM: the producer's stage layout, every consumer warp's
 *      ldmatrix addresses, the mma, the epilogue's stores; exact against a plain GEMM, every
 *      output written once, no read of a stage's padding, no shared-memory bank conflict;
 *   2. the persistent schedule: every tile on one CTA, the per-CTA counts the stamp buffer is
 *      sized from;
 *   3. with a folder argument, a synthetic run there: the run description of run_meta.c with
 *      stamps laid out as the detail twin writes them, for check.sh --run.
 * Prints one row per check and 'N passed, M failed'. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_meta.h"
#include "tiles.h"

static int passed, failed;

static void row(const char *name, int ok)
{
    printf("%-48s %s\n", name, ok ? "pass" : "FAIL");
    if (ok)
        passed++;
    else
        failed++;
}

/* ---- 1. fragments ---- */

/* A small problem: 2 x 2 tiles, 2 K blocks; small integers, so every sum is exact. */
enum { EM = 2 * OG_BM, EN = 2 * OG_BN, EK = 2 * OG_BK };

typedef struct emu {
    float a[EM][EK], b[EN][EK], want[EM][EN], got[EM][EN];
    int writes[EM][EN];
    float stage[OG_STAGE_BYTES / 2]; /* one stage, by 2-byte element; padding NaN */
    int stray_reads, misaligned, conflicts;
} emu;

/* What the producer's copies leave in a stage: row r of the A (B) block is K block kb of row
 * m0 + r of A (n0 + r of B) at r * OG_ROW_PITCH. */
static void fill_stage(emu *e, int m0, int n0, int kb)
{
    for (size_t i = 0; i < sizeof e->stage / sizeof e->stage[0]; i++)
        e->stage[i] = NAN;
    for (int r = 0; r < OG_BM; r++)
        for (int j = 0; j < OG_BK; j++)
            e->stage[(r * OG_ROW_PITCH + 2 * j) / 2] = e->a[m0 + r][kb * OG_BK + j];
    for (int r = 0; r < OG_BN; r++)
        for (int j = 0; j < OG_BK; j++)
            e->stage[(OG_A_BYTES + r * OG_ROW_PITCH + 2 * j) / 2] = e->b[n0 + r][kb * OG_BK + j];
}

/* ldmatrix .x4 at byte offsets addr[lane] from `base`: register i of lane l holds row l / 4,
 * elements 2 (l % 4) and 2 (l % 4) + 1, of the matrix whose rows lanes 8i .. 8i + 7 address. */
static void ldmatrix_x4(emu *e, uint32_t base, const uint32_t *addr, uint32_t limit, float out[32][4][2])
{
    for (int phase = 0; phase < 4; phase++) { /* the 8 rows of one matrix: 32 distinct banks */
        int bank_used[32] = {0};
        for (int l = 8 * phase; l < 8 * phase + 8; l++)
            for (int w = 0; w < 4; w++)
                bank_used[((base + addr[l]) / 4 + w) % 32]++;
        for (int bk = 0; bk < 32; bk++)
            e->conflicts += bank_used[bk] != 1;
    }
    for (int l = 0; l < 32; l++)
        e->misaligned += addr[l] % 16 != 0 || addr[l] + 16 > limit;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            const uint32_t src = addr[8 * i + l / 4];
            if (src % 16 || src + 16 > limit)
                continue;
            for (int h = 0; h < 2; h++) {
                const float v = e->stage[(base + src) / 2 + 2 * (l % 4) + h];
                e->stray_reads += isnan(v);
                out[l][i][h] = v;
            }
        }
}

/* mma.m16n8k16 .row.col on the 32 lanes' fragments (PTX ISA layouts; g = lane / 4, t = lane % 4):
 * A a0..a3 = (g, 2t..), (g + 8, 2t..), (g, 2t + 8..), (g + 8, 2t + 8..); B b0, b1 = (k 2t.., n g),
 * (k 2t + 8.., n g); D d0..d3 = (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1). */
static void mma_16816(float d[32][4], float a[32][4][2], float b[32][2][2])
{
    float am[16][16], bm[16][8];
    for (int l = 0; l < 32; l++) {
        const int g = l / 4, t = l % 4;
        for (int h = 0; h < 2; h++) {
            am[g][2 * t + h] = a[l][0][h];
            am[g + 8][2 * t + h] = a[l][1][h];
            am[g][2 * t + 8 + h] = a[l][2][h];
            am[g + 8][2 * t + 8 + h] = a[l][3][h];
            bm[2 * t + h][g] = b[l][0][h];
            bm[2 * t + 8 + h][g] = b[l][1][h];
        }
    }
    for (int l = 0; l < 32; l++) {
        const int g = l / 4, t = l % 4;
        for (int i = 0; i < 4; i++) {
            const int r = g + 8 * (i >> 1), c = 2 * t + (i & 1);
            for (int x = 0; x < 16; x++)
                d[l][i] += am[r][x] * bm[x][c];
        }
    }
}

/* One consumer warp's stage, as mma_stage in own_gemm.cu does it. */
static void warp_stage(emu *e, int warp, float acc[32][2][8][4])
{
    const int row = og_warp_row(warp), col = og_warp_col(warp);
    static float a[2][32][4][2], bq[32][4][2], b[8][32][2][2], d[32][4];
    uint32_t addr[32];
    for (int kk = 0; kk < OG_BK / 16; kk++) {
        for (int mi = 0; mi < 2; mi++) {
            for (int l = 0; l < 32; l++)
                addr[l] = og_a_frag_offset(l, row + 16 * mi, kk);
            ldmatrix_x4(e, 0, addr, OG_A_BYTES, a[mi]);
        }
        for (int nj = 0; nj < 8; nj += 2) {
            for (int l = 0; l < 32; l++)
                addr[l] = og_b_frag_offset(l, col + 8 * nj, kk);
            ldmatrix_x4(e, OG_A_BYTES, addr, OG_STAGE_BYTES - OG_A_BYTES, bq);
            for (int l = 0; l < 32; l++)
                for (int h = 0; h < 2; h++) {
                    b[nj][l][0][h] = bq[l][0][h];
                    b[nj][l][1][h] = bq[l][1][h];
                    b[nj + 1][l][0][h] = bq[l][2][h];
                    b[nj + 1][l][1][h] = bq[l][3][h];
                }
        }
        for (int mi = 0; mi < 2; mi++)
            for (int nj = 0; nj < 8; nj++) {
                for (int l = 0; l < 32; l++)
                    memcpy(d[l], acc[l][mi][nj], sizeof d[l]);
                mma_16816(d, a[mi], b[nj]);
                for (int l = 0; l < 32; l++)
                    memcpy(acc[l][mi][nj], d[l], sizeof d[l]);
            }
    }
}

/* The epilogue's stores, as store() in own_gemm.cu: registers (2h, 2h + 1) to columns (col, col + 1). */
static void warp_store(emu *e, int warp, int m0, int n0, float acc[32][2][8][4])
{
    for (int l = 0; l < 32; l++)
        for (int mi = 0; mi < 2; mi++)
            for (int nj = 0; nj < 8; nj++)
                for (int h = 0; h < 2; h++) {
                    const int r = m0 + og_warp_row(warp) + 16 * mi + og_acc_row(l, 2 * h);
                    const int c = n0 + og_warp_col(warp) + 8 * nj + og_acc_col(l, 2 * h);
                    for (int x = 0; x < 2; x++) {
                        e->got[r][c + x] = acc[l][mi][nj][2 * h + x];
                        e->writes[r][c + x]++;
                    }
                }
}

static void check_fragments(void)
{
    emu *e = calloc(1, sizeof *e);
    static float acc[OG_CONSUMER_WARPS][32][2][8][4];
    if (!e) {
        row("fragments: out of memory", 0);
        return;
    }
    for (int i = 0; i < EM; i++)
        for (int k = 0; k < EK; k++)
            e->a[i][k] = (float)((i * 7 + k * 3) % 17 - 8);
    for (int j = 0; j < EN; j++)
        for (int k = 0; k < EK; k++)
            e->b[j][k] = (float)((j * 5 + k * 11) % 13 - 6);
    for (int i = 0; i < EM; i++)
        for (int j = 0; j < EN; j++)
            for (int k = 0; k < EK; k++)
                e->want[i][j] += e->a[i][k] * e->b[j][k];
    for (int tile = 0; tile < og_tiles(EM, EN); tile++) {
        const int m0 = og_tile_row(tile, EN), n0 = og_tile_col(tile, EN);
        memset(acc, 0, sizeof acc);
        for (int kb = 0; kb < EK / OG_BK; kb++) {
            fill_stage(e, m0, n0, kb);
            for (int w = 0; w < OG_CONSUMER_WARPS; w++)
                warp_stage(e, w, acc[w]);
        }
        for (int w = 0; w < OG_CONSUMER_WARPS; w++)
            warp_store(e, w, m0, n0, acc[w]);
    }
    int wrong = 0, not_once = 0;
    for (int i = 0; i < EM; i++)
        for (int j = 0; j < EN; j++) {
            wrong += e->got[i][j] != e->want[i][j];
            not_once += e->writes[i][j] != 1;
        }
    row("fragments: outputs equal a plain GEMM", wrong == 0);
    row("fragments: every output stored once", not_once == 0);
    row("fragments: no read of stage padding", e->stray_reads == 0);
    row("fragments: ldmatrix rows 16-byte aligned, in stage", e->misaligned == 0);
    row("fragments: no shared-memory bank conflict", e->conflicts == 0);
    free(e);
}

/* ---- 2. schedule ---- */

static void check_schedule(void)
{
    static const int shapes[][3] = {
        {128, 128, 132}, {4096, 4096, 132}, {1024, 1024, 132}, {2048, 1152, 132}, {384, 8192, 114}};
    int once = 1, counts = 1, cta0_most = 1, coords = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int m = shapes[s][0], n = shapes[s][1], tiles = og_tiles(m, n), grid = og_grid(tiles, shapes[s][2]);
        int *seen = calloc((size_t)tiles, sizeof *seen), *cover = calloc((size_t)tiles, sizeof *cover);
        if (!seen || !cover) {
            free(seen), free(cover);
            row("schedule: out of memory", 0);
            return;
        }
        for (int c = 0; c < grid; c++) {
            int mine = 0;
            for (int t = c; t < tiles; t += grid) { /* the kernel's loop */
                seen[t]++;
                mine++;
                once = once && og_tile_cta(t, grid) == c;
            }
            counts = counts && mine == og_cta_tiles(c, tiles, grid);
            cta0_most = cta0_most && mine <= og_cta_tiles(0, tiles, grid);
        }
        for (int t = 0; t < tiles; t++) {
            once = once && seen[t] == 1;
            const int r = og_tile_row(t, n), c = og_tile_col(t, n);
            coords = coords && r % OG_BM == 0 && c % OG_BN == 0 && r < m && c < n;
            if (r < m && c < n)
                cover[r / OG_BM * (n / OG_BN) + c / OG_BN]++;
        }
        for (int t = 0; t < tiles; t++)
            coords = coords && cover[t] == 1;
        free(seen);
        free(cover);
    }
    row("schedule: every tile on exactly one CTA", once);
    row("schedule: tiles per CTA as counted", counts);
    row("schedule: CTA 0 runs the most tiles", cta0_most);
    row("schedule: tile origins cover the output once", coords);
}

/* ---- 3. a synthetic run ---- */

#define SYN_M 2048
#define SYN_N 1152
#define SYN_K 256
#define SYN_SMS 132
#define SYN_GHZ 1.5
#define SYN_TICK_NS 32.0
#define SYN_GT0 1000000000ull /* %globaltimer at the kernel's start, a tick edge */
#define SYN_CLK0 5000000ull
#define SYN_REPS 50

/* A record of `phase` from t_ns for dur_ns (clock64 only, as the twins write them). */
static gs_record synth_record(int phase, int tile, uint32_t sm, double t_ns, double dur_ns)
{
    gs_record r;
    memset(&r, 0, sizeof r);
    r.clk_begin = SYN_CLK0 + (uint64_t)(t_ns * SYN_GHZ);
    r.clk_dur = (uint32_t)(dur_ns * SYN_GHZ);
    r.tile = (uint16_t)tile;
    r.phase = (uint8_t)phase;
    r.role = GS_ROLE_CONSUMER;
    r.sm = (uint16_t)sm;
    return r;
}

/* Stores record n of a warp, or only counts it past the capacity (as gs_stamp.cuh does). */
static void synth_put(gs_record *rec, uint32_t cap, uint32_t *n, gs_record r)
{
    if (*n < cap)
        rec[*n] = r;
    (*n)++;
}

/* The records one consumer warp of CTA `cta` writes, in the detail twin's order (each at its
 * GS_END): per tile WAIT and MMA per K block (the sub-phase warps), MAINLOOP, EPILOGUE, STORE.
 * Returns the records tried; *end_ns: when the warp finishes. */
static uint32_t synth_warp(const og_geometry *g, uint32_t cta, int warp, gs_record *rec, uint32_t cap, double *end_ns)
{
    const int sub = og_sub_warp(warp);
    const double mma_ns = 500.0, epilogue_ns = 120.0, store_ns = 200.0;
    uint32_t n = 0;
    double t = 64.0; /* ns after the kernel's start */
    for (int tile = (int)cta; tile < g->tiles; tile += g->grid) {
        const double main0 = t;
        for (int kb = 0; kb < g->kblocks; kb++) {
            const double wait_ns = kb < OG_STAGES ? 300.0 : 40.0; /* the ring's first fill */
            if (sub) {
                synth_put(rec, cap, &n, synth_record(OG_PHASE_WAIT, tile, cta, t, wait_ns));
                synth_put(rec, cap, &n, synth_record(OG_PHASE_MMA, tile, cta, t + wait_ns, mma_ns));
            }
            t += wait_ns + mma_ns;
        }
        synth_put(rec, cap, &n, synth_record(GS_MAINLOOP, tile, cta, main0, t - main0));
        synth_put(rec, cap, &n, synth_record(GS_EPILOGUE, tile, cta, t, epilogue_ns));
        synth_put(rec, cap, &n, synth_record(GS_STORE, tile, cta, t + epilogue_ns, store_ns));
        t += epilogue_ns + store_ns;
    }
    *end_ns = t + 64.0;
    return n;
}

/* A warp's header: edge pairs at the start and end (the end on the first tick after end_ns). */
static void synth_header(gs_warp_header *h, uint32_t cta, int warp, uint32_t events, double end_ns)
{
    const uint64_t end_gt = SYN_GT0 + (uint64_t)(ceil(end_ns / SYN_TICK_NS) * SYN_TICK_NS);
    memset(h, 0, sizeof *h);
    h->gt_start = SYN_GT0;
    h->clk_start = SYN_CLK0;
    h->gt_end = end_gt;
    h->clk_end = SYN_CLK0 + (uint64_t)((double)(end_gt - SYN_GT0) * SYN_GHZ);
    h->cta = cta;
    h->warp = (uint16_t)warp;
    h->sm = (uint16_t)cta;
    h->events = events;
    h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
}

/* The stamps of every warp (CTA c on SM c; the producer records nothing); -1 out of memory.
 * *dropped: records past the capacity. */
static int synth_stamps(const og_geometry *g, gs_warp_header **hs, gs_record **rs, unsigned long long *dropped)
{
    const size_t warps = (size_t)g->grid * OG_WARPS;
    *hs = calloc(warps, sizeof **hs);
    *rs = calloc(warps * g->events_per_warp, sizeof **rs);
    if (!*hs || !*rs)
        return -1;
    *dropped = 0;
    for (uint32_t c = 0; c < (uint32_t)g->grid; c++) {
        double cta_end = 0;
        for (int w = 0; w < OG_CONSUMER_WARPS; w++) {
            const size_t slot = (size_t)c * OG_WARPS + (size_t)w;
            double end = 0;
            const uint32_t n = synth_warp(g, c, w, *rs + slot * g->events_per_warp, g->events_per_warp, &end);
            *dropped += n > g->events_per_warp ? n - g->events_per_warp : 0;
            synth_header(*hs + slot, c, w, n, end);
            cta_end = end > cta_end ? end : cta_end;
        }
        synth_header(*hs + (size_t)c * OG_WARPS + OG_CONSUMER_WARPS, c, OG_CONSUMER_WARPS, 0, cta_end);
    }
    return 0;
}

/* production, twin and detail twin at fixed ratios, a little noise */
static int synth_timings(gs_rundir *rd, char *err, size_t errlen)
{
    static const char *const builds[] = {"production", "twin", "detail"};
    static const double base_ms[] = {0.100, 0.102, 0.110};
    double ms[SYN_REPS];
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < SYN_REPS; i++)
            ms[i] = base_ms[b] * (1.0 + 0.001 * (i % 7));
        if (gs_rundir_timing(rd, builds[b], ms, SYN_REPS, err, errlen))
            return -1;
    }
    return 0;
}

static int synth_run(const char *dir)
{
    og_geometry g;
    gs_rundir rd;
    char err[512];
    gs_warp_header *hs = NULL;
    gs_record *rs = NULL;
    unsigned long long dropped = 0;
    const og_run_info info = {"selfcheck (synthetic stamps)", SYN_REPS, 5};
    int rc = -1;
    if (og_geometry_make(SYN_M, SYN_N, SYN_K, SYN_SMS, &g, err, sizeof err) ||
        gs_rundir_begin(&rd, dir, err, sizeof err)) {
        fprintf(stderr, "selfcheck: %s\n", err);
        return -1;
    }
    gs_meta *m = &rd.meta;
    if (gs_meta_set(m, "gpu", "synthetic") || gs_meta_set(m, "sm_count", "%d", SYN_SMS) ||
        gs_meta_set(m, "compute_capability", "9.0") || gs_meta_set(m, "correct", "1") ||
        og_run_describe(&rd, &g, &info, err, sizeof err) || synth_timings(&rd, err, sizeof err))
        goto out;
    if (synth_stamps(&g, &hs, &rs, &dropped)) {
        snprintf(err, sizeof err, "out of memory");
        goto out;
    }
    row("synthetic run: stamp capacity holds every record", dropped == 0);
    if (gs_rundir_stamps(&rd, SYN_TICK_NS, (uint32_t)g.grid, OG_WARPS, g.events_per_warp, hs, rs, err, sizeof err) ||
        gs_rundir_commit(&rd, err, sizeof err))
        goto out;
    rc = 0;
out:
    if (rc) {
        fprintf(stderr, "selfcheck: %s\n", err);
        gs_rundir_abort(&rd);
    }
    free(hs);
    free(rs);
    row("synthetic run: written", rc == 0);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: selfcheck [RUN-DIR-TO-WRITE]\n");
        return 2;
    }
    check_fragments();
    check_schedule();
    if (argc == 2)
        synth_run(argv[1]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
