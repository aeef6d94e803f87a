#!/usr/bin/env bash
# perf/cpu_ab.sh -- A/B(/C...) of the CPU radix bench on the GPU machine's host (or any host):
# each variant is a tree archived as .ab/<name>.tar (`git archive <commit> > .ab/<name>.tar`),
# built side by side with SWEEP_ENABLE_CUDA=OFF (sweep_perf_cpu_radix only), then run round by
# round with the order rotated each round, so that the host's drift between rounds falls on every
# variant alike. Compare within one call only. Needs .deps (README: the GPU machine) in the tree.
#   NAMES="base new" ROUNDS="1 2 3 4 5 6" FILTER='memcpy|(u32_uniform|u64_uniform)/sweep_par' \
#     OUT=$OUT bash perf/cpu_ab.sh
# Session 16's runs: perf/results/cpu-session16-radix-host-2026-11-27.md.
set -u
OUT=${OUT:-/tmp/out}
NAMES=${NAMES:-base new}
mkdir -p "$OUT" /tmp/deps; for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
for t in $NAMES; do
  rm -rf /tmp/src_$t && mkdir -p /tmp/src_$t && tar -xf .ab/$t.tar -C /tmp/src_$t
  cmake -S /tmp/src_$t -B /tmp/b_$t -DCMAKE_BUILD_TYPE=Release -DSWEEP_ENABLE_CUDA=OFF \
    -DSWEEP_BUILD_TESTS=OFF -DSWEEP_BUILD_EXAMPLES=OFF > "$OUT/cfg_$t.log" 2>&1 || tail -5 "$OUT/cfg_$t.log"
  (cmake --build /tmp/b_$t --target sweep_perf_cpu_radix -j4 > "$OUT/build_$t.log" 2>&1; echo "built $t rc $?") &
done
wait
F=${FILTER:-'memcpy|(u32_uniform|u64_uniform|float_uniform|u32_u32_pairs_uniform)/sweep_par'}
arr=($NAMES)
for round in ${ROUNDS:-1 2}; do
  k=${#arr[@]}
  order=""
  for ((j = 0; j < k; ++j)); do order="$order ${arr[$(( (j + round) % k ))]}"; done
  for t in $order; do
    echo "== $t round $round"
    /tmp/b_$t/perf/sweep_perf_cpu_radix --benchmark_filter="$F" 2>&1 | grep -E "^(u32|u64|float|memcpy|sweep)" | grep -v manual_time
  done
done
