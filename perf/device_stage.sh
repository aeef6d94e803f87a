#!/usr/bin/env bash
# perf/device_stage.sh STAGE... -- device runs in stages that share one build directory
# (build-dev, kept on the GPU machine between calls while it stays warm):
#   build            configure + build everything (-j16, keep going)
#   build:T1,T2      build only these targets
#   tests            every GPU test executable, rc and summary each
#   tests:REGEX      the GPU tests whose name matches REGEX
#   ptests:REGEX     the same, run concurrently (correctness only)
#   memcheck:T1,T2   compute-sanitizer memcheck on these tests (SWEEP_TEST_MAX_N=${SAN_MAX_N:-70000})
#   racecheck:T1,T2  the same with racecheck (initcheck:, synccheck: likewise)
#   ctest:REGEX      ctest over everything except REGEX (e.g. the GPU tests, run by `tests`)
#   run:NAME:CMD     run CMD (relative to the build dir) into $OUT/NAME.md
# Logs go to $OUT. STAGE_CMAKE_ARGS: extra configure arguments (e.g. -DSWEEP_PRECOMPILED_KERNELS=OFF
# for a quick run of nvcc-compiled tests and benches only).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=${B:-$PWD/build-dev}
log() { echo "$@" | tee -a "$OUT/summary.md"; }
for stage in "$@"; do
  case $stage in
    build|build:*)
      dev=""
      [ "$stage" != build ] && dev=${stage#build:} && dev=${dev//,/;}
      cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEP_BUILD_TUNING=ON "-DSWEEP_DEV_TARGETS=$dev" ${STAGE_CMAKE_ARGS:-} >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
      targets=""
      # One umbrella target (CMakeLists.txt: sweep_dev), so that all of them compile in parallel.
      [ -n "$dev" ] && targets="--target sweep_dev"
      ( time cmake --build $B -j16 $targets -- -k ) >"$OUT/build.log" 2>&1
      grep -E "error" -A3 "$OUT/build.log" | head -40
      log "build ($stage): $(grep real "$OUT/build.log")" ;;
    tests|tests:*)
      re=.; [ "$stage" != tests ] && re=${stage#tests:}
      for t in $B/test/test_gpu_*; do
        n=$(basename "$t"); echo "$n" | grep -Eq "$re" || continue
        timeout 300 "$t" >"$OUT/$n.log" 2>&1; rc=$?
        log "$n: rc=$rc $(grep -E 'passed|failed|skipped' "$OUT/$n.log" | tail -1)"
      done ;;
    ptests:*)
      # The same, all at once (independent processes sharing the GPU: for correctness only,
      # never for timing).
      re=${stage#ptests:}
      for t in $B/test/test_gpu_*; do
        n=$(basename "$t"); echo "$n" | grep -Eq "$re" || continue
        ( timeout ${PTEST_TIMEOUT:-240} "$t" >"$OUT/$n.log" 2>&1; rc=$?
          log "$n: rc=$rc $(grep -E 'passed|failed|skipped' "$OUT/$n.log" | tail -1)" ) &
      done
      wait ;;
    memcheck:*|racecheck:*|initcheck:*|synccheck:*)
      tool=${stage%%:*}
      for t in $(echo ${stage#*:} | tr , ' '); do
        [ -x $B/test/$t ] || { log "$tool $t: not built"; continue; }
        timeout ${SAN_TIMEOUT:-150} env SWEEP_TEST_MAX_N=${SAN_MAX_N:-70000} compute-sanitizer --tool $tool --error-exitcode 9 $B/test/$t >"$OUT/${tool}_$t.log" 2>&1
        log "$tool $t: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/${tool}_$t.log" | tail -1)"
      done ;;
    ctest:*)
      (cd $B && timeout ${CTEST_TIMEOUT:-240} ctest -j16 -E "${stage#ctest:}" --output-on-failure) >"$OUT/ctest.log" 2>&1
      log "ctest -E '${stage#ctest:}': rc=$? $(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)"
      grep -E "\*\*\*Failed|Timeout" "$OUT/ctest.log" | head -20 | tee -a "$OUT/summary.md" ;;
    run:*)
      rest=${stage#run:}; name=${rest%%:*}; cmd=${rest#*:}
      (cd $B && timeout ${RUN_TIMEOUT:-200} bash -c "$cmd") >"$OUT/$name.md" 2>&1
      log "run $name: rc=$?" ;;
  esac
done
