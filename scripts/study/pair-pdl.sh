#!/bin/bash
# Study (removed after its run): the cluster pair after the review's edits, built among the
# production points: selfcheck of every dual shape, racecheck and memcheck; then default and pair
# with and without programmatic dependent launch, alternating.  usage: scripts/study/pair-pdl.sh OUT
set -u -o pipefail
out=${1:?usage: pair-pdl.sh OUT}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader >"$out/device.txt"
{ time make -j16 build/nvfp4-selfcheck build/nvfp4-bench; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
grep real "$out/build.log"
P=s3_w64_t256_ws_p_tmr_skp_g1
timeout 150 build/nvfp4-selfcheck --dual --variant $P >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?"; tail -1 "$out/selfcheck.txt"
for tool in racecheck memcheck; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 build/nvfp4-selfcheck --dual \
        --variant $P --shapes 'dual:m=300;n=512;k=1024,dual:m=256;n=512;k=1024' >"$out/$tool.txt" 2>&1
    echo "$tool rc $?"; tail -2 "$out/$tool.txt"
done
printf '#!/bin/bash\nexec %s/build/nvfp4-bench --no-pdl "$@"\n' "$PWD" >"$out/nopdl.sh"
chmod +x "$out/nopdl.sh"
GS_AB_BENCH_ARGS=--dual scripts/ab-rounds.sh "$out/ab" 3 d256n4096k7168,d256n3072k4096,d512n4096k7168 \
    default,$P 50 pdl=build/nvfp4-bench nopdl="$out/nopdl.sh" >"$out/ab.log" 2>&1
echo "ab rc $?"
cat "$out/ab/summary.tsv"
