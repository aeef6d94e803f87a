#!/usr/bin/env bash
# perf/device_calls.sh CALL -- one session's device calls, one command each (each under the
# 10-minute limit; they share build-dev while the machine stays warm: perf/device_stage.sh):
#   tests  configure + build everything (and sweep_perf_cpu_stores), then every GPU test at once
#   perf   GPU: numerics table (2^24, 2^28), scan A/B against CUB at 2^24, small-input latency
#          (host and GPU time per call); host (16 cores):
#          test_par_comp_simd, test_numerics, CPU numerics table (2^24, 2^27), streaming stores
#   san    compute-sanitizer, case by case (perf/gpu/sanitize_by_case.sh), three groups at once:
#          racecheck of SAN_RACECHECK (default test_gpu_concurrency, with SAN_THREADS host threads,
#          default 2, and SAN_ROUNDS rounds, default 2, taking turns (SWEEP_TEST_SERIALIZE=1:
#          racecheck fails to track launches enqueued into one stream at the same moment,
#          docs/reliability.md session 10); session 7 ran the radix tests: clean); initcheck of two
#          host-compiled tests;
#          memcheck, racecheck, initcheck, synccheck of the deterministic tests and the look-back
#          stress. BUDGET (s, default 470) bounds each group.
# Everything lands in $OUT: summaries as .md, logs in one archive.
set -u
OUT=${OUT:-/tmp/out}; export B=${B:-$PWD/build-dev}
mkdir -p "$OUT"
case ${1:-} in
  tests)
    PTEST_TIMEOUT=${PTEST_TIMEOUT:-200} bash perf/device_stage.sh build build:sweep_perf_cpu_stores ptests:.
    ;;
  perf)
    bash perf/device_stage.sh \
      "run:perf_numerics:perf/gpu/sweep_perf_gpu_numerics 24,28" \
      "run:perf_scan_ab24:perf/gpu/sweep_perf_gpu_scan ab 24 int32,float,int64,double 11" \
      "run:perf_scan_latency:perf/gpu/sweep_perf_gpu_scan latency 10 20" \
      "run:cpu_tests:test/test_par_comp_simd | tail -3; test/test_numerics | tail -3; nproc; uptime" \
      "run:perf_cpu_numerics:perf/sweep_perf_cpu_numerics 24,27" \
      "run:perf_cpu_stores:perf/sweep_perf_cpu_stores 27 1,2,4,8,16"
    ;;
  san)
    b=${BUDGET:-470}
    ( OUT=$OUT/rc BUDGET=$b JOBS=8 CASE_TIMEOUT=$b SWEEP_TEST_MAX_N=15000 \
        SWEEP_TEST_THREADS=${SAN_THREADS:-2} SWEEP_TEST_ROUNDS=${SAN_ROUNDS:-2} SWEEP_TEST_SERIALIZE=1 bash perf/gpu/sanitize_by_case.sh \
        racecheck ${SAN_RACECHECK:-test_gpu_concurrency} ) >/dev/null 2>&1 &
    ( OUT=$OUT/ic BUDGET=$b JOBS=3 CASE_TIMEOUT=$b SWEEP_TEST_MAX_N=30000 bash perf/gpu/sanitize_by_case.sh \
        initcheck test_gpu_all_algorithms_host_compiled test_gpu_compaction_host_compiled ) >/dev/null 2>&1 &
    ( for tool in memcheck racecheck initcheck synccheck; do
        OUT=$OUT/det BUDGET=$(( b / 4 )) JOBS=3 CASE_TIMEOUT=$(( b / 4 )) SWEEP_TEST_MAX_N=30000 SWEEP_TEST_THREADS=4 \
          bash perf/gpu/sanitize_by_case.sh $tool test_gpu_numerics_deterministic test_gpu_lookback_stress
      done ) >/dev/null 2>&1 &
    wait
    for d in rc ic det; do cp "$OUT/$d/summary.md" "$OUT/summary_$d.md" 2>/dev/null; done
    ;;
  *) echo "usage: perf/device_calls.sh tests|perf|san"; exit 2 ;;
esac
# Logs: one archive (the device returns at most 8 files).
(cd "$OUT" && find . -mindepth 1 \( -name '*.log' -o -name '*.tgz' -o -type d \) -prune -print |
   grep -v '^\./logs-' | tar czf "logs-${1}.tgz" --remove-files -T - 2>/dev/null)
ls "$OUT"
