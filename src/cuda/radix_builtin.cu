// src/cuda/radix_builtin.cu -- GPU backend, precompiled radix sorts: the entry host-compiled
// callers reach (radix_precompiled.hpp), routed by key size and by keys-only or pairs to the
// translation units that hold the kernels.
#include <sweep/backend/cuda/radix_precompiled.hpp>

namespace sweep::detail::cuda {

void radix_sort_builtin_keys_8_16(const builtin_radix_request& r);
void radix_sort_builtin_keys_32_64(const builtin_radix_request& r);

void radix_sort_builtin(const builtin_radix_request& r) {
    const bool small = r.key_type == builtin_type::i8 || r.key_type == builtin_type::u8 ||
                       r.key_type == builtin_type::i16 || r.key_type == builtin_type::u16;
    const bool wide = r.key_type == builtin_type::i64 || r.key_type == builtin_type::u64 ||
                      r.key_type == builtin_type::f64;
    if (r.value_bytes == 0 || r.values == nullptr) {
        if (small) radix_sort_builtin_keys_8_16(r);
        else radix_sort_builtin_keys_32_64(r);
    } else if (small) {
        radix_sort_builtin_pairs_8_16(r);
    } else if (wide) {
        radix_sort_builtin_pairs_64(r);
    } else {
        radix_sort_builtin_pairs_32(r);
    }
}

}  // namespace sweep::detail::cuda
