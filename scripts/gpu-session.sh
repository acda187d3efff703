#!/bin/bash
# One call on the GPU machine: build, run the GPU checks, record the samples,
# pack everything that must come back into $OUT/results.tar.gz.
# usage (from the repository root on the GPU machine): scripts/gpu-session.sh [SHAPES...]
set -u -o pipefail
export GS_NO_INSTALL=1
# the copy on the GPU machine has no .git: the commit comes along in .gs-commit
export GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
out=${OUT:-/tmp/gs-out}
mkdir -p "$out"
log="$out/session.log"
{
    echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
    echo "== build"; time make -j16 all
    echo "== check-gpu"; time make check-gpu
    for s in "$@"; do
        echo "== report $s"; time make report SHAPE="$s" METRICS=${METRICS:-sol}
    done
} 2>&1 | tee "$log"
tar czf "$out/results.tar.gz" reports 2>/dev/null
echo "packed: $(du -h "$out/results.tar.gz" | cut -f1)"
