// src/cuda/radix_builtin_pairs_32.cu -- GPU backend, precompiled radix sorts: 32-bit keys
// (integers, float) with 4- or 8-byte values, both directions.
#include <cstdint>

#include "radix_builtin_impl.cuh"

namespace sweep::detail::cuda {

void radix_sort_builtin_pairs_32(const builtin_radix_request& r) {
    switch (r.key_type) {
        case builtin_type::i32: return run_builtin_radix_pairs<std::int32_t>(r);
        case builtin_type::u32: return run_builtin_radix_pairs<std::uint32_t>(r);
        case builtin_type::f32: return run_builtin_radix_pairs<float>(r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
