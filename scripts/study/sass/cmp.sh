#!/bin/bash
# Study: compile gemm.cu with FLAGS to a cubin, disassemble it (cuobjdump: the GPU machine has it)
# and compare its loading lane's TMA issue and its HGMMA loops with a production cubin's:
# "loader(len,R2UR) (5, 0)" is production's uniform form, "(11, 6)" the slow one.
# usage: scripts/study/sass/cmp.sh NAME FLAGS...   (first: cmp.sh prod, with no flags)
set -e
n=$1; shift
d=${SASS_DIR:-/tmp/sass-study}; mkdir -p "$d"
nvcc -std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -I. "$@" -cubin kernels/nvfp4/gemm.cu -o "$d/$n.cubin"
cuobjdump -sass "$d/$n.cubin" | gzip >"$d/$n.sass.gz"
[ "$n" = prod ] || python3 "$(dirname "$0")/loopcmp.py" "$d/prod.sass.gz" "$d/$n.sass.gz"
