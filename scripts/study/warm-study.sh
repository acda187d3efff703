#!/bin/bash
# Study: the first unit's main loop run dry first (-DNVFP4_WARM=1) against the same tree without it.
# GPU machine, repository root.  usage: scripts/study/warm-study.sh OUTDIR
set -u -o pipefail
export GS_NO_INSTALL=1
out=$1
mkdir -p "$out"
t0=$(date +%s)
make -s -j8 all >"$out/build-base.log" 2>&1 &
pb=$!
make -s -j8 BUILD=build/warm KERNEL_FLAGS=-DNVFP4_WARM=1 build/warm/gemmscope build/warm/gemmscope-record \
    build/warm/nvfp4-bench build/warm/nvfp4-selfcheck >"$out/build-warm.log" 2>&1 &
pw=$!
wait $pb || { tail -30 "$out/build-base.log"; exit 1; }
wait $pw || { tail -30 "$out/build-warm.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
build/warm/nvfp4-selfcheck --variant production >"$out/sc-grouped.log" 2>&1
echo "selfcheck grouped rc $?: $(tail -1 "$out/sc-grouped.log")"
build/warm/nvfp4-selfcheck --dual --variant production >"$out/sc-dual.log" 2>&1
echo "selfcheck dual rc $?: $(tail -1 "$out/sc-dual.log")"
echo "checks: $(($(date +%s) - t0)) s"
G=g8k7168,g8k2048,g2k4096,g2k1536,"m=320;n=3072;k=5120","m=96;n=7168;k=2048"
D=d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,"dual:m=384;n=3072;k=4096","dual:m=128;n=2048;k=7168"
scripts/ab-rounds.sh "$out/abg" "${GS_ROUNDS:-3}" "$G" default 50 base=build/nvfp4-bench warm=build/warm/nvfp4-bench \
    >"$out/abg.log" 2>&1
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/abd" "${GS_ROUNDS:-3}" "$D" default 50 base=build/nvfp4-bench \
    warm=build/warm/nvfp4-bench >"$out/abd.log" 2>&1
cat "$out/abg/summary.tsv" "$out/abd/summary.tsv"
echo "ab: $(($(date +%s) - t0)) s"
for shape in d512n3072k7168 g2k1536; do
    build/warm/gemmscope record SHAPE=$shape METRICS=none DETAIL=1 --root "$out/rec-warm" 2>&1 | tail -1
done
echo "total: $(($(date +%s) - t0)) s"
