#!/bin/bash
# The reference pages (README.md, docs/*.md; the notebook keeps its paths as first written) name
# only files that exist: every samples/... path in their text and every relative link.  A page
# naming a sample that is not there, or linking to a missing page, must fail.
# usage: tests/doc-paths.sh [PAGE...]   (from the repository root; default: the reference pages)
set -u -o pipefail
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

# prints the paths PAGE names that do not exist, one per line
missing() {
    local page=$1 dir p
    dir=$(dirname "$page")
    # samples/... paths in the text, relative to the repository root
    grep -oE 'samples/[A-Za-z0-9_./;=:-]+' "$page" | sed -E 's/[.,:;)]+$//' | sort -u | while read -r p; do
        [ -e "$p" ] || echo "$p"
    done
    # relative markdown links outside code blocks, relative to the page (anchors dropped)
    awk '/^```/ { code = !code; next } !code' "$page" | grep -oE '\]\([^)#[:space:]]+' | sed 's/^](//' | grep -vE '^[a-z]+:' | sort -u | while read -r p; do
        [ -e "$dir/$p" ] || echo "$p"
    done
}

check_pages() { # NAME PAGE...: passes when no page names a missing path
    local name=$1 bad=""
    shift
    for page in "$@"; do
        m=$(missing "$page")
        [ -n "$m" ] && bad="$bad $page: $(echo $m)"
    done
    if [ -z "$bad" ]; then row "$name" pass; else row "$name" FAIL; echo "   missing:$bad"; fi
}

if [ $# -gt 0 ]; then
    check_pages "the pages name only existing files" "$@"
else
    check_pages "README.md and docs/*.md name only existing files" README.md docs/*.md
    # the cases that must fail
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    printf 'Measured (`samples/no-such-table.tsv`).\n' >"$tmp/a.md"
    printf 'See [the page](no-such-page.md#part).\n' >"$tmp/b.md"
    for f in a b; do
        if [ -n "$(missing "$tmp/$f.md")" ]; then
            row "a page naming a missing file fails ($f)" pass
        else
            row "a page naming a missing file fails ($f)" FAIL
        fi
    done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
