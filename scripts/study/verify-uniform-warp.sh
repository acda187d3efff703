#!/bin/bash
# Study (one call on the GPU machine, at the commit that keeps the broadcast warp index):
# the production points' selfchecks (grouped, dual with both cuBLAS routes), the overhead rounds
# of samples/overhead-twin.tsv (same command), and one recording (g2k1536) for its clock-model
# check.  One archive comes back in $OUT (a call brings back at most 8 files).
set -u -o pipefail
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
w=/tmp/verify && rm -rf "$w" && mkdir -p "$w" "${OUT:=/tmp/gs-out}"
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
    echo "commit $GS_GIT_COMMIT"
    SECONDS=0
    echo "== build"; make -j16 all >"$w/build.log" 2>&1 || { echo "build failed"; tail -20 "$w/build.log"; }
    echo "built in ${SECONDS} s"
    echo "== selfcheck"
    timeout 150 build/nvfp4-selfcheck --variant production >"$w/selfcheck.log" 2>&1
    echo "grouped rc $? $(tail -1 "$w/selfcheck.log")"
    timeout 200 build/nvfp4-selfcheck --dual --variant production --cublas >"$w/selfcheck-dual.log" 2>&1
    echo "dual rc $? $(tail -1 "$w/selfcheck-dual.log")"
    echo "== overhead rounds (${SECONDS} s)"
    b=build-nvfp4-bench=build/nvfp4-bench
    scripts/ab-rounds.sh reports/overhead/grouped 3 g8k7168,g8k2048,g2k4096,g2k1536 default 100 $b >"$w/oh-grouped.log" 2>&1
    GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh reports/overhead/dual 3 d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 default 100 $b >"$w/oh-dual.log" 2>&1
    scripts/ab-rounds.sh reports/overhead/custom-grouped 3 'm=320;n=3072;k=5120,m=96;n=7168;k=2048' default 100 $b >"$w/oh-cg.log" 2>&1
    GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh reports/overhead/custom-dual 3 'dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168' default 100 $b >"$w/oh-cd.log" 2>&1
    cat reports/overhead/*/summary.tsv
    echo "== report g2k1536 (${SECONDS} s)"
    if [ "$SECONDS" -lt 330 ]; then
        timeout 150 make report SHAPE=g2k1536 METRICS=none DETAIL=1 >"$w/report.log" 2>&1
        echo "report rc $?"
        cp reports/g2k1536/default/latest/report.md "$w/report-g2k1536.md" 2>/dev/null
        build/gemmscope check reports/g2k1536/default/latest >"$w/check-g2k1536.txt" 2>&1; echo "check rc $?"
        grep -A6 "^## Checks" "$w/report-g2k1536.md"
    fi
    echo "done in ${SECONDS} s"
} 2>&1 | tee "$w/verify.log"
cp -r reports/overhead "$w/" 2>/dev/null
tar czf "$OUT/verify.tar.gz" -C "$w" .
