#!/usr/bin/env python3
# Study tool: the main loops of a cubin's kernels without a disassembler (the development machine
# has none).  Hopper SASS keeps an instruction's opcode in the low 12 bits of its first 64-bit word
# and a BRA's offset in bits 16-23 (offset bits 2-9) and 34-73 (offset bits 10-49); the opcode
# names are learned from cuobjdump -sass text of the same cubin (made on the GPU machine).
#   cubin-loops.py train CUBIN:SASS_TEXT ...      writes sass-keys.json (SASS_KEYS overrides)
#   cubin-loops.py a CUBIN [NAME_PART]            per kernel: instructions, and each loop that
#                                                 holds HGMMAs: start, length, HGMMAs, UMOV/IMAD/SHF
# A cubin: nvcc -std=c++17 -O3 -arch=sm_90a -I. [-D...] -cubin -o X.cubin kernels/nvfp4/gemm.cu
import struct,re,sys,collections
def sections(path):
    d=open(path,'rb').read()
    e_shoff=struct.unpack_from('<Q',d,0x28)[0]; e_shentsize,e_shnum,e_shstrndx=struct.unpack_from('<HHH',d,0x3A)
    sh=[struct.unpack_from('<IIQQQQIIQQ',d,e_shoff+i*e_shentsize) for i in range(e_shnum)]
    stro=sh[e_shstrndx][4]
    out={}
    for s in sh:
        name=d[stro+s[0]:d.index(b'\0',stro+s[0])].decode()
        if name.startswith('.text.'):
            out[name[6:]]=d[s[4]:s[4]+s[5]]
    return out
def words(b):
    return [struct.unpack_from('<QQ',b,i) for i in range(0,len(b),16)]
def sass_funcs(path):
    cur=None; out={}
    for line in open(path):
        m=re.search(r'Function : (\S+)',line)
        if m: cur=m.group(1); out[cur]=[]; continue
        m=re.search(r'/\*([0-9a-f]{4,})\*/\s+(.*?);',line)
        if m and cur:
            t=m.group(2); op=t.split()[1] if t.startswith('@') else t.split()[0]
            out[cur].append(op.split('.')[0])
    return out
def bra_off(x):
    v=(((x>>16)&0xFF)<<2) | (((x>>34)&((1<<40)-1))<<10)
    if v>>49: v-=1<<50
    return v

import sys,re,collections,json,os
KEYS=os.environ.get('SASS_KEYS', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sass-keys.json'))
def train(pairs):
    m={}
    for cub,txt in pairs:
        secs=sections(cub); sf=sass_funcs(txt)
        for name,ins in sf.items():
            if name not in secs: continue
            w=words(secs[name])
            if len(w)!=len(ins): print('skip',name[:50],len(w),len(ins)); continue
            for (a,b),op in zip(w,ins):
                k=a&0xFFF
                assert m.get(k,op)==op,(hex(k),m.get(k),op)
                m[k]=op
    json.dump({str(k):v for k,v in m.items()},open(KEYS,'w'))
    print(len(m),'keys')
def analyse(cub,filt,show_all=False):
    km={int(k):v for k,v in json.load(open(KEYS)).items()}
    for name,b in sections(cub).items():
        if filt not in name: continue
        w=words(b)
        ops=[km.get(a&0xFFF,'?%03x'%(a&0xFFF)) for a,_ in w]
        loops=[]
        for i,(a,bb) in enumerate(w):
            if ops[i]=='BRA':
                off=bra_off(a|(bb<<64)); tgt=(i*16+16+off)//16
                if tgt<=i:
                    body=ops[tgt:i+1]; h=body.count('HGMMA')
                    if h and len(body)<900:
                        c=collections.Counter(body)
                        loops.append((tgt*16,len(body),h,c['UMOV'],c['IMAD'],c['SHF'],c['LOP3']))
        unk=sum(1 for o in ops if o.startswith('?'))
        print(re.sub(r'_Z\d+nvfp4_gemm_kernel_\w+?IN\d+_GLOBAL__N__\w+?9point_cfg','',name)[:70], len(w), 'unk',unk, [(hex(a),n,h,'U%d I%d S%d'%(u,i,s)) for a,n,h,u,i,s,l in loops])
if __name__=='__main__':
    if sys.argv[1]=='train':
        train([tuple(p.split(':')) for p in sys.argv[2:]])
    else:
        analyse(sys.argv[2],sys.argv[3] if len(sys.argv)>3 else '')
