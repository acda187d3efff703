#!/bin/bash
# Study: the twin with its record stores switched off at run time after the first of each warp
# (GS_STUDY_CAP=1: the stamp
# buffer's capacity 1, as the launcher refuses 0; what the CTAs a subset-recording twin leaves out would run) against the
# twin as it is (base), on the twelve overhead shapes, two runs in opposite orders.
# usage: scripts/study/twin-cap.sh OUT
set -u -o pipefail
out=$1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
(cd build/cap/carry && xz -d nvfp4-bench.xz)
printf '#!/bin/sh\nGS_STUDY_CAP=1 exec build/cap/carry/nvfp4-bench "$@"\n' >build/cap/carry/cap1.sh
chmod +x build/cap/carry/cap1.sh
groups=("grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for run in 1 2; do
    b="base=build/cap/carry/nvfp4-bench cap1=build/cap/carry/cap1.sh"
    [ $run = 2 ] && b="cap1=build/cap/carry/cap1.sh base=build/cap/carry/nvfp4-bench"
    for g in "${groups[@]}"; do
        IFS='|' read -r name args shapes <<<"$g"
        GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$out/r$run/$name" 3 "$shapes" default 100 $b >/dev/null 2>>"$out/err.txt" ||
            echo "twin-cap: run $run $name failed"
    done
    echo "run $run done at $SECONDS s"
    tar cf - -C "$out" $(cd "$out" && ls -d r*) | xz -6 -T8 >"$out/cap.tar.xz"
done
rm -rf "$out"/r1 "$out"/r2
