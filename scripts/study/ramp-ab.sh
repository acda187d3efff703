#!/bin/bash
# Study (short-lived): the ring's start, NVFP4_RAMP 0..3 of gemm.cu's prime_ring, production
# builds timed against each other in alternating rounds (scripts/ab-rounds.sh).
# usage: scripts/study/ramp-ab.sh OUTDIR [ROUNDS [REPS]]
set -u -o pipefail
out=$1 rounds=${2:-3} reps=${3:-50}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/gpu.txt"
t0=$SECONDS
make -s -j16 build/nvfp4-bench >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
echo "base built in $((SECONDS - t0)) s"
for r in 1 2 3; do
    d=build/ramp$r
    rm -rf "$d" && mkdir -p "$d" && cp -a build/cuda build/instrument build/kernels "$d/" &&
        rm -f "$d"/kernels/nvfp4/gemm_prod.o || exit 1
    make -s -j5 BUILD="$d" KERNEL_FLAGS="-DNVFP4_RAMP=$r" "$d/nvfp4-bench" >"$out/build-ramp$r.log" 2>&1 &
done
wait
for r in 1 2 3; do [ -x build/ramp$r/nvfp4-bench ] || { tail -20 "$out/build-ramp$r.log"; exit 1; }; done
echo "alts built at $((SECONDS - t0)) s"
bins=(r0=build/nvfp4-bench r1=build/ramp1/nvfp4-bench r2=build/ramp2/nvfp4-bench r3=build/ramp3/nvfp4-bench)
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/dual" "$rounds" d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 default "$reps" "${bins[@]}" >"$out/dual.log" 2>&1
echo "dual done at $((SECONDS - t0)) s"
scripts/ab-rounds.sh "$out/grouped" "$rounds" g8k7168,g2k1536,g8k2048 default "$reps" "${bins[@]}" >"$out/grouped.log" 2>&1
echo "grouped done at $((SECONDS - t0)) s"
cat "$out/dual/summary.tsv" "$out/grouped/summary.tsv"
