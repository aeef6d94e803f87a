// sweep/backend/seq/radix_sort.hpp -- seq backend: the reference radix sort (the oracle).
//
// Obviously right rather than fast: a stable sort of (ordered key bits, original index) by the
// bits alone, then a gather of keys and values through the sorted indices. Temporaries are all
// allocated before the caller's ranges are touched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/radix_traits.hpp>

namespace sweep::detail {

template <bool Descending, class P, class KeyIt, class ValIt>
void radix_sort(seq_tag, const P&, KeyIt keys, std::int64_t n, ValIt values) {
    using K = value_t<KeyIt>;
    using U = ordered_bits_t<K>;
    constexpr bool with_values = !std::is_same_v<ValIt, no_values>;
    if (n < 2) return;

    std::vector<std::pair<U, std::int64_t>> order(static_cast<std::size_t>(n));
    std::vector<K> key_copy(static_cast<std::size_t>(n));
    using V = typename std::conditional_t<with_values, std::iterator_traits<ValIt>,
                                          std::iterator_traits<const char*>>::value_type;
    std::vector<V> value_copy(with_values ? static_cast<std::size_t>(n) : 0);

    for (std::int64_t i = 0; i < n; ++i) {
        key_copy[i] = keys[i];
        order[i] = {to_ordered(key_copy[i]), i};
        if constexpr (with_values) value_copy[i] = values[i];
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if constexpr (Descending) return b.first < a.first;
        else return a.first < b.first;
    });
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t from = order[i].second;
        keys[i] = key_copy[from];
        if constexpr (with_values) values[i] = value_copy[from];
    }
}

}  // namespace sweep::detail
