#!/bin/bash
# Study (one call on the GPU machine): the sampler's 1 us period against 500 ns, all else the
# same.  A copy of this tree with GS_CLOCK_PERIOD_NS set back to 500u builds beside this one;
# then the overhead benchmark's twelve shapes, both binaries in turn each round; then, in what is
# left of the call, check-gpu's nvfp4 part (every grouped point, three builds).
set -u -o pipefail
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
w=/tmp/pab && rm -rf "$w" /tmp/p500 && mkdir -p "$w" "${OUT:=/tmp/gs-out}"
budget=${GS_STUDY_BUDGET:-580} rounds=${GS_STUDY_ROUNDS:-4}
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
    echo "commit $GS_GIT_COMMIT"
    SECONDS=0
    mkdir /tmp/p500 && tar cf - --exclude=./build --exclude=./reports . | tar xf - -C /tmp/p500
    sed -i 's/^#define GS_CLOCK_PERIOD_NS 1000u$/#define GS_CLOCK_PERIOD_NS 500u/' /tmp/p500/instrument/gs_format.h
    grep -n "define GS_CLOCK_PERIOD_NS" /tmp/p500/instrument/gs_format.h instrument/gs_format.h
    make -j8 all >"$w/build.log" 2>&1 &
    make -C /tmp/p500 -j8 build/nvfp4-bench >"$w/build-500.log" 2>&1 &
    wait
    ls -l build/nvfp4-bench /tmp/p500/build/nvfp4-bench || exit 1
    echo "built in ${SECONDS} s"
    b="p1000=build/nvfp4-bench p500=/tmp/p500/build/nvfp4-bench"
    export GS_AB_TIMEOUT=120
    scripts/ab-rounds.sh "$w/grouped" $rounds g8k7168,g8k2048,g2k4096,g2k1536,'m=320;n=3072;k=5120,m=96;n=7168;k=2048' default 100 $b >"$w/grouped.log" 2>&1
    echo "grouped rc $? (${SECONDS} s)"
    GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$w/dual" $rounds d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,'dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168' default 100 $b >"$w/dual.log" 2>&1
    echo "dual rc $? (${SECONDS} s)"
    cat "$w"/grouped/summary.tsv "$w"/dual/summary.tsv
    tar czf "$OUT/pab.tar.gz" -C "$w" .
    if [ $((budget - SECONDS)) -gt 200 ]; then
        make -j16 nvfp4-evidence >"$w/build-ev.log" 2>&1 || echo "evidence build failed"
        echo "evidence points built (${SECONDS} s)"
        GS_CHECK_PARTS=nvfp4 GS_CHECK_ROOT=/tmp/pab-check timeout $((budget - SECONDS)) scripts/check-gpu.sh >"$w/check-nvfp4.txt" 2>&1
        echo "check-gpu nvfp4 rc $?: $(tail -1 "$w/check-nvfp4.txt") (${SECONDS} s)"
    fi
    echo "done in ${SECONDS} s"
} 2>&1 | tee "$w/study.log"
tar czf "$OUT/pab.tar.gz" -C "$w" .
