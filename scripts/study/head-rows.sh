#!/bin/bash
# Study (short-lived): the dual check's rows that had not run on the current kernel (the
# partial-tile shape at every point, and the cuBLAS routes), built from HEAD's kernels; then
# NVFP4_RAMP 2 and 3 (scripts/study/ramp.patch) against HEAD under GPU MODE's harness
# (--inputs 15: the code in L2 for all but the first problem).
# usage: scripts/study/head-rows.sh OUTDIR
set -u -o pipefail
out=$1
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/gpu.txt"
git checkout HEAD -- kernels/ && git status --short >"$out/tree.txt"
t0=$SECONDS
make -s -j16 all >"$out/build.log" 2>&1 && make -s -j16 nvfp4-evidence >>"$out/build.log" 2>&1 ||
    { tail -20 "$out/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
build/nvfp4-selfcheck --dual --variant all --cublas --shapes 'dual:m=300;n=512;k=1024' >"$out/m300.txt" 2>"$out/m300.err"
echo "m300 rc $? at $((SECONDS - t0)) s: $(tail -1 "$out/m300.txt")"
build/nvfp4-selfcheck --dual --variant default --cublas \
    --shapes dt0,dt1,dt2,dt3,dt4,dt5,dt6,dt7,dt8,d256n4096k7168,d256n3072k4096 >"$out/cublas.txt" 2>"$out/cublas.err"
echo "cublas rc $? at $((SECONDS - t0)) s: $(tail -1 "$out/cublas.txt")"
git apply scripts/study/ramp.patch || exit 1
for r in 2 3; do
    d=build/ramp$r
    rm -rf "$d" && mkdir -p "$d" && cp -a build/cuda build/instrument build/kernels "$d/" &&
        rm -f "$d"/kernels/nvfp4/gemm_prod.o || exit 1
    make -s -j8 BUILD="$d" KERNEL_FLAGS="-DNVFP4_RAMP=$r" "$d/nvfp4-bench" >"$out/build-ramp$r.log" 2>&1 &
done
wait
echo "alts built at $((SECONDS - t0)) s"
bins=(r0=build/nvfp4-bench r2=build/ramp2/nvfp4-bench r3=build/ramp3/nvfp4-bench)
GS_AB_BENCH_ARGS="--dual --inputs 15" scripts/ab-rounds.sh "$out/h-dual" 2 d256n4096k7168,d512n3072k7168 default 20 "${bins[@]}" >"$out/h-dual.log" 2>&1
GS_AB_BENCH_ARGS="--inputs 15" scripts/ab-rounds.sh "$out/h-grouped" 2 g8k7168 default 20 "${bins[@]}" >"$out/h-grouped.log" 2>&1
echo "harness A/B at $((SECONDS - t0)) s"
cat "$out/h-dual/summary.tsv" "$out/h-grouped/summary.tsv"
