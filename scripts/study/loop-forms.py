#!/usr/bin/env python3
# Study tool: how far a build's main loops are from production's, read from the cubins (the
# development machine has no disassembler).  Hopper SASS keeps an instruction's opcode in the low
# 12 bits of its first 64-bit word (BRA 0x947, HGMMA 0xdf0, learned from cuobjdump text in
# 2c1e7d0's cubin-loops.py), a BRA's offset in bits 16-23 and 34-73 (offset bits 2-9, 10-49) and
# the scheduling controls (stalls, yield, barriers, reuse) in bits 105-127.  A main loop: a
# backward branch whose body holds HGMMAs and no such loop of its own, under 900 instructions.  Per kernel (matched by its point_cfg), per loop in
# address order: similarity of the opcode sequences, of the opcode + control sequences, and of
# the raw instruction words (registers included), difflib's ratio.
# usage: loop-forms.py BASE.cubin FORM NAME.cubin   (TSV rows on stdout)
import struct, sys
from difflib import SequenceMatcher

BRA, HGMMA = 0x947, 0xDF0


def sections(path):
    d = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    sh = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    stro = sh[shstrndx][4]
    out = {}
    for s in sh:
        name = d[stro + s[0]:d.index(b'\0', stro + s[0])].decode()
        if name.startswith('.text.') and 'gemm_kernel' in name:
            out[name[name.index('point_cfg'):]] = [struct.unpack_from('<QQ', d, s[4] + i) for i in range(0, s[5], 16)]
    return out


def bra_off(lo, hi):
    x = lo | hi << 64
    v = (((x >> 16) & 0xFF) << 2) | (((x >> 34) & ((1 << 40) - 1)) << 10)
    return v - (1 << 50) if v >> 49 else v


def loops(w):
    """The main loops: innermost loops that hold HGMMAs, under 900 instructions (the longer ones
    are paths of the persistent loop that hold one stage's HGMMAs)."""
    spans = []
    for i, (lo, hi) in enumerate(w):
        if lo & 0xFFF == BRA:
            t = i + 1 + bra_off(lo, hi) // 16
            if t <= i and any(x & 0xFFF == HGMMA for x, _ in w[t:i + 1]):
                spans.append((t, i))
    inner = [s for s in spans if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]
    return [w[t:i + 1] for t, i in sorted(inner) if i + 1 - t < 900]


def ratio(a, b):
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


base, form, other = sys.argv[1], sys.argv[2], sys.argv[3]
kb, ko = sections(base), sections(other)
for k in sorted(kb):
    lb, lo = loops(kb[k]), loops(ko.get(k, []))
    for i, a in enumerate(lb):
        b = lo[i] if i < len(lo) and len(lo) == len(lb) else None
        if b is None:
            print('%s\t%s\t%d\t%d\t-\t-\t-\t-\t%d' % (form, k, i + 1, len(a), len(lo)))
            continue
        print('%s\t%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%d' % (
            form, k, i + 1, len(a), len(b), ratio([x & 0xFFF for x, _ in a], [x & 0xFFF for x, _ in b]),
            ratio([(x & 0xFFF, y >> 41) for x, y in a], [(x & 0xFFF, y >> 41) for x, y in b]), ratio(a, b), len(lo)))
