#!/bin/bash
# Study: split parts' partial sums published by a spare producer warp (-DNVFP4_ASYNC_PUB=1)
# against the same tree without it.  GPU machine, repository root.
# usage: scripts/study/async-pub.sh OUTDIR
set -u -o pipefail
export GS_NO_INSTALL=1
out=$1
mkdir -p "$out"
t0=$(date +%s)
make -s -j8 all >"$out/build-base.log" 2>&1 &
pb=$!
make -s -j8 BUILD=build/ap KERNEL_FLAGS=-DNVFP4_ASYNC_PUB=1 build/ap/gemmscope build/ap/gemmscope-record \
    build/ap/nvfp4-bench build/ap/nvfp4-selfcheck >"$out/build-ap.log" 2>&1 &
pa=$!
wait $pb || { tail -30 "$out/build-base.log"; exit 1; }
wait $pa || { tail -30 "$out/build-ap.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
build/ap/nvfp4-selfcheck --variant production >"$out/sc-grouped.log" 2>&1
echo "selfcheck grouped rc $?: $(tail -1 "$out/sc-grouped.log")"
build/ap/nvfp4-selfcheck --dual --variant production >"$out/sc-dual.log" 2>&1
echo "selfcheck dual rc $?: $(tail -1 "$out/sc-dual.log")"
echo "checks: $(($(date +%s) - t0)) s"
G=g8k7168,g8k2048,g2k4096,g2k1536,"m=320;n=3072;k=5120","m=96;n=7168;k=2048"
D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,"dual:m=384;n=3072;k=4096","dual:m=128;n=2048;k=7168"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/abd" "${GS_ROUNDS:-3}" "$D" default 50 base=build/nvfp4-bench \
    ap=build/ap/nvfp4-bench >"$out/abd.log" 2>&1
cat "$out/abd/summary.tsv"
scripts/ab-rounds.sh "$out/abg" "${GS_ROUNDS:-3}" "$G" default 50 base=build/nvfp4-bench ap=build/ap/nvfp4-bench \
    >"$out/abg.log" 2>&1
cat "$out/abg/summary.tsv"
echo "ab: $(($(date +%s) - t0)) s"
for shape in d512n3072k7168 d256n3072k4096; do
    build/ap/gemmscope record SHAPE=$shape METRICS=none DETAIL=1 --root "$out/rec-ap" 2>&1 | tail -1
    build/gemmscope record SHAPE=$shape METRICS=none DETAIL=1 --root "$out/rec-base" 2>&1 | tail -1
done
echo "total: $(($(date +%s) - t0)) s"
