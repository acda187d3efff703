#!/bin/bash
# Study (removed after its run): the dual production points with one width path (every tile run at
# TILE_T: NVFP4_STUDY_FULL=1, correct only where every tile is full, as on the four benchmarks)
# against the tree as it is, alternating.  usage: scripts/study/full-width.sh OUT
set -u -o pipefail
out=${1:?usage: full-width.sh OUT}
mkdir -p "$out"
{ time make -j8 build/nvfp4-bench & time make -j8 BUILD=build-full KERNEL_FLAGS=-DNVFP4_STUDY_FULL=1 build-full/nvfp4-bench & wait; } >"$out/build.log" 2>&1
grep real "$out/build.log"
[ -x build/nvfp4-bench ] && [ -x build-full/nvfp4-bench ] || { tail -30 "$out/build.log"; exit 1; }
cuobjdump -sass build/kernels/nvfp4/gemm_prod.o | grep -c "" >"$out/sass-lines.txt"
cuobjdump -sass build-full/kernels/nvfp4/gemm_prod.o | grep -c "" >>"$out/sass-lines.txt"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" 3 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 \
    default 50 base=build/nvfp4-bench full=build-full/nvfp4-bench >"$out/ab.log" 2>&1
echo "ab rc $?"
cat "$out/ab/summary.tsv"
tar czf "$out/ab.tgz" -C "$out" ab
