// test/support/generators.hpp -- host tests: random inputs for every element type.
//
// Ranges are chosen so that the sums the scans compute stay exact and defined up to the largest
// test size (sizes.hpp, max_size): no signed overflow, and integer-valued floats whose prefix
// sums stay below 2^24 (float) so that any association order gives the same bits.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "random.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace sweep_test {

/// Uniform random values of T, exact under sums of up to max_size terms (see the file comment).
template <class T>
std::vector<T> random_values(std::int64_t n, std::mt19937_64& g) {
    std::vector<T> v(static_cast<std::size_t>(n));
    if constexpr (std::is_same_v<T, rec24>) {
        std::uniform_int_distribution<std::int32_t> d(-1000000, 1000000);
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int32_t x = d(g);
            v[i] = rec24{static_cast<std::uint64_t>(g()), x, x, static_cast<std::uint32_t>(g()),
                         static_cast<std::uint32_t>(g())};
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        // |prefix| <= n <= 2^23 < 2^24: every partial sum is an exactly representable integer.
        static_assert(max_size <= (std::int64_t{1} << 23));
        std::uniform_int_distribution<int> d(-1, 1);
        for (auto& x : v) x = T(d(g));
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
        // 500 * max_size < 2^31.
        static_assert(std::int64_t{500} * max_size < (std::int64_t{1} << 31));
        std::uniform_int_distribution<std::int32_t> d(-500, 500);
        for (auto& x : v) x = d(g);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        std::uniform_int_distribution<std::int64_t> d(-(std::int64_t{1} << 40),
                                                      std::int64_t{1} << 40);
        for (auto& x : v) x = d(g);
    } else {
        // 8- and 16-bit types promote to int under +, and the conversion back wraps (C++20);
        // unsigned types wrap. The full range is fine.
        for (auto& x : v) x = static_cast<T>(g());
    }
    return v;
}

/// Real-valued (not integer) floats in [-1, 1): par and seq may round differently.
template <class T>
std::vector<T> random_reals(std::int64_t n, std::mt19937_64& g) {
    std::uniform_real_distribution<T> d(T(-1), T(1));
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = d(g);
    return v;
}

/// Values with many distinct elements of every type (reals for floats), for the compaction and
/// sort tests, where sums do not matter.
template <class T>
std::vector<T> random_mixed(std::int64_t n, std::mt19937_64& g) {
    if constexpr (std::is_floating_point_v<T>) return random_reals<T>(n, g);
    else return random_values<T>(n, g);
}

/// A predicate "keeps about `percent` % of the elements", defined on every element type through
/// its bits, so that all types share one selectivity.
template <class T>
struct keep_percent {
    unsigned percent;
    bool operator()(const T& x) const {
        std::uint64_t h = 0;
        if constexpr (std::is_same_v<T, rec24>) h = x.first;
        else if constexpr (std::is_same_v<T, float>) h = std::bit_cast<std::uint32_t>(x);
        else if constexpr (std::is_same_v<T, double>) h = std::bit_cast<std::uint64_t>(x);
        else h = static_cast<std::uint64_t>(x);
        h = (h ^ (h >> 7)) * 0x9E3779B97F4A7C15ull;
        return (h >> 40) % 100 < percent;
    }
};

/// Random affine maps and 2x2 matrices over Z/2^32.
inline std::vector<affine> random_affine(std::int64_t n, std::mt19937_64& g) {
    std::vector<affine> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = {static_cast<std::uint32_t>(g()), static_cast<std::uint32_t>(g())};
    return v;
}
inline std::vector<mat2> random_mat2(std::int64_t n, std::mt19937_64& g) {
    std::vector<mat2> v(static_cast<std::size_t>(n));
    for (auto& x : v)
        for (auto& e : x.m) e = static_cast<std::uint32_t>(g());
    return v;
}

/// k+1 offsets 0 = o[0] <= ... <= o[k] = n, with empty segments (leading, trailing and inner)
/// whenever k is not small against n.
template <class O = std::int64_t>
std::vector<O> random_offsets(std::int64_t n, std::int64_t k, std::mt19937_64& g) {
    std::vector<O> o(static_cast<std::size_t>(k + 1));
    std::uniform_int_distribution<std::int64_t> d(0, n);
    o[0] = 0;
    for (std::int64_t j = 1; j < k; ++j) o[j] = static_cast<O>(d(g));
    o[k] = static_cast<O>(n);
    std::sort(o.begin() + 1, o.end() - 1);
    return o;
}

/// Head flags with about one head per `mean_len` elements; element 0 left unflagged at random
/// (it starts a segment anyway).
inline std::vector<std::uint8_t> random_flags(std::int64_t n, std::int64_t mean_len,
                                              std::mt19937_64& g) {
    std::vector<std::uint8_t> f(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::int64_t> d(0, mean_len - 1);
    for (auto& x : f) x = d(g) == 0 ? static_cast<std::uint8_t>(1 + g() % 255) : 0;
    return f;
}

/// Keys in runs of random length (mean about mean_len), for the by-key scans.
template <class K = std::int32_t>
std::vector<K> random_run_keys(std::int64_t n, std::int64_t mean_len, std::mt19937_64& g) {
    std::vector<K> k(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::int64_t> d(0, mean_len - 1);
    K cur = 0;
    for (auto& x : k) {
        if (d(g) == 0) cur = static_cast<K>(g() % 4);  // may repeat: equal neighbouring runs merge
        x = cur;
    }
    return k;
}

}  // namespace sweep_test
