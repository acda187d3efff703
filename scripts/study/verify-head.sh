#!/bin/bash
# Study (one session): make check-gpu's parts at one commit, and the twins' overhead rounds, in
# at most two calls on one warm machine.  Each part runs under what is left of the call's time, so
# what finished comes back even when a later part is cut.
# usage: scripts/study/verify-head.sh N      (the call's number; GS_VERIFY_PARTS names its parts,
#                                            default: 1 dual example calib truth, 2 nvfp4 sanitizer ncu)
# GS_VERIFY_OVERHEAD=1 adds the twins' overhead rounds after the parts.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_VERIFY_BUDGET:-585}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
log=$out/run-$1.log
{
    echo "== commit $GS_GIT_COMMIT, call $1"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
    echo "== build"
    (time make -j16 all && time make -j16 nvfp4-evidence) >"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
    tail -3 "$out/build-$1.log"
    if [ "$1" = 1 ]; then parts="dual example calib truth"; else parts="nvfp4 sanitizer ncu"; fi
    parts=${GS_VERIFY_PARTS:-$parts}
    for p in $parts; do
        l=$(left)
        if [ "$l" -lt 40 ]; then
            echo "== part $p: not run ($l s left)"
            continue
        fi
        s=$(date +%s)
        timeout -k 5 "$l" env GS_CHECK_PARTS="$p" scripts/check-gpu.sh >"$out/check-$p.log" 2>&1
        rc=$?
        echo "== part $p: rc $rc, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$p.log" | tail -1)"
    done
    if [ "${GS_VERIFY_OVERHEAD:-0}" = 1 ]; then
        l=$(left)
        echo "== overhead rounds ($l s left)"
        ab() { # NAME SHAPES [--dual]
            local d=reports/overhead/$1
            if [ "$(left)" -lt 60 ]; then
                echo "-- $1: not run"
                return
            fi
            GS_AB_TIMEOUT=$(($(left) - 10)) GS_AB_BENCH_ARGS="${3:-}" \
                scripts/ab-rounds.sh "$d" 3 "$2" default 100 build-nvfp4-bench=build/nvfp4-bench >"$d.log" 2>&1
            echo "-- $1: rc $?"
            tar cf "$out/overhead.tar" reports/overhead
        }
        mkdir -p reports/overhead
        ab grouped g8k7168,g8k2048,g2k4096,g2k1536
        ab dual d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 --dual
        ab custom-grouped 'm=320;n=3072;k=5120,m=96;n=7168;k=2048'
        ab custom-dual 'dual:m=384;n=3072;k=4096,dual:m=128;n=2048;k=7168' --dual
    fi
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$log"
