// test/support/numerics_cases.hpp -- what the numerics tests (host and GPU) share: the operators
// and inputs of the bitwise-equality tests, and the canonical tile edges.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <sweep/detail/canonical.hpp>
#include <sweep/detail/compensated.hpp>
#include <sweep/detail/config.hpp>

#include "size_cap.hpp"

namespace sweep_test {

/// Affine maps x -> m x + k over float, composed "first the left, then the right": associative in
/// exact arithmetic, not commutative, and rounding-dependent in float.
struct affinef {
    float m, k;
};
struct affinef_then {
    SWEEP_HD affinef operator()(const affinef& f, const affinef& g) const {
        return affinef{g.m * f.m, g.m * f.k + g.k};
    }
};

/// The transform of the transform-scan tests: a product and a sum (so FMA contraction, were it
/// allowed, would change its bits).
struct scale_shift {
    SWEEP_HD float operator()(float x) const { return x * 0.75f + 0.125f; }
    SWEEP_HD double operator()(double x) const { return x * 0.75 + 0.125; }
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Index of the first element whose bits differ (-1: none).
template <class T>
std::int64_t first_difference(const std::vector<T>& a, const std::vector<T>& b) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<std::int64_t>(i);
    return a.size() == b.size() ? -1 : static_cast<std::int64_t>(std::min(a.size(), b.size()));
}

/// Sizes around the canonical tiles of accumulator Acc: 0, 1, a tile +-1, the single-block limit
/// of the GPU (4 tiles) +-1, a group of 32 tiles +-1 (the chain between tiles), and ragged
/// many-tile sizes; then `extra`.
template <class Acc>
std::vector<std::int64_t> canonical_edges(std::vector<std::int64_t> extra = {}) {
    const std::int64_t t = sweep::detail::canonical::geometry<Acc>::tile_items;
    std::vector<std::int64_t> s{0,      1,          2,          31,         33,
                                 t - 1,  t,          t + 1,      4 * t,      4 * t + 1,
                                 5 * t + 7, 31 * t + 1, 32 * t - 1, 32 * t, 32 * t + 1,
                                 65 * t + 3, 32768 + 1, 9 * 32768 + 3};
    s.insert(s.end(), extra.begin(), extra.end());
    return within_cap(s);  // SWEEP_TEST_MAX_N (sanitizer runs)
}

/// Offsets of the segments whose heads are `flags` (flags[0] counts as a head), with an empty
/// segment repeated now and then (about one offset in eight, and one at the end): k + 1 offsets
/// from 0 to n (n = 0: {0}).
inline std::vector<std::int64_t> offsets_of(const std::vector<char>& flags, std::mt19937_64& g) {
    std::vector<std::int64_t> o;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if (i != 0 && !flags[i]) continue;
        o.push_back(static_cast<std::int64_t>(i));
        if (g() % 8 == 0) o.push_back(static_cast<std::int64_t>(i));  // an empty segment
    }
    o.push_back(static_cast<std::int64_t>(flags.size()));
    if (!flags.empty()) o.push_back(static_cast<std::int64_t>(flags.size()));  // empty, at the end
    return o;
}

/// The largest size of a bitwise test: SWEEP_TEST_NUMERICS_MAX_N, else `fallback`.
inline std::int64_t numerics_max_n(std::int64_t fallback) {
    if (const char* e = std::getenv("SWEEP_TEST_NUMERICS_MAX_N")) return std::stoll(e);
    return fallback;
}

template <class T>
std::vector<T> uniform_values(std::size_t n, std::mt19937_64& g) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<T> x(n);
    for (auto& v : x) v = static_cast<T>(d(g));
    return x;
}

/// Uniform floats with a NaN now and then (min over them is order-dependent).
inline std::vector<float> values_with_nans(std::size_t n, std::mt19937_64& g) {
    auto x = uniform_values<float>(n, g);
    std::uniform_int_distribution<std::size_t> at(0, n ? n - 1 : 0);
    for (std::size_t k = 0; k < n / 5000 + (n > 3 ? 1 : 0); ++k)
        x[at(g)] = std::numeric_limits<float>::quiet_NaN();
    return x;
}

inline std::vector<affinef> affine_values(std::size_t n, std::mt19937_64& g) {
    std::uniform_real_distribution<float> m(0.999f, 1.001f), k(-1.0f, 1.0f);
    std::vector<affinef> x(n);
    for (auto& v : x) v = affinef{m(g) * (g() & 1 ? 1.0f : -1.0f), k(g)};
    return x;
}

/// Integer-valued floats: every association gives the exact sum (for n below 2^24 / 8).
template <class T>
std::vector<T> small_integers(std::size_t n, std::mt19937_64& g) {
    std::uniform_int_distribution<int> d(-4, 4);
    std::vector<T> x(n);
    for (auto& v : x) v = static_cast<T>(d(g));
    return x;
}

}  // namespace sweep_test
