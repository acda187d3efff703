#!/bin/bash
# Study (short-lived): detail-twin recordings of the kept kernel and of NVFP4_RAMP=R's build.
# usage: scripts/study/ramp-record.sh OUTDIR R SHAPE...
set -u -o pipefail
out=$1 r=$2
shift 2
mkdir -p "$out"
t0=$SECONDS
make -s -j16 build/gemmscope build/gemmscope-record >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
d=build/ramp$r
rm -rf "$d" && mkdir -p "$d" && cp -a build/cuda build/instrument build/kernels build/analysis "$d/" &&
    rm -f "$d"/kernels/nvfp4/gemm_prod.o "$d"/kernels/nvfp4/gemm_twin.o "$d"/kernels/nvfp4/gemm_detail.o || exit 1
make -s -j16 BUILD="$d" KERNEL_FLAGS="-DNVFP4_RAMP=$r" "$d/gemmscope" "$d/gemmscope-record" >"$out/build-$r.log" 2>&1 ||
    { tail -20 "$out/build-$r.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
for s in "$@"; do
    build/gemmscope record SHAPE="$s" METRICS=none DETAIL=1 --reps 30 --root "$out/r0" >"$out/rec0.log" 2>&1 || { tail "$out/rec0.log"; exit 1; }
    "$d/gemmscope" record SHAPE="$s" METRICS=none DETAIL=1 --reps 30 --root "$out/r$r" >"$out/rec$r.log" 2>&1 || { tail "$out/rec$r.log"; exit 1; }
    echo "$s recorded at $((SECONDS - t0)) s"
done
find "$out" -name "*.tmp" -prune -o -type f -print | head -50
