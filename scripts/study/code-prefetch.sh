#!/bin/bash
# Study: the kernel prefetching its own code into L2 (-DNVFP4_CODE_PREFETCH=<bytes>) against the
# same tree without it; first the probe (scripts/study/code-probe.cu): can a kernel read and
# prefetch its code through its entry's address, and what does that do to a cold start.
# GPU machine, repository root.  usage: scripts/study/code-prefetch.sh OUTDIR
set -u -o pipefail
export GS_NO_INSTALL=1
out=$1
mkdir -p "$out"
t0=$(date +%s)
W=${GS_CODE_WINDOW:-262144}
make -s -j8 all >"$out/build-base.log" 2>&1 &
pb=$!
make -s -j8 BUILD=build/cp KERNEL_FLAGS=-DNVFP4_CODE_PREFETCH=$W build/cp/gemmscope build/cp/gemmscope-record \
    build/cp/nvfp4-bench build/cp/nvfp4-selfcheck >"$out/build-cp.log" 2>&1 &
pc=$!
for b in 4096 8192; do
    nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -DBODY=$b -o "$out/probe$b" scripts/study/code-probe.cu || exit 1
done
cuobjdump -sass "$out/probe4096" | grep -A3 "Function : _Z3big" | head -4
for m in read far far2; do
    "$out/probe4096" $m; echo "probe $m rc $?"
done
for b in 4096 8192; do "$out/probe$b" time 30; done
compute-sanitizer --tool memcheck "$out/probe4096" time 1 2>&1 | tail -3
echo "probe: $(($(date +%s) - t0)) s"
wait $pb || { tail -30 "$out/build-base.log"; exit 1; }
wait $pc || { tail -30 "$out/build-cp.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
build/cp/nvfp4-selfcheck --variant production >"$out/sc-grouped.log" 2>&1
echo "selfcheck grouped rc $?: $(tail -1 "$out/sc-grouped.log")"
build/cp/nvfp4-selfcheck --dual --variant production >"$out/sc-dual.log" 2>&1
echo "selfcheck dual rc $?: $(tail -1 "$out/sc-dual.log")"
echo "checks: $(($(date +%s) - t0)) s"
G=g8k7168,g8k2048,g2k4096,g2k1536,"m=320;n=3072;k=5120","m=96;n=7168;k=2048"
D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,"dual:m=384;n=3072;k=4096","dual:m=128;n=2048;k=7168"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/abd" "${GS_ROUNDS:-3}" "$D" default 50 base=build/nvfp4-bench \
    cp=build/cp/nvfp4-bench >"$out/abd.log" 2>&1
cat "$out/abd/summary.tsv"
scripts/ab-rounds.sh "$out/abg" "${GS_ROUNDS:-3}" "$G" default 50 base=build/nvfp4-bench cp=build/cp/nvfp4-bench \
    >"$out/abg.log" 2>&1
cat "$out/abg/summary.tsv"
echo "ab: $(($(date +%s) - t0)) s"
for shape in d256n4096k7168 d512n3072k7168; do
    build/cp/gemmscope record SHAPE=$shape METRICS=none DETAIL=1 --root "$out/rec-cp" 2>&1 | tail -1
done
echo "total: $(($(date +%s) - t0)) s"
