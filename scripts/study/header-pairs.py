#!/usr/bin/env python3
# Study: each warp header's edge pair against the clock sampler's pairs of its SM (the gt the two
# nearest sampler pairs, at most 2 us apart, give the header's clock, minus the header's gt: > 0, the
# header's clock read came late), by kind: start/end, loading warp (8) or consumer.
# usage: scripts/study/header-pairs.py RUN/stamps.gss[.gz]   (the layout of the NVFP4 defaults: 8 consumer warps)
import struct, gzip, collections, sys, statistics
p=sys.argv[1]
d=gzip.open(p).read() if p.endswith('.gz') else open(p,'rb').read()
magic,ver,hb,whb,rb,ctas,wpc,cap,crc,nrec,tick=struct.unpack_from('<8sIIIIIIIIQd',d,0)
hdrs=collections.defaultdict(list); pairs=collections.defaultdict(list)
o=64+ctas*wpc*64
for w in range(ctas*wpc):
    gs,cs,ge,ce,cta,warp,sm,ev,fl=struct.unpack_from('<QQQQIHHII',d,64+w*64)
    if fl&1: hdrs[sm].append((gs,cs,'start',warp))
    if fl&2: hdrs[sm].append((ge,ce,'end',warp))
    n=min(ev,cap) if fl&1 else 0
    for i in range(n):
        gb,cb,cd,gd,tile,grp,ph,role,s=struct.unpack_from('<QQIIHHBBH',d,o+32*i)
        if ph==255: pairs[sm].append((gb,cb))
    o+=32*n
g0=min(k[0] for l in hdrs.values() for k in l)
res=collections.defaultdict(list)
for sm in hdrs:
    P=sorted(pairs[sm], key=lambda k:k[1])
    if len(P)<2: continue
    c0=P[0][1]
    P=[(g-g0,c-c0) for g,c in P]
    for g,c,t,w in hdrs[sm]:
        g-=g0; c-=c0
        # neighbours among pairs
        lo=[x for x in P if x[1]<=c]; hi=[x for x in P if x[1]>c]
        if not lo or not hi: continue
        (ga,ca),(gc,cc)=lo[-1],hi[0]
        if gc-ga>2000: continue
        pred=ga+(gc-ga)*(c-ca)/(cc-ca)
        res[(t, 'loader' if w==8 else 'sampler' if w==9 else 'consumer')].append(pred-g)
for k,v in sorted(res.items()):
    v.sort(); print(k, len(v), 'median %.0f p10 %.0f p90 %.0f max %.0f'%(statistics.median(v), v[len(v)//10], v[9*len(v)//10], max(v,key=abs)))
