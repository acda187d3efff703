#!/usr/bin/env python3
"""Writes the two fixture traces of tests/test_proton.c in the layout of Proton's chrome-trace
writer for instrumentation mode (docs/proton.md, "What the trace holds"):

  gemm_starts.chrome_trace  the writer before the per-CTA final times: pid ends with the
                            writer's clock note, args say only the unit
  gemm_final.chrome_trace   the writer with them: args carry Init Time, Post Final Time and
                            Finalization Time (globaltimer ns) and the 1000 MHz frequency

A small GEMM: 6 CTAs of 2 warps on 4 SMs (two SMs run a second CTA after the first), scopes
setup, main_loop (holding two tma_wait), drain, epilogue and store (warp 0 only).  Cycles are
per CTA, counted from its first record; each CTA has its own SM clock (GHz) and globaltimer
start, both multiples of the 32 ns timer step.  The committed files are this script's output:
run it from tests/proton/ to remake them.
"""
import json

KERNEL = "matmul_kernel"
ORIGIN = 1764590000000000000  # an absolute %globaltimer value (ns) for the earliest CTA start
FINALIZE_NS = 96  # the finalize step's length per CTA (copying the buffer out)

# cta, sm, start (ns after the earliest), SM clock (GHz), main-loop cycles
CTAS = [
    (0, 3, 0, 1.60, 12000),
    (1, 7, 32, 1.65, 12400),
    (2, 11, 64, 1.70, 11800),
    (3, 20, 96, 1.60, 12800),
    (4, 3, 8960, 1.55, 12200),
    (5, 7, 8992, 1.75, 12600),
]


def warp_scopes(warp, loop):
    """(scope, start cycle, end cycle) of one warp, in the order the buffer holds their ends."""
    w0 = 12 * warp  # the second warp reaches each point a few cycles later
    ml0, ml1 = 300 + w0, 300 + w0 + loop
    out = [("setup", w0, 250 + w0),
           ("tma_wait", ml0 + 20, ml0 + 600),
           ("tma_wait", ml0 + loop // 2, ml0 + loop // 2 + 400),
           ("main_loop", ml0, ml1),
           ("drain", ml1 + 10, ml1 + 70),
           ("epilogue", ml1 + 80, ml1 + 900)]
    if warp == 0:
        out.append(("store", ml1 + 910, ml1 + 1500))
    return out


def lines(scopes):
    """The writer's lane per scope: the first line its interval does not overlap, by start."""
    order = sorted(range(len(scopes)), key=lambda i: scopes[i][1])
    taken, lane = [], [0] * len(scopes)
    for i in order:
        s, e = scopes[i][1], scopes[i][2]
        k = 0
        while k < len(taken) and any(s < b and e > a for a, b in taken[k]):
            k += 1
        if k == len(taken):
            taken.append([])
        taken[k].append((s, e))
        lane[i] = k
    return lane


def cta_end_cycles(loop):
    return max(e for w in (0, 1) for _, _, e in warp_scopes(w, loop))


def events(final):
    out = []
    for cta, sm, start, ghz, loop in sorted(CTAS, key=lambda c: (c[1], c[0])):  # by SM, then CTA
        span = cta_end_cycles(loop)
        pre_final = start + -(-span * 1000 // int(ghz * 1000))  # ceil(span / ghz) ns
        pre_final = -(-pre_final // 32) * 32  # a globaltimer reading: on the 32 ns grid
        pid = f"{KERNEL} Core{sm} CTA{cta}" + ("" if final else " [measure in clock cycle (assume 1GHz)]")
        for warp in (0, 1):
            scopes = warp_scopes(warp, loop)
            lane = lines(scopes)
            for (name, s, e), k in zip(scopes, lane):
                ev = {"cat": KERNEL, "cname": "thread_state_running", "name": name, "ph": "X", "pid": pid,
                      "tid": f"warp {warp} (line {k})", "ts": (s + start) / 1000.0, "dur": (e - s) / 1000.0}
                if final:
                    ev["args"] = {"Init Time (ns)": ORIGIN + start,
                                  "Post Final Time (ns)": ORIGIN + pre_final + FINALIZE_NS,
                                  "Finalization Time (ns)": FINALIZE_NS, "Frequency (MHz)": 1000.0,
                                  "call_stack": ["ROOT", KERNEL]}
                else:
                    ev["args"] = {"Unit": "GPU cycle"}
                out.append(ev)
    return out


def write(path, final):
    doc = {"displayTimeUnit": "ns", "traceEvents": events(final)}
    with open(path, "w") as f:
        f.write(json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n")


if __name__ == "__main__":
    write("gemm_starts.chrome_trace", final=False)
    write("gemm_final.chrome_trace", final=True)
