#!/bin/bash
# The reference pages (README.md, docs/*.md; not the notebook) quote no measured figure by hand:
# outside the blocks scripts/readme.sh renders from the samples (and outside code), every figure
# that looks measured (a ratio x1.23 or 1.23x, a percentage, a time in us/ns/ms, TFLOP/s, GB/s,
# GFLOP, MB, a pass count) must be listed in tests/doc-figures.allow with what it is (a target, a
# threshold, a knob, a seed's claim, a probe kernel's setting). A page with a new figure, an entry
# the page no longer holds and an entry that does not say what it is must fail.
# usage: tests/doc-figures.sh   (from the repository root)
set -u -o pipefail
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# PAGE's figures outside rendered blocks, fenced code and inline code: "PAGE<TAB>FIGURE" per figure
figures() {
    awk -v page="$1" '
        /^<!-- gemmscope .* -->$/ { skip = 1; next }
        /^<!-- end -->$/ { skip = 0; next }
        /^[[:space:]]*(```|~~~)/ { code = !code; next }
        skip || code { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)
            # a figure starts a word: not the tail of a name or of a longer number (p90 us)
            line = " " line
            re = "[^A-Za-z0-9._-](x[0-9]+\\.[0-9]+(-[0-9]+(\\.[0-9]+)?)?|[0-9]+\\.[0-9]+x|[0-9]+(\\.[0-9]+)?(-[0-9]+(\\.[0-9]+)?)?%|[0-9]+(\\.[0-9]+)? (us|ns|ms|TFLOP/s|GB/s|GFLOP|MB)([^A-Za-z]|$)|[0-9]+ passed)"
            while (match(line, re)) {
                f = substr(line, RSTART + 1, RLENGTH - 1)
                sub(/[^A-Za-z0-9%.\/]+$/, "", f)
                print page "\t" f
                line = substr(line, RSTART + RLENGTH - 1)
            }
        }' "$1"
}

# check ALLOW PAGE...: 0 when every figure of the PAGEs is in ALLOW and ALLOW lists none they
# lack; what is wrong on stdout
check() {
    local allow=$1 w=$tmp/w
    shift
    [ -f "$allow" ] || { echo "doc-figures: no file $allow"; return 2; }
    mkdir -p "$w"
    for p in "$@"; do
        [ -f "$p" ] || { echo "doc-figures: no page $p"; return 2; }
        figures "$p"
    done | sort -u >"$w/found"
    # the allow list: PAGE<TAB>FIGURE<TAB>what it is ('#' and blank lines skipped); only the pages
    # checked count
    if awk -F'\t' '!/^#/ && NF > 0 && (NF < 3 || $3 == "")' "$allow" | grep -q .; then
        echo "doc-figures: $allow has an entry without its page, figure and what it is"
        return 1
    fi
    printf '%s\n' "$@" | sort -u >"$w/pages"
    awk -F'\t' 'NR == FNR { want[$1] = 1; next } !/^#/ && ($1 in want) { print $1 "\t" $2 }' "$w/pages" "$allow" |
        sort -u >"$w/allowed"
    comm -23 "$w/found" "$w/allowed" | awk -F'\t' -v a="$allow" '{ print "doc-figures: " $1 " quotes \047" $2 "\047 outside a rendered block (render it from a sample, move it to the notebook, or list it in " a " with what it is)" }' >"$w/bad"
    comm -13 "$w/found" "$w/allowed" | awk -F'\t' -v a="$allow" '{ print "doc-figures: " a " lists \047" $2 "\047 for " $1 ", which no longer quotes it" }' >>"$w/bad"
    cat "$w/bad"
    [ ! -s "$w/bad" ]
}

pages=(README.md docs/*.md)
name="the reference pages quote only listed figures (${#pages[@]} pages)"
if out=$(check tests/doc-figures.allow "${pages[@]}"); then
    row "$name" pass
else
    printf '%s\n' "$out"
    row "$name" FAIL
fi
# a page with a new figure in its prose fails; the same figures in a rendered block, in code or
# inside a name do not count; a listed figure the page no longer has fails; an entry without
# what it is fails
printf 'x1.02 is the target.\n' >"$tmp/page.md"
printf '%s\tx1.02\tthe target\n' "$tmp/page.md" >"$tmp/ok.allow"
check "$tmp/ok.allow" "$tmp/page.md" >/dev/null && row "a page with listed figures passes" pass || row "a page with listed figures passes" FAIL
{ cat "$tmp/page.md"; printf 'It took 12.5 us, x1.07 over cuBLAS.\n'; } >"$tmp/new.md"
printf '%s\tx1.02\tthe target\n' "$tmp/new.md" >"$tmp/new.allow"
out=$(check "$tmp/new.allow" "$tmp/new.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "'12.5 us'" && printf '%s' "$out" | grep -q "'x1.07'" \
    && row "a new figure in the prose fails" pass || row "a new figure in the prose fails" FAIL
{ cat "$tmp/page.md"; printf '<!-- gemmscope table samples/x -->\n| 12.5 us | x1.07 |\n<!-- end -->\n'
  printf '```\n12.5 us\n```\nSee `x1.07`, the p90 us column and run_7.5%%.\n'; } >"$tmp/blocks.md"
printf '%s\tx1.02\tthe target\n' "$tmp/blocks.md" >"$tmp/blocks.allow"
check "$tmp/blocks.allow" "$tmp/blocks.md" >/dev/null && row "figures in blocks, code and names are not counted" pass ||
    row "figures in blocks, code and names are not counted" FAIL
printf 'No figure here.\n' >"$tmp/gone.md"
printf '%s\tx1.02\tthe target\n' "$tmp/gone.md" >"$tmp/gone.allow"
out=$(check "$tmp/gone.allow" "$tmp/gone.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "no longer quotes" && row "a listed figure the page lacks fails" pass ||
    row "a listed figure the page lacks fails" FAIL
printf '%s\tx1.02\n' "$tmp/page.md" >"$tmp/bare.allow"
check "$tmp/bare.allow" "$tmp/page.md" >/dev/null
[ $? -eq 1 ] && row "an entry without what it is fails" pass || row "an entry without what it is fails" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
