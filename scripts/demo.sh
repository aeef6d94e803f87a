#!/usr/bin/env bash
# scripts/demo.sh [log2_n] -- the README's first command: installs missing packages, builds the
# demo and runs every algorithm on every available policy (default n = 2^26).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
scripts/configure.sh build
cmake --build build --target sweep_demo -j"$jobs"
exec build/examples/sweep_demo "${1:-26}"
