#!/bin/bash
# Where does the instrumented twin's overhead come from?  Builds nvfp4-bench once per
# GS_STAMP_ABLATE level (instrument/gs_stamp.cuh: 1 no record stores, 2 no per-phase stamps,
# 3 no timer-edge wait, 4 a twin that does nothing) next to the normal build (level 0),
# then times the production points with each, the binaries alternating for
# GS_TWIN_ROUNDS rounds.  twin_over_prod of each binary says what the pieces left in cost.
# GPU required; run after 'make all'.
# usage: scripts/twin-overhead.sh [SHAPES]     (default g8k7168,g8k2048,g2k4096,g2k1536)
# writes reports/twin-overhead/L<level>-<round>.tsv and reports/twin-overhead/summary.tsv
set -u -o pipefail
shapes=${1:-g8k7168,g8k2048,g2k4096,g2k1536}
levels=${GS_TWIN_LEVELS:-1 2 3 4}
dir=reports/twin-overhead
mkdir -p "$dir"
rm -f "$dir"/*.tsv # never mix with an earlier run's rounds
# each level's build starts from a copy of build/ (same objects, same times), so make
# recompiles only the twin object, with the level's flag
for l in $levels; do
    b=build/twin-study/L$l
    rm -rf "$b" && mkdir -p "$b"
    cp -a build/cuda build/instrument build/kernels "$b/"
    rm -f "$b/kernels/nvfp4/gemm_twin.o"
    make -s BUILD="$b" TWIN_FLAGS=-DGS_STAMP_ABLATE=$l "$b/nvfp4-bench" >"$dir/build-L$l.log" 2>&1 &
done
wait
for l in $levels; do
    [ -x "build/twin-study/L$l/nvfp4-bench" ] || { echo "twin-overhead: build of level $l failed (see $dir/build-L$l.log)"; exit 1; }
done
# the production points of the four benchmark shapes (docs/variants.md)
variants=${GS_TWIN_VARIANTS:-s3_w128_t256_ws_p,s3_w128_t256_ws_p_sk,s4_w128_t128_ws_p_tma}
for r in $(seq "${GS_TWIN_ROUNDS:-2}"); do
    for l in 0 $levels; do
        bin=build/nvfp4-bench
        [ "$l" = 0 ] || bin=build/twin-study/L$l/nvfp4-bench
        echo "-- round $r: level $l"
        "$bin" --shapes "$shapes" --variants "$variants" --reps "${GS_TWIN_REPS:-100}" --tsv "$dir/L$l-$r.tsv" ||
            exit 1
    done
done
scripts/ab-summary.sh "$dir" | tee "$dir/summary.tsv"
