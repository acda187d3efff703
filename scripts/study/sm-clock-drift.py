#!/usr/bin/env python3
"""How far apart the SMs' clocks run over a recording: for each SM, its clock64 less the
reference SM's (the one with the most clock pairs) interpolated at the same %globaltimer, at
every pair of the SM (warp headers' start and end pairs, clock-sampler pairs).  A clock shared
by all SMs keeps that difference constant; a slope is a frequency difference.
usage: sm-clock-drift.py RUN...   (run folders with stamps.gss or stamps.gss.gz) -> TSV on stdout"""
import bisect, collections, gzip, os, statistics, struct, sys

def pairs_of(run):
    path = os.path.join(run, 'stamps.gss.gz')
    d = gzip.open(path).read() if os.path.exists(path) else open(os.path.join(run, 'stamps.gss'), 'rb').read()
    _, _, _, _, _, ctas, wpc, cap, _, _, _ = struct.unpack_from('<8sIIIIIIIIQd', d, 0)
    off, warps, pairs = 64, [], collections.defaultdict(list)
    for _ in range(ctas * wpc):
        gs, cs, ge, ce, _, _, sm, ev, fl = struct.unpack_from('<QQQQIHHII', d, off)
        off += 64
        warps.append((ev, fl))
        if fl & 1: pairs[sm].append((gs, cs))
        if fl & 2: pairs[sm].append((ge, ce))
    for ev, fl in warps:
        for _ in range(min(ev, cap)):
            gt, clk, _, _, _, _, ph, _, sm = struct.unpack_from('<QQIIHHBBH', d, off)
            off += 32
            if ph == 255:
                pairs[sm].append((gt, clk))
    for s in pairs: pairs[s].sort()
    return pairs

print('run\tsms\tspan_us\tref_ghz\tslope_min\tslope_max\tfreq_spread_pct\tspread_max_cycles\tspread_median_cycles\tslope_groups')
for run in sys.argv[1:]:
    pairs = pairs_of(run)
    ref = max(pairs, key=lambda s: len(pairs[s]))
    rg, rc = [p[0] for p in pairs[ref]], [p[1] for p in pairs[ref]]
    def at(g):
        i = bisect.bisect_left(rg, g)
        if i <= 0 or i >= len(rg) or rg[i] == rg[i - 1]: return None
        return rc[i - 1] + (rc[i] - rc[i - 1]) * (g - rg[i - 1]) / (rg[i] - rg[i - 1])
    ghz = (rc[-1] - rc[0]) / (rg[-1] - rg[0])
    t0 = min(p[0] for s in pairs for p in pairs[s])
    span = max(p[0] for s in pairs for p in pairs[s]) - t0
    slopes, spreads = [], []
    for s in pairs:
        ds = [((g - t0) / 1000, c - at(g)) for g, c in pairs[s] if at(g) is not None]
        if len(ds) < 3: continue
        n = len(ds); mt = sum(x for x, _ in ds) / n; mv = sum(v for _, v in ds) / n
        sxx = sum((x - mt) ** 2 for x, _ in ds)
        slopes.append(sum((x - mt) * (v - mv) for x, v in ds) / sxx if sxx else 0.0)
        spreads.append(max(v for _, v in ds) - min(v for _, v in ds))
    groups = collections.Counter(round(x) for x in slopes)
    lo, hi = min(slopes), max(slopes)
    print(f'{run}\t{len(slopes)}\t{span / 1000:.1f}\t{ghz:.3f}\t{lo:.1f}\t{hi:.1f}\t'
          f'{100 * (hi - lo) / (1000 * ghz):.2f}\t{max(spreads):.0f}\t{statistics.median(spreads):.0f}\t'
          + ' '.join(f'{k}:{groups[k]}' for k in sorted(groups)))
