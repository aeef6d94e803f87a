// test/gpu/support/radix_matrix.hpp -- the GPU radix sort tests' shared part: key generators
// (uniform bits, edge values, few distinct, all equal, sorted, reversed), the sizes at the tile
// edges of the tuning in use, and the check against the seq oracle (bitwise: NaN payloads and
// the sign of zero included) with a failure message that names the case.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <sweep/radix_sort.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

namespace sweep_gpu_test {

/// SWEEP_TEST_MAX_N caps the sizes (for runs under compute-sanitizer); unset, nothing is capped.
inline std::int64_t radix_max_n() {
    static const std::int64_t m = [] {
        const char* e = std::getenv("SWEEP_TEST_MAX_N");
        return e != nullptr ? std::atoll(e) : std::int64_t{1} << 62;
    }();
    return m;
}

template <class K, class V = sweep::detail::cuda::radix_no_values>
std::int64_t radix_tile_of() {
    return sweep::detail::cuda::default_radix_tuning<K, V>::tile_items;
}

/// Around one tile (the single-block sort up to it, Onesweep past it), two tiles, many tiles,
/// a few million.
template <class K, class V = sweep::detail::cuda::radix_no_values>
std::vector<std::int64_t> radix_sizes() {
    const std::int64_t t = radix_tile_of<K, V>();
    std::vector<std::int64_t> s;
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2},
                                 std::int64_t{31}, std::int64_t{1000}, t - 1, t, t + 1, 2 * t - 1,
                                 2 * t, 2 * t + 1, 37 * t + 11, std::int64_t{3'000'017}})
        if (n <= radix_max_n()) s.push_back(n);
    return s;
}

template <class K>
const char* key_name() {
    if constexpr (std::is_same_v<K, float>) return "float";
    else if constexpr (std::is_same_v<K, double>) return "double";
    else if constexpr (std::is_same_v<K, std::int8_t>) return "i8";
    else if constexpr (std::is_same_v<K, std::uint8_t>) return "u8";
    else if constexpr (std::is_same_v<K, std::int16_t>) return "i16";
    else if constexpr (std::is_same_v<K, std::uint16_t>) return "u16";
    else if constexpr (std::is_same_v<K, std::int32_t>) return "i32";
    else if constexpr (std::is_same_v<K, std::uint32_t>) return "u32";
    else if constexpr (std::is_same_v<K, std::int64_t>) return "i64";
    else if constexpr (std::is_same_v<K, std::uint64_t>) return "u64";
    else return "other";
}

enum class pattern { uniform, edges, few, all_equal, sorted, reversed, low_entropy };

inline const char* pattern_name(pattern p) {
    switch (p) {
        case pattern::uniform: return "uniform bits";
        case pattern::edges: return "edge values";
        case pattern::few: return "few distinct";
        case pattern::all_equal: return "all equal";
        case pattern::sorted: return "sorted";
        case pattern::reversed: return "reversed";
        case pattern::low_entropy: return "low entropy (and of 3 words)";
    }
    return "?";
}

template <class K>
K key_from_bits(std::uint64_t b) {
    using U = sweep::detail::ordered_bits_t<K>;
    return std::bit_cast<K>(static_cast<U>(b));
}

/// The edge values of K: min, max, 0, +-1; floats: NaNs of both signs (quiet, signalling, other
/// payloads), infinities, zeros of both signs, denormals, the smallest and largest normals.
template <class K>
std::vector<K> edge_values() {
    using L = std::numeric_limits<K>;
    std::vector<K> v{L::min(), L::max(), K(0), K(1), L::lowest()};
    if constexpr (std::is_signed_v<K>) v.push_back(K(-1));
    if constexpr (std::is_floating_point_v<K>) {
        using U = sweep::detail::ordered_bits_t<K>;
        constexpr U sign = U(U(1) << (8 * sizeof(K) - 1));
        const U qnan = std::bit_cast<U>(L::quiet_NaN());
        const U snan = std::bit_cast<U>(L::signaling_NaN());
        for (U b : {qnan, snan, U(qnan | 1), U(~U(0) >> 1) /* largest payload */}) {
            v.push_back(std::bit_cast<K>(b));
            v.push_back(std::bit_cast<K>(U(b | sign)));
        }
        for (K x : {L::infinity(), K(0), L::denorm_min(), K(L::denorm_min() * 3), L::min(),
                    K(L::min() - L::denorm_min()), L::max(), K(0.5), K(1.5)}) {
            v.push_back(x);
            v.push_back(-x);
        }
    }
    return v;
}

template <class K>
std::vector<K> make_keys(pattern p, std::int64_t n, std::mt19937_64& g) {
    std::vector<K> h(static_cast<std::size_t>(n));
    switch (p) {
        case pattern::uniform:
            for (auto& x : h) x = key_from_bits<K>(g());
            break;
        case pattern::low_entropy:
            for (auto& x : h) x = key_from_bits<K>(g() & g() & g());
            break;
        case pattern::edges: {
            const auto e = edge_values<K>();
            std::uniform_int_distribution<std::size_t> pick(0, e.size() - 1);
            // Mostly edge values, some uniform keys between them.
            for (auto& x : h) x = (g() % 4 != 0) ? e[pick(g)] : key_from_bits<K>(g());
            break;
        }
        case pattern::few: {
            std::vector<K> e(5);
            for (auto& x : e) x = key_from_bits<K>(g());
            for (auto& x : h) x = e[g() % e.size()];
            break;
        }
        case pattern::all_equal: {
            const K k = key_from_bits<K>(g());
            for (auto& x : h) x = k;
            break;
        }
        case pattern::sorted:
        case pattern::reversed: {
            for (auto& x : h) x = key_from_bits<K>(g());
            std::vector<K> tmp = h;
            sweep::radix_sort(sweep::seq, tmp.begin(), tmp.end());
            if (p == pattern::reversed) std::reverse(tmp.begin(), tmp.end());
            h = tmp;
            break;
        }
    }
    return h;
}

/// Values that record where each key came from: stability shows in them.
template <class V>
std::vector<V> index_values(std::int64_t n, std::mt19937_64& g) {
    std::vector<V> h(static_cast<std::size_t>(n));
    if constexpr (std::is_integral_v<V>) {
        for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<V>(i);
    } else {
        for (std::int64_t i = 0; i < n; ++i) h[i] = V::from_index(i, g);
    }
    return h;
}

/// Bitwise equality; on a mismatch, where and what.
template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) return "sizes differ";
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            std::ostringstream o;
            o << "first difference at index " << i << " of " << got.size();
            if constexpr (std::is_arithmetic_v<T>) {
                o << ": got " << +got[i] << ", want " << +want[i];
            }
            return o.str();
        }
    }
    return {};
}

/// Sorts keys (and values, when V is not radix_no_values) on the GPU with `policy` and checks
/// the result bitwise against sweep::seq, whose order is checked too (its stability against
/// std::stable_sort: test/radix_sort.cpp).
template <bool Descending, class K, class V = sweep::detail::cuda::radix_no_values, class P>
void check_radix(const P& policy, const std::vector<K>& keys, const std::vector<V>& values,
                 const std::string& what) {
    constexpr bool with_values = !std::is_same_v<V, sweep::detail::cuda::radix_no_values>;
    const std::int64_t n = static_cast<std::int64_t>(keys.size());
    INFO(what << ", key " << key_name<K>() << (Descending ? ", descending" : ", ascending")
              << (with_values ? ", with values" : ", keys only") << ", n " << n << ", seed "
              << sweep_test::seed());
    std::vector<K> want_k = keys;
    std::vector<V> want_v = values;
    if constexpr (with_values) {
        if constexpr (Descending)
            sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin(),
                                     sweep::descending);
        else
            sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin());
    } else {
        if constexpr (Descending)
            sweep::radix_sort(sweep::seq, want_k.begin(), want_k.end(), sweep::descending);
        else
            sweep::radix_sort(sweep::seq, want_k.begin(), want_k.end());
    }
    // The oracle's order itself (its stability against std::stable_sort: test/radix_sort.cpp).
    for (std::int64_t i = 1; i < n; ++i) {
        const auto a = sweep::detail::to_ordered(want_k[i - 1]);
        const auto b = sweep::detail::to_ordered(want_k[i]);
        if (Descending ? a < b : b < a) FAIL("seq oracle out of order at " << i);
    }

    device_vector<K> dk(keys);
    if constexpr (with_values) {
        device_vector<V> dv(values);
        if constexpr (Descending)
            sweep::radix_sort_by_key(policy, dk.begin(), dk.end(), dv.begin(), sweep::descending);
        else
            sweep::radix_sort_by_key(policy, dk.begin(), dk.end(), dv.begin());
        cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the sort");
        const std::string dkeys = first_difference(dk.download(), want_k);
        INFO("keys: " << (dkeys.empty() ? "equal" : dkeys));
        const std::string dvals = first_difference(dv.download(), want_v);
        INFO("values: " << (dvals.empty() ? "equal" : dvals));
        CHECK(dkeys.empty());
        CHECK(dvals.empty());
    } else {
        if constexpr (Descending)
            sweep::radix_sort(policy, dk.begin(), dk.end(), sweep::descending);
        else
            sweep::radix_sort(policy, dk.begin(), dk.end());
        cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the sort");
        const std::string dkeys = first_difference(dk.download(), want_k);
        INFO("keys: " << (dkeys.empty() ? "equal" : dkeys));
        CHECK(dkeys.empty());
    }
}

inline const pattern all_patterns[] = {pattern::uniform,   pattern::edges,  pattern::few,
                                       pattern::all_equal, pattern::sorted, pattern::reversed,
                                       pattern::low_entropy};

/// Every pattern at every size, both directions; keys only, or with index values of type V.
template <class K, class V = sweep::detail::cuda::radix_no_values>
void radix_matrix(std::uint64_t salt) {
    constexpr bool with_values = !std::is_same_v<V, sweep::detail::cuda::radix_no_values>;
    auto g = sweep_test::rng(salt);
    for (const std::int64_t n : radix_sizes<K, V>()) {
        for (const pattern p : all_patterns) {
            if (n > 100'000 && p != pattern::uniform && p != pattern::edges && p != pattern::few)
                continue;  // the big sizes: the patterns that exercise the most digits
            const std::vector<K> keys = make_keys<K>(p, n, g);
            std::vector<V> values;
            if constexpr (with_values) values = index_values<V>(n, g);
            check_radix<false, K, V>(sweep::gpu, keys, values, pattern_name(p));
            check_radix<true, K, V>(sweep::gpu, keys, values, pattern_name(p));
        }
    }
}

}  // namespace sweep_gpu_test
