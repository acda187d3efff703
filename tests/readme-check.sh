#!/bin/bash
# scripts/readme.sh on a file with one rendered block (a table; then a defaults table, a harness table): --check must fail while the block says
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
# that after the edit SED the file fails --check
edited_block() {
    local name=$1 file=$2 block=$3 grep=$4 sed=$5
    printf '<!-- gemmscope %s -->\n<!-- end -->\n' "$block" >"$file"
    scripts/readme.sh "$file" >/dev/null 2>&1 && grep -q -- "$grep" "$file" \
        && row "a $name renders from the samples" pass || row "a $name renders from the samples" FAIL
    sed -i "$sed" "$file"
    scripts/readme.sh --check "$file" >/dev/null 2>&1 && row "an edited $name: --check fails" FAIL || row "an edited $name: --check fails" pass
}
# a block that must be refused (exit 2)
refused_block() {
    printf '<!-- gemmscope %s -->\n<!-- end -->\n' "$2" >"$tmp/refused.md"
    scripts/readme.sh --check "$tmp/refused.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "$1: refused (exit 2)" pass || row "$1: refused (exit 2)" FAIL
}
if [ -x build/gemmscope-record ]; then
    edited_block "defaults table" "$tmp/defaults.md" "defaults-table dual samples/dual-t256.tsv d512n4096k7168" \
        '| d512n4096k7168 | `' 's/| \([0-9]*\)\.\([0-9]*\) /| 1\1.\2 /'
    grep -v "s3_w64_t256_ws_p_tmr_g1" samples/dual-t256.tsv >"$tmp/sweep.tsv"
    refused_block "a sweep without the default point" "defaults-table dual $tmp/sweep.tsv d512n4096k7168"
    # a harness table: rendered, an edited ratio fails; no inputs column, or no back-to-back rounds: refused
    edited_block "harness table" "$tmp/harness.md" "harness-table dual samples/dual-harness.tsv d256n3072k4096" \
        '(15 inputs) |$' 's/x0\.\([0-9]\)/x1.\1/'
    awk -F'\t' -v OFS='\t' '/^#/ { print; next } { NF = NF - 1; print }' samples/dual-harness.tsv >"$tmp/noinputs.tsv"
    awk -F'\t' '/^#/ || $NF != 15' samples/dual-harness.tsv >"$tmp/single.tsv"
    for t in noinputs single; do
        refused_block "a harness table from $t rounds" "harness-table dual $tmp/$t.tsv d256n3072k4096"
    done
else
    echo "defaults and harness tables: 7 checks skipped, no build/gemmscope-record (no nvcc here)"
fi
printf '<!-- gemmscope nosuch x -->\n<!-- end -->\n' >"$tmp/bad.md"
scripts/readme.sh --check "$tmp/bad.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "an unknown block: refused (exit 2)" pass || row "an unknown block: refused (exit 2)" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
