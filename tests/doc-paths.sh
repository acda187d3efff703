#!/bin/bash
# The reference pages (README.md, docs/*.md; the notebook keeps its paths as first written) name
# only samples that exist: every samples/... path in their text, every relative link of theirs
# outside code blocks, and every file or folder samples/README.md's index lists.  A page naming a
# missing sample, one linking to a missing page and an index listing a missing file must fail.
# usage: tests/doc-paths.sh [PAGE...]   (from the repository root; default: the reference pages)
set -u -o pipefail
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

# prints the paths PAGE names that do not exist, one per line
missing() {
    local page=$1 dir p
    dir=$(dirname "$page")
    # samples/... paths in the text (not the tail of another path: reports/samples/...), from the
    # repository root; placeholders such as samples/<shape> stop at the '<'
    grep -oE '(^|[^A-Za-z0-9_/.-])samples/[A-Za-z0-9_./;=:-]*' "$page" | sed -E 's/^[^s]//; s/[.,:;)]+$//' |
        sort -u | while read -r p; do
        [ -e "$p" ] || echo "$p"
    done
    # relative markdown links outside fenced code blocks, from the page's folder (anchors and
    # angle brackets dropped)
    awk '/^[[:space:]]*(```|~~~)/ { code = !code; next } !code' "$page" | grep -oE '\]\(<?[^)#>[:space:]]+' |
        sed -E 's/^\]\(<?//' | grep -vE '^[a-z]+:' | sort -u | while read -r p; do
        [ -e "$dir/$p" ] || echo "$p"
    done
}

# prints what the index INDEX (samples/README.md's table: first column, backticked names
# relative to its folder) lists and its folder lacks
missing_indexed() {
    local index=$1 dir p
    dir=$(dirname "$index")
    # a placeholder (evidence/<shape>-<proposal>.md) is checked up to its first '<'
    awk -F'|' '/^\| `/ { print $2 }' "$index" | grep -oE '`[^`]+`' | tr -d '`' | sed 's/<.*//' | sort -u |
        while read -r p; do
            [ -e "$dir/$p" ] || echo "$p"
        done
}

# check_pages NAME PAGE...: passes when no page names a missing path
check_pages() {
    local name=$1 bad="" m
    shift
    for page in "$@"; do
        m=$(missing "$page")
        [ -n "$m" ] && bad="$bad $page: $(echo $m)"
    done
    if [ -z "$bad" ]; then row "$name" pass; else row "$name" FAIL; echo "   missing:$bad"; fi
}

if [ $# -gt 0 ]; then
    check_pages "the pages name only existing files" "$@"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

check_pages "README.md and docs/*.md name only existing samples" README.md docs/*.md
m=$(missing_indexed samples/README.md)
if [ -z "$m" ]; then row "samples/README.md lists only existing samples" pass; else
    row "samples/README.md lists only existing samples" FAIL
    echo "   missing: $(echo $m)"
fi

# the cases that must fail, through this script's own exit status
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'Measured (`samples/no-such-table.tsv`).\n' >"$tmp/a.md"
printf 'See [the page](no-such-page.md#part) and [that](<missing.md>).\n' >"$tmp/b.md"
printf '```\nmy_kernel[grid](...)\n```\nA report of reports/samples/no-such-sample is generated.\n' >"$tmp/c.md"
for f in a b; do
    if "$0" "$tmp/$f.md" >/dev/null 2>&1; then
        row "a page naming a missing file fails ($f)" FAIL
    else
        row "a page naming a missing file fails ($f)" pass
    fi
done
if "$0" "$tmp/c.md" >/dev/null 2>&1; then
    row "code blocks and reports/samples/ paths are not checked" pass
else
    row "code blocks and reports/samples/ paths are not checked" FAIL
fi
mkdir -p "$tmp/s" && printf '| file | what |\n|---|---|\n| `here.tsv`, `gone.tsv` | x |\n' >"$tmp/s/README.md" &&
    touch "$tmp/s/here.tsv"
if [ "$(missing_indexed "$tmp/s/README.md")" = gone.tsv ]; then
    row "an index listing a missing file fails" pass
else
    row "an index listing a missing file fails" FAIL
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
