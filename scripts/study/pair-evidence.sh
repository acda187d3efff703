#!/bin/bash
# Study: the cluster pair in the evidence build: build it, check the point on every dual shape and
# every dual point on the partial-tile shape.  usage: scripts/study/pair-evidence.sh OUT
set -u -o pipefail
out=${1:?usage: pair-evidence.sh OUT}
mkdir -p "$out"
{ time make -j16 nvfp4-evidence; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
grep real "$out/build.log"
timeout 300 build/nvfp4-selfcheck --dual --variant s3_w64_t256_ws_p_tmr_skp_g1 >"$out/selfcheck-pair.txt" 2>&1
echo "pair rc $?"; tail -1 "$out/selfcheck-pair.txt"
timeout 300 build/nvfp4-selfcheck --dual --variant all --shapes 'dual:m=300;n=512;k=1024' >"$out/selfcheck-all.txt" 2>&1
echo "all rc $?"; tail -2 "$out/selfcheck-all.txt"
