// src/cuda/scan_builtin_64.cu -- GPU backend, precompiled kernels: 64-bit integers and double.
#include <cstdint>

#include "scan_builtin_impl.cuh"

namespace sweep::detail::cuda {

void scan_builtin_64(builtin_type type, builtin_op op, const builtin_scan_request& r) {
    switch (type) {
        case builtin_type::i64: return run_builtin_ops<std::int64_t>(op, r);
        case builtin_type::u64: return run_builtin_ops<std::uint64_t>(op, r);
        case builtin_type::f64: return run_builtin_ops<double>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
