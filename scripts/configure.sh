#!/usr/bin/env bash
# scripts/configure.sh BUILD_DIR [cmake args...] -- configures sweep, finding the CUDA toolkit in
# its usual place when nvcc is not on PATH (CPU-only when there is none).
set -euo pipefail
build=${1:-build}; shift || true
if ! command -v nvcc >/dev/null 2>&1 && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S "$(dirname "$0")/.." -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
