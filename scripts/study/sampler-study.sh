#!/bin/bash
# Study (one call on the GPU machine): the twins' clock sampler at this commit.  Builds from
# nothing, side by side: this build, ns (GS_STUDY_SAMPLER=1: no sampler, timing only) and u1
# (GS_STUDY_SAMPLER=2: the sampler's bracket loop not unrolled), both twins of each; the
# production points' selfcheck of u1; then the overhead benchmark's twelve shapes, the three
# binaries in turn each round.  One archive comes back in $OUT.
set -u -o pipefail
export GS_NO_INSTALL=1 GS_ALT_FRESH=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
w=/tmp/study && rm -rf "$w" && mkdir -p "$w" "${OUT:=/tmp/gs-out}"
rounds=${GS_STUDY_ROUNDS:-3} reps=${GS_STUDY_REPS:-50}
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
    echo "commit $GS_GIT_COMMIT"
    SECONDS=0
    make -j8 all >"$w/build.log" 2>&1 &
    GS_ALT_JOBS=4 scripts/study/build-twin-alt.sh build/${GS_STUDY_A:-ns} "" -DGS_STUDY_SAMPLER=${GS_STUDY_AF:-1} >"$w/build-ns.log" 2>&1 &
    GS_ALT_JOBS=4 scripts/study/build-twin-alt.sh build/${GS_STUDY_B:-u1} "" -DGS_STUDY_SAMPLER=${GS_STUDY_BF:-2} >"$w/build-u1.log" 2>&1 &
    wait
    echo "built in ${SECONDS} s"; ls -l build/nvfp4-bench build/${GS_STUDY_A:-ns}/nvfp4-bench build/${GS_STUDY_B:-u1}/nvfp4-bench || exit 1
    [ "${GS_STUDY_SELFCHECK:-1}" = 1 ] && { timeout 100 build/u1/nvfp4-selfcheck --variant production >"$w/selfcheck-u1.log" 2>&1
    echo "u1 grouped selfcheck rc $? $(tail -1 "$w/selfcheck-u1.log")"
    timeout 100 build/u1/nvfp4-selfcheck --dual --variant production >"$w/selfcheck-u1-dual.log" 2>&1
    echo "u1 dual selfcheck rc $? $(tail -1 "$w/selfcheck-u1-dual.log")"; }
    echo "== rounds (${SECONDS} s)"
    a=${GS_STUDY_A:-ns} b2=${GS_STUDY_B:-u1}
    b="base=build/nvfp4-bench $a=build/$a/nvfp4-bench $b2=build/$b2/nvfp4-bench"
    export GS_AB_TIMEOUT=120
    scripts/ab-rounds.sh reports/study/grouped $rounds g8k7168,g8k2048,g2k4096,g2k1536,'m=320;n=3072;k=5120,m=96;n=7168;k=2048' default $reps $b >"$w/grouped.log" 2>&1
    echo "grouped done (${SECONDS} s)"
    cp -r reports/study "$w/"; tar czf "$OUT/study.tar.gz" -C "$w" . # what is done so far comes back
    [ "${GS_STUDY_DUAL:-1}" = 1 ] && GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh reports/study/dual $rounds d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,'dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168' default $reps $b >"$w/dual.log" 2>&1
    echo "dual done (${SECONDS} s)"
    cat reports/study/*/summary.tsv
} 2>&1 | tee "$w/study.log"
cp -r reports/study "$w/" 2>/dev/null
tar czf "$OUT/study.tar.gz" -C "$w" .
