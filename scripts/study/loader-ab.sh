#!/bin/bash
# Study (short-lived): the twin with its loading warp as production's (-DNVFP4_STUDY_LOADER=1 in
# the twin only) against the kept twin, alternating rounds; writes into OUTDIR as it goes.
# usage: scripts/study/loader-ab.sh OUTDIR
set -u -o pipefail
out=$1
mkdir -p "$out"
t0=$SECONDS
make -s -j16 build/nvfp4-bench >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
d=build/loader
rm -rf "$d" && mkdir -p "$d" && cp -a build/cuda build/instrument build/kernels "$d/" && rm -f "$d"/kernels/nvfp4/gemm_twin.o
make -s -j16 BUILD="$d" TWIN_FLAGS=-DNVFP4_STUDY_LOADER=1 "$d/nvfp4-bench" >"$out/build-loader.log" 2>&1 || { tail "$out/build-loader.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" 2 d256n4096k7168 default 50 base=build/nvfp4-bench loader=build/loader/nvfp4-bench >"$out/ab.log" 2>&1
echo "dual at $((SECONDS - t0)) s"; cat "$out/ab/summary.tsv"
scripts/ab-rounds.sh "$out/ab-g" 2 g2k1536 default 50 base=build/nvfp4-bench loader=build/loader/nvfp4-bench >"$out/ab-g.log" 2>&1
echo "grouped at $((SECONDS - t0)) s"; cat "$out/ab-g/summary.tsv"
