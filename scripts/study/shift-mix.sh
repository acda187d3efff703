#!/bin/bash
# Study: half the dequantisation's shifts pinned to SHF and half to IMAD in every build
# (NVFP4_STUDY_MIX) against production as it is, on the twelve overhead shapes, two runs in
# opposite build orders.
# usage: scripts/study/shift-mix.sh OUT
set -u -o pipefail
out=$1
w=$(mktemp -d)
for d in diag mix; do (cd build/$d/carry && xz -d nvfp4-bench.xz); done
groups=("custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for run in 1 2; do
    b="base=build/diag/carry/nvfp4-bench mix=build/mix/carry/nvfp4-bench"
    [ $run = 2 ] && b="mix=build/mix/carry/nvfp4-bench base=build/diag/carry/nvfp4-bench"
    for g in "${groups[@]}"; do
        IFS='|' read -r name args shapes <<<"$g"
        GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$w/r$run/$name" 3 "$shapes" default 100 $b >/dev/null 2>>"$out/err.txt" ||
            echo "shift-mix: run $run $name failed"
        tar cf "$out/mix.tar" -C "$w" . # what is done so far comes back if the call is cut
    done
    echo "run $run done at $SECONDS s"
done
