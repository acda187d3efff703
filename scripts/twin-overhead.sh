#!/bin/bash
# Where does the instrumented twin's overhead come from?  Builds nvfp4-bench once per
# GS_STAMP_ABLATE level (instrument/gs_stamp.cuh: 1 no record stores, 2 no per-phase stamps,
# 3 no timer-edge wait, 4 a twin that does nothing) next to the normal build (level 0),
# then times each shape's production point (GS_TWIN_VARIANTS, default "default") with each, the binaries alternating for
# GS_TWIN_ROUNDS rounds.  twin_over_prod of each binary says what the pieces left in cost.
# GPU required; run after 'make all'.
# usage: scripts/twin-overhead.sh [SHAPES]     (default g8k7168,g8k2048,g2k4096,g2k1536)
# writes reports/twin-overhead/L<level>-<round>.tsv and reports/twin-overhead/summary.tsv
set -u -o pipefail
shapes=${1:-g8k7168,g8k2048,g2k4096,g2k1536}
levels=${GS_TWIN_LEVELS:-1 2 3 4}
dir=reports/twin-overhead
mkdir -p "$dir"
for l in $levels; do
    scripts/build-twin-alt.sh build/twin-study/L$l -DGS_STAMP_ABLATE=$l >"$dir/build-L$l.log" 2>&1 &
done
wait
for l in $levels; do
    [ -x "build/twin-study/L$l/nvfp4-bench" ] || { echo "twin-overhead: build of level $l failed (see $dir/build-L$l.log)"; exit 1; }
done
# the production points of the four benchmark shapes (docs/variants.md)
bins=(L0=build/nvfp4-bench)
for l in $levels; do bins+=("L$l=build/twin-study/L$l/nvfp4-bench"); done
scripts/ab-rounds.sh "$dir" "${GS_TWIN_ROUNDS:-2}" "$shapes" \
    "${GS_TWIN_VARIANTS:-default}" "${GS_TWIN_REPS:-100}" "${bins[@]}"
