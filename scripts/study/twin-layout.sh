#!/bin/bash
# Study: the twin's loading warp laid out first (GS_STUDY_E1) against the twin as it is, and
# ncu's PC sampling with the instruction caches as the bench leaves them.
# usage: scripts/study/twin-layout.sh OUT
set -u -o pipefail
out=$1
for d in build/diag/carry build/e1/carry; do (cd $d && xz -d *.xz); done
cuobjdump -sass build/e1/carry/e1.cubin | xz -6 >"$out/e1.sass.xz"
GS_NCU_OPTS="--cache-control none" scripts/study/twin-pcsamp.sh build/diag/carry "$out/pcs" "m=96;n=7168;k=2048" g2k1536 g8k2048
for run in 1 2; do
    if [ $run = 1 ]; then b="base=build/diag/carry/nvfp4-bench e1=build/e1/carry/nvfp4-bench"
    else b="e1=build/e1/carry/nvfp4-bench base=build/diag/carry/nvfp4-bench"; fi
    scripts/ab-rounds.sh "$out/ab$run/grouped" 3 "g8k2048,g2k4096,g2k1536,m=96;n=7168;k=2048" default 100 $b >/dev/null 2>"$out/ab$run.err"
    GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab$run/dual" 3 "d256n3072k4096" default 100 $b >/dev/null 2>>"$out/ab$run.err"
done
tar cf - -C "$out" pcs ab1 ab2 | xz -6 -T8 >"$out/study.tar.xz" && rm -rf "$out/pcs" "$out/ab1" "$out/ab2"
