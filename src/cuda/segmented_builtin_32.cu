// src/cuda/segmented_builtin_32.cu -- GPU backend, precompiled kernels: segmented scans over
// 32-bit values (plus, minimum, maximum; every precompiled segment form at run time).
#include <cstdint>

#include "segmented_builtin_impl.cuh"

namespace sweep::detail::cuda {

void segmented_builtin_32(builtin_type type, builtin_op op, const builtin_segmented_request& r) {
    switch (type) {
        case builtin_type::i32: return run_segmented_builtin_ops<std::int32_t>(op, r);
        case builtin_type::u32: return run_segmented_builtin_ops<std::uint32_t>(op, r);
        case builtin_type::f32: return run_segmented_builtin_ops<float>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
