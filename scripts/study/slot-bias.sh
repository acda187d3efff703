#!/bin/bash
# STUDY (removed after): does production's code read x1.00 in the twin's slot under each timing
# mode?  base: the twin as committed; null: production's code launched as the twin
# (TWIN_FLAGS="-UGS_TWIN -DGS_STUDY_NULL_TWIN").  GS_STUDY_TIMING: 0 as committed (interleaved,
# L2 flushed), 1 also every SM's instruction caches thrashed before each flush, 2 each function
# 10 repetitions back to back.  Binaries from build/carry/study.txz (built on the development
# machine).  usage: scripts/study/slot-bias.sh OUTDIR PASSES
set -u -o pipefail
out=$1 passes=${2:-1}
mkdir -p "$out" build/carry/x && tar xJf build/carry/study.txz -C build/carry/x || exit 1
b=build/carry/x
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.sm --format=csv,noheader >"$out/gpu.txt"
for pass in $(seq "$passes"); do
    modes="0 1 2"; [ $((pass % 2)) -eq 0 ] && modes="2 1 0"
    for mode in $modes; do
        for bin in base null; do
            for g in "grouped||g8k7168,g8k2048,g2k4096,g2k1536,m=320;n=3072;k=5120,m=96;n=7168;k=2048" \
                     "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168"; do
                IFS='|' read -r name args shapes <<<"$g"
                t=$out/p$pass-m$mode-$bin-$name.tsv
                GS_STUDY_TIMING=$mode timeout 300 $b/$bin-bench --shapes "$shapes" --variants default --reps 100 \
                    --tsv "$t" $args >"$out/log-p$pass-m$mode-$bin-$name.txt" 2>&1 || echo "FAILED $t" >&2
                echo "pass $pass mode $mode $bin $name: $(date +%s)" >&2
            done
        done
    done
done
