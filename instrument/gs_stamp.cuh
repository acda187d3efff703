/* Phase stamps for CUDA kernels.
 *
 *   gs_ctx gs;                         // one per thread
 *   GS_INIT(gs, buf, GS_ROLE_ALL);     // first thing in the kernel (buf: gs_buffer param)
 *   GS_TILE(gs, tile, group);          // tags the records that follow
 *   GS_BEGIN(gs, GS_MAINLOOP); ...  GS_END(gs, GS_MAINLOOP);
 *   GS_FINISH(gs);                     // last thing every warp does
 *
 * Compiled with -DGS_TWIN=1 (the instrumented twin) GS_INIT and GS_FINISH take a
 * (%globaltimer, clock64) pair at a timer edge, GS_BEGIN/GS_END read clock64 and lane 0
 * of the warp stores a record; without it
 * every macro is empty and the kernel's PTX has no timer read and no stamp store.
 * Phase arguments must be compile-time constants: the begin clocks then live in
 * registers, never in local memory.  Call the macros warp-uniformly. */
#ifndef GS_STAMP_CUH
#define GS_STAMP_CUH

#include "gs_format.h"

/* Kernel and launcher names get a suffix per build, so every build links into one program:
 * GS_TWIN=1 is the twin (GS_BEGIN/GS_END stamps), GS_TWIN=2 the detail twin, which also
 * records the GS_SUB_BEGIN/GS_SUB_END stamps that hot loops use for their sub-phases. */
#if defined(GS_TWIN) && GS_TWIN >= 2
#define GS_SYM(name) name##_detail
#elif defined(GS_TWIN) && GS_TWIN
#define GS_SYM(name) name##_twin
#else
#define GS_SYM(name) name##_prod
#endif

#if defined(GS_TWIN) && GS_TWIN

/* Twin-overhead study (scripts/twin-overhead.sh): GS_STAMP_ABLATE removes the twin's
 * work a piece at a time.  0 (default): the full twin.  1: GS_END reads the clock but
 * stores no record.  2: GS_BEGIN/GS_END do nothing.  3: as 2, and GS_INIT/GS_FINISH read
 * their pair without waiting for a timer edge.  4: as 3 without the header stores (a twin
 * that does nothing: its time against the production build is the measurement's noise).
 * Only for timing: an ablated twin's buffer is not a recording (headers count records that
 * were never stored). */
#ifndef GS_STAMP_ABLATE
#define GS_STAMP_ABLATE 0
#endif

/* The twin stamps once per phase of a tile, so a warp carries between stamps only what
 * cannot be recomputed: the consumer main loops of the NVFP4 GEMM use every register they
 * are allowed, and each register the twin held through them cost a spill (docs/method.md,
 * "Twin overhead").  Buffer fields are the kernel parameter's (constant-bank operands, no
 * register); the warp's slot, lane and SM are read again where a record is stored.  The
 * detail twin stamps inside the main loops, where reading them again at every stamp costs
 * more than holding them (GS_HOLD_SLOT). */
#ifndef GS_HOLD_SLOT
#define GS_HOLD_SLOT (GS_TWIN >= 2)
#endif
struct gs_ctx {
    gs_buffer b;
    uint32_t n;                   /* records this warp tried to store */
    uint32_t tag;                 /* tile | group << 16, set by GS_TILE */
    uint32_t flags;               /* role | GS_CTX_SUB (this warp records GS_SUB_* stamps) */
    uint32_t clk0[GS_NUM_PHASES]; /* low 32 bits of clock64 at GS_BEGIN */
#if GS_HOLD_SLOT
    gs_record *seg; /* the warp's records */
    uint16_t sm;
    bool writer; /* lane 0 */
#endif
};
#define GS_CTX_SUB 0x100u

__device__ __forceinline__ uint64_t gs_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ uint64_t gs_clock(void)
{
    uint64_t c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

__device__ __forceinline__ uint32_t gs_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* Special registers read where they are used (volatile: never hoisted to the kernel's start
 * and kept live through its loops). */
__device__ __forceinline__ uint32_t gs_lane(void)
{
    uint32_t l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

/* Linear CTA index. */
__device__ __forceinline__ uint32_t gs_cta_index(void)
{
    uint32_t x, y, z, nx, ny;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(x));
    asm volatile("mov.u32 %0, %%ctaid.y;" : "=r"(y));
    asm volatile("mov.u32 %0, %%ctaid.z;" : "=r"(z));
    asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(nx));
    asm volatile("mov.u32 %0, %%nctaid.y;" : "=r"(ny));
    return x + nx * (y + ny * z);
}

/* Warp index inside the CTA. */
__device__ __forceinline__ uint32_t gs_warp_index(void)
{
    uint32_t tid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    return tid >> 5;
}

/* The calling warp's index in the buffer. */
__device__ __forceinline__ uint32_t gs_warp_slot(const gs_buffer &b)
{
    return gs_cta_index() * b.warps_per_cta + gs_warp_index();
}

/* A (globaltimer, clock64) pair taken right after a timer tick edge. */
__device__ __forceinline__ void gs_edge_pair(uint64_t *gt, uint64_t *clk)
{
    uint64_t g0 = gs_globaltimer(), g = g0;
    if (GS_STAMP_ABLATE < 3)
        do {
            g = gs_globaltimer();
        } while (g == g0);
    *clk = gs_clock();
    *gt = g;
}

__device__ __forceinline__ void gs_init(gs_ctx &c, const gs_buffer &b, uint8_t role)
{
    c.b = b;
    c.n = 0;
    c.tag = 0;
    c.flags = role | GS_CTX_SUB;
    const uint32_t cta = gs_cta_index(), warp = gs_warp_index(), slot = cta * b.warps_per_cta + warp;
#if GS_HOLD_SLOT
    c.seg = b.records + (uint64_t)slot * b.capacity;
    c.sm = (uint16_t)gs_smid();
    c.writer = gs_lane() == 0;
#endif
    if (GS_STAMP_ABLATE < 4 && gs_lane() == 0) {
        gs_warp_header *h = b.warps + slot;
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_start = gt;
        h->clk_start = clk;
        h->cta = cta;
        h->warp = (uint16_t)warp;
        h->sm = (uint16_t)gs_smid();
        h->flags = GS_WARP_STARTED;
    }
}

/* Records read clock64 alone: every read is work on the kernel's critical path (per-stage
 * stamps sit inside main loops), and the analyzers place every record from clk_begin
 * through the per-SM cycles->ns fit of the warp headers' edge pairs.  gt_begin and gt_dur
 * are written as 0 ("not sampled", docs/stamp-format.md).  The begin clock is kept as its
 * low 32 bits: the end clock less the 32-bit duration restores it exactly (phases are far
 * shorter than 2^32 cycles). */
__device__ __forceinline__ void gs_end(gs_ctx &c, uint8_t phase, uint32_t clk0)
{
    uint64_t clk1 = gs_clock();
#if GS_HOLD_SLOT
    const bool writer = c.writer;
#else
    const bool writer = gs_lane() == 0;
#endif
    if (GS_STAMP_ABLATE < 1 && writer && c.n < c.b.capacity) {
        const uint32_t dur = (uint32_t)clk1 - clk0;
        gs_record r;
        r.gt_begin = 0;
        r.clk_begin = clk1 - dur;
        r.clk_dur = dur;
        r.gt_dur = 0;
        r.tile = (uint16_t)c.tag;
        r.group = (uint16_t)(c.tag >> 16);
        r.phase = phase;
        r.role = (uint8_t)c.flags;
#if GS_HOLD_SLOT
        r.sm = c.sm;
        gs_record *const seg = c.seg;
#else
        r.sm = (uint16_t)gs_smid();
        gs_record *const seg = c.b.records + (uint64_t)gs_warp_slot(c.b) * c.b.capacity;
#endif
        /* two 16-byte stores */
        const uint4 *src = reinterpret_cast<const uint4 *>(&r);
        uint4 *dst = reinterpret_cast<uint4 *>(seg + c.n);
        dst[0] = src[0];
        dst[1] = src[1];
    }
    c.n++;
}

__device__ __forceinline__ void gs_finish(gs_ctx &c)
{
    if (GS_STAMP_ABLATE < 4 && gs_lane() == 0) {
        gs_warp_header *h = c.b.warps + gs_warp_slot(c.b);
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_end = gt;
        h->clk_end = clk;
        h->events = c.n;
        h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
    }
}

#define GS_INIT(c, buf, role) gs_init((c), (buf), (role))
#define GS_SET_ROLE(c, r) ((c).flags = ((c).flags & ~0xFFu) | (uint8_t)(r))
#define GS_TILE(c, t, g) ((c).tag = (uint32_t)(uint16_t)(t) | (uint32_t)(uint16_t)(g) << 16)
#define GS_FINISH(c) gs_finish(c)
#if GS_STAMP_ABLATE >= 2
#define GS_BEGIN(c, ph) ((void)(c))
#define GS_END(c, ph) ((void)(c))
#else
#define GS_BEGIN(c, ph) ((c).clk0[ph] = (uint32_t)gs_clock())
#define GS_END(c, ph) gs_end((c), (uint8_t)(ph), (c).clk0[ph])
#endif
#if GS_TWIN >= 2
#define GS_SUB_ENABLE(c, on) ((c).flags = (on) ? (c).flags | GS_CTX_SUB : (c).flags & ~GS_CTX_SUB)
#define GS_SUB_BEGIN(c, ph) (((c).flags & GS_CTX_SUB) ? (void)GS_BEGIN(c, ph) : (void)0)
#define GS_SUB_END(c, ph) (((c).flags & GS_CTX_SUB) ? GS_END(c, ph) : (void)0)
#else
#define GS_SUB_ENABLE(c, on) ((void)(c), (void)(on))
#define GS_SUB_BEGIN(c, ph) ((void)(c))
#define GS_SUB_END(c, ph) ((void)(c))
#endif

#else /* production build: nothing at all */

struct gs_ctx {
};
#define GS_INIT(c, buf, role) ((void)(c), (void)(buf), (void)(role))
#define GS_SET_ROLE(c, r) ((void)(c), (void)(r))
#define GS_TILE(c, t, g) ((void)(c), (void)(t), (void)(g))
#define GS_BEGIN(c, ph) ((void)(c))
#define GS_END(c, ph) ((void)(c))
#define GS_FINISH(c) ((void)(c))
#define GS_SUB_ENABLE(c, on) ((void)(c), (void)(on))
#define GS_SUB_BEGIN(c, ph) ((void)(c))
#define GS_SUB_END(c, ph) ((void)(c))

#endif
#endif
