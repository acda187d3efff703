#!/bin/bash
# Study: Nsight Compute's PC sampling (stall reasons per SASS instruction) and instruction counts
# of production and the twin on the same shape, the same nvfp4-bench process set-up.
# usage: scripts/study/twin-pcsamp.sh BUILD_DIR OUT_DIR SHAPE [SHAPE ...]
# GS_NCU_OPTS: more ncu options (e.g. --cache-control none)
set -u -o pipefail
b=$1 out=$2
shift 2
mkdir -p "$out"
for shape in "$@"; do
    tag=$(echo "$shape" | tr -c 'a-zA-Z0-9\n' '_')
    args=()
    case $shape in d*) args=(--dual) ;; esac
    for k in prod twin; do
        r=$out/$tag-$k
        ncu --clock-control none ${GS_NCU_OPTS:-} -k "regex:nvfp4_gemm_kernel_${k}" --launch-skip 20 --launch-count 3 \
            --section SpeedOfLight --section WarpStateStats --section SourceCounters --section SchedulerStats \
            --section InstructionStats --warp-sampling-interval 0 -o "$r" -f \
            "$b/nvfp4-bench" "${args[@]}" --shapes "$shape" --variants default --reps 40 >"$r.log" 2>&1 ||
            echo "twin-pcsamp: ncu failed on $shape $k (rc $?)"
        ncu -i "$r.ncu-rep" --page source --print-source sass --csv >"$r.src.csv" 2>>"$r.log"
        ncu -i "$r.ncu-rep" --page details --csv >"$r.details.csv" 2>>"$r.log"
        rm -f "$r.ncu-rep"
        echo "$shape $k: $(wc -l <"$r.src.csv") source rows"
    done
done
