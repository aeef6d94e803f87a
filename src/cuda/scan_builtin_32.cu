// src/cuda/scan_builtin_32.cu -- GPU backend, precompiled kernels: 32-bit integers and float.
#include <cstdint>

#include "scan_builtin_impl.cuh"

namespace sweep::detail::cuda {

void scan_builtin_32(builtin_type type, builtin_op op, const builtin_scan_request& r) {
    switch (type) {
        case builtin_type::i32: return run_builtin_ops<std::int32_t>(op, r);
        case builtin_type::u32: return run_builtin_ops<std::uint32_t>(op, r);
        case builtin_type::f32: return run_builtin_ops<float>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
