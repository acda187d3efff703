#!/bin/bash
# Study (one session): make check-gpu's parts at one commit in two calls, each on a fresh
# machine (build with the evidence points first).  Each part runs under what is left of the
# call's time, so what finished comes back even when a later part is cut.
# usage: scripts/study/verify-pub.sh N   (1: dual; 2: sanitizer, the dual part's shapes call 1
# did not reach (dualrest: nvfp4-selfcheck --dual --variant all on them), nvfp4)
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_VERIFY_BUDGET:-585}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
{
    echo "== commit $GS_GIT_COMMIT, call $1"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
    echo "== build"
    (time make -j16 nvfp4-evidence) >"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
    grep real "$out/build-$1.log"
    if [ "$1" = 1 ]; then parts="dual"; else parts="sanitizer dualrest nvfp4"; fi
    for p in $parts; do
        l=$(left)
        if [ "$l" -lt 40 ]; then
            echo "== part $p: not run ($l s left)"
            continue
        fi
        s=$(date +%s)
        if [ "$p" = dualrest ]; then
            timeout -k 5 "$l" build/nvfp4-selfcheck --dual --variant all \
                --shapes "d512n4096k7168,d512n3072k7168,dual:m=300;n=512;k=1024" >"$out/check-$p.log" 2>&1
        else
            timeout -k 5 "$l" env GS_CHECK_PARTS="$p" scripts/check-gpu.sh >"$out/check-$p.log" 2>&1
        fi
        rc=$?
        echo "== part $p: rc $rc, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$p.log" | tail -1)"
    done
    echo "== total $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/run-$1.log"
