#!/usr/bin/env bash
# perf/run_device_all.sh gpu|cpu -- one call on the GPU machine (see /work/.library/device):
#   gpu: build everything, run every GPU test (rc and summary line each), compute-sanitizer
#        memcheck on the fast GPU tests, then the GPU perf tables (scan, compaction, segmented,
#        radix, numerics, the Thrust port and sweep::automatic's managed-memory threshold;
#        the radix sort's session-4 rows (`r3`); RADIX_TUNE=1 adds its shape sweep,
#        COMPACTION_TUNE=1 compaction's tile geometries).
#   cpu: CPU-only build of the host benchmarks and par tests, run them on the host's cores
#        (bench_automatic: sweep::automatic's seq/par threshold; the par radix sort's phases;
#        RADIX_SCALING=1 adds its u32/u64 rows at 1, 4 and 8 threads).
# Logs and tables go to $OUT (the perf tables as .md; everything else in one archive).
set -u
what=${1:-gpu}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
log() { echo "$@" | tee -a "$OUT/summary.md"; }
if [ "$what" = gpu ]; then
  B=/tmp/bg
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEP_BUILD_TUNING=ON >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
  ( time cmake --build $B -j16 -- -k ) >"$OUT/build.log" 2>&1
  grep -E "error" -A3 "$OUT/build.log" | head -30
  log "build: $(grep real "$OUT/build.log")"
  nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv,noheader | tee -a "$OUT/summary.md"
  for t in $B/test/test_gpu_*; do
    n=$(basename "$t")
    timeout 300 "$t" >"$OUT/$n.log" 2>&1
    rc=$?
    log "$n: rc=$rc $(grep -E 'passed|failed' "$OUT/$n.log" | tail -1)"
  done
  for t in ${SAN_TESTS:-test_gpu_scan_semantics test_gpu_compaction test_gpu_segmented_scan test_gpu_radix_semantics}; do
    [ -x $B/test/$t ] || continue
    timeout ${SAN_TIMEOUT:-120} env ${SAN_MAX_N:+SWEEP_TEST_MAX_N=$SAN_MAX_N} compute-sanitizer --tool memcheck --error-exitcode 9 $B/test/$t >"$OUT/memcheck_$t.log" 2>&1
    log "memcheck $t: rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_$t.log" | tail -1)"
  done
  # The offsets form's block path (shared-memory marks between two barriers): memcheck on the
  # small cases, racecheck on one type.
  if [ -x $B/test/test_gpu_segmented_offsets ]; then
    timeout ${SAN_TIMEOUT:-120} compute-sanitizer --tool memcheck --error-exitcode 9 $B/test/test_gpu_segmented_offsets '~*both index searches*' >"$OUT/memcheck_test_gpu_segmented_offsets.log" 2>&1
    log "memcheck test_gpu_segmented_offsets (small cases): rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_test_gpu_segmented_offsets.log" | tail -1)"
    timeout ${SAN_TIMEOUT:-120} compute-sanitizer --tool racecheck --error-exitcode 9 $B/test/test_gpu_segmented_offsets '*16 items a thread*' >"$OUT/racecheck_test_gpu_segmented_offsets.log" 2>&1
    log "racecheck test_gpu_segmented_offsets (int32): rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck_test_gpu_segmented_offsets.log" | tail -1)"
  fi
  timeout 150 $B/perf/gpu/sweep_perf_gpu_scan ${SCAN_RANGE:-28 10} >"$OUT/perf_scan.md" 2>&1
  [ -x $B/perf/gpu/sweep_perf_gpu_compaction ] && timeout 180 $B/perf/gpu/sweep_perf_gpu_compaction >"$OUT/perf_compaction.md" 2>&1
  # Compaction's tile geometries of both paths (set COMPACTION_TUNE=1): sweep only, int32, 50 %.
  [ -n "${COMPACTION_TUNE:-}" ] && [ -x $B/perf/gpu/sweep_perf_gpu_compaction ] && timeout 150 $B/perf/gpu/sweep_perf_gpu_compaction 28 24 tuning >"$OUT/perf_compaction_tune.md" 2>&1
  timeout 100 $B/perf/gpu/sweep_perf_gpu_segmented 24,28 int32,int8 >"$OUT/perf_segmented.md" 2>&1
  # The segmented scans' tile geometries (by key and offsets, long and skewed segments included).
  timeout 150 $B/perf/gpu/sweep_perf_gpu_segmented tune 28 >"$OUT/perf_segmented_tune.md" 2>&1
  [ -x $B/perf/gpu/sweep_perf_gpu_radix ] && timeout 200 $B/perf/gpu/sweep_perf_gpu_radix all 24,28 >"$OUT/perf_radix.md" 2>&1
  # The radix sort's session-4 rows (perf/notes-gpu.md R3): default, CUB, v7 and the new
  # variants/shapes per case, each checked against the default (uniform keys; RADIX_R3_LOW=1
  # adds the low-entropy keys).
  [ -x $B/perf/gpu/sweep_perf_gpu_radix ] && timeout 200 $B/perf/gpu/sweep_perf_gpu_radix r3 24,28 >"$OUT/perf_radix_r3.md" 2>&1
  [ -n "${RADIX_R3_LOW:-}" ] && [ -x $B/perf/gpu/sweep_perf_gpu_radix ] && timeout 200 $B/perf/gpu/sweep_perf_gpu_radix r3-low 24,28 >"$OUT/perf_radix_r3_low.md" 2>&1
  # The radix sort's kernel shapes (set RADIX_TUNE=1): sweep only, several shapes per case.
  [ -n "${RADIX_TUNE:-}" ] && [ -x $B/perf/gpu/sweep_perf_gpu_radix ] && timeout 300 $B/perf/gpu/sweep_perf_gpu_radix tune 24,28 >"$OUT/perf_radix_tune.md" 2>&1
  # The same shapes and ranking variants over low-entropy keys (the early-count histogram's
  # shared atomics meet many equal digits there).
  [ -n "${RADIX_TUNE:-}" ] && [ -x $B/perf/gpu/sweep_perf_gpu_radix ] && timeout 300 $B/perf/gpu/sweep_perf_gpu_radix tune-low 24,28 >"$OUT/perf_radix_tune_low.md" 2>&1
  [ -x $B/perf/gpu/sweep_perf_gpu_numerics ] && timeout 120 $B/perf/gpu/sweep_perf_gpu_numerics 24,28 >"$OUT/perf_numerics.md" 2>&1
  [ -x $B/perf/sweep_numerics_error ] && timeout 120 $B/perf/sweep_numerics_error 20 >"$OUT/numerics_error.csv" 2>&1
  # The drop-in rows: the Thrust port (sweep vs thrust on the same program), and the thresholds of
  # sweep::automatic (managed memory here; the host one is in the cpu mode) in one file.
  { timeout 60 $B/examples/ex_port_thrust --bench 26; echo; timeout 100 $B/perf/gpu/sweep_perf_gpu_automatic 26; } >"$OUT/perf_dropin.md" 2>&1
else
  B=/tmp/bc
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DSWEEP_ENABLE_CUDA=OFF >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
  ( time cmake --build $B -j16 --target sweep_perf_cpu sweep_perf_cpu_radix sweep_perf_cpu_radix_phases sweep_perf_cpu_segmented sweep_perf_cpu_automatic sweep_perf_cpu_numerics sweep_perf_cpu_stores test_par_comp_simd test_numerics test_par_radix test_par_radix_stream test_segmented_par test_radix_sort test_segmented_scan ) >"$OUT/build.log" 2>&1
  grep -E "error" -A3 "$OUT/build.log" | head -30
  for t in test_par_comp_simd test_numerics test_par_radix test_par_radix_stream test_segmented_par test_radix_sort test_segmented_scan; do
    timeout 200 $B/test/$t >"$OUT/$t.log" 2>&1
    log "$t: rc=$? $(grep -E 'passed|failed' "$OUT/$t.log" | tail -1)"
  done
  log "cores: $(nproc); load: $(uptime)"
  timeout 150 $B/perf/sweep_perf_cpu_radix >"$OUT/perf_cpu_radix.md" 2>&1
  # Where the par radix sort's time goes (ms per phase: survey, MSD scatter, buckets).
  timeout 90 $B/perf/sweep_perf_cpu_radix_phases --benchmark_filter=sweep_par >"$OUT/perf_cpu_radix_phases.md" 2>&1
  if [ -n "${RADIX_SCALING:-}" ]; then
    for k in 1 4 8; do
      timeout 90 $B/perf/sweep_perf_cpu_radix_phases --threads=$k --benchmark_filter='(u32|u64)_uniform/sweep_par'
    done >"$OUT/perf_cpu_radix_scaling.md" 2>&1
  fi
  timeout 120 $B/perf/sweep_perf_cpu_segmented >"$OUT/perf_cpu_segmented.md" 2>&1
  timeout 120 $B/perf/sweep_perf_cpu >"$OUT/perf_cpu.md" 2>&1
  timeout 120 $B/perf/sweep_perf_cpu_numerics 24,27 >"$OUT/perf_cpu_numerics.md" 2>&1
  # Ordinary against streaming stores for a scan, per thread count (bench_cpu_stores.cpp).
  timeout 120 $B/perf/sweep_perf_cpu_stores 27 1,2,4,8,16 >"$OUT/perf_cpu_stores.md" 2>&1
  timeout 120 $B/perf/sweep_perf_cpu_automatic >"$OUT/perf_cpu_automatic.md" 2>&1
fi
(cd "$OUT" && tar czf logs-$what.tgz --remove-files *.log 2>/dev/null)
