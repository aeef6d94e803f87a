// src/cuda/segmented_builtin_64.cu -- GPU backend, precompiled kernels: segmented scans over
// 64-bit values (plus, minimum, maximum; every precompiled segment form at run time).
#include <cstdint>

#include "segmented_builtin_impl.cuh"

namespace sweep::detail::cuda {

void segmented_builtin_64(builtin_type type, builtin_op op, const builtin_segmented_request& r) {
    switch (type) {
        case builtin_type::i64: return run_segmented_builtin_ops<std::int64_t>(op, r);
        case builtin_type::u64: return run_segmented_builtin_ops<std::uint64_t>(op, r);
        case builtin_type::f64: return run_segmented_builtin_ops<double>(op, r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
