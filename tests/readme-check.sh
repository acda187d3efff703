#!/bin/bash
# scripts/readme.sh on a file with one rendered block (a table; then a defaults table, a harness table, a check's rows, check-gpu's header, an overhead table and its count against the targets, a study's per-run counts, a phase's stall-reason rows, a report's lines): --check must fail while the block says
# what the sample does not (an edited figure), rewriting must fix it, and --check must then pass;
# an unknown block must be refused.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
f=$tmp/doc.md
{
    echo "# doc"
    echo "<!-- gemmscope table samples/g2k1536 -->"
    build/gemmscope table samples/g2k1536 | sed 's/| [0-9.]* us |/| 999.9 us |/'
    echo "<!-- end -->"
    echo "after"
} >"$f"
grep -q '999.9 us' "$f" || { echo "readme-check: the sample's table has no time; edit this test" >&2; exit 1; }
scripts/readme.sh --check "$f" >/dev/null 2>&1 && row "an edited figure: --check fails" FAIL || row "an edited figure: --check fails" pass
cp "$f" "$tmp/before"
scripts/readme.sh "$f" >/dev/null 2>&1 && ! grep -q '999.9 us' "$f" && grep -qx after "$f" \
    && row "rewriting puts the sample's figure back, keeps the rest" pass || row "rewriting puts the sample's figure back, keeps the rest" FAIL
scripts/readme.sh --check "$f" >/dev/null 2>&1 && row "after rewriting: --check passes" pass || row "after rewriting: --check passes" FAIL
# the defaults and harness tables (they ask the recorder for the defaults: built only where nvcc
# is): an edited round fails --check; a sweep without the default point is refused
# renders BLOCK (a marker's words) into FILE, then checks NAME: that GREP finds the rendering, and
# that the edit SED changes the file and makes --check fail (exit 1: a difference, not a refusal)
edited_block() {
    local name=$1 file=$2 block=$3 grep=$4 sed=$5
    printf '<!-- gemmscope %s -->\n<!-- end -->\n' "$block" >"$file"
    scripts/readme.sh "$file" >/dev/null 2>&1 && grep -q -- "$grep" "$file" \
        && row "a $name renders from the samples" pass || row "a $name renders from the samples" FAIL
    cp "$file" "$tmp/unedited"
    sed -i "$sed" "$file"
    scripts/readme.sh --check "$file" >/dev/null 2>&1
    [ $? -eq 1 ] && ! cmp -s "$file" "$tmp/unedited" && row "an edited $name: --check fails" pass || row "an edited $name: --check fails" FAIL
}
# a block that must be refused (exit 2) with a message matching WHY
refused_block() {
    local name=$1 block=$2 why=$3 err
    printf '<!-- gemmscope %s -->\n<!-- end -->\n' "$block" >"$tmp/refused.md"
    err=$(scripts/readme.sh --check "$tmp/refused.md" 2>&1 >/dev/null)
    [ $? -eq 2 ] && printf '%s' "$err" | grep -q -- "$why" && row "$name: refused (exit 2)" pass || row "$name: refused (exit 2)" FAIL
}
if [ -x build/gemmscope-record ]; then
    edited_block "defaults table" "$tmp/defaults.md" "defaults-table dual samples/dual-t256.tsv d512n4096k7168" \
        '| d512n4096k7168 | `' 's/| \([0-9]*\)\.\([0-9]*\) /| 1\1.\2 /'
    grep -v "s3_w64_t256_ws_p_tmr_g1" samples/dual-t256.tsv >"$tmp/sweep.tsv"
    refused_block "a sweep without the default point" "defaults-table dual $tmp/sweep.tsv d512n4096k7168" "not in the sweep"
    # a harness table: rendered, an edited ratio fails; no inputs column, or no back-to-back rounds: refused
    edited_block "harness table" "$tmp/harness.md" "harness-table dual samples/dual-harness.tsv d256n3072k4096" \
        '(15 inputs) |$' 's/x0\.\([0-9]\)/x1.\1/'
    # no inputs column; no back-to-back rounds; no one-launch rounds; two back-to-back counts
    awk -F'\t' -v OFS='\t' '/^#/ { print; next } { NF = NF - 1; print }' samples/dual-harness.tsv >"$tmp/noinputs.tsv"
    awk -F'\t' '/^#/ || $NF != 15' samples/dual-harness.tsv >"$tmp/single.tsv"
    awk -F'\t' '/^#/ || $NF != 1' samples/dual-harness.tsv >"$tmp/backtoback.tsv"
    awk -F'\t' -v OFS='\t' '!/^#/ && $1 == 2 && $NF == 15 { $NF = 14 } { print }' samples/dual-harness.tsv >"$tmp/mixed.tsv"
    refused_block "a harness table with no inputs column" "harness-table dual $tmp/noinputs.tsv d256n3072k4096" "no inputs column"
    refused_block "a harness table with one launch per flush only" "harness-table dual $tmp/single.tsv d256n3072k4096" "lacks a harness"
    refused_block "a harness table with back-to-back rounds only" "harness-table dual $tmp/backtoback.tsv d256n3072k4096" "lacks a harness"
    refused_block "a harness table with two back-to-back counts" "harness-table dual $tmp/mixed.tsv d256n3072k4096" "two back-to-back counts"
    # with no recorder beside gemmscope, --check leaves the edited harness table unchecked and
    # says so; an edited plain table beside it still fails
    mkdir -p "$tmp/bin" && cp build/gemmscope "$tmp/bin/"
    out=$(GEMMSCOPE=$tmp/bin/gemmscope scripts/readme.sh --check "$tmp/harness.md" 2>&1)
    [ $? -eq 0 ] && printf '%s' "$out" | grep -q "but 1, not checked" &&
        row "no recorder: a harness table left unchecked, said" pass || row "no recorder: a harness table left unchecked, said" FAIL
    { cat "$tmp/harness.md"; printf '<!-- gemmscope table samples/g2k1536 -->\n'
      build/gemmscope table samples/g2k1536 | sed 's/| [0-9.]* us |/| 999.9 us |/'; printf '<!-- end -->\n'; } >"$tmp/both.md"
    GEMMSCOPE=$tmp/bin/gemmscope scripts/readme.sh --check "$tmp/both.md" >/dev/null 2>&1
    [ $? -eq 1 ] && row "no recorder: an edited plain table still fails" pass || row "no recorder: an edited plain table still fails" FAIL
else
    echo "defaults and harness tables: 11 checks skipped, no build/gemmscope-record (no nvcc here)"
fi
# a check's rows: rendered, an edited measurement fails; a check the run does not have: refused
edited_block "check's rows" "$tmp/checks.md" "check-lines 'clock model placement' samples/g2k1536" \
    'samples/g2k1536 .* ns held out' 's/ \([0-9]*\)\.\([0-9]\) ns held out/ 9\1.\2 ns held out/'
refused_block "a check the run does not have" "check-lines 'no such check' samples/g2k1536" "has no check"
# check-gpu's header: rendered; a header whose total is not the sum of its parts' logs, or a
# file with no part's log: refused
edited_block "check-gpu header" "$tmp/cg.md" "check-gpu samples/check-gpu.txt" '^in all: ' 's/^in all: \([0-9]*\) passed/in all: 1\1 passed/'
sed 's/^# in all: \([0-9]*\) passed/# in all: 1\1 passed/' samples/check-gpu.txt >"$tmp/cg-total.txt"
refused_block "a check-gpu header whose total is not its parts'" "check-gpu $tmp/cg-total.txt" "not the sum of its parts"
grep '^#' samples/check-gpu.txt >"$tmp/cg-nolog.txt"
refused_block "a check-gpu header with no part's log" "check-gpu $tmp/cg-nolog.txt" "no part"
# the kernels the log is of: a log naming a commit whose kernels/ differ from this tree's says so,
# and a page that says they are this tree's fails; a commit this history lacks is refused when
# rendering and left unchecked (and said) by --check
if git rev-parse -q --verify "763b04d^{commit}" >/dev/null 2>&1 && ! git diff --quiet 763b04d -- kernels instrument; then
    sed '1s/ at [0-9a-f]\{7,40\} / at 763b04d /' samples/check-gpu.txt >"$tmp/cg-old.txt"
    { printf '<!-- gemmscope check-gpu %s -->\n' "$tmp/cg-old.txt"
      sed -n '/^<!-- gemmscope check-gpu samples\/check-gpu.txt -->$/,/^<!-- end -->$/p' README.md | sed '1d'; } >"$tmp/cg-old.md"
    grep -q "^Its kernels/ and instrument/ are this tree's.$" "$tmp/cg-old.md" && scripts/readme.sh --check "$tmp/cg-old.md" >/dev/null 2>&1
    rc=$?
    scripts/readme.sh "$tmp/cg-old.md" >/dev/null 2>&1
    [ $rc -eq 1 ] && grep -q "differ from those of 763b04d" "$tmp/cg-old.md" \
        && row "a check-gpu log of other kernels: said, the claim fails" pass || row "a check-gpu log of other kernels: said, the claim fails" FAIL
else
    echo "a check-gpu log of other kernels: skipped, this clone's history lacks 763b04d"
fi
sed '1s/ at [0-9a-f]\{7,40\} / at 0000000 /' samples/check-gpu.txt >"$tmp/cg-unknown.txt"
printf '<!-- gemmscope check-gpu %s -->\nanything\n<!-- end -->\n' "$tmp/cg-unknown.txt" >"$tmp/cg-unknown.md"
cp "$tmp/cg-unknown.md" "$tmp/cg-unknown.before"
err=$(scripts/readme.sh "$tmp/cg-unknown.md" 2>&1 >/dev/null)
[ $? -eq 2 ] && printf '%s' "$err" | grep -q "lacks" && cmp -s "$tmp/cg-unknown.md" "$tmp/cg-unknown.before" \
    && row "rendering a log whose commit the history lacks: refused" pass || row "rendering a log whose commit the history lacks: refused" FAIL
out=$(scripts/readme.sh --check "$tmp/cg-unknown.md" 2>&1)
[ $? -eq 0 ] && printf '%s' "$out" | grep -q "but 1, not checked: they need the commit" \
    && row "--check: an unknown commit's log left unchecked, said" pass || row "--check: an unknown commit's log left unchecked, said" FAIL
# a twin-overhead table: rendered, an edited round fails; rounds without the detail column: refused
edited_block "twin-overhead table" "$tmp/ov.md" "overhead-table samples/overhead-twin.tsv" '^| `g8k7168` | ' 's/| \(1\.[0-9]*\) \(1\.[0-9]*\) /| 2.0000 \2 /'
edited_block "null-twin median" "$tmp/ov-null.md" "overhead-table samples/overhead-twin.tsv" '^| `g8k7168` | ' '/^| `g8k7168` | /s/| [0-9.]* |$/| 9.999 |/'
edited_block "twin-overhead count" "$tmp/ov-count.md" "overhead-table samples/overhead-twin.tsv" '^Within the targets' 's/^Within the targets (twin x1.02, detail twin x1.08): [0-9]*/Within the targets (twin x1.02, detail twin x1.08): 99/'
# the count against the targets, known answers at the edges: twin 1.0200 is within x1.02, detail 1.0801 is not
awk -F'\t' -v OFS='\t' '/^#/ { print; next } $1 == "round" { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    { $c["twin_over_prod"] = "1.0200"; $c["detail_over_prod"] = "1.0801"; print }' samples/overhead-twin.tsv >"$tmp/ov-edge.tsv"
n=$(awk -F'\t' '!/^#/ && $1 != "round" { s[$2] = 1 } END { print length(s) }' "$tmp/ov-edge.tsv")
printf '<!-- gemmscope overhead-table %s -->\n<!-- end -->\n' "$tmp/ov-edge.tsv" >"$tmp/ov-edge.md"
scripts/readme.sh "$tmp/ov-edge.md" >/dev/null 2>&1 && grep -qx "Within the targets (twin x1.02, detail twin x1.08): $n and 0 of the $n shapes." "$tmp/ov-edge.md" \
    && row "the overhead count at the targets' edges" pass || row "the overhead count at the targets' edges" FAIL
# without one column (by name): refused
drop_column() { # NAME FILE
    awk -F'\t' -v OFS='\t' -v name="$1" '/^#/ { print; next }
        $1 == "round" { for (i = 1; i <= NF; i++) if ($i == name) d = i }
        { out = ""; for (i = 1; i <= NF; i++) if (i != d) out = out (out == "" ? "" : OFS) $i; print out }' "$2"
}
drop_column detail_over_prod samples/overhead-twin.tsv >"$tmp/ov-nodetail.tsv"
refused_block "a twin-overhead table without detail/x" "overhead-table $tmp/ov-nodetail.tsv" "detail_over_prod"
drop_column null_over_prod samples/overhead-twin.tsv >"$tmp/ov-nonull.tsv"
refused_block "a twin-overhead table without the null twin" "overhead-table $tmp/ov-nonull.tsv" "null_over_prod"
# the overhead counts per run of a study: rendered, an edited count fails; known answers: a run at
# the targets' edges counts every shape, one just past them none; no run column, or a build the
# file does not hold: refused
edited_block "per-run overhead count" "$tmp/runs.md" "overhead-runs samples/studies/detail-chain.tsv" \
    '| chain | 1 | 12 | ' 's/| chain | 1 | 12 | \([0-9]*\) |/| chain | 1 | 12 | 9\1 |/'
awk -F'\t' -v OFS='\t' '/^#/ || $1 == "build" { print; next }
    { if ($2 == 1) { $(NF - 1) = "1.0200"; $NF = "1.0800" } else { $(NF - 1) = "1.0201"; $NF = "1.0801" }; print }' \
    samples/studies/detail-chain.tsv >"$tmp/runs-edge.tsv"
printf '<!-- gemmscope overhead-runs --build chain %s -->\n<!-- end -->\n' "$tmp/runs-edge.tsv" >"$tmp/runs-edge.md"
scripts/readme.sh "$tmp/runs-edge.md" >/dev/null 2>&1 && grep -q '| chain | 1 | 12 | 12 | 12 |$' "$tmp/runs-edge.md" &&
    grep -q '| chain | 2 | 12 | 0 | 0 |$' "$tmp/runs-edge.md" && [ "$(grep -c '| chain |' "$tmp/runs-edge.md")" -eq 2 ] \
    && row "the per-run count at the targets' edges, one build kept" pass || row "the per-run count at the targets' edges, one build kept" FAIL
awk -F'\t' -v OFS='\t' '/^#/ { print; next } { $2 = ""; print }' samples/studies/detail-chain.tsv | sed 's/\t\t/\t/' >"$tmp/runs-norun.tsv"
refused_block "per-run overhead counts without a run column" "overhead-runs $tmp/runs-norun.tsv" "no build, run"
refused_block "per-run overhead counts of a build not in the file" "overhead-runs --build nosuch samples/studies/detail-chain.tsv" "no rounds of build nosuch"
# a phase's stall-reason rows: rendered, an edited share fails; a run without its source's copy
# (no phases given) is refused
edited_block "stall-reason row" "$tmp/stall.md" "stall-rows EPILOGUE samples/d512n4096k7168" '^| `samples/d512n4096k7168` | ' 's/mio_throttle [0-9.]*%/mio_throttle 1.0%/'
mkdir -p "$tmp/nosrc" && cp samples/d512n4096k7168/* "$tmp/nosrc/" 2>/dev/null
refused_block "stall-reason rows of a run without sources/" "stall-rows EPILOGUE $tmp/nosrc" "no stall-reason row"
# a report's lines: rendered, an edited figure fails; a text no line of the report holds, or no
# text at all: refused
edited_block "report's lines" "$tmp/lines.md" "report-lines samples/d256n3072k4096 'Slow start:' 'nvfp4_tokens_kernel'" \
    '^- Slow start: ' 's/spends \([0-9]*\)\.\([0-9]\) us more/spends 9\1.\2 us more/'
refused_block "a report line no line holds" "report-lines samples/d256n3072k4096 'no such words'" "no line holding"
refused_block "report lines with no text" "report-lines samples/d256n3072k4096" "no text"
scripts/readme.sh "$tmp/nosuch.md" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/nosuch.md" ] && row "a missing file: refused (exit 2), not made" pass || row "a missing file: refused (exit 2), not made" FAIL
printf '<!-- gemmscope nosuch x -->\n<!-- end -->\n' >"$tmp/bad.md"
scripts/readme.sh --check "$tmp/bad.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "an unknown block: refused (exit 2)" pass || row "an unknown block: refused (exit 2)" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
