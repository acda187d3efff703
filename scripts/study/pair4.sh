#!/bin/bash
# Study: the GEMM kernel's own duration (ncu, serialised launches) of the dual default and the
# cluster pair on d256n4096k7168, and both under GPU MODE's harness.  usage: scripts/study/pair4.sh OUT
set -u -o pipefail
out=${1:?usage: pair4.sh OUT}
mkdir -p "$out"
{ time make -j16 build/nvfp4-bench; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
p=s3_w64_t256_ws_p_tmr_skp_g1
for v in default $p; do
    for s in d256n4096k7168 d256n3072k4096; do
        timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:nvfp4_gemm_kernel_prod \
            --launch-skip 5 --launch-count 15 --csv build/nvfp4-bench --dual --shapes $s --variants $v --reps 20 \
            >"$out/ncu-$s-$v.csv" 2>"$out/ncu-$s-$v.err"
        echo "$s $v: $(grep gpu__time_duration "$out/ncu-$s-$v.csv" | awk -F'","' '{print $NF}' | tr -d '"' | sort -n | awk '{a[NR]=$1} END {print "n", NR, "median", a[int((NR+1)/2)], "min", a[1], "max", a[NR]}')"
    done
done
GS_AB_BENCH_ARGS="--dual --inputs 15" scripts/ab-rounds.sh "$out/harness" 2 d256n4096k7168,d256n3072k4096 default,$p 30 \
    base=build/nvfp4-bench >"$out/harness.log" 2>&1
echo "harness rc $?"
grep -hv '^#' "$out"/harness/base-*.tsv | grep -v '^shape' | cut -f1-3,6
rm -rf "$out/harness"
