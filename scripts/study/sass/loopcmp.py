import sys; import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass import *
A=funcs(sys.argv[1]); B=funcs(sys.argv[2])
ka={key(k):v for k,v in A.items()}; kb={key(k):v for k,v in B.items()}
def ldr(F):
    L=loops_with(F,'UTMALDG')
    # innermost: smallest body
    if not L: return (0,0)
    b=min(L,key=lambda l:len(l[2]))[2]
    return len(b), sum(1 for _,i in b if op(i)=='R2UR')
for k in sorted(ka):
    if '/wide' in k: continue
    la=[l for l in loops(ka[k]) if len(l[2])<1500]; lb=[l for l in loops(kb[k]) if len(l[2])<1500]
    ex=sum(1 for x,y in zip(la,lb) if [i for _,i in x[2]]==[i for _,i in y[2]])
    nm=sum(1 for x,y in zip(la,lb) if [norm(i) for _,i in x[2]]==[norm(i) for _,i in y[2]])
    sizes=' '.join(f'{len(x[2])}/{len(y[2])}' for x,y in zip(la,lb))
    ur=lambda F:sum(1 for _,i in F if op(i)=='R2UR')
    print(f'{k:30s} fn {len(ka[k]):6d}/{len(kb[k]):6d} R2UR {ur(ka[k]):4d}/{ur(kb[k]):4d} loader(len,R2UR) {ldr(ka[k])}/{ldr(kb[k])} mma-loops {len(la)}/{len(lb)} exact {ex} norm {nm} {sizes[:60]}')
