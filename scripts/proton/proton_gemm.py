#!/usr/bin/env python3
"""A Triton GEMM whose phases carry Proton scopes named like gemmscope's phases, recorded with
Proton's intra-kernel profiler (instrumentation backend, data="trace") and timed the way
gemmscope times its twin: the plain kernel and the Proton-instrumented one, alternating rounds,
L2 emptied before every repetition, CUDA events, medians (docs/proton.md).

    python3 scripts/proton/proton_gemm.py runs/gemm.chrome_trace [--m 4096 --n 4096 --k 4096]

writes, beside the trace:
    <trace>.timings.tsv   gemmscope-timings 1: 'production' = plain, 'twin' = instrumented
    <trace>.rounds.tsv    round medians of both builds
    <trace>.clock.tsv     per CTA: SM, (globaltimer, clock64) at its start and end, recorded by the
                          instrumented launch itself (the SM clock for the import)
and prints the `gemmscope import proton` command that turns them into a run.

Target: Triton 3.6 with Proton on an H100 (sm_90).  The scopes sit outside loops, as Proton's
language module asks of Triton-DSL kernels; the compiler may still move work across a scope
edge (the final wgmma wait lands at the main loop's exit, loads may be hoisted).
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import sys
import tempfile


def die(msg):
    print(f"proton_gemm: {msg}", file=sys.stderr)
    sys.exit(1)


try:
    import torch
    import triton
    import triton.language as tl
except ImportError as exc:  # the script is useless without them: say which
    die(f"needs PyTorch with CUDA and Triton: {exc}")
try:
    import triton.profiler as proton
    import triton.profiler.language as pl
except ImportError as exc:
    die(f"this Triton has no Proton (triton.profiler): {exc}")
for _name in ("enter_scope", "exit_scope", "enable_semantic"):
    if not hasattr(pl, _name):
        die(f"triton.profiler.language lacks {_name}: Proton's intra-kernel scopes need Triton 3.5 or later")

# Proton instruments Gluon kernels only unless told to take Triton-DSL ones too.
pl.enable_semantic("triton")


@triton.jit
def _globaltimer(dep):
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [dep], dtype=tl.int64, is_pure=False,
                                     pack=1)


@triton.jit
def _clock64(dep):
    return tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l,r", [dep], dtype=tl.int64, is_pure=False,
                                     pack=1)


@triton.jit
def _smid(dep):
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r,r", [dep], dtype=tl.int32, is_pure=False, pack=1)


@triton.jit
def gemm_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, clock_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                CLOCK: tl.constexpr):
    """C = relu(fp16(A @ B) + bias), one output tile per program, grouped along M for L2 reuse."""
    pid = tl.program_id(0)
    if CLOCK:  # a (globaltimer, clock64) pair at the start: the SM clock, for the import
        gt0 = _globaltimer(pid)
        ck0 = _clock64(pid)
    pl.enter_scope("prologue")
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * s_am + offs_k[None, :] * s_ak
    b_ptrs = b_ptr + offs_k[:, None] * s_bk + offs_n[None, :] * s_bn
    pl.exit_scope("prologue")

    pl.enter_scope("mainloop")
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):  # the host checks the shape is whole tiles
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K * s_ak
        b_ptrs += BLOCK_K * s_bk
    pl.exit_scope("mainloop")

    pl.enter_scope("drain")  # the accumulators' first use: the last MMA's wait, then fp16
    out = acc.to(tl.float16)
    pl.exit_scope("drain")

    pl.enter_scope("epilogue")
    out = tl.maximum(out + tl.load(bias_ptr + offs_n)[None, :], 0.0)
    pl.exit_scope("epilogue")

    pl.enter_scope("store")
    tl.store(c_ptr + offs_m[:, None] * s_cm + offs_n[None, :] * s_cn, out)
    pl.exit_scope("store")
    if CLOCK:
        gt1 = _globaltimer(pid)
        ck1 = _clock64(pid)
        sm = _smid(pid)
        base = clock_ptr + pid * 5
        tl.store(base + 0, sm.to(tl.int64))
        tl.store(base + 1, gt0)
        tl.store(base + 2, ck0)
        tl.store(base + 3, gt1)
        tl.store(base + 4, ck1)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("trace", help="where the Proton trace goes (a .chrome_trace file)")
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--block-m", type=int, default=128)
    p.add_argument("--block-n", type=int, default=128)
    p.add_argument("--block-k", type=int, default=64)
    p.add_argument("--group-m", type=int, default=8)
    p.add_argument("--num-warps", type=int, default=8)
    p.add_argument("--num-stages", type=int, default=3)
    p.add_argument("--reps", type=int, default=50, help="timed repetitions per round and build")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds: plain, instrumented, ...")
    p.add_argument("--warmup", type=int, default=10, help="untimed launches at each round's start")
    p.add_argument("--buffer", choices=("shared", "global"), default="shared", help="Proton's record buffer")
    p.add_argument("--no-clock", action="store_true", help="leave out the in-kernel SM clock pairs")
    p.add_argument("--run", default=None, help="the run directory the printed import command names")
    a = p.parse_args()
    for dim, blk in ((a.m, a.block_m), (a.n, a.block_n), (a.k, a.block_k)):
        if dim <= 0 or dim % blk:
            die(f"M, N, K must be positive multiples of the tile ({a.block_m}, {a.block_n}, {a.block_k})")
    if a.reps < 1 or a.rounds < 1 or a.warmup < 0:
        die("--reps and --rounds at least 1, --warmup at least 0")
    return a


def versions():
    if not torch.cuda.is_available():
        die("no CUDA device visible to PyTorch")
    dev = torch.cuda.get_device_properties(0)
    print(f"triton {triton.__version__}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
          f"{dev.name}, {dev.multi_processor_count} SMs, sm_{dev.major}{dev.minor}")
    if (dev.major, dev.minor) != (9, 0):
        print("proton_gemm: warning: written for the H100 (sm_90); other GPUs may pick other MMA paths",
              file=sys.stderr)
    return dev


def proton_mode(buffer):
    mode = getattr(proton, "mode", None)
    return mode.Default(buffer_type=buffer) if mode is not None and hasattr(mode, "Default") else "default"


def check_instrumentation(tmp, mode):
    """Proton's instrumentation backend answers, or the script stops with the reason."""
    try:
        proton.start(os.path.join(tmp, "probe"), backend="instrumentation", mode=mode)
        proton.finalize()
    except Exception as exc:  # any failure here means no intra-kernel profiling in this build
        die(f"this Proton has no instrumentation mode (proton.start(..., backend='instrumentation') failed: "
            f"{exc}); it needs Triton 3.5 or later built with Proton")


class ExitHook:
    """Records the end event of an instrumented launch right after it is enqueued, before Proton's
    launch-exit hook waits for the stream and parses the buffer on the host (that wait would
    otherwise sit between the kernel and the end event)."""

    def __init__(self):
        self.pending = None
        self.chain = None
        self.wrapped = None
        self.knobs = None

    def _on_exit(self, *args, **kwargs):
        if self.pending is not None:
            self.pending.record()
            self.pending = None

    def install(self):
        try:
            import triton.knobs as knobs
        except ImportError:
            knobs = None
        self.knobs = knobs
        hook = getattr(getattr(knobs, "runtime", None), "launch_exit_hook", None)
        if hook is None:
            die("no triton.knobs.runtime.launch_exit_hook after proton.start: cannot time the instrumented kernel "
                "without Proton's host work in the measurement")
        if isinstance(getattr(hook, "calls", None), list):  # a chain of hooks: run first
            self.chain = hook
            if getattr(hook, "reversed", False):
                hook.calls.append(self._on_exit)
            else:
                hook.calls.insert(0, self._on_exit)
            return
        self.wrapped = hook

        def wrapper(*args, **kwargs):
            self._on_exit()
            return self.wrapped(*args, **kwargs)

        knobs.runtime.launch_exit_hook = wrapper

    def remove(self):
        if self.chain is not None and self._on_exit in self.chain.calls:
            self.chain.calls.remove(self._on_exit)
        elif self.wrapped is not None and self.knobs.runtime.launch_exit_hook is not self.wrapped:
            self.knobs.runtime.launch_exit_hook = self.wrapped
        self.chain = self.wrapped = None


def time_round(launch, reps, warmup, flush, hook=None):
    """reps launches, L2 emptied before each, CUDA events around each; ms per launch."""
    for _ in range(warmup):
        launch()
    torch.cuda.synchronize()
    events = []
    for _ in range(reps):
        flush.zero_()  # empties L2 and keeps the GPU busy while the host enqueues the launch
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        if hook is not None:
            hook.pending = end
        launch()
        if hook is None:
            end.record()
        elif hook.pending is not None:
            die("Proton's launch-exit hook did not run: the instrumented launch cannot be timed")
        events.append((start, end))
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in events]


def clock_from_pairs(pairs):
    """Per SM: its earliest start pair to its latest end pair (clock64 is one counter per SM)."""
    per_sm = {}
    for sm, g0, c0, g1, c1 in pairs:
        lo, hi = per_sm.get(sm, ((g0, c0), (g1, c1)))
        per_sm[sm] = (min(lo, (g0, c0)), max(hi, (g1, c1)))
    ghz = [(hi[1] - lo[1]) / (hi[0] - lo[0]) for lo, hi in per_sm.values() if hi[0] - lo[0] >= 2000]
    return (statistics.median(ghz), min(ghz), max(ghz), len(ghz)) if ghz else None


def trace_layout(path):
    """What the written trace holds: scope records, kernels, whether per-CTA final times are there."""
    with open(path) as f:
        events = json.load(f).get("traceEvents", [])
    scoped = [e for e in events if e.get("ph") == "X" and " Core" in e.get("pid", "")]
    final = bool(scoped) and "Post Final Time (ns)" in scoped[0].get("args", {})
    return len(scoped), sorted({e["pid"].split(" Core")[0] for e in scoped}), final


def write_outputs(trace, plain, inst, rounds):
    with open(trace + ".timings.tsv", "w") as f:  # gemmscope-timings 1, rows in run order
        f.write("# gemmscope-timings 1\nbuild\trep\tms\n")
        reps = {"production": 0, "twin": 0}
        for build, ms_list in rounds:
            for ms in ms_list:
                f.write(f"{build}\t{reps[build]}\t{ms:.6f}\n")
                reps[build] += 1
    with open(trace + ".rounds.tsv", "w") as f:
        f.write("round\tbuild\treps\tmedian_ms\n")
        for i, (build, ms_list) in enumerate(rounds):
            f.write(f"{i // 2}\t{build}\t{len(ms_list)}\t{statistics.median(ms_list):.6f}\n")
    print(f"plain median {statistics.median(plain):.4f} ms, instrumented {statistics.median(inst):.4f} ms: "
          f"Proton costs x{statistics.median(inst) / statistics.median(plain):.3f} "
          f"({len(rounds) // 2} alternating rounds)")


def main():
    a = parse_args()
    dev = versions()
    trace = os.path.abspath(a.trace)
    os.makedirs(os.path.dirname(trace), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="proton_gemm.")
    mode = proton_mode(a.buffer)
    check_instrumentation(tmp, mode)

    torch.manual_seed(0)
    scale = a.k**-0.25  # products of order 1 for fp16
    A = (torch.randn(a.m, a.k, device="cuda") * scale).half()
    B = (torch.randn(a.k, a.n, device="cuda") * scale).half()
    bias = torch.randn(a.n, device="cuda").half()
    C = torch.empty(a.m, a.n, device="cuda", dtype=torch.float16)
    clock = torch.zeros(a.m // a.block_m * a.n // a.block_n, 5, device="cuda", dtype=torch.int64)
    grid = (clock.shape[0], )
    use_clock = not a.no_clock

    def launch(instrumented):
        gemm_kernel[grid](A, B, bias, C, clock, a.m, a.n, a.k, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                          C.stride(0), C.stride(1), BLOCK_M=a.block_m, BLOCK_N=a.block_n, BLOCK_K=a.block_k,
                          GROUP_M=a.group_m, CLOCK=instrumented and use_clock, num_warps=a.num_warps,
                          num_stages=a.num_stages)

    launch(False)  # the plain kernel, and its answer
    ref = torch.relu((A.float() @ B.float()).half() + bias)
    torch.testing.assert_close(C, ref, atol=3e-2, rtol=3e-2)

    # one instrumented launch: the trace
    stem = os.path.join(tmp, "trace")
    proton.start(stem, data="trace", backend="instrumentation", mode=mode)
    launch(True)
    torch.cuda.synchronize()
    proton.finalize()
    if not os.path.exists(stem + ".chrome_trace"):
        die(f"Proton wrote no {stem}.chrome_trace")
    shutil.move(stem + ".chrome_trace", trace)
    torch.testing.assert_close(C, ref, atol=3e-2, rtol=3e-2)
    pairs = clock.cpu().tolist()

    # alternating rounds: plain, then instrumented under a Proton session of its own
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    hook, rounds, plain, inst = ExitHook(), [], [], []
    for r in range(a.rounds):
        ms = time_round(lambda: launch(False), a.reps, a.warmup, flush)
        rounds.append(("production", ms))
        plain += ms
        proton.start(os.path.join(tmp, f"round{r}"), backend="instrumentation", mode=mode)
        hook.install()
        try:
            ms = time_round(lambda: launch(True), a.reps, a.warmup, flush, hook)
        finally:
            hook.remove()
            proton.finalize()
        rounds.append(("twin", ms))
        inst += ms
    write_outputs(trace, plain, inst, rounds)

    n_records, kernels, final = trace_layout(trace)
    print(f"trace {trace}: {n_records} scope records of {', '.join(kernels) or 'no kernel'}; per-CTA final times: "
          f"{'yes' if final else 'no (the import needs --sm-clock-ghz)'}")
    clock_args = []
    if use_clock:
        with open(trace + ".clock.tsv", "w") as f:
            f.write("cta\tsm\tgt_start\tclk_start\tgt_end\tclk_end\n")
            for cta, row in enumerate(pairs):
                f.write(f"{cta}\t" + "\t".join(str(v) for v in row) + "\n")
        est = clock_from_pairs(pairs)
        if est:
            print(f"SM clock during the recorded launch: {est[0]:.4f} GHz median over {est[3]} SMs "
                  f"({est[1]:.4f} to {est[2]:.4f})")
            if not final:
                clock_args = ["--sm-clock-ghz", f"{est[0]:.4f}"]
    if not final and not clock_args:
        print("proton_gemm: the trace has no per-CTA final times and no clock was measured: give the import "
              "--sm-clock-ghz from another measurement", file=sys.stderr)
    run = a.run or os.path.splitext(trace)[0] + ".run"
    cmd = ["gemmscope", "import", "proton", trace, "-o", run, "--sms", str(dev.multi_processor_count), "--gpu",
           dev.name, "--timings", trace + ".timings.tsv", "--flops", str(2 * a.m * a.n * a.k),
           "--variant", f"t{a.block_m}x{a.block_n}x{a.block_k}_w{a.num_warps}_s{a.num_stages}"] + clock_args
    print("next:\n  " + " ".join(shlex.quote(c) for c in cmd) + f"\n  gemmscope report {shlex.quote(run)}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
