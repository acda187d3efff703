#!/bin/bash
# Study (one session): make check-gpu's parts at this commit, on binaries built on the development
# machine (`make all nvfp4-evidence`, carried as build/carry/bins.txz), in calls on one machine.
# Each part runs under what is left of the call's time; a part that does not fit is said and not
# run.  The example part's `make install` builds what it installs here.
# usage: scripts/study/check-head.sh PART...   (calib nvfp4 dual sanitizer truth ncu example)
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
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
    l=$(left)
    if [ "$l" -lt "$min" ]; then
        echo "== part $1: not run ($l s left, it needs about $min)"
        return
    fi
    s=$(date +%s)
    timeout -k 5 "$l" env GS_CHECK_ROOT=$root GS_CHECK_PARTS="$1" scripts/check-gpu.sh >"$out/check-$1.log" 2>&1
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
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C "$out" --exclude=logs.tgz --exclude=summary.log . 2>/dev/null
