// src/cuda/radix_builtin_impl.cuh -- GPU backend, precompiled radix sorts: the template every
// radix_builtin_*.cu instantiates for its key types (split so that the .cu files build in
// parallel). Values of 4 and 8 bytes are moved as unsigned words: sorting moves bits only.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/dispatch/radix_sort.cuh>
#include <sweep/backend/cuda/radix_precompiled.hpp>

namespace sweep::detail::cuda {

template <class K, class V>
void run_builtin_radix(const builtin_radix_request& r) {
    using tuning = default_radix_tuning<K, V>;
    auto* keys = static_cast<K*>(r.keys);
    auto* values = static_cast<V*>(r.values);
    if (r.descending)
        run_radix_sort<tuning, true>(r.name, keys, values, r.n, r.stream, r.alloc);
    else
        run_radix_sort<tuning, false>(r.name, keys, values, r.n, r.stream, r.alloc);
}

template <class K>
void run_builtin_radix_keys(const builtin_radix_request& r) {
    run_builtin_radix<K, radix_no_values>(r);
}

template <class K>
void run_builtin_radix_pairs(const builtin_radix_request& r) {
    if (r.value_bytes == 4) run_builtin_radix<K, std::uint32_t>(r);
    else run_builtin_radix<K, std::uint64_t>(r);
}

}  // namespace sweep::detail::cuda
