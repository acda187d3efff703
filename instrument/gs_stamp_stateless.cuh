/* Study: a twin (GS_TWIN=1) that holds nothing in registers between stamps.  The buffer is
 * read from constant memory (set by the launcher, gs_stateless_bind), each warp's record
 * count, tile tag, role and begin clocks live in shared memory, the warp's slot is read
 * from special registers where a record is stored.  Included by gs_stamp.cuh. */
#ifndef GS_STAMP_STATELESS_CUH
#define GS_STAMP_STATELESS_CUH

static __constant__ gs_buffer gs_cbuf;
/* each read a volatile one: never shared with another read, never hoisted */
__device__ __forceinline__ gs_warp_header *gs_cb_warps(void) { return *(gs_warp_header *const volatile *)&gs_cbuf.warps; }
__device__ __forceinline__ gs_record *gs_cb_records(void) { return *(gs_record *const volatile *)&gs_cbuf.records; }
__device__ __forceinline__ uint32_t gs_cb_capacity(void) { return *(const volatile uint32_t *)&gs_cbuf.capacity; }
__device__ __forceinline__ uint32_t gs_cb_wpc(void) { return *(const volatile uint32_t *)&gs_cbuf.warps_per_cta; }

#define GS_SL_MAX_WARPS 16
struct gs_sl_warp {
    uint32_t n, tag, flags, pad;
    uint32_t clk0[GS_NUM_FIXED_PHASES + 3];
};
static __shared__ gs_sl_warp gs_sl[GS_SL_MAX_WARPS];

struct gs_ctx {
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
__device__ __forceinline__ uint32_t gs_lane(void)
{
    uint32_t l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}
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
__device__ __forceinline__ uint32_t gs_warp_index(void)
{
    uint32_t tid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    return tid >> 5;
}
__device__ __forceinline__ uint32_t gs_warp_slot(const gs_buffer &b)
{
    return gs_cta_index() * b.warps_per_cta + gs_warp_index();
}
__device__ __forceinline__ void gs_edge_pair(uint64_t *gt, uint64_t *clk)
{
    uint64_t g0 = gs_globaltimer(), g = g0;
    do {
        g = gs_globaltimer();
    } while (g == g0);
    *clk = gs_clock();
    *gt = g;
}

__device__ __forceinline__ void gs_sl_init(uint8_t role)
{
    gs_sl_warp &w = gs_sl[gs_warp_index()];
    w.n = 0;
    w.tag = 0;
    w.flags = role;
    if (gs_lane() == 0) {
        const uint32_t cta = gs_cta_index(), warp = gs_warp_index();
        gs_warp_header *h = gs_cb_warps() + cta * gs_cb_wpc() + warp;
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_start = gt;
        h->clk_start = clk;
        h->cta = cta;
        h->warp = (uint16_t)warp;
        h->sm = (uint16_t)gs_smid();
        h->flags = GS_WARP_STARTED;
    }
    __syncwarp();
}

__device__ __forceinline__ void gs_sl_begin(uint32_t ph)
{
    const uint32_t c = (uint32_t)gs_clock();
    gs_sl[gs_warp_index()].clk0[ph] = c;
}

__device__ __forceinline__ void gs_sl_end(uint32_t ph)
{
    const uint64_t clk1 = gs_clock();
    gs_sl_warp &w = gs_sl[gs_warp_index()];
    const uint32_t n = w.n, dur = (uint32_t)clk1 - w.clk0[ph];
    __syncwarp();
    if (gs_lane() == 0) {
        w.n = n + 1;
        if (n < gs_cb_capacity()) {
            gs_record r;
            r.gt_begin = 0;
            r.clk_begin = clk1 - dur;
            r.clk_dur = dur;
            r.gt_dur = 0;
            r.tile = (uint16_t)w.tag;
            r.group = (uint16_t)(w.tag >> 16);
            r.phase = (uint8_t)ph;
            r.role = (uint8_t)w.flags;
            r.sm = (uint16_t)gs_smid();
            gs_record *dst = gs_cb_records() + (uint64_t)(gs_cta_index() * gs_cb_wpc() + gs_warp_index()) * gs_cb_capacity() + n;
            const uint4 *src = reinterpret_cast<const uint4 *>(&r);
            uint4 *d = reinterpret_cast<uint4 *>(dst);
            d[0] = src[0];
            d[1] = src[1];
        }
    }
    __syncwarp();
}

__device__ __forceinline__ void gs_sl_finish(void)
{
    __syncwarp();
    if (gs_lane() == 0) {
        const uint32_t n = gs_sl[gs_warp_index()].n;
        gs_warp_header *h = gs_cb_warps() + (gs_cta_index() * gs_cb_wpc() + gs_warp_index());
        uint64_t gt, clk;
        gs_edge_pair(&gt, &clk);
        h->gt_end = gt;
        h->clk_end = clk;
        h->events = n;
        h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
    }
}

__device__ __forceinline__ void gs_sl_finish_noclk(void)
{
    const uint32_t n = gs_sl[gs_warp_index()].n;
    gs_warp_header *h = gs_cb_warps() + (gs_cta_index() * gs_cb_wpc() + gs_warp_index());
    h->events = n;
    h->flags = GS_WARP_STARTED | GS_WARP_FINISHED;
}

/* the clock sampler, as gs_stamp.cuh's, its state in its own registers (its warp does nothing else) */
static __shared__ uint64_t gs_clock_bar;
__device__ __forceinline__ uint32_t gs_clock_bar_addr(void)
{
    return (uint32_t)__cvta_generic_to_shared(&gs_clock_bar);
}
__device__ __forceinline__ void gs_clock_init(uint32_t workers)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(gs_clock_bar_addr()), "r"(workers) : "memory");
}
__device__ __forceinline__ void gs_clock_done(void)
{
    if (gs_lane() == 0)
        asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(gs_clock_bar_addr())
                     : "memory");
}
constexpr unsigned GS_CLOCK_POLL_NS = 64;
__device__ __forceinline__ uint32_t gs_clock_workers_done(void)
{
    uint32_t done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(gs_clock_bar_addr())
                 : "memory");
    if (!done)
        __nanosleep(GS_CLOCK_POLL_NS);
    return done;
}
__device__ __forceinline__ bool gs_bracketed_edge_pair(uint64_t *gt, uint64_t *clk, uint32_t *width)
{
    const uint64_t g0 = gs_globaltimer();
#if GS_SAMP & 16
#pragma unroll 1
#endif
    for (int i = 0; i < 256; i++) {
        const uint64_t c0 = gs_clock(), g = gs_globaltimer(), c1 = gs_clock();
        if (g != g0) {
            *gt = g;
            *width = (uint32_t)(c1 - c0);
            *clk = c0 + *width / 2;
            return *width <= GS_CLOCK_BRACKET_MAX;
        }
    }
    return false;
}
#ifndef GS_SAMP
#define GS_SAMP 0
#endif
#if GS_SAMP & 32
__device__ __noinline__ void gs_sl_sampler(void)
#else
__device__ __forceinline__ void gs_sl_sampler(void)
#endif
{
    if (gs_lane() != 0)
        return;
    gs_record *const seg = gs_cb_records() + (uint64_t)(gs_cta_index() * gs_cb_wpc() + gs_warp_index()) * gs_cb_capacity();
    const uint16_t sm = (uint16_t)gs_smid();
    const uint32_t cap = gs_cb_capacity() < GS_CLOCK_SAMPLES ? gs_cb_capacity() : GS_CLOCK_SAMPLES;
    const uint8_t role = (uint8_t)gs_sl[gs_warp_index()].flags;
    uint32_t n = 0;
    uint64_t next = 0;
    int tries = 64;
    do {
        if (n < cap && gs_globaltimer() >= next) {
            uint64_t gt, clk;
            uint32_t width;
#if GS_SAMP & 2
            gt = gs_globaltimer(); clk = gs_clock(); width = 0; bool ok = true;
#else
            bool ok = gs_bracketed_edge_pair(&gt, &clk, &width);
#endif
#if !(GS_SAMP & 1)
            while (!ok && n == 0 && --tries > 0)
                ok = gs_bracketed_edge_pair(&gt, &clk, &width);
#endif
            if (!ok)
                continue;
#if GS_SAMP & 8
            seg[n].gt_begin = gt; n++;
#else
            gs_record r = {};
            r.gt_begin = gt;
            r.clk_begin = clk;
            r.clk_dur = width;
            r.phase = (uint8_t)GS_CLOCK_PAIR;
            r.role = role;
            r.sm = sm;
            seg[n++] = r;
#endif
            next = gt + GS_CLOCK_PERIOD_NS;
        }
#if GS_SAMP & 4
    } while (n < 4);
#else
    } while (!gs_clock_workers_done());
#endif
    gs_sl[gs_warp_index()].n = n;
}

#ifndef GS_SLX
#define GS_SLX 0
#endif
#if GS_SLX & 12
#define GS_INIT(c, buf, role) ((void)(c), (void)(buf), (void)(role))
#else
#define GS_INIT(c, buf, role) ((void)(c), (void)(buf), gs_sl_init(role))
#endif
#define GS_SET_ROLE(c, r) ((void)(c), (void)(gs_sl[gs_warp_index()].flags = (uint8_t)(r)))
#define GS_TILE(c, t, g) ((void)(c), (void)(gs_sl[gs_warp_index()].tag = (uint32_t)(uint16_t)(t) | (uint32_t)(uint16_t)(g) << 16))
#if GS_SLX & 20
#define GS_FINISH(c) ((void)(c))
#else
#define GS_FINISH(c) ((void)(c), gs_sl_finish())
#endif
#if defined(GS_NOCLK_NONE)
#define GS_FINISH_NOCLK(c) ((void)(c))
#else
#define GS_FINISH_NOCLK(c) ((void)(c), gs_sl_finish_noclk())
#endif
#define GS_CLOCK_INIT(workers) gs_clock_init(workers)
#define GS_CLOCK_DONE(c) ((void)(c), gs_clock_done())
#if GS_SLX & 2
#define GS_CLOCK_SAMPLER(c) ((void)(c))
#else
#define GS_CLOCK_SAMPLER(c) ((void)(c), gs_sl_sampler())
#endif
#if GS_SLX & 1
#define GS_BEGIN(c, ph) ((void)(c))
#define GS_END(c, ph) ((void)(c))
#else
#define GS_BEGIN(c, ph) ((void)(c), gs_sl_begin(ph))
#define GS_END(c, ph) ((void)(c), gs_sl_end(ph))
#endif
#define GS_SUB_ENABLE(c, on) ((void)(c), (void)(on))
#define GS_SUB_BEGIN(c, ph) ((void)(c))
#define GS_SUB_END(c, ph) ((void)(c))

/* the launcher: the buffer into constant memory when it changed (stream-ordered) */
static inline int gs_stateless_bind(const gs_buffer &b, cudaStream_t s)
{
    static gs_buffer last;
    static bool set = false;
    if (set && last.warps == b.warps && last.records == b.records && last.capacity == b.capacity &&
        last.warps_per_cta == b.warps_per_cta)
        return 0;
    cudaError_t e = cudaMemcpyToSymbolAsync(gs_cbuf, &b, sizeof b, 0, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess)
        return (int)e;
    last = b;
    set = true;
    return 0;
}

#endif
