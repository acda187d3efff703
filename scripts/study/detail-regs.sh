#!/bin/bash
# Study (one call): the detail twin's stamp state in fewer registers.  Three builds differ only in
# the detail twin: v0 (as committed: a 64-bit record pointer held through the main loops), v3 (a
# 32-bit record index instead), v4 (v3, and DEQUANT begun at LOAD_WAIT's end clock).  Spill
# instructions per detail object from cuobjdump; the production points' selfcheck (records checked)
# of v3 and v4; scripts/overhead-bench.sh (3 rounds of 100 on the twelve shapes) of v0, v3, v4, v0
# in turn.  Only the tables, the summary and one tarball of logs go to $OUT.
set -u
out=${OUT:-/tmp/gs-out}
mkdir -p "$out" /tmp/logs
export GS_NO_INSTALL=1 GS_GIT_COMMIT=$(cat .gs-commit 2>/dev/null || echo unknown)
t0=$(date +%s)
{
    nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
    s=$(date +%s)
    for v in 0 3 4; do
        make -j6 BUILD=build-v$v DETAIL_FLAGS=-DGS_STUDY_V=$v all >/tmp/logs/build-v$v.log 2>&1 &
    done
    wait
    for v in 0 3 4; do [ -x build-v$v/nvfp4-bench ] || { echo "build v$v failed"; tail -20 /tmp/logs/build-v$v.log; }; done
    echo "-- builds: $(($(date +%s) - s)) s"
    for v in 0 3 4; do
        o=build-v$v/kernels/nvfp4/gemm_detail.o
        cuobjdump -sass "$o" >/tmp/logs/sass-v$v.txt 2>&1
        echo "-- v$v SASS: $(grep -c 'LDL' /tmp/logs/sass-v$v.txt) LDL, $(grep -c 'STL' /tmp/logs/sass-v$v.txt) STL, $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/logs/sass-v$v.txt) instructions"
    done
    for v in 3 4; do
        for d in "" --dual; do
            s=$(date +%s)
            timeout 200 build-v$v/nvfp4-selfcheck $d --variant production >/tmp/logs/selfcheck-v$v$d.out 2>&1
            echo "-- v$v selfcheck $d: rc $?, $(tail -1 /tmp/logs/selfcheck-v$v$d.out), $(($(date +%s) - s)) s"
        done
    done
    for v in 0 3 4 0; do
        s=$(date +%s)
        n=$v; [ -e "$out/overhead-v$v.tsv" ] && n=${v}b
        BUILD=build-v$v timeout 150 scripts/overhead-bench.sh "$out/overhead-v$n.tsv" 3 100 >/tmp/logs/bench-v$n.log 2>&1
        echo "-- v$n: rc $?, $(($(date +%s) - s)) s"
    done
    echo "== done, $(($(date +%s) - t0)) s"
} 2>&1 | tee "$out/summary.log"
tar czf "$out/logs.tgz" -C /tmp/logs .
