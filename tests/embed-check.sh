#!/bin/bash
# build/gs-embed, which compiles the recorder's device sources into it (the runs' sources/):
# the table it writes, compiled and read back, holds every file byte for byte (all 256 byte
# values, an empty file) under its name (one with a quote and a trigraph's '??/' too) and the
# compile folder; a name that could leave a run's sources/ folder, a missing file, a relative
# folder and a file of 16 MiB are refused with nothing written (a byte less is taken); no file
# gives an empty table; the Makefile's list (REC_EMBED_SRCS) holds every source file the
# committed samples name.
set -u
root=$(pwd)
embed=$root/build/gs-embed
[ -x "$embed" ] || { echo "embed-check: $embed not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
cd "$tmp" || exit 2
mkdir -p a/b dump
printf "$(printf '\\%03o' $(seq 0 255))" >a/b/bytes.bin
: >empty.cu
printf 'line one\nline "two"\n' >k.cu
mkdir -p 'q"x??' && cp k.cu 'q"x??/.cu'
cat >dump.c <<'EOF'
#include "instrument/gs_sources.h"
#include <stdio.h>
#include <string.h>
int main(void)
{
    char path[600];
    for (int i = 0; i < gs_compiled_sources_count; i++) {
        const gs_source_text *t = &gs_compiled_sources[i];
        snprintf(path, sizeof path, "dump/%d", i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(t->text, 1, t->len, f) != t->len || fclose(f) != 0)
            return 1;
        printf("%s\n", t->name);
    }
    printf("root %s\n", gs_compiled_sources_root);
    return 0;
}
EOF
build() { cc -std=c11 -Wall -Wextra -Werror -I"$root" "$1" dump.c -o readback; }
if "$embed" out.c /the/build/root a/b/bytes.bin empty.cu k.cu 'q"x??/.cu' && build out.c && ./readback >names.txt &&
    printf 'a/b/bytes.bin\nempty.cu\nk.cu\nq"x??/.cu\nroot /the/build/root\n' | cmp -s - names.txt &&
    cmp -s dump/0 a/b/bytes.bin && cmp -s dump/1 empty.cu && cmp -s dump/2 k.cu && cmp -s dump/3 'q"x??/.cu'; then
    row "four files and the root, compiled and read back byte for byte" pass
else
    row "four files and the root, compiled and read back byte for byte" FAIL
fi
refused() {
    local name=$1
    shift
    rm -f bad.c bad.c.tmp*
    "$embed" bad.c "$@" 2>err.txt
    [ $? -eq 1 ] && [ ! -e bad.c ] && [ -z "$(ls bad.c.tmp* 2>/dev/null)" ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
        row "$name: refused, nothing written" pass || row "$name: refused, nothing written" FAIL
}
refused "an absolute name" / "$tmp/k.cu"
refused "a name with .." / k.cu ../k.cu
refused "a missing file" / k.cu nosuch.cu
head -c $((16 << 20)) /dev/zero >big.bin
refused "a file of 16 MiB" / big.bin
truncate -s $(((16 << 20) - 1)) big.bin
"$embed" big.c / big.bin && [ -s big.c ] && row "a file a byte under 16 MiB: taken" pass || row "a file a byte under 16 MiB: taken" FAIL
rm -f big.bin big.c
"$embed" bad.c rel k.cu 2>/dev/null
[ $? -eq 2 ] && [ ! -e bad.c ] && row "a relative root: refused" pass || row "a relative root: refused" FAIL
if "$embed" none.c / && build none.c && [ "$(./readback)" = "root /" ]; then
    row "no file: an empty table" pass
else
    row "no file: an empty table" FAIL
fi
# the Makefile's list covers every source file the committed recordings' PC samples name (a
# system header excepted): a kernel file left off it would leave its samples with no phase
cd "$root" || exit 2
list=$(make -s -f Makefile -f <(printf 'print-%%:\n\t@echo $(%s)\n' '$*') print-REC_EMBED_SRCS 2>/dev/null)
named=$(find samples -name 'pcsamp*.tsv' -exec awk -F'\t' '!/^#/ && $1 != "file" && $1 !~ /^\// { print $1 }' {} + | sort -u)
off=$(for f in $named; do [[ " $list " == *" $f "* ]] || echo "$f"; done)
[ -n "$list" ] && [ -n "$named" ] && [ -z "$off" ] &&
    row "the recorder's list holds every file the samples name" pass ||
    row "the recorder's list holds every file the samples name" "FAIL (${off:-no list})"
# and the same check fails on a list without one of them
short=${list/kernels\/nvfp4\/ptx.cuh/}
off=$(for f in $named; do [[ " $short " == *" $f "* ]] || echo "$f"; done)
[ "$off" = kernels/nvfp4/ptx.cuh ] && row "a list without ptx.cuh: caught" pass || row "a list without ptx.cuh: caught" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
