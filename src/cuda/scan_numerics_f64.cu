// src/cuda/scan_numerics_f64.cu -- GPU backend, precompiled kernels: double sums, deterministic,
// compensated and both (scan_numerics_impl.cuh).
#include "scan_numerics_impl.cuh"

namespace sweep::detail::cuda {

void scan_numerics_f64(const builtin_scan_request& r) { run_numerics<double>(r); }

}  // namespace sweep::detail::cuda
