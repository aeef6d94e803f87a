#!/usr/bin/env bash
# perf/gpu_ab.sh -- A/B of a GPU bench between source trees, on the GPU machine: each tree
# archived as .ab/<name>.tar (git archive -o .ab/<name>.tar <commit>; carry .ab and .deps), built
# side by side, then run in alternating rounds with the order rotated each round, so that drift
# of the machine falls on both alike (compare within one call). Session 17.
#   NAMES="old new" ROUNDS=3 TARGET=sweep_perf_gpu_radix RUNS="u32 24,28;float 24,28" \
#     OUT=$OUT bash perf/gpu_ab.sh
# TARGET may name several targets (all built; RUNS run the first); AB_CMAKE_ARGS adds configure
# arguments (e.g. -DSWEEP_BUILD_TUNING=ON).
# Output: $OUT/ab.md, the table rows of every run, under "== round R NAME".
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps
for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
names=(${NAMES:-old new})
target=${TARGET:-sweep_perf_gpu_radix}
for t in "${names[@]}"; do
  rm -rf /tmp/src_$t && mkdir -p /tmp/src_$t && tar -xf .ab/$t.tar -C /tmp/src_$t
  ( cmake -S /tmp/src_$t -B /tmp/b_$t -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DSWEEP_PRECOMPILED_KERNELS=OFF -DSWEEP_BUILD_TESTS=OFF -DSWEEP_BUILD_EXAMPLES=OFF \
      ${AB_CMAKE_ARGS:-} >"$OUT/cfg_$t.log" 2>&1 &&
    cmake --build /tmp/b_$t -j8 --target $target >"$OUT/build_$t.log" 2>&1
    echo "build $t rc=$?" ) &
done
wait
IFS=';' read -r -a runs <<<"${RUNS:-u32 24,28}"
n=${#names[@]}
for ((r = 0; r < ${ROUNDS:-3}; ++r)); do
  for ((i = 0; i < n; ++i)); do
    t=${names[$(((i + r) % n))]}
    echo "== round $((r + 1)) $t" >>"$OUT/ab.md"
    for a in "${runs[@]}"; do
      bin=$(find /tmp/b_$t -name "${target%% *}" -type f -perm -u+x | head -1)
      $bin $a | grep '^| [a-z0-9]' | grep -v '^| case' >>"$OUT/ab.md"
    done
  done
done
