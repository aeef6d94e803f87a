#!/usr/bin/env bash
# scripts/run_cpu_perf.sh -- build the CPU benchmark (perf/cpu) in a build directory, run it, and
# turn its JSON into a markdown table (+ PNG plot when matplotlib is present).
#
#   scripts/run_cpu_perf.sh BUILD_DIR [OUT_DIR] [benchmark args...]
#     BUILD_DIR  configured here if it has no CMakeCache.txt (Release; CUDA off, since only the
#                CPU target is built)
#     OUT_DIR    default docs/perf; gets cpu_perf.json, cpu_perf.md, cpu_perf.png
#     args       passed to sweep_perf_cpu, e.g. --n=16777216 --threads=8 --benchmark_min_time=1
# Run it on an otherwise idle machine: the table is only as good as the machine's quiet.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: run_cpu_perf.sh BUILD_DIR [OUT_DIR] [benchmark args...]}"
out="${2:-$root/docs/perf}"
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSWEEP_ENABLE_CUDA=OFF \
        -DSWEEP_BUILD_TESTS=OFF -DSWEEP_BUILD_EXAMPLES=OFF -DSWEEP_BUILD_PERF=ON
fi
cmake --build "$build" --target sweep_perf_cpu -j"$(nproc)"
bin="$(find "$build" -name sweep_perf_cpu -type f -perm -u+x | head -n1)"
echo "load: $(uptime)"
"$bin" --benchmark_out="$out/cpu_perf.json" --benchmark_out_format=json "$@"
python3 "$root/scripts/perf_table.py" "$out/cpu_perf.json" --out "$out/cpu_perf"
