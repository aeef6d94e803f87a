#!/usr/bin/env bash
# perf/gpu/run_reliability.sh [tests|sanitize|fuzz|all] -- issue 9 on the GPU machine, one call
# (see /work/.library/device), from the repository root. Logs go to $OUT; summary.md has one line
# per run (rc, Catch2 totals, sanitizer summaries, the tests' own figures).
#   tests:    build and run the reliability GPU tests (fuzz short run, OOM at every k, null
#             pointers, 8-thread concurrency, forward progress, capture, look-back stress, 2^32).
#   sanitize: compute-sanitizer SAN_TOOLS (default: memcheck racecheck synccheck initcheck) over
#             SAN_TESTS (default: the reliability tests and the scan, compaction and segmented
#             semantics tests) at small sizes (SWEEP_TEST_MAX_N, default 70000), SAN_TIMEOUT
#             seconds per tool and test (default 60). A device call has 10 minutes: split the
#             tools over two calls, e.g. SAN_TOOLS="memcheck initcheck", then "racecheck synccheck".
#   fuzz:     the long differential run: FUZZ_PROCS processes (default 8) of FUZZ_CASES cases each
#             (default 12500: 10^5 in all), distinct seeds, SWEEP_FUZZ_MAX_N (default 300000);
#             each prints its count every 1000 cases, so a run cut short still reports.
# BUDGET (seconds, default 560): no new run starts past it, and the fuzz processes stop at it.
# Environment: B (build dir, default /tmp/bg, configured as perf/run_device_all.sh does).
set -u
what=${1:-all}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=${B:-/tmp/bg}
t0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - t0) )); }
log() { echo "$@" | tee -a "$OUT/summary.md"; }
rel_tests="test_gpu_fuzz_differential test_gpu_reliability_errors test_gpu_concurrency test_gpu_forward_progress test_gpu_large_sizes"
san_default="test_gpu_reliability_errors test_gpu_concurrency test_gpu_fuzz_differential test_gpu_forward_progress test_gpu_scan_semantics test_gpu_compaction test_gpu_segmented_scan"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
case $what in
  sanitize) targets="${SAN_TESTS:-$san_default}" ;;
  all) targets="$rel_tests ${SAN_TESTS:-$san_default}" ;;
  *) targets="$rel_tests" ;;
esac
targets="--target $(echo $targets | tr ' ' '\n' | sort -u | tr '\n' ' ')"
( time cmake --build $B $targets -j"$(nproc)" -- -k ) >"$OUT/build_rel.log" 2>&1
grep -E "error" -A3 "$OUT/build_rel.log" | head -30
log "build: $(grep real "$OUT/build_rel.log")"
figures() { grep -E "^(differential|gpu out of memory|forward progress|look-back|int8 scan|[0-9]+ threads|FAIL|SKIPPED)" "$1" | head -${2:-20}; }
if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in $rel_tests; do
    [ -x $B/test/$t ] || { log "$t: not built"; continue; }
    [ "$(left)" -gt 20 ] || { log "$t: not run (budget)"; continue; }
    timeout "$(left)" $B/test/$t >"$OUT/$t.log" 2>&1
    log "$t: rc=$? $(grep -E 'passed|failed' "$OUT/$t.log" | tail -1)"
    figures "$OUT/$t.log" | tee -a "$OUT/summary.md"
  done
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  export SWEEP_TEST_MAX_N=${SWEEP_TEST_MAX_N:-70000} SWEEP_FUZZ_CASES=${SAN_FUZZ_CASES:-40} SWEEP_FUZZ_MAX_N=${SWEEP_FUZZ_MAX_N_SAN:-70000}
  tests=${SAN_TESTS:-$san_default}
  for tool in ${SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
    for t in $tests; do
      [ -x $B/test/$t ] || continue
      [ "$(left)" -gt 15 ] || { log "$tool $t: not run (budget)"; continue; }
      extra=""
      [ $tool = memcheck ] && extra="--leak-check full"
      lim=${SAN_TIMEOUT:-60}; [ "$lim" -lt "$(left)" ] || lim=$(( $(left) - 5 ))
      timeout $lim compute-sanitizer --tool $tool $extra --error-exitcode 9 $B/test/$t >"$OUT/san_${tool}_$t.log" 2>&1
      log "$tool $t: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed|failed' "$OUT/san_${tool}_$t.log" | tail -2 | tr '\n' ' ')"
    done
  done
  unset SWEEP_TEST_MAX_N SWEEP_FUZZ_CASES SWEEP_FUZZ_MAX_N
fi
if [ "$what" = fuzz ] || [ "$what" = all ]; then
  procs=${FUZZ_PROCS:-8}
  flim=$(( $(left) - 10 )); [ "$flim" -gt 30 ] || flim=30
  for p in $(seq 1 $procs); do
    SWEEP_TEST_SEED=$((1000003 * p + $(date +%s))) SWEEP_FUZZ_CASES=${FUZZ_CASES:-12500} \
      SWEEP_FUZZ_MAX_N=${SWEEP_FUZZ_MAX_N:-300000} timeout $flim \
      $B/test/test_gpu_fuzz_differential >"$OUT/fuzz_$p.log" 2>&1 &
  done
  wait
  for p in $(seq 1 $procs); do
    log "fuzz process $p: $(grep -E '^differential fuzzing \(gpu\): [0-9]+ cases' "$OUT/fuzz_$p.log" | tail -1) $(grep -E 'passed|failed' "$OUT/fuzz_$p.log" | tail -1)"
    grep -A2 "^FAIL" "$OUT/fuzz_$p.log" | head -12 | tee -a "$OUT/summary.md"
  done
fi
(cd "$OUT" && tar czf logs-rel-$what.tgz --remove-files *.log 2>/dev/null)
