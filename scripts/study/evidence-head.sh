#!/bin/bash
# Study (one session): scripts/evidence.sh for the shapes named, on the programs built on the
# development machine (`make BUILD=build/head all && make BUILD=build/head nvfp4-evidence`, the
# folder carried as build/carry/head.txz and unpacked as build/), within one call.
# Comes back: summary.log and evidence.tgz (the pages and each recording's meta.txt and
# timings.tsv), packed again after every shape.
# usage: scripts/study/evidence-head.sh SHAPE...
set -u
ret=${OUT:-/tmp/gs-out}
mkdir -p "$ret"
t0=$(date +%s)
budget=${GS_STUDY_BUDGET:-580}
export GS_NO_INSTALL=1
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
pack() {
    local list
    list=$(find reports/evidence reports/ev reports/ev-profile \( -name '*.md' -o -name meta.txt -o -name timings.tsv \) 2>/dev/null)
    [ -n "$list" ] || return
    tar czf "$ret/.evidence.tgz" $list && mv "$ret/.evidence.tgz" "$ret/evidence.tgz"
}
{
    echo "== commit $GS_GIT_COMMIT, shapes: $*"
    nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
    mkdir -p build
    tar xJf build/carry/head.txz -C build || { echo "no carried programs"; exit 1; }
    # one time for all, later than the sources the tree was copied with, so make leaves them
    sleep 1
    stamp=$(date '+%Y-%m-%d %H:%M:%S')
    find build -type f -exec touch -d "$stamp" {} +
    echo "-- unpacked in $(($(date +%s) - t0)) s"
    for s in "$@"; do
        l=$((budget - ($(date +%s) - t0)))
        [ "$l" -gt 60 ] || { echo "== $s: not run ($l s left)"; continue; }
        st=$(date +%s)
        timeout -k 5 "$l" scripts/evidence.sh "$s"
        echo "== $s: rc $?, $(($(date +%s) - st)) s"
        pack
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$ret/summary.log"
pack
