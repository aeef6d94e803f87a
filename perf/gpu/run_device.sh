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
tests="test_gpu_lookback_stress test_gpu_scan_types_int test_gpu_scan_types_float test_gpu_scan_types_struct test_gpu_scan_semantics test_gpu_scan_host_compiled test_gpu_scan_large"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
targets="sweep_perf_gpu_scan"
[ "$what" != perf ] && targets="$targets $tests"
cmake --build $B --target $targets -j16 >"$OUT/build.log" 2>&1 || { grep -E "error" -A3 "$OUT/build.log" | head -60; exit 1; }
echo "build ok"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in $tests; do
    timeout 300 $B/test/$t >"$OUT/$t.log" 2>&1
    echo "$t: rc=$? $(tail -2 "$OUT/$t.log" | tr '\n' ' ')"
  done
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  for tool in memcheck racecheck; do
    for t in test_gpu_lookback_stress test_gpu_scan_types_struct test_gpu_scan_semantics; do
      timeout 400 compute-sanitizer --tool $tool --error-exitcode 9 $B/test/$t "${SAN_FILTER:-}" >"$OUT/san_${tool}_$t.log" 2>&1
      echo "$tool $t: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san_${tool}_$t.log" | tr '\n' ' ')"
    done
  done
fi
if [ "$what" = perf ] || [ "$what" = all ]; then
  SWEEP_PERF_CSV="$OUT/perf.csv" $B/perf/gpu/sweep_perf_gpu_scan "$@" | tee "$OUT/perf.md"
fi
