#!/usr/bin/python3
# Study: the clock pairs of recorded runs, offline (docs/notebook/2026-12-01-sampler-period.md).
#   pairs-offline.py thin SRC_RUN DST_RUN P1 T1 P2   copy a run keeping a clock pair only P1 ns after
#                                                    the last kept one (P2 from T1 ns after the warp's
#                                                    start); `gemmscope check DST_RUN` then judges it
#   pairs-offline.py worst RUN...                    each sampler pair predicted from its two
#                                                    neighbours: the worst 1% and when they fall
#   pairs-offline.py common RUN STRIDE               one clock curve for all SMs plus an offset per
#                                                    SM, fitted to every STRIDE-th pair (numpy)
import gzip, os, shutil, struct, sys, zlib

def load(run):
    raw = gzip.open(os.path.join(run, 'stamps.gss.gz')).read()
    _, ver, _, _, _, ctas, wpc, cap, _, _, _, _ = struct.unpack('<8sIIIIIIIIQdQ', raw[:64])
    nw = ctas * wpc
    heads = [bytearray(raw[64 + i * 64:128 + i * 64]) for i in range(nw)]
    off, recs = 64 + nw * 64, []
    for h in heads:
        n = min(struct.unpack('<I', h[40:44])[0], cap)
        recs.append([raw[off + i * 32:off + i * 32 + 32] for i in range(n)])
        off += n * 32
    return bytearray(raw[:64]), heads, recs, cap

def pairs_by_sm(run):
    _, heads, recs, _ = load(run)
    by = {}
    for h, rs in zip(heads, recs):
        gs, cs, ge, ce, _, _, sm, _, flags = struct.unpack('<QQQQIHHII', h[:48])
        for r in rs:
            gt, clk, width = struct.unpack('<QQI', r[:20])
            if r[28] == 255:
                by.setdefault(r[30] | r[31] << 8, []).append((gt, clk, width))
        for on, g, c in ((flags & 1, gs, cs), (flags & 2, ge, ce)):
            if on:
                by.setdefault(sm, []).append((g, c, -1))
    g0 = min(p[0] for v in by.values() for p in v)
    return {sm: sorted(((g - g0, c - min(q[1] for q in v), w) for g, c, w in v), key=lambda p: p[1])
            for sm, v in by.items()}

def thin(src, dst, p1, t1, p2):
    hdr, heads, recs, cap = load(src)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    kept = dropped = 0
    for h, rs in zip(heads, recs):
        start, nxt, out = struct.unpack('<Q', h[:8])[0], 0, []
        for r in rs:
            gt = struct.unpack('<Q', r[:8])[0]
            if r[28] != 255:
                out.append(r)
            elif gt >= nxt:
                out.append(r)
                kept += 1
                nxt = gt + (p1 if gt - start < t1 else p2)
            else:
                dropped += 1
        if len(out) != len(rs):
            h[40:44] = struct.pack('<I', len(out))
        rs[:] = out
    hdr[40:48] = struct.pack('<Q', sum(len(rs) for rs in recs))
    hdr[36:40] = bytes(4)
    body = bytearray(hdr) + b''.join(heads) + b''.join(r for rs in recs for r in rs)
    body[36:40] = struct.pack('<I', zlib.crc32(body))
    with gzip.open(os.path.join(dst, 'stamps.gss.gz'), 'wb') as f:
        f.write(body)
    print('pairs kept %d, dropped %d' % (kept, dropped))

def worst(run):
    errs = []
    for v in pairs_by_sm(run).values():
        s = [p for p in v if p[2] >= 0]
        for a, b, c in zip(s, s[1:], s[2:]):
            pred = a[0] + (b[1] - a[1]) * (c[0] - a[0]) / (c[1] - a[1])
            errs.append((abs(pred - b[0]), b[0] / 1000, pred - b[0]))
    errs.sort(reverse=True)
    top = errs[:max(1, len(errs) // 100)]
    print('%s: %d pairs; median %.1f ns; worst 1%% (%d, over %.0f ns): %d in the first 13 us, %d late; '
          'worst after 13 us %.1f ns' % (run, len(errs), errs[len(errs) // 2][0], len(top), top[-1][0],
                                        sum(t < 13 for _, t, _ in top), sum(e > 0 for _, _, e in top),
                                        max([e for e, t, _ in errs if t >= 13] or [0])))

def common(run, stride):
    import numpy as np
    by = pairs_by_sm(run)
    sms = sorted(by)
    fit, test = [], []
    for si, sm in enumerate(sms):
        k = 0
        for g, c, w in by[sm]:
            if w < 0 or k % stride == 0:
                fit.append((si, g, c))
            else:
                test.append((si, g, c))
            k += w >= 0
    fit, test, knot = np.array(fit, float), np.array(test, float), 250.0
    nk = int(max(fit[:, 1].max(), test[:, 1].max() if len(test) else 0) // knot) + 2
    def design(rows):
        a, t = np.zeros((len(rows), len(sms) + nk)), rows[:, 1]
        k = np.floor(t / knot).astype(int)
        w, i = (t - k * knot) / knot, np.arange(len(rows))
        a[i, rows[:, 0].astype(int)] = 1
        a[i, len(sms) + k] += 1 - w
        a[i, len(sms) + k + 1] += w
        return a
    smooth = np.zeros((nk - 2, len(sms) + nk))
    for i in range(nk - 2):
        smooth[i, len(sms) + i:len(sms) + i + 3] = (1, -2, 1)
    origin = np.zeros((1, len(sms) + nk))
    origin[0, len(sms)] = 1
    x = np.linalg.lstsq(np.vstack([design(fit), smooth, 1000 * origin]),
                        np.concatenate([fit[:, 2], np.zeros(nk - 2), [0]]), rcond=None)[0]
    ghz = np.gradient(x[len(sms):]) / knot
    def err(rows):
        return np.abs((rows[:, 2] - design(rows) @ x) / ghz[np.floor(rows[:, 1] / knot).astype(int)])
    e = err(test) if len(test) else np.zeros(1)
    print('%s, every %d-th pair: fitted %d, worst fitted %.1f ns; held out %d: median %.1f, worst %.1f ns' %
          (run, stride, len(fit), err(fit).max(), len(test), np.median(e), e.max()))

if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'thin' and len(sys.argv) == 7:
        thin(sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7]))
    elif cmd == 'worst' and len(sys.argv) > 2:
        for r in sys.argv[2:]:
            worst(r)
    elif cmd == 'common' and len(sys.argv) == 4:
        common(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit('usage: pairs-offline.py thin SRC DST P1 T1 P2 | worst RUN... | common RUN STRIDE')
