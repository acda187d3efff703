#!/bin/bash
# Study: the dual GEMM's 256-token points at M = 256, where their time goes (recordings and
# alternating timings against each shape's default).  GPU machine, repository root.
# usage: scripts/study/t256-m256.sh OUTDIR [VARIANTS]
set -u -o pipefail
export GS_NO_INSTALL=1
out=$1 variants=${2:-default,s3_w64_t256_ws_p_tmr_sk_g1}
shapes=${GS_SHAPES:-d256n4096k7168,d256n3072k4096}
mkdir -p "$out"
t0=$(date +%s)
make -j16 all >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
for shape in ${shapes//,/ }; do
    for v in ${variants//,/ }; do
        build/gemmscope record SHAPE="$shape" VARIANT="$v" METRICS=none DETAIL=1 --root "$out/rec" 2>&1 | tail -2
    done
done
echo "records: $(($(date +%s) - t0)) s"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" "${GS_ROUNDS:-3}" "$shapes" "$variants" 50 cur=build/nvfp4-bench \
    >"$out/ab.log" 2>&1
tail -20 "$out/ab.log"
echo "total: $(($(date +%s) - t0)) s"
