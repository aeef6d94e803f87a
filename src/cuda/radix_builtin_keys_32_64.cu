// src/cuda/radix_builtin_keys_32_64.cu -- GPU backend, precompiled radix sorts: 32- and 64-bit
// keys (integers, float, double), keys only, both directions.
#include <cstdint>

#include "radix_builtin_impl.cuh"

namespace sweep::detail::cuda {

void radix_sort_builtin_keys_32_64(const builtin_radix_request& r) {
    switch (r.key_type) {
        case builtin_type::i32: return run_builtin_radix_keys<std::int32_t>(r);
        case builtin_type::u32: return run_builtin_radix_keys<std::uint32_t>(r);
        case builtin_type::f32: return run_builtin_radix_keys<float>(r);
        case builtin_type::i64: return run_builtin_radix_keys<std::int64_t>(r);
        case builtin_type::u64: return run_builtin_radix_keys<std::uint64_t>(r);
        case builtin_type::f64: return run_builtin_radix_keys<double>(r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
