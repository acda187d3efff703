import sys, re, gzip, difflib, collections
def funcs(path):
    out = {}; cur = None
    for line in gzip.open(path, 'rt'):
        m = re.search(r'Function : (\S+)', line)
        if m:
            cur = m.group(1); out[cur] = []; continue
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m and cur:
            out[cur].append((int(m.group(1), 16), m.group(2).strip()))
    return out
def key(fn):
    m = re.search(r'point_cfgI(.*?)EE(.*?)EvT0_', fn)
    return m.group(1).replace('ELi', ',').replace('Li', '') + ('/narrow' if 'narrow' in m.group(2) else '/wide')
def norm(ins):
    s = re.sub(r'\bU?R\d+\b', 'R', ins)
    s = re.sub(r'\bU?P\d\b', 'P', s)
    s = re.sub(r'0x[0-9a-f]+', 'X', s)
    return s
def op(ins):
    s = ins
    if s.startswith('@'): s = s.split(None, 1)[1]
    return s.split()[0]
def loops(ins):
    """Backward branches enclosing HGMMA: (start_addr, end_addr, body list)."""
    res = []
    addr_idx = {a: i for i, (a, _) in enumerate(ins)}
    for i, (a, s) in enumerate(ins):
        m = re.search(r'\bBRA\b.*?`?\(?\.L_x_\d+\)?|\bBRA\b\s+(0x[0-9a-f]+)', s)
        t = re.search(r'BRA(?:\.\S+)?\s+(?:`\(\.L_x_\d+\)|(0x[0-9a-f]+))', s)
        if 'BRA' in s.split()[0:2] or s.split()[0].startswith('BRA') or (s.startswith('@') and s.split()[1].startswith('BRA')):
            mm = re.search(r'(0x[0-9a-f]+)\s*$', s)
            if mm:
                tgt = int(mm.group(1), 16)
                if tgt < a and tgt in addr_idx:
                    body = ins[addr_idx[tgt]:i + 1]
                    if any('HGMMA' in x for _, x in body):
                        res.append((tgt, a, body))
    return res
def loops_with(ins, pat, maxlen=3000):
    res = []
    addr_idx = {a: i for i, (a, _) in enumerate(ins)}
    for i, (a, s) in enumerate(ins):
        t = s.split()
        if not t: continue
        o = t[1] if t[0].startswith('@') and len(t) > 1 else t[0]
        if not o.startswith('BRA'): continue
        mm = re.search(r'(0x[0-9a-f]+)\s*$', s)
        if mm:
            tgt = int(mm.group(1), 16)
            if tgt < a and tgt in addr_idx:
                body = ins[addr_idx[tgt]:i + 1]
                if len(body) < maxlen and any(pat in x for _, x in body):
                    res.append((tgt, a, body))
    return res
