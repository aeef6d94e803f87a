// src/cuda/segmented_builtin_8.cu -- GPU backend, precompiled kernels: segmented scans over
// 8-bit values (plus, minimum, maximum; every precompiled segment form at run time).
#include <cstdint>

#include "segmented_builtin_impl.cuh"

namespace sweep::detail::cuda {

void segmented_builtin_8(builtin_type type, builtin_op op, const builtin_segmented_request& r) {
    switch (type) {
        case builtin_type::i8: return run_segmented_builtin_ops<std::int8_t>(op, r);
        case builtin_type::u8: return run_segmented_builtin_ops<std::uint8_t>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
