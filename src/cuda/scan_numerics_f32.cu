// src/cuda/scan_numerics_f32.cu -- GPU backend, precompiled kernels: float sums, deterministic,
// compensated and both (scan_numerics_impl.cuh).
#include "scan_numerics_impl.cuh"

namespace sweep::detail::cuda {

void scan_numerics_f32(const builtin_scan_request& r) { run_numerics<float>(r); }

}  // namespace sweep::detail::cuda
