#!/bin/bash
# Study: two forms of the twin's record batches that record the same data, against the twin as
# it is (base): the batch stored at each STORE's end (fe, GS_STUDY_FLUSH_END) and the record
# count advanced at the store (ni, GS_STUDY_NINC); each compiles the main loops differently.
# The twelve overhead shapes, two runs in opposite build orders.
# usage: scripts/study/twin-flush.sh OUT
set -u -o pipefail
out=$1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
for d in diag fe ni; do (cd build/$d/carry && xz -d nvfp4-bench.xz); done
groups=("grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for run in 1 2; do
    b="base=build/diag/carry/nvfp4-bench fe=build/fe/carry/nvfp4-bench ni=build/ni/carry/nvfp4-bench"
    [ $run = 2 ] && b="ni=build/ni/carry/nvfp4-bench fe=build/fe/carry/nvfp4-bench base=build/diag/carry/nvfp4-bench"
    for g in "${groups[@]}"; do
        IFS='|' read -r name args shapes <<<"$g"
        GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$out/r$run/$name" 3 "$shapes" default 100 $b >/dev/null 2>>"$out/err.txt" ||
            echo "twin-flush: run $run $name failed"
    done
    echo "run $run done at $SECONDS s"
    tar cf - -C "$out" $(cd "$out" && ls -d r*) | xz -6 -T8 >"$out/flush.tar.xz"
done
rm -rf "$out"/r1 "$out"/r2
