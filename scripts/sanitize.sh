#!/usr/bin/env bash
# scripts/sanitize.sh asan|tsan [BUILD_DIR] -- the host test suite under sanitizers (issue 9).
#   asan: AddressSanitizer + UndefinedBehaviorSanitizer (every host test; any report fails)
#   tsan: ThreadSanitizer over the tests that run oneTBB paths (par backend, policies)
#   SAN_TESTS='regex|of|tests' restricts either to those tests; SWEEP_JOBS sets the build's -j.
# CPU-only build (the GPU suite runs under compute-sanitizer on the GPU machine instead:
# perf/gpu/run_device.sh sanitize). docs/reliability.md records the runs and their results.
set -euo pipefail
kind=${1:?usage: scripts/sanitize.sh asan|tsan [BUILD_DIR]}
root="$(cd "$(dirname "$0")/.." && pwd)"
build=${2:-$root/build-$kind}
case $kind in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        tests='' ;;
  tsan) flags="-fsanitize=thread"
        tests='test_par_backend|test_par_radix|test_segmented_par|test_par_concurrency|test_par_oom|test_fuzz_differential|test_scan|test_copy_if|test_partition|test_policies' ;;
  *) echo "unknown sanitizer: $kind" >&2; exit 2 ;;
esac
# SAN_TESTS='test_errors|test_par_oom' runs (and builds) only those tests.
tests=${SAN_TESTS:-$tests}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWEEP_ENABLE_CUDA=OFF \
      -DSWEEP_BUILD_PERF=OFF -DSWEEP_BUILD_EXAMPLES=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" ${TBB_DIR:+-DTBB_DIR=$TBB_DIR}
jobs=${SWEEP_JOBS:-$(nproc 2>/dev/null || echo 2)}   # SWEEP_JOBS=1 on a shared machine
# With a test list (tsan, SAN_TESTS) only those tests are built (their names are their targets).
cmake --build "$build" -j"$jobs" ${tests:+--target ${tests//|/ }}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# scripts/tsan.supp: oneTBB's own task objects, handed between threads inside the uninstrumented
# libtbb. A clean TSan run needs oneTBB itself built with -fsanitize=thread (its CMake option
# TBB_SANITIZE=thread): point TBB_DIR at that build's lib/cmake/TBB (docs/reliability.md).
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp
ctest --test-dir "$build" --output-on-failure -j"$jobs" \
      ${tests:+-R "$tests"} -E 'install_and_consume|does_not_compile|control_compiles'
