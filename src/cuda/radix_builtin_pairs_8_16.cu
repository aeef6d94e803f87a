// src/cuda/radix_builtin_pairs_8_16.cu -- GPU backend, precompiled radix sorts: 8- and 16-bit
// keys with 4- or 8-byte values, both directions.
#include <cstdint>

#include "radix_builtin_impl.cuh"

namespace sweep::detail::cuda {

void radix_sort_builtin_pairs_8_16(const builtin_radix_request& r) {
    switch (r.key_type) {
        case builtin_type::i8: return run_builtin_radix_pairs<std::int8_t>(r);
        case builtin_type::u8: return run_builtin_radix_pairs<std::uint8_t>(r);
        case builtin_type::i16: return run_builtin_radix_pairs<std::int16_t>(r);
        case builtin_type::u16: return run_builtin_radix_pairs<std::uint16_t>(r);
        default: return;
    }
}

}  // namespace sweep::detail::cuda
