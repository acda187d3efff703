#!/bin/bash
# Study (one session): make check-gpu's parts at this commit, in calls on one warm machine.  Each
# part runs under what is left of the call's time, so what finished comes back even when a later
# part is cut.
# usage: scripts/study/verify-head.sh N PART...   (the call's number; check-gpu parts, or
#   overhead: scripts/overhead-bench.sh 3 rounds of 100; dual:S1,S2,...: the dual part's selfcheck
#   one shape a process, in turn, while 60 s are left, so that the part can span two calls).  Every call builds with the evidence
#   points (nothing to do on a machine a call before it built on).
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
t0=$(date +%s)
budget=${GS_VERIFY_BUDGET:-585}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
log=$out/run-$1.log
[ $# -ge 2 ] || { echo "usage: verify-head.sh N PART..." >&2; exit 2; }
part() { # PART
    local l s rc
    l=$(left)
    if [ "$l" -lt 40 ]; then
        echo "== part $1: not run ($l s left)"
        return
    fi
    s=$(date +%s)
    timeout -k 5 "$l" env GS_CHECK_PARTS="$1" scripts/check-gpu.sh >"$out/check-$1.log" 2>&1
    rc=$?
    echo "== part $1: rc $rc, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$1.log" | tail -1)"
}
{
    echo "== commit $GS_GIT_COMMIT, call $1"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
    s=$(date +%s)
    (time make -j16 all) >"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
    (time make -j16 nvfp4-evidence) >>"$out/build-$1.log" 2>&1 || { tail -40 "$out/build-$1.log"; exit 1; }
    echo "-- build: $(($(date +%s) - s)) s"
    shift
    for p in "$@"; do
        if [[ $p == dual:* ]]; then
            IFS=',' read -r -a shapes <<<"${p#dual:}"
            for sh in "${shapes[@]}"; do
                if [ "$(left)" -lt 60 ]; then echo "== dual $sh: not run ($(left) s left)"; continue; fi
                s=$(date +%s)
                timeout -k 5 "$(left)" build/nvfp4-selfcheck --dual --variant all --cublas --shapes "$sh" \
                    >"$out/dual-$sh.log" 2>"$out/dual-$sh.err"
                echo "== dual $sh: rc $?, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/dual-$sh.log" | tail -1)"
            done
        elif [ "$p" = overhead ]; then
            s=$(date +%s)
            timeout -k 5 "$(left)" scripts/overhead-bench.sh "$out/overhead-twin.tsv" 3 100 >"$out/overhead.log" 2>&1
            echo "== overhead: rc $?, $(($(date +%s) - s)) s"
        else
            part "$p"
        fi
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$log"
tar czf "$out/logs.tgz" -C "$out" --exclude=logs.tgz . 2>/dev/null
