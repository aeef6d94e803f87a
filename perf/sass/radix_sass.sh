#!/usr/bin/env bash
# perf/sass/radix_sass.sh [OUTDIR] -- the static measurement of perf/notes-gpu.md R3: compiles CUB's
# Onesweep pass (cub::DeviceRadixSort::SortKeys/SortPairs on u32, 64-bit num_items as the bench
# calls it) and sweep's pass kernels at the shapes/variants of R3 for sm_90, prints ptxas's
# registers/spills and, per kernel, the phase table of radix_phases.py. Needs nvcc and cuobjdump
# (CUDA toolkit; on a machine without it: pip install nvidia-cuda-cuobjdump, which ships
# nvidia/cu13/bin/cuobjdump). No GPU needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
nvcc_flags=(-std=c++20 -arch=sm_90 -cubin -O3 --expt-relaxed-constexpr -I"$root/include")
cat >"$out/cub.cu" <<'CU'
#include <cub/device/device_radix_sort.cuh>
#include <cstdint>
void keys(void* t, size_t& b, cub::DoubleBuffer<std::uint32_t>& k, long long n, cudaStream_t s) {
  cub::DeviceRadixSort::SortKeys(t, b, k, n, 0, 32, s);
}
void pairs(void* t, size_t& b, cub::DoubleBuffer<std::uint32_t>& k,
           cub::DoubleBuffer<std::uint32_t>& v, long long n, cudaStream_t s) {
  cub::DeviceRadixSort::SortPairs(t, b, k, v, n, 0, 32, s);
}
CU
cat >"$out/ours.cu" <<'CU'
#include <sweep/backend/cuda/kernels/radix_kernels.cuh>
#include <cstdint>
namespace cu = sweep::detail::cuda;
#define INST(T, I, M, V) template __global__ void cu::radix_onesweep_kernel<cu::radix_tuning<8, T, I, M, 256, 16, V>, false, std::uint32_t, cu::radix_no_values>(cu::radix_pass_params<std::uint32_t, cu::radix_no_values>, int);
INST(384, 16, 2, 7)
INST(384, 16, 2, 31)
INST(384, 16, 3, 31)
INST(256, 16, 4, 31)
CU
cuobjdump=$(command -v cuobjdump || true)
[ -z "$cuobjdump" ] && cuobjdump=$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13/bin/cuobjdump"))' 2>/dev/null || true)
for f in cub ours; do
  nvcc "${nvcc_flags[@]}" -Xptxas=-v -o "$out/$f.cubin" "$out/$f.cu" 2>&1 |
    grep -E "Compiling entry.*(Onesweep|onesweep)|Used|spill" | sed 's/ptxas info *: //' >"$out/$f.ptxas"
  "$cuobjdump" -sass "$out/$f.cubin" >"$out/$f.sass"
  awk -v dir="$out" -v f="$f" '/Function :/{n++; name=$3} {print > (dir "/" f "_fn" n ".sass")}' "$out/$f.sass"
done
for s in "$out"/cub_fn*.sass "$out"/ours_fn*.sass; do
  name=$(grep -m1 "Function :" "$s" | awk '{print $3}' || true)
  case $name in *nesweep*) ;; *) continue ;; esac
  echo "== $name"
  grep -A2 "Compiling entry.*$name" "$out"/*.ptxas | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ' || true
  echo
  python3 "$root/perf/sass/radix_phases.py" "$s"
done
echo "(files in $out)"
