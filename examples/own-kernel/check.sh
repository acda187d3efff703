#!/bin/bash
# Known-answer check of the own-kernel example against an installed gemmscope:
#   check.sh PREFIX             build own-gemm (make), record two shapes on the GPU, report them
#                               with PREFIX/bin/gemmscope, check the reports' known answers
#   check.sh PREFIX --run RUN   report and check an existing run of own-gemm (make selfcheck
#                               uses it on a synthetic run, no GPU)
# BUILD (default build, relative to this folder) is the example's build folder.  One row per
# check, then 'N passed, M failed'; exit status 1 if any failed.
set -u -o pipefail

usage() {
    echo "usage: check.sh PREFIX [--run RUN]" >&2
    exit 2
}
[ $# -eq 1 ] || { [ $# -eq 3 ] && [ "$2" = --run ]; } || usage
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(cd "$1" 2>/dev/null && pwd) || { echo "check.sh: $1: no such folder" >&2; exit 2; }
gs=$prefix/bin/gemmscope
build=${BUILD:-build}
case $build in /*) ;; *) build=$here/$build ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/own-kernel-check.XXXXXX") || exit 1

# The kernel's geometry (own_gemm.h, tiles.h): the known answers follow from it and the shape.
BM=128 BN=128 BK=64
CONSUMER_WARPS=8 # each stamps MAINLOOP, EPILOGUE and STORE once per tile
SUB_WARPS=2      # the first warp of each warpgroup stamps WAIT and MMA once per K block
WARPS_PER_CTA=9

passed=0 failed=0
row() {
    if [ "$2" = pass ]; then
        printf '%-48s pass\n' "$1"
        passed=$((passed + 1))
    else
        printf '%-48s FAIL%s\n' "$1" "${3:+ ($3)}"
        failed=$((failed + 1))
    fi
}

# summary.json as "path value" lines ("phases.MAINLOOP.instances 1024", array items by index):
# gemmscope writes one key or item per line.
flatten() {
    awk '
    function path(k,   p, i) { p = ""; for (i = 1; i <= d; i++) p = p name[i] "."; return p k }
    {
        line = $0
        sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line); sub(/,$/, "", line)
        if (NR == 1 && line == "{") { d = 0; next }
        if (line == "}" || line == "]") { d--; next }
        if (match(line, /^"[^"]*": /)) { key = substr(line, 2, RLENGTH - 4); val = substr(line, RLENGTH + 1) }
        else { key = idx[d]++; val = line }
        if (val == "{" || val == "[") { d++; name[d] = key; idx[d] = 0; next }
        print path(key) " " val
    }' "$1"
}

# The value at a path of the flattened summary (empty when absent).
get() {
    awk -v k="$1" '$1 == k { sub(/^[^ ]* /, ""); print; exit }' "$flat"
}

# A summary value equal to the known answer, compared as text (numbers are exact integers).
expect() {
    local got
    got=$(get "$2")
    if [ "$got" = "$3" ]; then row "$1" pass; else row "$1" FAIL "got '${got}', want '$3'"; fi
}

# A positive finite number (the JSON writer prints null for what is not finite).
expect_positive() {
    local got
    got=$(get "$2")
    if echo "$got" | grep -Eq '^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$' && awk -v x="$got" 'BEGIN { exit !(x > 0) }'; then
        row "$1" pass
    else
        row "$1" FAIL "got '${got}'"
    fi
}

expect_section() {
    if grep -qxF "$1" "$2"; then row "report.md has '$1'" pass; else row "report.md has '$1'" FAIL; fi
}

# The known answers of run $1 of shape m$2 n$3 k$4, from its summary.json and report.md.
check_run() {
    local run=$1 m=$2 n=$3 k=$4
    local tiles=$(((m / BM) * (n / BN))) kb=$((k / BK))
    flat=$tmp/$(basename "$run").flat
    if ! flatten "$run/summary.json" >"$flat" || [ ! -s "$flat" ]; then
        row "summary.json readable" FAIL
        return
    fi
    local sms ctas
    sms=$(get sm_count)
    ctas=$((tiles < sms ? tiles : sms))
    expect "output correct" correct true
    expect "units stamped = tiles ($tiles)" mainloop_by_width.stamped_units $tiles
    expect "units listed = tiles ($tiles)" mainloop_by_width.listed_units $tiles
    expect "main loop by width: table stands" mainloop_by_width.ok true
    expect "main loop by width: one width, $BN" mainloop_by_width.widths.0.width $BN
    expect "main loop by width: no second width" mainloop_by_width.widths.1.width ""
    expect "main loop by width: K blocks = $((tiles * kb))" mainloop_by_width.widths.0.k_blocks $((tiles * kb))
    # WAIT and MMA as columns: every unit's first warp stamped them, WAIT once per K block
    expect "main loop by width: sub-phase WAIT" mainloop_by_width.sub_phases.0 '"WAIT"'
    expect "main loop by width: sub-phase MMA" mainloop_by_width.sub_phases.1 '"MMA"'
    expect "MAINLOOP instances = tiles x $CONSUMER_WARPS" phases.MAINLOOP.instances $((tiles * CONSUMER_WARPS))
    expect "WAIT instances = tiles x K/BK x $SUB_WARPS" phases.WAIT.instances $((tiles * kb * SUB_WARPS))
    expect "MMA instances = tiles x K/BK x $SUB_WARPS" phases.MMA.instances $((tiles * kb * SUB_WARPS))
    expect "EPILOGUE instances = tiles x $CONSUMER_WARPS" phases.EPILOGUE.instances $((tiles * CONSUMER_WARPS))
    expect "STORE instances = tiles x $CONSUMER_WARPS" phases.STORE.instances $((tiles * CONSUMER_WARPS))
    expect "dropped records = 0" dropped_records 0
    expect "warps unfinished = 0" warps_unfinished 0
    expect "warps overflowed = 0" warps_overflowed 0
    expect "CTAs = min(tiles, SMs) = $ctas" ctas $ctas
    expect "warps per CTA = $WARPS_PER_CTA" warps_per_cta $WARPS_PER_CTA
    expect_positive "twin overhead ratio finite" overhead_ratio
    if grep -q '^Twin overhead: x[0-9]' "$run/report.md"; then
        row "report.md prints the twin overhead" pass
    else
        row "report.md prints the twin overhead" FAIL
    fi
    expect_section "## Phases" "$run/report.md"
    expect_section "## Where SM time goes" "$run/report.md"
    expect_section "### Main loop by unit width" "$run/report.md"
}

report() {
    local log
    log=$tmp/$(basename "$1").report.log
    if "$gs" report "$1" >"$log" 2>&1 && [ -s "$1/summary.json" ] && [ -s "$1/report.md" ]; then
        row "gemmscope report" pass
        return 0
    fi
    row "gemmscope report" FAIL "see $log"
    return 1
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
}

if [ $# -eq 3 ]; then
    run=$3
    shape=$(sed -n 's/^shape = m\([0-9]*\)n\([0-9]*\)k\([0-9]*\)$/\1 \2 \3/p' "$run/meta.txt" 2>/dev/null)
    if [ -z "$shape" ]; then
        row "run has a shape in meta.txt" FAIL "$run"
        finish
    fi
    echo "== $run (m n k: $shape)"
    read -r m n k <<<"$shape"
    report "$run" && check_run "$run" "$m" "$n" "$k"
    finish
fi

echo "== build (GEMMSCOPE=${prefix#"$PWD"/})" # relative where it lies below here
if make -C "$here" GEMMSCOPE="$prefix" BUILD="$build" all >"$tmp/build.log" 2>&1; then
    row "own-gemm builds" pass
else
    row "own-gemm builds" FAIL "see $tmp/build.log"
    finish
fi
prog=$build/own-gemm

# Bad arguments: one line on stderr, exit status 2, no run directory.
refuses() {
    local out rc
    out=$("$prog" "$@" --out "$tmp/refused" 2>&1 >/dev/null)
    rc=$?
    local name
    name="refuses $(printf '%q ' "$@")"
    if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [ ! -e "$tmp/refused" ]; then
        row "$name" pass
    else
        row "$name" FAIL "exit $rc: $out"
    fi
}
refuses --m 100
refuses --k 96
refuses --n 4096x
refuses --reps 49
refuses --m ""

for shape in "4096 4096 4096" "1024 1024 512"; do
    read -r m n k <<<"$shape"
    run=$tmp/m${m}n${n}k${k}
    echo "== $run"
    # own-gemm gives up on a launch that hangs; the limit covers a hang anywhere else
    timeout -k 10 600 "$prog" --m "$m" --n "$n" --k "$k" --out "$run" >"$run.log" 2>&1
    rc=$?
    if { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && [ -f "$run/meta.txt" ]; then
        row "own-gemm wrote the run" pass
        report "$run" && check_run "$run" "$m" "$n" "$k"
    else
        row "own-gemm wrote the run" FAIL "exit $rc, see $run.log"
        tail -n 5 "$run.log"
    fi
done
echo "runs and logs kept in $tmp"
finish
