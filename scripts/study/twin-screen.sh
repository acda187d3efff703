#!/bin/bash
# Study: which twin code costs?  Builds the base binaries and twins of other GS_STUDY levels
# (instrument/gs_stamp.cuh study switches), dumps the GEMM objects' SASS, times each twin
# against its own production in alternating processes.
# usage: scripts/study/twin-screen.sh   (env: SCREEN_FLAGS "NAME=FLAGS ...", SCREEN_ROUNDS, SCREEN_GROUPED, SCREEN_DUAL)
set -u -o pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader | tee "$out/device.txt"
git rev-parse --short HEAD >>"$out/device.txt" 2>/dev/null
t0=$(date +%s)
make -s -j16 build/nvfp4-bench build/nvfp4-selfcheck >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "base built in $(( $(date +%s) - t0 )) s"
names=()
for e in ${SCREEN_FLAGS:-}; do
    n=${e%%=*} f=${e#*=}; names+=("$n")
    if [ "${f#@}" != "$f" ]; then # @FLAGS: every build of the GEMM (the twins' switches, production untouched)
        f=${f#@}
        GS_ALT_JOBS=8 scripts/study/build-twin-alt.sh "build/scr/$n" "" "${f//,/ }" >"$out/build-$n.log" 2>&1 &
    else
        GS_ALT_JOBS=8 scripts/study/build-twin-alt.sh "build/scr/$n" "${f//,/ }" >"$out/build-$n.log" 2>&1 &
    fi
done
wait
echo "alt built in $(( $(date +%s) - t0 )) s"
for n in "${names[@]}"; do [ -x "build/scr/$n/nvfp4-bench" ] || { echo "build $n failed"; tail -20 "$out/build-$n.log"; exit 1; }; done
mkdir -p "$out/sass"
( for c in $(ls scr-cubins/*.cubin 2>/dev/null); do cuobjdump -sass "$c" | gzip >"$out/sass/$(basename $c .cubin).sass.gz"; done ) &
bins=(base=build/nvfp4-bench)
for n in "${names[@]}"; do bins+=("$n=build/scr/$n/nvfp4-bench"); done
# correctness of each twin on one shape
for b in "${bins[@]}"; do d=$(dirname "${b#*=}"); "$d/nvfp4-selfcheck" --shapes g2k1536 2>&1 | tail -1 | sed "s/^/${b%%=*} selfcheck: /"; done
GS_AB_TIMEOUT=300 scripts/ab-rounds.sh reports/scr-g "${SCREEN_ROUNDS:-2}" "${SCREEN_GROUPED:-g8k7168,g2k1536}" default 50 "${bins[@]}" >"$out/ab-g.log" 2>&1
GS_AB_BENCH_ARGS=--dual GS_AB_TIMEOUT=300 scripts/ab-rounds.sh reports/scr-d "${SCREEN_ROUNDS:-2}" "${SCREEN_DUAL:-d256n4096k7168,d512n3072k7168}" default 50 "${bins[@]}" >"$out/ab-d.log" 2>&1
wait
cat reports/scr-g/summary.tsv reports/scr-d/summary.tsv
mv "$out"/*.log "$out/sass/"; tar czf "$out/rounds.tgz" reports/scr-g reports/scr-d -C "$out" sass && rm -rf "$out/sass"
echo "total $(( $(date +%s) - t0 )) s"
