// src/cuda/scan_builtin_8_16.cu -- GPU backend, precompiled kernels: 8- and 16-bit integers.
#include <cstdint>

#include "scan_builtin_impl.cuh"

namespace sweep::detail::cuda {

void scan_builtin_8_16(builtin_type type, builtin_op op, const builtin_scan_request& r) {
    switch (type) {
        case builtin_type::i8: return run_builtin_ops<std::int8_t>(op, r);
        case builtin_type::u8: return run_builtin_ops<std::uint8_t>(op, r);
        case builtin_type::i16: return run_builtin_ops<std::int16_t>(op, r);
        case builtin_type::u16: return run_builtin_ops<std::uint16_t>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
