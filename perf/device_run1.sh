set -u
mkdir -p /tmp/deps $OUT; for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=/tmp/bg
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEP_BUILD_TUNING=ON > $OUT/configure.log 2>&1 || { tail -20 $OUT/configure.log; exit 1; }
( time cmake --build $B -j16 --target sweep_perf_gpu_tuning sweep_perf_gpu_compaction test_gpu_compaction test_gpu_compaction_types_int test_gpu_compaction_types_other test_gpu_compaction_large test_gpu_compaction_host_compiled ) > $OUT/build.log 2>&1
grep -E "error" -A3 $OUT/build.log | head -20; grep real $OUT/build.log
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv,noheader
for lg in 24 22 26; do timeout 60 $B/perf/gpu/sweep_perf_gpu_tuning $lg 0 geo > $OUT/geo_$lg.md 2>&1; echo "geo $lg rc=$?"; done
for t in $B/test/test_gpu_compaction*; do n=$(basename $t); timeout 200 $t > $OUT/$n.log 2>&1; rc=$?; echo "$n rc=$rc $(grep -E 'passed|failed' $OUT/$n.log | tail -1)"; done
timeout 150 $B/perf/gpu/sweep_perf_gpu_compaction > $OUT/perf_compaction.md 2>&1; echo "compaction perf rc=$?"
SWEEP_TEST_MAX_N=70000 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test/test_gpu_compaction > $OUT/rc_compaction.log 2>&1; echo "racecheck rc=$? $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/rc_compaction.log | tail -1)"
