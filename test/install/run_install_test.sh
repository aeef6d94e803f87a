#!/usr/bin/env bash
# test/install/run_install_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
# Installs the built sweep into a prefix and builds the consumer project against it
# (find_package), then builds the consumer from the source tree (add_subdirectory) in a
# CPU-only configuration and once without oneTBB. Each consumer must build and run.
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

echo "== find_package(sweep CONFIG) against the installed package"
cmake -S "$src/test/install/consumer" -B "$work/installed" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/installed" >/dev/null
"$work/installed/consumer"

echo "== add_subdirectory, CPU-only (SWEEP_ENABLE_CUDA=OFF)"
cmake -S "$src/test/install/consumer" -B "$work/subdir" -DSWEEP_SOURCE_DIR="$src" \
      -DSWEEP_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/subdir" >/dev/null
"$work/subdir/consumer"

echo "== add_subdirectory, CPU-only without oneTBB (SWEEP_ENABLE_TBB=OFF)"
cmake -S "$src/test/install/consumer" -B "$work/notbb" -DSWEEP_SOURCE_DIR="$src" \
      -DSWEEP_ENABLE_CUDA=OFF -DSWEEP_ENABLE_TBB=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/notbb" >/dev/null
"$work/notbb/consumer"
