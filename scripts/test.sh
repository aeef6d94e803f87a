#!/usr/bin/env bash
# scripts/test.sh -- the README's test command: installs missing packages, builds everything
# (the CUDA parts too when a toolkit is present) and runs the test suite. GPU tests report
# themselves skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
# Where no GPU is present no kernel can run (the GPU tests report themselves skipped), so device
# code is built only to prove that it compiles: unoptimized PTX for every target (cicc -O0, no
# ptxas), and the GPU tests' host code at -O0 (CMakeLists.txt, SWEEP_GPU_TESTS_BUILD_ONLY). With
# a GPU everything is built optimized, with SASS.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  build_only=OFF
else
  build_only=ON
fi
scripts/configure.sh build -DSWEEP_GPU_TESTS_BUILD_ONLY=$build_only
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
# The short sanitizer pass (ASan + UBSan over test_errors and test_par_concurrency: docs/
# reliability.md). Off by default: CI's 2 cores spend ~22 of their 30 minutes above (1328 s on
# the development VM in session 19), and the short pass took ~12 more there (its CPU-only
# library and the two tests built with the sanitizers).
if [ "${SWEEP_CI_SANITIZE:-0}" = 1 ]; then
  SWEEP_JOBS=$jobs scripts/sanitize.sh short build-san-short
fi
