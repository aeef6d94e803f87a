// src/cuda/segmented_builtin.cu -- GPU backend, precompiled kernels: the segmented-scan entry point
// host-compiled callers link against; routes by value size to the file holding the kernels.
#include "segmented_builtin_impl.cuh"

namespace sweep::detail::cuda {

void segmented_scan_builtin(builtin_type type, builtin_op op, const builtin_segmented_request& r) {
    switch (type) {
        case builtin_type::i8:
        case builtin_type::u8: return segmented_builtin_8(type, op, r);
        case builtin_type::i16:
        case builtin_type::u16: return segmented_builtin_16(type, op, r);
        case builtin_type::i32:
        case builtin_type::u32:
        case builtin_type::f32: return segmented_builtin_32(type, op, r);
        case builtin_type::i64:
        case builtin_type::u64:
        case builtin_type::f64: return segmented_builtin_64(type, op, r);
    }
}

}  // namespace sweep::detail::cuda
