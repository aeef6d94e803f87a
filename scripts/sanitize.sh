#!/usr/bin/env bash
# scripts/sanitize.sh asan|ubsan|tsan|short [BUILD_DIR] -- the host test suite under sanitizers
# (issue 9; docs/reliability.md records the runs and their results).
#   asan:  AddressSanitizer + UndefinedBehaviorSanitizer (leak check on), every host test
#   ubsan: UndefinedBehaviorSanitizer alone, every host test (cheaper to build and run)
#   tsan:  ThreadSanitizer over the tests that run oneTBB paths (test_par_*, the par tests of the
#          algorithm families, the host fuzzer). Needs oneTBB itself built with TSan (the
#          distribution's libtbb is not instrumented: TSan cannot see its task hand-offs and
#          reports hundreds of false races): scripts/build_tsan_tbb.sh builds one into
#          TSAN_TBB (default /work/tsan-tbb/prefix). A control runs first: a racy and a race-free
#          tbb::parallel_for (test/sanitizers/), which must give >= 1 and 0 reports.
#   short: the CI-sized pass: ASan + UBSan over test_errors (bad input, throwing operators, failing
#          allocations, every algorithm and host policy) and test_par_concurrency.
# Any sanitizer report fails the run (-fno-sanitize-recover, halt_on_error). CPU-only build
# (the GPU suite runs under compute-sanitizer on the GPU machine: perf/gpu/run_reliability.sh).
# Environment: SAN_TESTS='regex|of|tests' builds and runs only those; SWEEP_JOBS the build's and
# ctest's -j (default: all cores; SWEEP_JOBS=1 on a shared machine); SWEEP_FUZZ_CASES and
# SWEEP_FUZZ_SECONDS pass through to the tests; SAN_OPT the optimization flags (below).
set -euo pipefail
kind=${1:?usage: scripts/sanitize.sh asan|ubsan|tsan|short [BUILD_DIR]}
root=${SWEEP_SRC:-"$(cd "$(dirname "$0")/.." && pwd)"}  # SWEEP_SRC: the source tree, for a copy of this script run elsewhere
build=${2:-$root/build-san-$kind}
tbb_args=()
case $kind in
  asan|short)
    flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    tests='' ;;
  ubsan)
    flags="-fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    tests='' ;;
  tsan)
    flags="-fsanitize=thread"
    tests='test_par_backend|test_par_radix|test_segmented_par|test_par_concurrency|test_par_oom|test_fuzz_differential|test_scan|test_copy_if|test_partition|test_policies|test_segmented_scan|test_radix_sort|test_automatic'
    tsan_tbb=${TSAN_TBB:-/work/tsan-tbb/prefix}
    if [ ! -f "$tsan_tbb/lib/cmake/TBB/TBBConfig.cmake" ]; then
      echo "sanitize.sh tsan: no TSan-instrumented oneTBB at $tsan_tbb (set TSAN_TBB, or build one:" >&2
      echo "  scripts/build_tsan_tbb.sh $tsan_tbb). The distribution's libtbb gives false reports." >&2
      exit 2
    fi
    tbb_args=(-DTBB_DIR="$tsan_tbb/lib/cmake/TBB") ;;
  *) echo "unknown sanitizer: $kind (asan|ubsan|tsan|short)" >&2; exit 2 ;;
esac
[ "$kind" = short ] && tests='test_errors|test_par_concurrency'
tests=${SAN_TESTS:-$tests}
jobs=${SWEEP_JOBS:-$(nproc 2>/dev/null || echo 2)}
# RelWithDebInfo (-O2 -g): optimized as users build it, with line numbers in the reports.
# SAN_OPT replaces "-O2 -g": "-O1 -g1" compiles faster (used for the runs of docs/reliability.md on a loaded 2-core machine).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWEEP_ENABLE_CUDA=OFF \
      -DSWEEP_BUILD_PERF=OFF -DSWEEP_BUILD_EXAMPLES=OFF \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${SAN_OPT:--O2 -g} -DNDEBUG" \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" "${tbb_args[@]}" >/dev/null
# With a test list (tsan, short, SAN_TESTS) only those tests are built (their names are their
# targets).
cmake --build "$build" -j"$jobs" ${tests:+--target ${tests//|/ }}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:history_size=4
if [ "$kind" = tsan ]; then
  # The control: TSan with this oneTBB must see a race in a racy parallel_for and none in a
  # race-free one (with the distribution's libtbb the second gives false reports).
  for p in race norace; do
    ${CXX:-c++} -std=c++20 -O1 -g $flags -I"$tsan_tbb/include" "$root/test/sanitizers/tsan_control_$p.cpp" \
      -o "$build/tsan_control_$p" -L"$tsan_tbb/lib" -ltbb -Wl,-rpath,"$tsan_tbb/lib"
  done
  r=$(TSAN_OPTIONS=halt_on_error=0 "$build/tsan_control_race" 2>&1 | grep -c 'WARNING: ThreadSanitizer' || true)
  c=$(TSAN_OPTIONS=halt_on_error=0 "$build/tsan_control_norace" 2>&1 | grep -c 'WARNING: ThreadSanitizer' || true)
  echo "TSan control: racy parallel_for $r report(s) (want >= 1), race-free parallel_for $c (want 0)"
  if [ "$r" -lt 1 ] || [ "$c" -ne 0 ]; then
    echo "TSan control failed: this setup cannot be trusted" >&2
    exit 1
  fi
fi
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 3000 \
      ${tests:+-R "^($tests)\$"} -E 'install_and_consume|does_not_compile|control_compiles'
