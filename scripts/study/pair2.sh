#!/bin/bash
# Study: the cluster pair with its end-of-kernel cluster barrier: selfcheck, racecheck, and a
# recording of d256n4096k7168 on the pair point.  usage: scripts/study/pair2.sh OUT
set -u -o pipefail
out=${1:?usage: pair2.sh OUT}
mkdir -p "$out/rec"
{ time make -j16 build/nvfp4-selfcheck build/gemmscope build/gemmscope-record; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
p=s3_w64_t256_ws_p_tmr_skp_g1
timeout 300 build/nvfp4-selfcheck --dual --variant $p >"$out/selfcheck.txt" 2>&1
echo "selfcheck rc $?" | tee -a "$out/selfcheck.txt"; tail -1 "$out/selfcheck.txt"
for tool in racecheck memcheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/nvfp4-selfcheck --dual --variant $p \
        --shapes 'dual:m=300;n=512;k=1024,dual:m=256;n=512;k=1024' >"$out/sanitizer-$tool.txt" 2>&1
    echo "sanitizer $tool rc $?"; tail -2 "$out/sanitizer-$tool.txt"
done
build/gemmscope record d256n4096k7168 VARIANT=$p METRICS=none DETAIL=1 --root "$out/rec" >"$out/rec.log" 2>&1
echo "record rc $?"
tar -C "$out" -czf "$out/rec.tgz" rec && rm -rf "$out/rec"
