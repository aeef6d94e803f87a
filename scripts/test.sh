#!/usr/bin/env bash
# scripts/test.sh -- the README's test command: installs missing packages, builds everything
# (the CUDA parts too when a toolkit is present) and runs the test suite. GPU tests report
# themselves skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
scripts/configure.sh build
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
