#!/usr/bin/env bash
# perf/device_call_c12.sh [part] -- the device call that answers perf/notes-gpu.md C12 (written in
# session 29, which had no device): the flag wait (compaction_wait::flag) and the segmented tiles,
# for the copy_if bar at 2^24. Run from the repo root on the device machine, .deps carried:
#   export OUT=$OUT; bash perf/device_call_c12.sh          # everything (~6 min)
#   bash perf/device_call_c12.sh tests                     # build, tests, memcheck (~4 min)
#   bash perf/device_call_c12.sh runs                      # the trace rows and the bench (~3 min)
# Logs: $OUT/summary.md and one file per stage (perf/device_stage.sh).
set -u
part=${1:-all}
export RUN_TIMEOUT=${RUN_TIMEOUT:-150}
export STAGE_CMAKE_ARGS=${STAGE_CMAKE_ARGS:-"-DSWEEP_PRECOMPILED_KERNELS=OFF -DSWEEP_PRECOMPILED_RADIX=OFF"}
T=perf/gpu/sweep_perf_gpu_trace_compaction
build=build:sweep_perf_gpu_trace_compaction,sweep_perf_gpu_compaction,test_gpu_compaction_paths,test_gpu_lookback_stress
tests=("tests:compaction_paths|lookback_stress" memcheck:test_gpu_compaction_paths)
runs=(
  "run:flag:$T 24 50 x tmah+sync,tmah+flag,tmaht+flag,tmaht+flagsync,direct,directflag,cub 28 whole"
  "run:flag20:$T 20 50 x tmah+sync,tmaht+flag,direct,directflag,cub 20 whole"
  "run:seg50:$T 24 50 x tmah,seg0_1056,seg0_528,seg0_264,seg528_528,seg1056_0,seg264_264,cub 28 whole"
  "run:seg90:$T 24 90 x tmah,seg0_1056,seg0_528,seg0_264,seg528_528,seg1056_0,seg264_264,cub 28 whole"
  "run:seg10:$T 24 10 x tmah,seg0_1056,seg0_528,seg528_528,seg1056_0,cub 28 whole"
  "run:bench:env SWEEP_BENCH_SECOND=flag perf/gpu/sweep_perf_gpu_compaction 28 24 copy_if"
)
case $part in
  all) bash perf/device_stage.sh "$build" "${tests[@]}" "${runs[@]}" ;;
  tests) bash perf/device_stage.sh "$build" "${tests[@]}" ;;
  runs) bash perf/device_stage.sh "$build" "${runs[@]}" ;;
  *) echo "usage: perf/device_call_c12.sh [all|tests|runs]" >&2; exit 2 ;;
esac
