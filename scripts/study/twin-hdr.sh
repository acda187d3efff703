#!/bin/bash
# Study: what the warps' headers cost at run time.  One program whose twin skips the headers when
# its stamp capacity is 1 (GS_STUDY_HDR_SKIP): the twin in full (full), with capacity 2 (cap2:
# headers, at most two records a warp) and with capacity 1 (cap1: no headers, one record a warp),
# on the twelve overhead shapes, two runs in opposite orders.
# usage: scripts/study/twin-hdr.sh OUT
set -u -o pipefail
out=$1
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
(cd build/hdr/carry && xz -d nvfp4-bench.xz)
for c in 1 2; do
    printf '#!/bin/sh\nGS_STUDY_CAP=%s exec build/hdr/carry/nvfp4-bench "$@"\n' $c >build/hdr/carry/cap$c.sh
    chmod +x build/hdr/carry/cap$c.sh
done
groups=("grouped||g8k7168,g8k2048,g2k4096,g2k1536"
    "dual|--dual|d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
    "custom-grouped||m=320;n=3072;k=5120,m=96;n=7168;k=2048"
    "custom-dual|--dual|dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168")
for run in 1 2; do
    b="full=build/hdr/carry/nvfp4-bench cap2=build/hdr/carry/cap2.sh cap1=build/hdr/carry/cap1.sh"
    [ $run = 2 ] && b="cap1=build/hdr/carry/cap1.sh cap2=build/hdr/carry/cap2.sh full=build/hdr/carry/nvfp4-bench"
    for g in "${groups[@]}"; do
        IFS='|' read -r name args shapes <<<"$g"
        GS_AB_BENCH_ARGS=$args scripts/ab-rounds.sh "$out/r$run/$name" 3 "$shapes" default 100 $b >/dev/null 2>>"$out/err.txt" ||
            echo "twin-hdr: run $run $name failed"
    done
    echo "run $run done at $SECONDS s"
    tar cf - -C "$out" $(cd "$out" && ls -d r*) | xz -6 -T8 >"$out/hdr.tar.xz"
done
rm -rf "$out"/r1 "$out"/r2
