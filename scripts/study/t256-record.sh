#!/bin/bash
# Study (removed after its run): d256n4096k7168 recorded with its default and with the 256-token
# B1/B2 pair split along K (s3_w64_t256_ws_p_tmr_skr_g1, moved among the production points for
# this build), stamps from both twins.  GPU required.  usage: scripts/study/t256-record.sh OUT
set -u -o pipefail
out=${1:?usage: t256-record.sh OUT}
mkdir -p "$out/rec"
{ time make -j16 build/gemmscope build/gemmscope-record; } >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
for v in default s3_w64_t256_ws_p_tmr_skr_g1; do
    build/gemmscope record d256n4096k7168 VARIANT=$v METRICS=none DETAIL=1 --root "$out/rec/$v" >"$out/rec-$v.log" 2>&1
    echo "record $v rc $?"
    tail -3 "$out/rec-$v.log"
done
tar -C "$out" -czf "$out/rec.tgz" rec && rm -rf "$out/rec"
