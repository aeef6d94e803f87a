// src/cuda/radix_builtin_pairs_64.cu -- GPU backend, precompiled radix sorts: 64-bit keys
// (integers, double) with 4- or 8-byte values, both directions.
#include <cstdint>

#include "radix_builtin_impl.cuh"

namespace sweep::detail::cuda {

void radix_sort_builtin_pairs_64(const builtin_radix_request& r) {
    switch (r.key_type) {
        case builtin_type::i64: return run_builtin_radix_pairs<std::int64_t>(r);
        case builtin_type::u64: return run_builtin_radix_pairs<std::uint64_t>(r);
        case builtin_type::f64: return run_builtin_radix_pairs<double>(r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
