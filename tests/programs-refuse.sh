#!/bin/bash
# Arguments the GPU programs must refuse before they touch the GPU (run without one): 'all'
# points in a program built without the evidence points, a --tsv table that cannot be written,
# an --inputs count out of range, and malformed --metrics lists.  Each
# must exit 2 with a one-line reason that names the way out; 'production' must be taken.
set -u
pass=0 fail=0
row() { printf '%-66s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
# expect NAME PATTERN COMMAND...: exit status 2, one line on stderr matching PATTERN
expect() {
    local name=$1 pat=$2 err rc
    shift 2
    err=$("$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && printf '%s' "$err" | grep -q -- "$pat"; then
        row "$name" pass
    else
        row "$name" FAIL
        printf '  exit %d, stderr: %s\n' $rc "$err"
    fi
}
m64=$(for i in $(seq 65); do printf 'm%d,' $i; done)
expect "selfcheck --variant all without the evidence points" "make nvfp4-evidence" build/nvfp4-selfcheck --variant all
expect "selfcheck --dual --variant all without them" "make nvfp4-evidence" build/nvfp4-selfcheck --dual --variant all
expect "bench --variants all without them" "make nvfp4-evidence" build/nvfp4-bench --variants all
expect "bench --dual --variants all without them" "make nvfp4-evidence" build/nvfp4-bench --dual --variants all
expect "bench --tsv in a folder that does not exist" "writable folder" build/nvfp4-bench --tsv /nonexistent-gs/x.tsv
expect "bench --tsv naming a folder" "not a folder" build/nvfp4-bench --tsv .
expect "bench --inputs 0" "from 1 to 64" build/nvfp4-bench --inputs 0
expect "bench --inputs 65" "from 1 to 64" build/nvfp4-bench --inputs 65
expect "bench --inputs x (not a number)" "from 1 to 64" build/nvfp4-bench --inputs x
expect "bench --no-pdl --inputs 0 (--no-pdl parsed, the bad count still refused)" "from 1 to 64" build/nvfp4-bench --no-pdl --inputs 0
expect "selfcheck: an unknown point" "unknown variant 'nope'" build/nvfp4-selfcheck --variant nope
expect "cupti-check --metrics '' (empty)" "comma-separated metric names" build/cupti-check --metrics ""
expect "cupti-check --metrics 'a,,b' (an empty name)" "comma-separated metric names" build/cupti-check --metrics a,,b
expect "cupti-check --metrics 'a,' (a trailing comma)" "comma-separated metric names" build/cupti-check --metrics a,
expect "cupti-check --metrics with 65 names" "1..64" build/cupti-check --metrics "${m64%,}"
# the word 'production' is taken: no usage error (exit 2); without a GPU the run then fails (1),
# with one it runs (0), on a small shape
build/nvfp4-selfcheck --variant production --shapes t0 >/dev/null 2>&1
[ $? -ne 2 ] && row "selfcheck --variant production: taken" pass || row "selfcheck --variant production: taken" FAIL
build/nvfp4-bench --variants production --shapes g2k1536 --reps 1 >/dev/null 2>&1
[ $? -ne 2 ] && row "bench --variants production: taken" pass || row "bench --variants production: taken" FAIL
build/nvfp4-bench --variants default --shapes g2k1536 --reps 1 --inputs 64 >/dev/null 2>&1
[ $? -ne 2 ] && row "bench --inputs 64: taken" pass || row "bench --inputs 64: taken" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
