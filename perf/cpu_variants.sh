#!/usr/bin/env bash
# perf/cpu_variants.sh -- the CPU radix bench's phase clock for the current tree and for tuning
# variants of it (macros only: SWEEP_PERF_RADIX_VARIANTS, perf/CMakeLists.txt), built once with
# SWEEP_ENABLE_CUDA=OFF and run round by round with the order rotated each round (the host's drift
# falls on every variant alike; compare within one call). For variants that are other commits, see
# perf/cpu_ab.sh. Needs .deps (README: the GPU machine) in the tree.
#   VARIANTS="nostream:SWEEP_RADIX_STREAM_KIB=4194304;leaf128:SWEEP_RADIX_LEAF_KIB=128" \
#     ROUNDS="1 2 3" FILTER='memcpy|u32_uniform/sweep_par' OUT=$OUT bash perf/cpu_variants.sh
# The current tree runs as "phases" (sweep_perf_cpu_radix_phases). ARGS: extra bench arguments
# (e.g. --n=16777216 or --threads=8).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/deps; for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
B=${B:-/tmp/b_variants}
VARIANTS=${VARIANTS:-}
names="phases"
targets="sweep_perf_cpu_radix_phases"
IFS=';' read -ra vs <<< "$VARIANTS"
for v in "${vs[@]}"; do
  [ -z "$v" ] && continue
  names="$names ${v%%:*}"
  targets="$targets sweep_perf_cpu_radix_${v%%:*}"
done
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DSWEEP_ENABLE_CUDA=OFF -DSWEEP_BUILD_TESTS=OFF \
  -DSWEEP_BUILD_EXAMPLES=OFF "-DSWEEP_PERF_RADIX_VARIANTS=$VARIANTS" > "$OUT/cfg.log" 2>&1 ||
  { tail -20 "$OUT/cfg.log"; exit 1; }
( time cmake --build $B --target $targets -j16 ) > "$OUT/build.log" 2>&1 ||
  { grep -E "error" -A3 "$OUT/build.log" | head -40; exit 1; }
# FLAG_VARIANTS="native:-march=native;bmi2:-mbmi2": the current tree built with those compiler
# flags (CMAKE_CXX_FLAGS), each in its own build directory, run as NAME.
IFS=';' read -ra fvs <<< "${FLAG_VARIANTS:-}"
for v in "${fvs[@]}"; do
  [ -z "$v" ] && continue
  fn=${v%%:*}
  cmake -S . -B ${B}_$fn -DCMAKE_BUILD_TYPE=Release -DSWEEP_ENABLE_CUDA=OFF -DSWEEP_BUILD_TESTS=OFF \
    -DSWEEP_BUILD_EXAMPLES=OFF "-DCMAKE_CXX_FLAGS=${v#*:}" > "$OUT/cfg_$fn.log" 2>&1 &&
    cmake --build ${B}_$fn --target sweep_perf_cpu_radix_phases -j16 > "$OUT/build_$fn.log" 2>&1 &&
    names="$names $fn" && flagged="${flagged:-} $fn"
done
# ENV_VARIANTS="off:SWEEP_RADIX_AVX512=0;cnt:SWEEP_RADIX_AVX512=1": the current tree's binary run
# with that environment (run-time switches), as NAME.
IFS=';' read -ra evs <<< "${ENV_VARIANTS:-}"
for v in "${evs[@]}"; do
  [ -z "$v" ] && continue
  en=${v%%:*}
  names="$names $en" && enved="${enved:-} $en"
  eval "env_$en=\"\${v#*:}\""
done
echo "built: $names ($(grep real "$OUT/build.log"))"
F=${FILTER:-'memcpy|u32_uniform/sweep_par'}
arr=($names)
for round in ${ROUNDS:-1 2}; do
  k=${#arr[@]}
  for ((j = 0; j < k; ++j)); do
    t=${arr[$(( (j + round) % k ))]}
    exe=$B/perf/sweep_perf_cpu_radix_$t
    case " ${flagged:-} " in *" $t "*) exe=${B}_$t/perf/sweep_perf_cpu_radix_phases ;; esac
    envs="-u SWEEP_RADIX_AVX512"  # the other variants run with the library's defaults
    case " ${enved:-} " in *" $t "*) exe=$B/perf/sweep_perf_cpu_radix_phases; eval "envs=\$env_$t" ;; esac
    echo "== $t round $round"
    env $envs $exe ${ARGS:-} --benchmark_filter="$F" 2>&1 | grep -E "^(u32|u64|float|memcpy)" |
      sed -E 's/ +[0-9]+ ms +[0-9]+ ms +[0-9]+ / /; s/n=[0-9.]+M //'
  done
done
