#!/usr/bin/env bash
# test/install/run_install_test.sh SOURCE_DIR BUILD_DIR WORK_DIR [CUDA_COMPILER]
# Installs the built sweep into a prefix and builds the consumer project against it
# (find_package); when sweep was built with CUDA (CUDA_COMPILER given), also the CUDA consumer
# (a .cu and a host-compiled .cpp calling sweep::gpu) against the same installed package; then
# builds the consumer from the source tree (add_subdirectory) in a CPU-only configuration and once
# without oneTBB. Each consumer must build and run (the CUDA one runs its GPU part only where a
# device is present).
set -euo pipefail
src=$1 build=$2 work=$3 cuda_compiler=${4:-}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

echo "== find_package(sweep CONFIG) against the installed package"
cmake -S "$src/test/install/consumer" -B "$work/installed" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/installed" >/dev/null
"$work/installed/consumer"

if [ -n "$cuda_compiler" ]; then
  echo "== find_package(sweep CONFIG) from a CUDA project (.cu and host-compiled .cpp)"
  cmake -S "$src/test/install/cuda_consumer" -B "$work/installed_cuda" \
        -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CUDA_COMPILER="$cuda_compiler" \
        -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$work/installed_cuda" >/dev/null
  "$work/installed_cuda/cuda_consumer"
fi

echo "== add_subdirectory, CPU-only (SWEEP_ENABLE_CUDA=OFF)"
# (SWEEP_PRECOMPILED_RADIX=OFF: this configuration's single-core build would otherwise spend
# 90 s on the library's radix instantiations, which the installed package above already links.)
cmake -S "$src/test/install/consumer" -B "$work/subdir" -DSWEEP_SOURCE_DIR="$src" \
      -DSWEEP_ENABLE_CUDA=OFF -DSWEEP_PRECOMPILED_RADIX=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/subdir" >/dev/null
"$work/subdir/consumer"

echo "== add_subdirectory, CPU-only without oneTBB (SWEEP_ENABLE_TBB=OFF)"
cmake -S "$src/test/install/consumer" -B "$work/notbb" -DSWEEP_SOURCE_DIR="$src" \
      -DSWEEP_ENABLE_CUDA=OFF -DSWEEP_ENABLE_TBB=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/notbb" >/dev/null
"$work/notbb/consumer"
