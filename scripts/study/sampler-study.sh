#!/bin/bash
# Study (one call on the GPU machine): the twins' clock sampler at this commit.  Builds from
# nothing, side by side, this build and one per GS_STUDY_VARIANTS entry NAME=N[:PERIOD:POLL] (the
# twins built with GS_STUDY_SAMPLER=N: 1 no sampler, 3 a pair every 4 periods, 4 no edge wait,
# 5 polls 4x sparser, 6 the bracket from the last old-value read; PERIOD and POLL in ns); then the overhead benchmark's grouped shapes (and with GS_STUDY_DUAL=1 the dual
# ones), every binary in turn each round.  One archive comes back in $OUT.
set -u -o pipefail
export GS_NO_INSTALL=1 GS_ALT_FRESH=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
w=/tmp/study && rm -rf "$w" && mkdir -p "$w" "${OUT:=/tmp/gs-out}"
rounds=${GS_STUDY_ROUNDS:-3} reps=${GS_STUDY_REPS:-50}
variants=${GS_STUDY_VARIANTS:-ns=1 p4=3 e0=4 s4=5}
flags() { # N[:PERIOD:POLL] -> the -D flags
    local f="-DGS_STUDY_SAMPLER=${1%%:*}"
    [[ $1 == *:*:* ]] && { IFS=: read -r _ p q <<<"$1"; f="$f -DGS_STUDY_PERIOD_NS=${p}u -DGS_STUDY_POLL_NS=${q}u"; }
    echo "$f"
}
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
    echo "commit $GS_GIT_COMMIT; variants $variants"
    SECONDS=0
    make -j8 all >"$w/build.log" 2>&1 &
    b="base=build/nvfp4-bench"
    for v in $variants; do
        GS_ALT_JOBS=3 scripts/study/build-twin-alt.sh build/${v%%=*} "" "$(flags ${v#*=})" >"$w/build-${v%%=*}.log" 2>&1 &
        b="$b ${v%%=*}=build/${v%%=*}/nvfp4-bench"
    done
    wait
    echo "built in ${SECONDS} s"
    for nb in $b; do ls -l "${nb#*=}" || exit 1; done
    for v in $variants; do
        [ "${v#*=}" = 1 ] && continue # no pairs: its stamp check fails by design
        [ -n "${GS_STUDY_SELFCHECK_ONE:-}" ] && [ "${v%%=*}" != "$GS_STUDY_SELFCHECK_ONE" ] && continue
        timeout 100 build/${v%%=*}/nvfp4-selfcheck --variant production >"$w/selfcheck-${v%%=*}.log" 2>&1
        echo "${v%%=*} grouped selfcheck rc $? $(tail -1 "$w/selfcheck-${v%%=*}.log")"
    done
    # the clock model each sampler gives: one recording (no metrics) of the two shortest shapes
    for v in base $variants; do
        n=${v%%=*} d=build/${v%%=*}; [ "$n" = base ] && d=build
        [ "${v#*=}" = 1 ] && continue
        [ "$n" = base ] || make -s -j16 BUILD=$d KERNEL_FLAGS="$(flags ${v#*=})" $d/gemmscope $d/gemmscope-record >"$w/build-rec-$n.log" 2>&1
        for s in ${GS_STUDY_REC_SHAPES:-g2k1536 g2k4096 m=96;n=7168;k=2048}; do
            timeout 60 $d/gemmscope record SHAPE="$s" METRICS=none --root reports/study/rec-$n >"$w/rec-$n.log" 2>&1
            rc=$? rep=$(sed -n 's/^gemmscope: report //p' "$w/rec-$n.log")
            echo "$n $s rc $rc: $(grep -h 'clock model' "$rep" 2>/dev/null | tr '\n' ' ')"
        done
    done
    echo "== rounds (${SECONDS} s)"
    export GS_AB_TIMEOUT=120
    scripts/ab-rounds.sh reports/study/grouped $rounds g8k7168,g8k2048,g2k4096,g2k1536,'m=320;n=3072;k=5120,m=96;n=7168;k=2048' default $reps $b >"$w/grouped.log" 2>&1
    echo "grouped done (${SECONDS} s)"
    cp -r reports/study/grouped "$w/"; tar czf "$OUT/study.tar.gz" -C "$w" . # what is done so far comes back
    [ "${GS_STUDY_DUAL:-0}" = 1 ] && GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh reports/study/dual $rounds d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168,'dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168' default $reps $b >"$w/dual.log" 2>&1
    echo "dual done (${SECONDS} s)"
    cat reports/study/*/summary.tsv
} 2>&1 | tee "$w/study.log"
cp -r reports/study/grouped reports/study/dual "$w/" 2>/dev/null
tar czf "$OUT/study.tar.gz" -C "$w" .
