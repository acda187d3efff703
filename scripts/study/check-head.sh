#!/bin/bash
# Study (one session): make check-gpu's parts at this commit, on binaries built on the development
# machine (`make all nvfp4-evidence`, carried as build/carry/bins.txz), in calls on one machine;
# also the overhead benchmark (part "overhead": scripts/overhead-bench.sh OUT 3 100) and the dual
# defaults against cuBLAS (part "dualdef": four nvfp4-bench --dual processes, the shapes in the
# usual order and reversed, alternately) and the dual harness table (part "harness": nvfp4-bench
# --dual --inputs 1, then --inputs 15, two rounds).  Each part runs under what is left of the call's time;
# a part that does not fit is said and not run.  The example part's `make install` builds what
# it installs here.
# usage: scripts/study/check-head.sh PART...   (calib nvfp4 dual sanitizer truth ncu example overhead dualdef harness)
set -u
ret=${OUT:-/tmp/gs-out} # what comes back: summary.log and logs.tgz only (the device returns few files)
out=/tmp/gs-work
mkdir -p "$out" "$ret"
t0=$(date +%s)
budget=${GS_VERIFY_BUDGET:-585}
left() { echo $((budget - ($(date +%s) - t0))); }
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
root=reports/check-gpu
need=${GS_PART_NEED:-} # "PART=SECONDS ...": the least time a part is started with
part() { # PART
    local l s rc min=40 w
    for w in $need; do [ "${w%%=*}" = "$1" ] && min=${w#*=}; done
    if grep -qE '^[0-9]+ passed, [0-9]+ failed|^overhead-bench.sh: wrote|^nvfp4-bench: all points' "$out/check-$1.log" 2>/dev/null; then
        echo "== part $1: done in an earlier call on this machine"
        return
    fi
    l=$(left)
    if [ "$l" -lt "$min" ]; then
        echo "== part $1: not run ($l s left, it needs about $min)"
        return
    fi
    s=$(date +%s)
    case $1 in
    overhead) timeout -k 5 "$l" env BUILD=build scripts/overhead-bench.sh "$out/overhead-twin.tsv" 3 100 >"$out/check-$1.log" 2>&1 ;;
    dualdef)
        d="d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168"
        r="d512n3072k7168,d512n4096k7168,d256n3072k4096,d256n4096k7168"
        for i in 1 2 3 4; do
            sh=$d; [ $((i % 2)) -eq 0 ] && sh=$r
            timeout -k 5 "$l" build/nvfp4-bench --dual --reps 50 --variants default --shapes "$sh" --tsv "$out/dualdef-$i.tsv" || break
        done >"$out/check-$1.log" 2>&1 ;;
    harness)
        for i in 1 2; do
            for n in 1 15; do
                timeout -k 5 "$l" build/nvfp4-bench --dual --reps 50 --variants default --inputs $n \
                    --shapes d256n4096k7168,d256n3072k4096,d512n4096k7168,d512n3072k7168 --tsv "$out/harness-$i-$n.tsv" || break 2
            done
        done >"$out/check-$1.log" 2>&1 ;;
    *) timeout -k 5 "$l" env GS_CHECK_ROOT=$root GS_CHECK_PARTS="$1" scripts/check-gpu.sh >"$out/check-$1.log" 2>&1 ;;
    esac
    rc=$?
    echo "== part $1: rc $rc, $(($(date +%s) - s)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/check-$1.log" | tail -1)"
}
{
    echo "== commit $GS_GIT_COMMIT, parts: $*"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
    nvcc --version | tail -2 | head -1
    s=$(date +%s)
    mkdir -p build
    tar xJf build/carry/bins.txz -C build || { echo "no carried binaries"; exit 1; }
    # newer than the sources the tree was copied with, so make does not build them again
    for f in $(tar tJf build/carry/bins.txz); do touch "build/$f"; done
    echo "-- unpacked $(tar tJf build/carry/bins.txz | tr '\n' ' ')in $(($(date +%s) - s)) s"
    for p in "$@"; do part "$p"; done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$ret/summary.log"
tar czf "$ret/logs.tgz" -C "$out" . 2>/dev/null
