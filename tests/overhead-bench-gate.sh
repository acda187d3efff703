#!/bin/bash
# scripts/overhead-bench.sh without a GPU: a fake nvfp4-bench writes its tables.  A run where
# every build is correct writes the table (three rounds of the twelve shapes, its header naming
# the command); one incorrect build, a failing bench or bad arguments write nothing and fail.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build"
# the fake: --shapes S --variants V --reps N --tsv FILE [--dual]; FAKE_BAD names a shape whose
# builds read incorrect, FAKE_FAIL=1 makes it exit 1, FAKE_V4=1 writes format 4 (no null twin)
cat >"$tmp/build/nvfp4-bench" <<'FAKE'
#!/bin/bash
v=pt
while [ $# -gt 0 ]; do case $1 in --shapes) s=$2; shift 2 ;; --tsv) t=$2; shift 2 ;; --dual) v=pt-dual; shift ;; *) shift ;; esac; done
[ "${FAKE_FAIL:-0}" = 1 ] && exit 1
if [ "${FAKE_V4:-0}" = 1 ]; then
{ echo "# gemmscope nvfp4-bench v4"
  printf 'shape\tvariant\tprod_us\ttflops\tpct_ceiling\tcublas_over_ours\ttwin_over_prod\tdetail_over_prod\tcorrect\tinputs\tpdl\n'
  IFS=, read -ra sh <<<"$s"
  for x in "${sh[@]}"; do printf '%s\t%s\t10.000\t1\t1\t1\t1.0100\t1.0500\t1\t1\t1\n' "$x" "$v"; done; } >"$t"
  exit 0
fi
{ echo "# gemmscope nvfp4-bench v5"
  printf 'shape\tvariant\tprod_us\ttflops\tpct_ceiling\tcublas_over_ours\ttwin_over_prod\tdetail_over_prod\tcorrect\tinputs\tpdl\tnull_over_prod\n'
  IFS=, read -ra sh <<<"$s"
  for x in "${sh[@]}"; do c=1; [ "$x" = "${FAKE_BAD:-}" ] && c=0
      printf '%s\t%s\t10.000\t1\t1\t1\t1.0100\t1.0500\t%s\t1\t1\t0.9990\n' "$x" "$v" "$c"; done; } >"$t"
FAKE
chmod +x "$tmp/build/nvfp4-bench"
pass=0 fail=0
row() { printf '%-70s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
ok() { if eval "$2"; then row "$1" pass; else row "$1" FAIL; fi; }
out=$tmp/oh.tsv
BUILD=$tmp/build scripts/overhead-bench.sh "$out" 3 5 2>/dev/null; rc=$?
ok "every build correct: exit status 0" "[ $rc -eq 0 ]"
ok "every build correct: 36 rows (3 rounds of 12 shapes)" "[ \$(grep -vc '^#\|^round' '$out' 2>/dev/null) -eq 36 ]"
ok "every build correct: the header names the command" "grep -qx '# scripts/overhead-bench.sh OUT 3 5' '$out'"
ok "every build correct: dual shapes timed with --dual, grouped without" \
    "grep -q \$'^2\td512n3072k7168\tpt-dual\t10.000\t1.0100\t1.0500\t0.9990\$' '$out' && grep -q \$'^2\tdual:m=128;n=2048;k=7168\tpt-dual\t' '$out' && grep -q \$'^3\tm=96;n=7168;k=2048\tpt\t' '$out'"
rm -f "$out"
FAKE_BAD=d256n3072k4096 BUILD=$tmp/build scripts/overhead-bench.sh "$out" 2 5 2>/dev/null; rc=$?
ok "one incorrect build: exit status non-zero" "[ $rc -ne 0 ]"
ok "one incorrect build: nothing written" "[ -z \"\$(ls '$tmp' | grep oh.tsv)\" ]"
FAKE_V4=1 BUILD=$tmp/build scripts/overhead-bench.sh "$out" 1 5 2>/dev/null; rc=$?
ok "no null twin (format 4): exit status non-zero, nothing written" "[ $rc -ne 0 ] && [ ! -e '$out' ]"
FAKE_FAIL=1 BUILD=$tmp/build scripts/overhead-bench.sh "$out" 1 5 2>/dev/null; rc=$?
ok "nvfp4-bench fails: exit status non-zero, nothing written" "[ $rc -ne 0 ] && [ ! -e '$out' ]"
BUILD=$tmp/build scripts/overhead-bench.sh "$out" 0 2>/dev/null; rc=$?
ok "ROUNDS 0: exit status 2, nothing written" "[ $rc -eq 2 ] && [ ! -e '$out' ]"
BUILD=$tmp/nowhere scripts/overhead-bench.sh "$out" 2>/dev/null; rc=$?
ok "no nvfp4-bench: exit status 2" "[ $rc -eq 2 ]"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
