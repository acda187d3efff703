/* Tile schedule of the NVFP4 kernel: which output tiles exist for a shape and tile size,
 * how many token columns each one really computes, and which CTA runs which tiles.
 * Pure C (no CUDA): the host builds it once per (shape, tile, persistence), uploads it,
 * and the checks walk the same schedule to know what every stamp buffer must contain. */
#ifndef NVFP4_SCHEDULE_H
#define NVFP4_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* K elements one pipeline stage of the kernel covers (two 64-wide scale atoms). */
#define NVFP4_BK 128
/* The token (wgmma N) width of a tile is rounded up to this many columns. */
#define NVFP4_N_STEP 32

/* One unit of work: output tile weight rows [wtile*tile_w, +tile_w) x token rows
 * [ttile*tile_t, +n_eff) of group `group`, over the K blocks [kb0, kb1) of NVFP4_BK;
 * n_eff = the valid token rows rounded up to the schedule's width step (<= tile_t).
 * Without split K every unit is a whole tile (kb0 = 0, kb1 = K / NVFP4_BK, parts = 1).
 * With split K a tile may be cut into `parts` K ranges on different CTAs: part 0
 * (kb0 = 0) owns the tile: it waits for the others' fp32 partial sums, adds them in part
 * order and stores C; part p > 0 writes its partial sum to workspace buffer pbuf and
 * signals flag `slot`.  The owner's pbuf is the first of its tile's parts - 1 buffers. */
typedef struct nvfp4_tile {
    uint16_t group, ttile, wtile, n_eff;
    uint16_t kb0, kb1;
    uint8_t part, parts;
    uint16_t slot; /* split tiles only: index of the tile's arrival flags */
    uint32_t pbuf; /* split tiles only: partial-sum buffer (see above) */
} nvfp4_tile;

typedef struct nvfp4_schedule {
    int ntiles, grid;  /* ntiles = units (whole tiles, or parts of split ones) */
    nvfp4_tile *tiles; /* ntiles entries, grouped by CTA, in the order each CTA runs them */
    int *cta_first;    /* grid + 1 entries: CTA b runs tiles [cta_first[b], cta_first[b+1]) */
    int split_tiles;   /* tiles cut into parts (flag slots) */
    int partial_bufs;  /* workspace buffers of tile_w x tile_t floats */
} nvfp4_schedule;

/* Smallest K range (in NVFP4_BK blocks) a split part gets: below it the exchange of the
 * partial sums would cost more than the work it moves. */
#define NVFP4_MIN_PART_KB 4

/* Split K modes of the schedule (the variant's split_k knob). */
enum { NVFP4_SPLIT_NONE = 0, NVFP4_SPLIT_DEAL = 1, NVFP4_SPLIT_REBALANCE = 2, NVFP4_SPLIT_PAIR = 3 };

/* Relative cost of a tile: the weight dequantisation and the fixed work of a stage scale
 * with K x tile_w whatever the width, the wgmmas with K x n_eff.  The weightings, each
 * measured on the H100 (docs/variants.md):
 * - whole tiles and the dealt split K: equal weights, K x (n_eff + tile_w); the refitted
 *   weights below made the deal slower (its cuts multiplied);
 * - the rebalanced split K: ns per K block of 128-row tiles by width (NVFP4_KB_NS: medians of
 *   the whole tiles' MAINLOOP per K block in the twin's recording of g8k7168,
 *   samples/studies/g8k7168-twin; 32 and 224 are not benchmark widths: 32 as 64, 224 between its
 *   neighbours), and every handed-over part NVFP4_PART_NS more (split_rebalance; the fit of
 *   that recording's CTA end times).  Other tile heights: 3/2 (2 n_eff + 3 tile_w), the
 *   earlier weighting in the same unit (1344 at 256 x 128, where the table has 1341).  Not faster than
 *   that earlier weighting (g8k7168 124.58 against 124.67 us, H100), but it evens out the
 *   twin's SM end times (102.2-119.6 us -> 108.0-112.9), which the earlier one did not. */
/* The dealt split K's fixed costs at tile_t 256, in quarter K blocks of the tile (schedule.c,
 * deal_pass): a part's partial-sum store, an owner's read of one part's partial sums, and a
 * tile's epilogue and store each cost 2.25 K blocks.  In the H200 recording of d512n3072k7168
 * made at eef24af (samples/, as committed in c4b8d2c) a part's store took 2.74 us, an owner's read 2.7 us a part, its
 * epilogue and store without them 2.6 us, a K block 1.2 us. */
#define NVFP4_DEAL_FIXED_QKB 9
#define NVFP4_KB_NS {750, 750, 768, 861, 1090, 1191, 1266, 1341} /* n_eff 32, 64, ..., 256 */
#define NVFP4_PART_NS 2640
static inline long long nvfp4_tile_cost(int split, int K, int n_eff, int tile_w)
{
    static const int kb_ns[] = NVFP4_KB_NS;
    if (split != NVFP4_SPLIT_REBALANCE)
        return (long long)K * (long long)(n_eff + tile_w);
    const long long kbs = K / NVFP4_BK;
    if (tile_w == 128 && n_eff % 32 == 0 && n_eff >= 32 && n_eff <= 256)
        return kbs * kb_ns[n_eff / 32 - 1];
    return kbs * (long long)(3 * n_eff + 9 * tile_w / 2);
}
/* A unit's cost in its schedule's weighting: its K range, and a handed-over part's extra. */
static inline long long nvfp4_unit_cost(int split, const nvfp4_tile *u, int tile_w)
{
    return nvfp4_tile_cost(split, (u->kb1 - u->kb0) * NVFP4_BK, u->n_eff, tile_w) +
           (split == NVFP4_SPLIT_REBALANCE && u->part > 0 ? NVFP4_PART_NS : 0);
}
/* Builds the schedule.  Tiles are ordered by decreasing nvfp4_tile_cost; one CTA per tile,
 * or with `persistent` min(tiles, sms) CTAs, each tile going to the least-loaded CTA
 * (longest-processing-time first).  Split K (persistent only; all `sms` CTAs take part):
 * - NVFP4_SPLIT_DEAL: the sorted tiles are dealt out in order; a tile that overflows a CTA's
 *   share is cut at a K block, its first part (the owner) ends that CTA's list and the rest
 *   starts the next CTA's.  At tile_t <= 128 every CTA takes the same share of the total cost;
 *   above it the shares count each part's store, the owner's reads and a tile's epilogue
 *   (NVFP4_DEAL_FIXED_QKB), and an owner reads only after its parts have stored (schedule.c,
 *   deal_pass);
 * - NVFP4_SPLIT_REBALANCE: the whole-tile assignment first, then the most loaded CTA hands
 *   K blocks from the end of its last tile to the least-loaded one, until each is within
 *   half a minimal part of the mean or no move lowers the most loaded; it keeps the part
 *   from K = 0 (the owner, last on its list), each handed-over range runs before any whole
 *   tile on the CTA that takes it.
 * Either way an owner only waits for parts that run before anything that waits.
 * - NVFP4_SPLIT_PAIR: the CTAs run in clusters of two (grid = 2 x min(tiles, sms / 2)); the
 *   tiles go to the clusters as whole tiles do to CTAs, and both CTAs of a cluster run each of
 *   its tiles, CTA 2c + r the K blocks of half r (part r of 2, [0, K/2) and [K/2, K) in
 *   NVFP4_BK blocks): the two exchange their partial sums through each other's shared memory,
 *   with no workspace or flags (split_tiles and partial_bufs stay 0).  Every tile needs an
 *   even number of K blocks (the two CTAs' rings stay in step).
 * 0, or -1 with a one-line reason in err. */
int nvfp4_schedule_build(const nvfp4_shape *s, int tile_w, int tile_t, int persistent, int split, int sms,
                         nvfp4_schedule *out, char *err, size_t errlen);
void nvfp4_schedule_free(nvfp4_schedule *sc);

/* 1 when every unit of sc computes its tile's full height (n_eff == tile_t), else 0: the
 * launcher then runs a gate-1 point's one-width kernel (gemm.cu, FULL_WIDTH), whose tiles all
 * take the wgmma width tile_t. */
int nvfp4_schedule_full_width(const nvfp4_schedule *sc, int tile_t);

/* Stamp records one consumer warp writes for one unit of `kblocks` K blocks: MAINLOOP +
 * ACC_TO_REG + EPILOGUE + STORE, and in the detail twin (LOAD_WAIT, DEQUANT, MMA) per stage. */
#define NVFP4_TILE_EVENTS(kblocks, detail) (4u + ((detail) ? 3u * (unsigned)(kblocks) : 0u))

/* The K permutation inside every block of NVFP4_BK: physical element P (as stored) is
 * used at logical position nvfp4_kperm(P) by both operands.  With P = 32c + 8i + 4h + p
 * (c, i, p < 4, h < 2), thread lane c of a quad reads the 16 bytes 16c..16c+15 of a
 * weight row and finds, in word i, the pair of nibbles (p, p + 4) that the register
 * fragment of k16 step 2i + p/2 needs at columns 2c + 8(p%2) + h. */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int nvfp4_kperm(int P)
{
    const int blk = P & ~(NVFP4_BK - 1), q = P & (NVFP4_BK - 1);
    const int c = q >> 5, i = (q >> 3) & 3, h = (q >> 2) & 1, p = q & 3;
    return blk + 32 * i + 16 * (p >> 1) + 8 * (p & 1) + 2 * c + h;
}

#ifdef __cplusplus
}
#endif
#endif
