#!/usr/bin/env bash
# perf/gpu/run_reliability.sh [build|tests|sanitize|fuzz|all] -- issue 9 on the GPU machine (see
# /work/.library/device), from the repository root, one device call each (10 minutes at most).
# Logs go to $OUT (one archive; the tool brings back 8 files); summary.md has one line per run.
#   build:    configure and build every GPU test executable (test/gpu_tests.cmake) into $B. The
#             other modes build too (incrementally: a no-op when an earlier call built them and
#             the machine is still warm; B defaults to build-dev in the repository, as
#             perf/device_stage.sh's, so a build by either serves both).
#   tests:    run the reliability GPU tests at full size (fuzz short run, the k-th allocation
#             failing, null pointers, 8-thread concurrency, forward progress, capture, look-back
#             stress, 2^32), their figures into the summary.
#   sanitize: EVERY GPU test executable under each compute-sanitizer tool of SAN_TOOLS (default
#             "memcheck racecheck synccheck initcheck"; memcheck with --leak-check full) with
#             SWEEP_TEST_MAX_N (default 100000: every scan, compaction, segmented and radix tile
#             geometry still runs several tiles and the look-back; tests whose point is n past
#             2^31 skip themselves and say so; the spinner of forward_progress too), the fuzzer at
#             SAN_FUZZ_CASES (default 40) cases. SAN_JOBS runs at a time (default 8) on the one
#             GPU, each under timeout SAN_TIMEOUT (default 150 s), none started past the budget.
#             One summary line per (tool, test): errors (device errors and CUDA API errors apart:
#             test_gpu_compaction's capture case and the error tests provoke API errors on
#             purpose), the Catch2 totals, seconds; then one total line per tool. SAN_TESTS (a
#             list of executables) narrows it.
#   fuzz:     the long differential run: FUZZ_CASES cases in all (default 100000) spread over
#             FUZZ_PROCS processes (default 8), distinct seeds, SWEEP_FUZZ_MAX_N (default 300000),
#             at most FUZZ_SECONDS seconds (default: what is left of the budget less 20 s; each
#             process stops drawing cases then and reports what it ran). Prints cases run,
#             elements and failures per process and in total, and every failure's replay line.
#   all:      build, tests, sanitize, fuzz (too much for one call: for a warm-machine sequence).
# BUDGET (seconds, default 570) counts from the script's start, build included: no new run starts
# past it. Environment: B (build dir), OUT.
set -u
what=${1:-all}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=${B:-$PWD/build-dev}
t0=$(date +%s)
left() { echo $(( ${BUDGET:-570} - ($(date +%s) - t0) )); }
log() { echo "$@" | tee -a "$OUT/summary.md"; }
all_gpu_tests=$(grep -o 'sweep_add_gpu_test(test_gpu_[a-z0-9_]*' test/gpu_tests.cmake | sed 's/.*(//')
rel_tests="test_gpu_fuzz_differential test_gpu_reliability_errors test_gpu_concurrency test_gpu_forward_progress test_gpu_large_sizes test_gpu_lookback_stress"
case $what in
  tests) targets=$rel_tests ;;
  fuzz) targets=test_gpu_fuzz_differential ;;
  sanitize) targets=${SAN_TESTS:-$all_gpu_tests} ;;
  *) targets=$all_gpu_tests ;;
esac
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEP_BUILD_TUNING=ON >"$OUT/configure.log" 2>&1 \
    || { tail -20 "$OUT/configure.log"; exit 1; }
fi
( time cmake --build "$B" --target $targets -j"$(nproc)" -- -k ) >"$OUT/build_rel.log" 2>&1
grep -E "error" -A3 "$OUT/build_rel.log" | head -30
log "build ($what, $(echo $targets | wc -w) targets): $(grep real "$OUT/build_rel.log" | tr '\t' ' ')"
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader 2>/dev/null | tee -a "$OUT/summary.md"

figures() { grep -E "^(differential|gpu out of memory|forward progress|look-back|int8 scan|[0-9]+ threads|FAIL|SKIPPED)" "$1" | head -${2:-20}; }
. "$(dirname "$0")/sanitize_lib.sh"  # catch_totals, san_one

if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in $rel_tests; do
    [ -x "$B/test/$t" ] || { log "$t: not built"; continue; }
    [ "$(left)" -gt 20 ] || { log "$t: not run (budget)"; continue; }
    s=$(date +%s)
    timeout "$(left)" "$B/test/$t" >"$OUT/$t.log" 2>&1
    log "$t: rc=$? $(( $(date +%s) - s )) s $(catch_totals "$OUT/$t.log")"
    figures "$OUT/$t.log" | tee -a "$OUT/summary.md"
  done
fi

if [ "$what" = sanitize ] || [ "$what" = all ]; then
  export SWEEP_TEST_MAX_N=${SWEEP_TEST_MAX_N:-100000}
  export SWEEP_FUZZ_CASES=${SAN_FUZZ_CASES:-40} SWEEP_FUZZ_MAX_N=${SWEEP_FUZZ_MAX_N_SAN:-$SWEEP_TEST_MAX_N}
  tools=${SAN_TOOLS:-racecheck memcheck initcheck synccheck}
  tests=${SAN_TESTS:-$all_gpu_tests}
  jobs=${SAN_JOBS:-8}
  log "compute-sanitizer $(compute-sanitizer --version 2>/dev/null | grep -Eo 'Version [^ ]+' | head -1): tools $tools; $(echo $tests | wc -w) tests; SWEEP_TEST_MAX_N=$SWEEP_TEST_MAX_N; fuzz $SWEEP_FUZZ_CASES cases; $jobs at a time; $(left) s of budget left"
  rm -f "$OUT"/san_*.line
  # The slow tools first, so that a budget cut leaves the cheap ones, not racecheck, unrun.
  for tool in $tools; do
    for t in $tests; do
      if [ ! -x "$B/test/$t" ]; then echo "$tool $t: NOT BUILT" >"$OUT/san_${tool}_$t.line"; continue; fi
      while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.5; done
      l=$(( $(left) - 5 ))
      if [ "$l" -lt 15 ]; then echo "$tool $t: NOT RUN (budget)" >"$OUT/san_${tool}_$t.line"; continue; fi
      [ "$l" -gt "${SAN_TIMEOUT:-150}" ] && l=${SAN_TIMEOUT:-150}
      san_one "$tool" "$t" "$l" &
    done
  done
  wait
  for tool in $tools; do
    for t in $tests; do cat "$OUT/san_${tool}_$t.line" 2>/dev/null || echo "$tool $t: no result"; done | tee -a "$OUT/summary.md"
    n=$(echo $tests | wc -w)
    clean=$(cat "$OUT"/san_${tool}_*.line 2>/dev/null | grep -c ': clean,')
    skipped=$(cat "$OUT"/san_${tool}_*.line 2>/dev/null | grep -c ': skipped (size cap),')
    log "$tool total: $clean of $n runs clean (0 device errors, tests pass), $skipped skipped by the size cap; the others: $(cat "$OUT"/san_${tool}_*.line 2>/dev/null | grep -v ': clean,\|: skipped (size cap),' | sed 's/^[a-z]* //;s/, device errors \([^,]*\),.*/ (\1)/;s/: / /' | tr '\n' ';')"
  done
  log "sanitize wall time: $(( $(date +%s) - t0 )) s (build included)"
  unset SWEEP_TEST_MAX_N SWEEP_FUZZ_CASES SWEEP_FUZZ_MAX_N
fi

if [ "$what" = fuzz ] || [ "$what" = all ]; then
  procs=${FUZZ_PROCS:-8}
  total=${FUZZ_CASES:-100000}
  per=$(( (total + procs - 1) / procs ))
  secs=${FUZZ_SECONDS:-$(( $(left) - 20 ))}
  [ "$secs" -gt 30 ] || secs=30
  log "fuzz: $procs processes x $per cases (FUZZ_CASES=$total), at most $secs s, SWEEP_FUZZ_MAX_N=${SWEEP_FUZZ_MAX_N:-300000}"
  base=$(date +%s)
  for p in $(seq 1 "$procs"); do
    SWEEP_TEST_SEED=$(( 1000003 * p + base )) SWEEP_FUZZ_CASES=$per SWEEP_FUZZ_SECONDS=$secs \
      SWEEP_FUZZ_MAX_N=${SWEEP_FUZZ_MAX_N:-300000} timeout -k 10 $(( secs + 60 )) \
      "$B/test/test_gpu_fuzz_differential" >"$OUT/fuzz_$p.log" 2>&1 &
  done
  wait
  cases=0; elems=0; fails=0
  for p in $(seq 1 "$procs"); do
    # The summary line: "differential fuzzing (gpu): C cases, E elements, F failures, ..."
    s=$(grep -E '^differential fuzzing \(gpu\): [0-9]+ cases, [0-9]+ elements' "$OUT/fuzz_$p.log" | tail -1)
    [ -n "$s" ] || s=$(grep -E '^differential fuzzing \(gpu\): [0-9]+ cases done' "$OUT/fuzz_$p.log" | tail -1)
    log "fuzz process $p (seed $(grep -Eo 'run seed [0-9]+' "$OUT/fuzz_$p.log" | head -1 | grep -Eo '[0-9]+')): ${s:-no summary line} | $(catch_totals "$OUT/fuzz_$p.log")"
    c=$(echo "$s" | grep -Eo '[0-9]+ cases' | grep -Eo '[0-9]+'); e=$(echo "$s" | grep -Eo '[0-9]+ elements' | grep -Eo '[0-9]+')
    cases=$(( cases + ${c:-0} )); elems=$(( elems + ${e:-0} ))
    fails=$(( fails + $(grep -c '^FAIL' "$OUT/fuzz_$p.log") ))
    grep -A2 "^FAIL" "$OUT/fuzz_$p.log" | head -12 | tee -a "$OUT/summary.md"
  done
  log "fuzz total: $cases cases (of $total asked), $elems elements, $fails failures, $(( $(date +%s) - base )) s"
fi
(cd "$OUT" && tar czf logs-rel-$what.tgz --remove-files *.log *.line 2>/dev/null)
