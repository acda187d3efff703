#!/bin/bash
# Study (one call on the GPU machine): the loading warp's study switches of gemm.cu.
#   uw    -DNVFP4_STUDY_UWARP       the warp index broadcast from lane 0 (role branches warp-uniform);
#                                   the twin flushes the PROLOGUE record before the loading loop
#   uwl   -DNVFP4_STUDY_UWL         uw, and the loading lane finishes in its own branch
#   first -DNVFP4_STUDY_FIRST_ALONE the ring's first stage lands before the next are asked for
# Builds base and each experiment from nothing side by side (nvfp4-bench, nvfp4-selfcheck),
# dumps a SASS summary per kernel, runs a short selfcheck of every build, then A/B rounds of
# every binary on the grouped and the dual benchmarks.  Everything lands in $OUT.
set -u -o pipefail
export GS_NO_INSTALL=1
# logs gather here; one archive goes to $OUT (a call brings back at most 8 files)
out=/tmp/loader-study
rm -rf "$out" && mkdir -p "$out" "${OUT:=/tmp/gs-out}"
rounds=${GS_ROUNDS:-3} reps=${GS_REPS:-50}
exps=${GS_EXPS:-"base= uw=-DNVFP4_STUDY_UWARP uwl=-DNVFP4_STUDY_UWL first=-DNVFP4_STUDY_FIRST_ALONE"}
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
    echo "commit $(cat .gs-commit 2>/dev/null || echo unknown)"
    echo "== build"
    SECONDS=0
    pids=()
    for e in $exps; do
        (GS_ALT_FRESH=1 GS_ALT_JOBS=4 scripts/study/build-twin-alt.sh "build/${e%%=*}" "" "${e#*=}") \
            >"$out/build-${e%%=*}.log" 2>&1 &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || echo "a build failed"; done
    echo "builds done in ${SECONDS} s"
    echo "== sass"
    for e in $exps; do
        n=${e%%=*}
        for b in prod twin; do
            o=build/$n/kernels/nvfp4/gemm_$b.o
            [ -f "$o" ] || continue
            cuobjdump -sass "$o" >"/tmp/$n-$b.sass" 2>/dev/null
            # per kernel: instructions, TMA loads, bulk copies, R2UR moves
            awk -v tag="$n-$b" '/Function : / { if (f != "") print tag, f, ni, tma, blk, r2ur; f = $3; ni = tma = blk = r2ur = 0 }
                /\/\*[0-9a-f]+\*\// { ni++ } /UTMALDG/ { tma++ } /UBLKCP/ { blk++ } /R2UR/ { r2ur++ }
                END { if (f != "") print tag, f, ni, tma, blk, r2ur }' "/tmp/$n-$b.sass" >>"$out/sass-summary.txt"
            # the dual M = 256 point and the g8k7168 point, whole
            awk '/Function : / { keep = ($0 ~ /point_cfgILi4ELi64ELi128ELi1ELi1ELi1ELi0ELi1ELi0E/ || $0 ~ /point_cfgILi3ELi128ELi256ELi1ELi1ELi2ELi0ELi0ELi0E/) } keep' \
                "/tmp/$n-$b.sass" >"/tmp/sass-$n-$b.txt"
        done
    done
    tar czf "$out/sass.tar.gz" -C /tmp $(cd /tmp && ls sass-*.txt) 2>/dev/null
    echo "== selfcheck"
    for e in $exps; do
        n=${e%%=*}
        timeout 120 "build/$n/nvfp4-selfcheck" --variant production --shapes "t0,t3,g2k1536,m=200;n=512;k=4096" \
            >"$out/check-$n.log" 2>&1; echo "$n grouped rc $? $(tail -1 "$out/check-$n.log")"
        timeout 120 "build/$n/nvfp4-selfcheck" --dual --variant production \
            --shapes "dt1,dual:m=300;n=512;k=1024,d256n3072k4096" >"$out/check-dual-$n.log" 2>&1
        echo "$n dual rc $? $(tail -1 "$out/check-dual-$n.log")"
    done
    echo "== ab"
    bins=()
    for e in $exps; do bins+=("${e%%=*}=build/${e%%=*}/nvfp4-bench"); done
    GS_AB_BENCH_ARGS=--dual GS_AB_TIMEOUT=200 scripts/ab-rounds.sh reports/ab-dual "$rounds" \
        ${GS_DUAL_SHAPES:-d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168} default "$reps" "${bins[@]}" >"$out/ab-dual.log" 2>&1
    tail -20 "$out/ab-dual.log"
    GS_AB_TIMEOUT=200 scripts/ab-rounds.sh reports/ab-grouped "$rounds" "${GS_GROUPED_SHAPES:-g8k7168,g8k2048,g2k4096,g2k1536}" default "$reps" \
        "${bins[@]}" >"$out/ab-grouped.log" 2>&1
    tail -20 "$out/ab-grouped.log"
    echo "done in ${SECONDS} s"
} 2>&1 | tee "$out/study.log"
cp -r reports/ab-dual reports/ab-grouped "$out"/ 2>/dev/null
tar czf "$OUT/all.tar.gz" -C "$out" .
