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
# a defaults table (it asks the recorder for the defaults: built only where nvcc is): an edited
# round fails --check; a sweep without the default point is refused
if [ -x build/gemmscope-record ]; then
    d=$tmp/defaults.md
    printf '<!-- gemmscope defaults-table dual samples/dual-t256.tsv d512n4096k7168 -->\n<!-- end -->\n' >"$d"
    scripts/readme.sh "$d" >/dev/null 2>&1 && grep -q '| d512n4096k7168 | `' "$d" \
        && row "a defaults table renders from the sweep" pass || row "a defaults table renders from the sweep" FAIL
    sed -i 's/| \([0-9]*\)\.\([0-9]*\) /| 1\1.\2 /' "$d"
    scripts/readme.sh --check "$d" >/dev/null 2>&1 && row "an edited round in it: --check fails" FAIL || row "an edited round in it: --check fails" pass
    grep -v "s3_w64_t256_ws_p_tmr_g1" samples/dual-t256.tsv >"$tmp/sweep.tsv"
    printf '<!-- gemmscope defaults-table dual %s d512n4096k7168 -->\n<!-- end -->\n' "$tmp/sweep.tsv" >"$tmp/nodefault.md"
    scripts/readme.sh --check "$tmp/nodefault.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "a sweep without the default point: refused (exit 2)" pass || row "a sweep without the default point: refused (exit 2)" FAIL
    # a harness table: it renders; an edited ratio fails --check; a table with no inputs column, or
    # with the back-to-back rounds removed, is refused
    h=$tmp/harness.md
    printf '<!-- gemmscope harness-table dual samples/dual-harness.tsv d256n3072k4096 -->\n<!-- end -->\n' >"$h"
    scripts/readme.sh "$h" >/dev/null 2>&1 && grep -q '(15 inputs) |$' "$h" \
        && row "a harness table renders from the rounds" pass || row "a harness table renders from the rounds" FAIL
    sed -i 's/x0\.\([0-9]\)/x1.\1/' "$h"
    scripts/readme.sh --check "$h" >/dev/null 2>&1 && row "an edited ratio in it: --check fails" FAIL || row "an edited ratio in it: --check fails" pass
    awk -F'\t' -v OFS='\t' '/^#/ { print; next } { NF = NF - 1; print }' samples/dual-harness.tsv >"$tmp/noinputs.tsv"
    awk -F'\t' '/^#/ || $NF != 15' samples/dual-harness.tsv >"$tmp/single.tsv"
    for t in noinputs single; do
        printf '<!-- gemmscope harness-table dual %s d256n3072k4096 -->\n<!-- end -->\n' "$tmp/$t.tsv" >"$tmp/$t.md"
        scripts/readme.sh --check "$tmp/$t.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "a harness table from $t rounds: refused (exit 2)" pass || row "a harness table from $t rounds: refused (exit 2)" FAIL
    done
else
    echo "defaults and harness tables: 7 checks skipped, no build/gemmscope-record (no nvcc here)"
fi
printf '<!-- gemmscope nosuch x -->\n<!-- end -->\n' >"$tmp/bad.md"
scripts/readme.sh --check "$tmp/bad.md" >/dev/null 2>&1; [ $? -eq 2 ] && row "an unknown block: refused (exit 2)" pass || row "an unknown block: refused (exit 2)" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
