#!/bin/bash
# A past study: needs cupti-check --alone, --evict, --replay, --setup, --flush and --only-metrics,
# removed since: run at commit 16da9bf (there it is scripts/gap-study.sh).
# Why does the GEMM's range last longer in our collector than under Nsight Compute?  Per
# shape, the duration, cycles and SM clock (medians of 5) from:
#   alone: the GEMM by itself after the set-up and a wait (CUDA events, CUPTI activity;
#          GS_GAP_ALONE=0 skips it);
#   ours:  the range profiler, as GS_GAP_OURS lists (replay:setup:flush[:nopdl[:evict]],
#          cupti-check's --replay, --setup, --flush, --no-pdl when the fourth field is
#          "nopdl", --evict), with programmatic dependent launch on and off;
#   ncu:   the same launches, as GS_GAP_NCU lists (replay-mode:cache-control[:evict], the
#          last cupti-check's --evict for the launches ncu profiles).
# GPU and ncu required.
# GS_GAP_METRICS replaces the metric list.
# usage: scripts/study/gap-study.sh [SHAPES...]   (default: the four benchmark shapes)
set -u -o pipefail
m=${GS_GAP_METRICS:-gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second}
shapes=${*:-g8k7168 g8k2048 g2k4096 g2k1536}
dir=${GS_GAP_DIR:-reports/gap}
mkdir -p "$dir"
for shape in $shapes; do
    for pdl in on off; do
        [ "${GS_GAP_ALONE:-1}" = 1 ] || break
        echo "== $shape, programmatic dependent launch $pdl"
        build/cupti-check --shape "$shape" $([ $pdl = off ] && echo --no-pdl) --alone --reps 30 | grep -E '^alone'
    done
    for mode in ${GS_GAP_NCU:-kernel:all application:none}; do
        IFS=: read -r rp cc ev <<<"$mode"
        tag=$shape-${mode//:/-}
        scripts/ncu-gemm.sh "$shape" 5 "$m" --replay-mode "$rp" --cache-control "$cc" -- ${ev:+--evict $ev} \
            >"$dir/ncu-$tag.csv" 2>&1
    done
    for mode in ${GS_GAP_OURS:-user:inside:read user:inside:none kernel:inside:read user:inside:read:nopdl}; do
        IFS=: read -r rp su fl np ev <<<"$mode"
        [ -z "$np" ] || [ "$np" = nopdl ] || { echo "gap-study: '$mode': the fourth field is nopdl or empty"; exit 2; }
        tag=$shape-${mode//:/-}
        build/cupti-check --shape "$shape" ${np:+--no-pdl} ${ev:+--evict $ev} --replay "$rp" --setup "$su" \
            --flush "$fl" --only-metrics "$m" >"$dir/ours-$tag.txt" 2>&1
        for nm in ${GS_GAP_NCU:-kernel:all application:none}; do
            echo "-- $shape: ours replay $rp, set-up $su, flush $fl${np:+, no pdl}${ev:+, evict $ev} against ncu ${nm//:/, }"
            build/ncu-compare "$dir/ours-$tag.txt" "$dir/ncu-$shape-${nm//:/-}.csv" | grep -vE "^(metric |[0-9]+ passed)"
        done
    done
done
