#!/bin/bash
# Study: the twin's records kept in shared memory (e7: no batches, no global stores; e2: the
# begin clocks in shared memory) against the twin as it is (base) and no records (a1), on the
# twelve overhead shapes, two runs in opposite build orders.
# usage: scripts/study/twin-records.sh OUT
set -u -o pipefail
out=$1
for d in diag a1 e2 e7; do (cd build/$d/carry && xz -d nvfp4-bench.xz); done
groups=("grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for run in 1 2; do
    b="base=build/diag/carry/nvfp4-bench a1=build/a1/carry/nvfp4-bench e2=build/e2/carry/nvfp4-bench e7=build/e7/carry/nvfp4-bench"
    [ $run = 2 ] && b="e7=build/e7/carry/nvfp4-bench e2=build/e2/carry/nvfp4-bench a1=build/a1/carry/nvfp4-bench base=build/diag/carry/nvfp4-bench"
    for g in "${groups[@]}"; do
        IFS='|' read -r name args shapes <<<"$g"
        GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$out/r$run/$name" 3 "$shapes" default 100 $b >/dev/null 2>>"$out/err.txt" ||
            echo "twin-records: run $run $name failed"
    done
    echo "run $run done at $SECONDS s"
done
tar cf - -C "$out" r1 r2 | xz -6 -T8 >"$out/records.tar.xz" && rm -rf "$out/r1" "$out/r2"
