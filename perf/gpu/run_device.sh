#!/usr/bin/env bash
# perf/gpu/run_device.sh -- one call on the GPU machine: build the GPU tests and benchmark, run
# the tests (optionally under compute-sanitizer), then the benchmark. Logs go to $OUT.
# Usage (from the repository root): perf/gpu/run_device.sh [tests|sanitize|perf|all] [perf args]
set -u
what=${1:-all}
shift || true
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=/tmp/build-gpu
tests=${TESTS:-"test_gpu_lookback_stress test_gpu_scan_types_int test_gpu_scan_types_float test_gpu_scan_types_struct test_gpu_scan_semantics test_gpu_scan_host_compiled test_gpu_scan_large"}
# The GPU image may carry Catch2 v3 headers on the default include path; test/support/main.cpp
# then takes the v3 path, so link the v3 library too when there is one.
extra=""
c3=$(find / \( -path /proc -o -path /sys -o -path /tmp \) -prune -o -name Catch2Config.cmake -print 2>/dev/null | head -1)
h3=$(find / \( -path /proc -o -path /sys -o -path /tmp \) -prune -o -name catch_test_macros.hpp -print 2>/dev/null | head -1)
echo "catch2 v3 config: ${c3:-none}; v3 header: ${h3:-none}"
[ -n "$c3" ] && extra="-DCatch2_DIR=$(dirname "$c3")"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEP_BUILD_TUNING=ON $extra >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B --target sweep_perf_gpu_scan sweep_perf_gpu_tuning -j16 >"$OUT/build_perf.log" 2>&1 || { grep -E "error" -A3 "$OUT/build_perf.log" | head -40; }
if [ "$what" != perf ] && [ "$what" != tuning ]; then
  cmake --build $B --target $tests -j16 -- -k >"$OUT/build.log" 2>&1 || { grep -E "error" -A3 "$OUT/build.log" | head -40; }
fi
echo "build done"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in $tests; do
    [ -x $B/test/$t ] || { echo "$t: not built"; continue; }
    timeout 300 $B/test/$t >"$OUT/$t.log" 2>&1
    echo "$t: rc=$? $(tail -2 "$OUT/$t.log" | tr '\n' ' ')"
  done
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  for tool in memcheck racecheck; do
    for t in ${SAN_TESTS:-test_gpu_scan_types_struct test_gpu_scan_semantics}; do
      timeout ${SAN_TIMEOUT:-150} compute-sanitizer --tool $tool --error-exitcode 9 $B/test/$t ${SAN_FILTER:+"$SAN_FILTER"} >"$OUT/san_${tool}_$t.log" 2>&1
      echo "$tool $t: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san_${tool}_$t.log" | tr '\n' ' ')"
    done
  done
fi
if [ "$what" = perf ] || [ "$what" = all ]; then
  SWEEP_PERF_CSV="$OUT/perf.csv" $B/perf/gpu/sweep_perf_gpu_scan "$@" | tee "$OUT/perf.md"
fi
if [ "$what" = tuning ]; then
  $B/perf/gpu/sweep_perf_gpu_tuning "$@" | tee "$OUT/tuning.md"
fi
# Everything but the perf tables in one archive (the tool brings back at most 8 files).
(cd "$OUT" && tar czf logs-$what.tgz --remove-files *.log 2>/dev/null)
