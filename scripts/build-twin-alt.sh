#!/bin/bash
# Builds DIR/nvfp4-bench with the twin compiled with other flags (TWIN_FLAGS, e.g.
# -DGS_STAMP_ABLATE=1).  DIR starts from a copy of build/'s objects (same objects, same
# times), so make recompiles only the twin's GEMM object.  Run after 'make all'.
# usage: scripts/build-twin-alt.sh DIR TWIN_FLAGS
set -u -o pipefail
[ $# -eq 2 ] || { echo "usage: build-twin-alt.sh DIR TWIN_FLAGS" >&2; exit 2; }
dir=$1 flags=$2
rm -rf "$dir" && mkdir -p "$dir" && cp -a build/cuda build/instrument build/kernels "$dir/" || exit 1
rm -f "$dir/kernels/nvfp4/gemm_twin.o"
make -s BUILD="$dir" TWIN_FLAGS="$flags" "$dir/nvfp4-bench"
