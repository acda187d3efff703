#!/bin/bash
# The reference pages (README.md, docs/*.md, samples/README.md; not the notebook) quote no
# measured figure by hand: outside the blocks scripts/readme.sh renders from the samples (and
# outside code), every figure that looks measured (a ratio x1.23, 1.2x, x2; a number with a unit:
# %, points, s/ms/us/ns, cycles, instructions, TFLOP/s, GFLOP, TB/s, GB/s, GiB/MiB/MB/KiB/KB,
# GHz/MHz, W; a pass count; signed and ranges included) must match an entry of
# tests/doc-figures.allow: its page, the figure, a piece of text its line holds, and what it is (a
# target, a threshold, a knob, a seed's claim, a probe kernel's setting, a format's limit). Bare
# numbers without a unit or an x are not looked at. A page with a new figure, an entry nothing
# matches, an entry for a page not checked, an entry that does not say what it is, and a page
# whose code fence or rendered block is left open must fail.
# usage: tests/doc-figures.sh   (from the repository root): the pages, then pages made to fail
set -u -o pipefail
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check ALLOW PAGE...: 0 when every figure of the PAGEs matches an entry of ALLOW and every entry
# matches a figure; what is wrong on stdout (1), or 2 for a page or file that is not there
check() {
    local allow=$1 p
    shift
    [ -f "$allow" ] || { echo "doc-figures: no file $allow"; return 2; }
    for p in "$@"; do
        [ -f "$p" ] || { echo "doc-figures: no page $p"; return 2; }
    done
    # one program over the allow list and every page (mawk-compatible: no POSIX classes, no gawk
    # extensions)
    awk -v allow="$allow" '
        BEGIN {
            FS = "\t"
            num = "[0-9]+(,[0-9][0-9][0-9])*(\\.[0-9]+)?"
            unit = "(%|points?|pts|s|ms|us|ns|cycles|instructions|TFLOP/s|GFLOP|TB/s|GB/s|GiB|MiB|MB|KiB|KB|GHz|MHz|W|passed|passes)"
            ratio = "(x" num "(-x?" num ")?|" num "x)"
            withunit = num "((-| to )" num ")? ?" unit
            # a figure: not the tail of a name or of a longer number, not the head of a word
            re = "[^A-Za-z0-9._-]([-+]?(" ratio "|" withunit "))([^A-Za-z0-9_]|$)"
            while ((getline line < allow) > 0) {
                if (line ~ /^#/ || line == "") continue
                n = split(line, f, "\t")
                if (n < 4 || f[1] == "" || f[2] == "" || f[3] == "" || f[4] == "") {
                    print "doc-figures: " allow ": an entry without its page, figure, text and what it is: " line; bad = 1; continue
                }
                e++; epage[e] = f[1]; efig[e] = f[2]; etext[e] = f[3]
            }
            close(allow)
        }
        FNR == 1 { if (NR > 1) endpage(); page = FILENAME; checked[page] = 1; skip = code = 0 }
        # a rendered block first: whatever it holds, fences included, is not the prose
        skip { if ($0 ~ /^<!-- end -->$/) skip = 0; next }
        /^<!-- gemmscope .* -->$/ { skip = 1; next }
        /^[ \t]*(```|~~~)/ { code = !code; next }
        code { next }
        {
            line = " " $0
            gsub(/`[^`]*`/, "", line)
            while (match(line, re)) {
                fig = substr(line, RSTART + 1, RLENGTH - 1)
                sub(/[^A-Za-z0-9%\/]+$/, "", fig)
                for (i = 1; i <= e; i++)
                    if (epage[i] == page && efig[i] == fig && index($0, etext[i])) break
                if (i > e) { print "doc-figures: " page ":" FNR " quotes \047" fig "\047 outside a rendered block (render it from a sample, move it to the notebook, or list it in " allow " with what it is)"; bad = 1 }
                else used[i] = 1
                line = substr(line, RSTART + RLENGTH - 1)
            }
        }
        function endpage() {
            if (skip) { print "doc-figures: " page ": a rendered block with no <!-- end -->"; bad = 1 }
            if (code) { print "doc-figures: " page ": a code fence left open"; bad = 1 }
        }
        END {
            if (NR > 0) endpage()
            for (i = 1; i <= e; i++) {
                if (!(epage[i] in checked)) { print "doc-figures: " allow " lists " epage[i] ", a page not checked"; bad = 1 }
                else if (!(i in used)) { print "doc-figures: " allow " lists \047" efig[i] "\047 for " epage[i] " on a line holding \047" etext[i] "\047, which it no longer quotes"; bad = 1 }
            }
            exit bad
        }' "$@"
}

pages=(README.md docs/*.md samples/README.md)
name="the reference pages quote only listed figures (${#pages[@]} pages)"
if out=$(check tests/doc-figures.allow "${pages[@]}"); then
    row "$name" pass
else
    printf '%s\n' "$out"
    row "$name" FAIL
fi
# known answers: a page with listed figures passes; new figures in the prose (signed, ranges,
# points, no space, a listed figure on another line) fail; the same in a rendered block, in code
# or inside a name do not count; an entry nothing matches, one for a page not checked, one that
# does not say what it is, and a page left inside a fence or a block fail; a missing page is
# refused
printf 'x1.02 is the target.\n' >"$tmp/page.md"
printf '%s\tx1.02\tis the target\tthe target\n' "$tmp/page.md" >"$tmp/ok.allow"
check "$tmp/ok.allow" "$tmp/page.md" >/dev/null && row "a page with listed figures passes" pass || row "a page with listed figures passes" FAIL
new() { # new NAME TEXT FIGURE...: TEXT added to the page must fail, naming each FIGURE
    local name=$1 text=$2 out f ok=1
    shift 2
    { cat "$tmp/page.md"; printf '%s\n' "$text"; } >"$tmp/new.md"
    sed "s|$tmp/page.md|$tmp/new.md|" "$tmp/ok.allow" >"$tmp/new.allow"
    out=$(check "$tmp/new.allow" "$tmp/new.md")
    [ $? -eq 1 ] || ok=0
    for f in "$@"; do printf '%s' "$out" | grep -qF "'$f'" || ok=0; done
    [ $ok = 1 ] && row "$name fails" pass || row "$name fails" FAIL
}
new "a new time and ratio" 'It took 12.5 us, x1.07 over cuBLAS.' '12.5 us' 'x1.07'
new "signed figures and ranges" 'It moved -1.2%, x0.99-x1.03 and 2.0-4.9 points.' '-1.2%' 'x0.99-x1.03' '2.0-4.9 points'
new "figures without a space, with thousands, integer ratios" 'It ran 12.5us, 28,000 cycles, x2 and 3x.' '12.5us' '28,000 cycles' 'x2' '3x'
new "a listed figure on another line" 'Our twin read x1.02 on g8k7168.' 'x1.02'
{ cat "$tmp/page.md"; printf '<!-- gemmscope table samples/x -->\n```\n| 12.5 us | x1.07 |\n<!-- end -->\n'
  printf '```\n12.5 us\n```\nSee `x1.07`, the p90 us column, run_7.5%% and 8192x8192x8192.\n'; } >"$tmp/blocks.md"
sed "s|$tmp/page.md|$tmp/blocks.md|" "$tmp/ok.allow" >"$tmp/blocks.allow"
check "$tmp/blocks.allow" "$tmp/blocks.md" >/dev/null && row "figures in blocks, code and names are not counted" pass ||
    row "figures in blocks, code and names are not counted" FAIL
printf 'No figure here.\n' >"$tmp/gone.md"
sed "s|$tmp/page.md|$tmp/gone.md|" "$tmp/ok.allow" >"$tmp/gone.allow"
out=$(check "$tmp/gone.allow" "$tmp/gone.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "no longer quotes" && row "an entry nothing matches fails" pass ||
    row "an entry nothing matches fails" FAIL
{ cat "$tmp/ok.allow"; printf 'docs/nosuch.md\tx1.02\tx\tthe target\n'; } >"$tmp/other.allow"
out=$(check "$tmp/other.allow" "$tmp/page.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "a page not checked" && row "an entry for a page not checked fails" pass ||
    row "an entry for a page not checked fails" FAIL
printf '%s\tx1.02\tis the target\n' "$tmp/page.md" >"$tmp/bare.allow"
check "$tmp/bare.allow" "$tmp/page.md" >/dev/null
[ $? -eq 1 ] && row "an entry without what it is fails" pass || row "an entry without what it is fails" FAIL
{ cat "$tmp/page.md"; printf '```\ncode\n'; } >"$tmp/open.md"
sed "s|$tmp/page.md|$tmp/open.md|" "$tmp/ok.allow" >"$tmp/open.allow"
out=$(check "$tmp/open.allow" "$tmp/open.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "left open" && row "a fence left open fails" pass || row "a fence left open fails" FAIL
{ cat "$tmp/page.md"; printf '<!-- gemmscope table samples/x -->\n| x1.07 |\n'; } >"$tmp/unended.md"
sed "s|$tmp/page.md|$tmp/unended.md|" "$tmp/ok.allow" >"$tmp/unended.allow"
out=$(check "$tmp/unended.allow" "$tmp/unended.md")
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "no <!-- end -->" && row "a rendered block with no end fails" pass ||
    row "a rendered block with no end fails" FAIL
check "$tmp/ok.allow" "$tmp/page.md" "$tmp/nosuch.md" >/dev/null
[ $? -eq 2 ] && row "a missing page is refused" pass || row "a missing page is refused" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
