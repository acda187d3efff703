#!/bin/bash
# Study (removed after its run): the cluster pair after gate_split_stage, built among the production
# points: selfcheck of every dual shape and racecheck.  usage: scripts/study/pair-recheck.sh OUT
set -u -o pipefail
out=${1:?usage: pair-recheck.sh OUT}
mkdir -p "$out"
{ time make -j16 build/nvfp4-selfcheck; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
grep real "$out/build.log"
timeout 120 build/nvfp4-selfcheck --dual --variant s3_w64_t256_ws_p_tmr_skp_g1 >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?"; tail -1 "$out/selfcheck.txt"
timeout 60 build/nvfp4-selfcheck --dual --variant s3_w64_t256_ws_p_tmr_g1 --shapes d512n4096k7168,dt0 >"$out/selfcheck-g1.txt" 2>&1
echo "selfcheck t256 default rc $?"; tail -1 "$out/selfcheck-g1.txt"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 build/nvfp4-selfcheck --dual \
    --variant s3_w64_t256_ws_p_tmr_skp_g1 --shapes 'dual:m=300;n=512;k=1024' >"$out/racecheck.txt" 2>&1
echo "racecheck rc $?"; tail -2 "$out/racecheck.txt"
