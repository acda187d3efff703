#!/bin/bash
# A past study: needs GS_STAMP_ABLATE and the other study switches of gs_stamp.cuh, removed since:
# run at commit 16da9bf (there it is scripts/twin-overhead.sh).
# Where does the instrumented twin's overhead come from?  Builds nvfp4-bench once per
# GS_STAMP_ABLATE level (instrument/gs_stamp.cuh: 1 no record stores, 2 no per-phase stamps,
# 3 no timer-edge wait, 4 a twin that does nothing) next to the normal build (level 0),
# then times each shape's production point (GS_TWIN_VARIANTS, default "default") with each, the binaries alternating for
# GS_TWIN_ROUNDS rounds.  twin_over_prod of each binary says what the pieces left in cost.
# GS_TWIN_EXTRA adds twins of other flags to the study: NAME=FLAGS words (flags joined with
# ',', e.g. "S0=-DGS_CLOCK_SAMPLING=0 E1=-DNVFP4_SAMPLER_STOP_EARLY=1"), built as
# build/twin-study/NAME.  GS_TWIN_ROUNDS=0 builds only; GS_TWIN_REUSE=1 keeps a binary an
# earlier call built (the same machine, the same sources) instead of building it again.
# GPU required; run after 'make all'.
# usage: scripts/study/twin-overhead.sh [SHAPES]     (default GS_TWIN_SHAPES, else g8k7168,g8k2048,g2k4096,g2k1536)
# writes reports/twin-overhead/L<level>-<round>.tsv and reports/twin-overhead/summary.tsv
set -u -o pipefail
shapes=${1:-${GS_TWIN_SHAPES:-g8k7168,g8k2048,g2k4096,g2k1536}}
levels=${GS_TWIN_LEVELS-1 2 3 4}
dir=reports/twin-overhead
mkdir -p "$dir"
names=() flags=()
for l in $levels; do names+=("L$l") flags+=("-DGS_STAMP_ABLATE=$l"); done
for e in ${GS_TWIN_EXTRA:-}; do
    [[ $e =~ ^[A-Za-z0-9_-]+=-.+ ]] || { echo "twin-overhead: GS_TWIN_EXTRA word '$e' is not NAME=FLAGS"; exit 2; }
    names+=("${e%%=*}") flags+=("${e#*=}")
done
for i in "${!names[@]}"; do
    b=build/twin-study/${names[$i]}
    [ "${GS_TWIN_REUSE:-0}" = 1 ] && [ -x "$b/nvfp4-bench" ] && continue
    scripts/study/build-twin-alt.sh "$b" "${flags[$i]//,/ }" >"$dir/build-${names[$i]}.log" 2>&1 &
done
wait
for n in "${names[@]}"; do
    [ -x "build/twin-study/$n/nvfp4-bench" ] || { echo "twin-overhead: build of $n failed (see $dir/build-$n.log)"; exit 1; }
done
[ "${GS_TWIN_ROUNDS:-2}" = 0 ] && { echo "twin-overhead: built ${names[*]}"; exit 0; }
# the production points of the four benchmark shapes (docs/variants.md)
bins=(L0=build/nvfp4-bench)
for n in "${names[@]}"; do bins+=("$n=build/twin-study/$n/nvfp4-bench"); done
scripts/ab-rounds.sh "$dir" "${GS_TWIN_ROUNDS:-2}" "$shapes" \
    "${GS_TWIN_VARIANTS:-default}" "${GS_TWIN_REPS:-100}" "${bins[@]}"
