#!/bin/sh
# Exit 0 when a CUDA GPU is usable here (nvidia-smi lists one).
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '
