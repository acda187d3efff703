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

struct gs_ctx {
    gs_record *seg;
    gs_warp_header *hdr;
    uint32_t capacity;
    uint32_t n;
    uint16_t tile, group, sm;
    uint8_t role;
    bool writer;
    bool sub; /* this warp records GS_SUB_* stamps (detail twin); GS_SUB_ENABLE changes it */
    uint64_t clk0[GS_NUM_PHASES];
};

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

/* A (globaltimer, clock64) pair taken right after a timer tick edge. */
__device__ __forceinline__ void gs_edge_pair(uint64_t *gt, uint64_t *clk)
{
    uint64_t g0 = gs_globaltimer(), g;
    do {
        g = gs_globaltimer();
    } while (g == g0);
    *clk = gs_clock();
    *gt = g;
}

__device__ __forceinline__ void gs_init(gs_ctx &c, const gs_buffer &b, uint8_t role)
{
    uint32_t warp = threadIdx.x >> 5;
    uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    uint32_t w = cta * b.warps_per_cta + warp;
    c.seg = b.records + (uint64_t)w * b.capacity;
    c.hdr = b.warps + w;
    c.capacity = b.capacity;
    c.n = 0;
    c.tile = 0;
    c.group = 0;
    c.sm = (uint16_t)gs_smid();
    c.role = role;
    c.writer = (threadIdx.x & 31) == 0;
    c.sub = true;
    if (c.writer) {
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        c.hdr->gt_start = gt;
        c.hdr->clk_start = clk;
        c.hdr->cta = cta;
        c.hdr->warp = (uint16_t)warp;
        c.hdr->sm = c.sm;
        c.hdr->flags = GS_WARP_STARTED;
    }
}

/* Records read clock64 alone: every read is work on the kernel's critical path (per-stage
 * stamps sit inside main loops), and the analyzers place every record from clk_begin
 * through the per-SM cycles->ns fit of the warp headers' edge pairs.  gt_begin and gt_dur
 * are written as 0 ("not sampled", docs/stamp-format.md). */
__device__ __forceinline__ void gs_end(gs_ctx &c, uint8_t phase, uint64_t clk0)
{
    uint64_t clk1 = gs_clock();
    if (c.writer && c.n < c.capacity) {
        gs_record r;
        r.gt_begin = 0;
        r.clk_begin = clk0;
        r.clk_dur = (uint32_t)(clk1 - clk0);
        r.gt_dur = 0;
        r.tile = c.tile;
        r.group = c.group;
        r.phase = phase;
        r.role = c.role;
        r.sm = c.sm;
        /* two 16-byte stores */
        const uint4 *src = reinterpret_cast<const uint4 *>(&r);
        uint4 *dst = reinterpret_cast<uint4 *>(c.seg + c.n);
        dst[0] = src[0];
        dst[1] = src[1];
    }
    c.n++;
}

__device__ __forceinline__ void gs_finish(gs_ctx &c)
{
    if (c.writer) {
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        c.hdr->gt_end = gt;
        c.hdr->clk_end = clk;
        c.hdr->events = c.n;
        c.hdr->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
    }
}

#define GS_INIT(c, buf, role) gs_init((c), (buf), (role))
#define GS_SET_ROLE(c, r) ((c).role = (uint8_t)(r))
#define GS_TILE(c, t, g) ((c).tile = (uint16_t)(t), (c).group = (uint16_t)(g))
#define GS_BEGIN(c, ph) ((c).clk0[ph] = gs_clock())
#define GS_END(c, ph) gs_end((c), (uint8_t)(ph), (c).clk0[ph])
#define GS_FINISH(c) gs_finish(c)
#if GS_TWIN >= 2
#define GS_SUB_ENABLE(c, on) ((c).sub = (on))
#define GS_SUB_BEGIN(c, ph) ((c).sub ? (void)GS_BEGIN(c, ph) : (void)0)
#define GS_SUB_END(c, ph) ((c).sub ? GS_END(c, ph) : (void)0)
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
