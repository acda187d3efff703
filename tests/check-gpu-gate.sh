#!/bin/bash
# make check-gpu's gate on missing tools, run without a GPU: a fake nvidia-smi lets the script
# start, PATH holds no compute-sanitizer.  The sanitizer part must FAIL unless GS_CHECK_SKIP
# names it, and a skipped part must be listed as not run.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "GPU 0: fake (UUID: GPU-0)"\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
path=$tmp/bin:/usr/bin:/bin
pass=0 fail=0
row() { printf '%-60s %s\n' "$1" "$2"; if [ "$2" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
if PATH=$path command -v compute-sanitizer >/dev/null; then
    echo "check-gpu-gate: compute-sanitizer is in /usr/bin; cannot test its absence" >&2
    exit 1
fi
out=$(PATH=$path GS_CHECK_ROOT=$tmp/r GS_CHECK_PARTS=sanitizer scripts/check-gpu.sh 2>&1); rc=$?
[ $rc -ne 0 ] && row "missing compute-sanitizer: exit status non-zero" pass || row "missing compute-sanitizer: exit status non-zero" FAIL
echo "$out" | tail -n 1 | grep -qx '0 passed, 1 failed' && row "missing compute-sanitizer: counted as 1 failure" pass \
    || row "missing compute-sanitizer: counted as 1 failure" FAIL
out=$(PATH=$path GS_CHECK_ROOT=$tmp/r GS_CHECK_PARTS=sanitizer GS_CHECK_SKIP=sanitizer scripts/check-gpu.sh 2>&1); rc=$?
[ $rc -eq 0 ] && row "GS_CHECK_SKIP=sanitizer: exit status 0" pass || row "GS_CHECK_SKIP=sanitizer: exit status 0" FAIL
echo "$out" | grep -q '^not run:.* sanitizer' && row "GS_CHECK_SKIP=sanitizer: listed as not run" pass \
    || row "GS_CHECK_SKIP=sanitizer: listed as not run" FAIL
echo "$out" | tail -n 1 | grep -qx '0 passed, 0 failed' && row "GS_CHECK_SKIP=sanitizer: 0 passed, 0 failed" pass \
    || row "GS_CHECK_SKIP=sanitizer: 0 passed, 0 failed" FAIL
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
