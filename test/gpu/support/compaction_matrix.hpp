// test/gpu/support/compaction_matrix.hpp -- the stream-compaction test matrix: copy_if (plain and
// with a stencil), partition_copy, stable_partition and partition on sweep::gpu against sweep::seq,
// for one value type, at the sizes around its tile, for selectivities 0/1/50/99/100 % and random
// runs of kept and rejected elements.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/partition.hpp>
#include <sweep/backend/cuda/tuning/compaction_tuning.cuh>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

namespace sweep_gpu_test {

/// A 64-bit mix of an object's bytes, on host and device: the selectivity source of keep_percent,
/// defined for every trivially copyable type.
template <class T>
__host__ __device__ std::uint64_t bits_hash(const T& x) {
    constexpr int words = (sizeof(T) + 7) / 8;
    std::uint64_t w[words];
    for (int i = 0; i < words; ++i) w[i] = 0;
    memcpy(w, &x, sizeof(T));
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < words; ++i) {
        h = (h ^ w[i]) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

/// Keeps about `percent` % of the values, by their bits (so one predicate serves every type).
struct keep_percent {
    unsigned percent;
    template <class T>
    __host__ __device__ bool operator()(const T& x) const {
        return (bits_hash(x) >> 40) % 100 < percent;
    }
};

/// The tile of the compaction engine for T (elements), from the tuning in use.
template <class T>
std::int64_t compaction_tile_of() {
    using tuning = sweep::detail::cuda::default_compaction_tuning<T>;
    return std::int64_t{tuning::threads} * tuning::rounds *
           sweep::detail::cuda::compaction_vec(sizeof(T));
}

/// SWEEP_TEST_MAX_N caps the sizes of the compaction tests (for runs under compute-sanitizer,
/// which is 10-100x slower); unset, nothing is capped.
inline std::int64_t max_test_size() {
    static const std::int64_t m = [] {
        const char* e = std::getenv("SWEEP_TEST_MAX_N");
        return e != nullptr ? std::atoll(e) : std::int64_t{1} << 62;
    }();
    return m;
}
inline bool sizes_capped() { return max_test_size() < (std::int64_t{1} << 62); }

/// Around one tile, around the single-block limit (4 tiles), many tiles, a few million.
template <class T>
std::vector<std::int64_t> compaction_sizes() {
    const std::int64_t t = compaction_tile_of<T>();
    std::vector<std::int64_t> s;
    for (const std::int64_t n :
         {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{31}, t - 1, t, t + 1,
          4 * t - 1, 4 * t, 4 * t + 1, 37 * t + 11, std::int64_t{3'000'017}})
        if (n <= max_test_size()) s.push_back(n);
    return s;
}

/// Random values with many distinct bit patterns: random bits for integers and structs, reals
/// for floating point (no NaN, so that == on values and on bits agree).
template <class T>
T random_value(std::mt19937_64& g) {
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> d(T(-1000), T(1000));
        return d(g);
    } else {
        unsigned char b[sizeof(T)];
        for (std::size_t i = 0; i < sizeof(T); i += 8) {
            const std::uint64_t r = g();
            std::memcpy(b + i, &r, sizeof(T) - i < 8 ? sizeof(T) - i : 8);
        }
        T v;
        std::memcpy(&v, b, sizeof(T));
        return v;
    }
}

template <class T>
std::vector<T> random_inputs(std::int64_t n, std::mt19937_64& g) {
    std::vector<T> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = random_value<T>(g);
    return h;
}

/// Run lengths between 1 and `max_run`, alternately kept and rejected (the first run's kind
/// random): the flag of every element.
inline std::vector<bool> random_runs(std::int64_t n, std::int64_t max_run, std::mt19937_64& g) {
    std::vector<bool> f(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::int64_t> len(1, max_run);
    bool kind = g() & 1;
    for (std::int64_t i = 0; i < n;) {
        const std::int64_t e = std::min(n, i + len(g));
        for (; i < e; ++i) f[static_cast<std::size_t>(i)] = kind;
        kind = !kind;
    }
    return f;
}

/// Inputs whose keep_percent{50} verdicts follow `flags` (values drawn until they agree).
template <class T>
std::vector<T> inputs_with_flags(const std::vector<bool>& flags, std::mt19937_64& g) {
    std::vector<T> h(flags.size());
    const keep_percent half{50};
    for (std::size_t i = 0; i < h.size(); ++i) {
        do h[i] = random_value<T>(g);
        while (half(h[i]) != flags[i]);
    }
    return h;
}

template <class T>
bool same_bits(const T* a, const T* b, std::size_t n) {
    return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
}

/// `partition`'s result (unstable): the first k elements kept, the rest rejected, and a
/// permutation of the input (same multiset of bit patterns). Returns whether all three hold.
template <class T, class Pred>
bool is_partition_of(const std::vector<T>& got, const std::vector<T>& input, std::int64_t k,
                     Pred pred) {
    if (got.size() != input.size() || k < 0 || k > static_cast<std::int64_t>(got.size()))
        return false;
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        wrong += static_cast<bool>(pred(got[i])) != (static_cast<std::int64_t>(i) < k);
    if (wrong != 0) {
        UNSCOPED_INFO(wrong << " elements on the wrong side of the partition point " << k);
        return false;
    }
    // The same multiset of bit patterns: two order-free sums of two 64-bit mixes of each
    // element's bytes (O(n); equal sums for different multisets need a 2^-64-scale accident).
    auto fingerprint = [](const std::vector<T>& v) {
        std::uint64_t s1 = 0, s2 = 0;
        for (const T& x : v) {
            std::uint64_t h = bits_hash(x);
            s1 += h;
            h = (h ^ (h >> 29)) * 0x94D049BB133111EBull;
            s2 += h ^ (h >> 32);
        }
        return std::pair<std::uint64_t, std::uint64_t>{s1, s2};
    };
    if (fingerprint(got) != fingerprint(input)) {
        UNSCOPED_INFO("the result is not a permutation of the input");
        return false;
    }
    return true;
}

/// True when every byte of [p, p + n) still holds the device_vector poison (0xA5).
template <class T>
bool poisoned(const T* p, std::size_t n) {
    const auto* b = reinterpret_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n * sizeof(T); ++i)
        if (b[i] != 0xA5) return false;
    return true;
}

/// A compacted output read back: its first k elements are want's, every slot after them still
/// holds the poison (nothing written past the returned end).
template <class T>
void check_kept(const std::vector<T>& got, const std::vector<T>& want, std::int64_t k) {
    const auto kk = static_cast<std::size_t>(k);
    CHECK(same_bits(got.data(), want.data(), kk));
    CHECK(poisoned(got.data() + kk, got.size() - kk));
}

/// partition_copy's two outputs read back: k kept elements and n - k rejected ones, each
/// followed by untouched slots.
template <class T>
void check_split(const std::vector<T>& got_t, const std::vector<T>& got_f,
                 const std::vector<T>& want, const std::vector<T>& want_f, std::int64_t n,
                 std::int64_t k) {
    check_kept(got_t, want, k);
    check_kept(got_f, want_f, n - k);
}

/// Every form on sweep::gpu against seq for one input: copy_if with `pred`, copy_if with the
/// byte stencil `stencil` and sweep::nonzero<>, with the input as its own stencil and with a copy
/// of the input as the stencil, partition_copy, stable_partition and partition in place
/// (partition is unstable from 2^24 elements: docs/compaction.md). Outputs are poisoned; nothing
/// may be written past a returned end.
template <class T, class Pred>
void check_forms(const std::vector<T>& h, Pred pred, const std::vector<std::uint8_t>& stencil,
                 const std::string& what) {
    const auto n = static_cast<std::int64_t>(h.size());
    const std::size_t slack = 33;
    INFO(what << ", n = " << n);
    device_vector<T> in(h), out(h.size() + slack), out2(h.size() + slack), range(h);
    device_vector<std::uint8_t> st(stencil);

    // The oracle: seq.
    std::vector<T> want(h.size()), want_f(h.size()), swant(h.size()), stable = h;
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    const auto [wt, wf] =
        sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(), pred);
    REQUIRE(wt - want.begin() == k);
    REQUIRE(wf - want_f.begin() == n - k);
    const auto sk = sweep::copy_if(sweep::seq, h.begin(), h.end(), stencil.begin(), swant.begin(),
                                   sweep::nonzero<>{}) -
                    swant.begin();
    const auto mid = sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred) -
                     stable.begin();
    REQUIRE(mid == k);

    {
        INFO("copy_if");
        T* e = sweep::copy_if(sweep::gpu, static_cast<const T*>(in.data()),
                              static_cast<const T*>(in.data()) + n, out.data(), pred);
        REQUIRE(e - out.data() == k);
        const auto got = out.download();
        check_kept(got, want, k);
    }
    {
        INFO("copy_if with a stencil");
        out.poison();
        T* e = sweep::copy_if(sweep::gpu, in.begin(), in.end(), st.begin(), out.begin(),
                              sweep::nonzero<>{});
        REQUIRE(e - out.data() == sk);
        const auto got = out.download();
        check_kept(got, swant, sk);
    }
    {
        INFO("copy_if with the input as its own stencil");
        out.poison();
        T* e = sweep::copy_if(sweep::gpu, in.begin(), in.end(), in.begin(), out.begin(), pred);
        REQUIRE(e - out.data() == k);
        const auto got = out.download();
        CHECK(same_bits(got.data(), want.data(), static_cast<std::size_t>(k)));
    }
    {
        // Same type as the input, another buffer: the stencil path of the input's own type.
        INFO("copy_if with a stencil of the input's type (a copy of the input)");
        out.poison();
        T* e = sweep::copy_if(sweep::gpu, in.begin(), in.end(), range.begin(), out.begin(), pred);
        REQUIRE(e - out.data() == k);
        const auto got = out.download();
        check_kept(got, want, k);
    }
    {
        INFO("partition_copy");
        out.poison();
        const auto [et, ef] =
            sweep::partition_copy(sweep::gpu, in.begin(), in.end(), out.begin(), out2.begin(), pred);
        REQUIRE(et - out.data() == k);
        REQUIRE(ef - out2.data() == n - k);
        const auto got_t = out.download();
        const auto got_f = out2.download();
        check_split(got_t, got_f, want, want_f, n, k);
    }
    {
        INFO("stable_partition in place");
        T* m = sweep::stable_partition(sweep::gpu, range.begin(), range.end(), pred);
        CHECK(m - range.data() == k);
        const auto got = range.download();
        CHECK(same_bits(got.data(), stable.data(), stable.size()));
    }
    {
        INFO("partition in place (unstable from 2^24 elements: the partition property and a "
             "permutation)");
        range.upload(h);
        T* m = sweep::partition(sweep::gpu, range.begin(), range.end(), pred);
        CHECK(m - range.data() == k);
        const auto got = range.download();
        CHECK(is_partition_of(got, h, k, pred));
    }
}

/// The matrix for one type: every size of compaction_sizes<T>(), selectivities 0, 1, 50, 99 and
/// 100 %, and random runs (short and long).
template <class T>
void check_compaction_matrix(std::uint64_t salt) {
    for (const std::int64_t n : compaction_sizes<T>()) {
        auto g = sweep_test::rng(salt * 1000003 + static_cast<std::uint64_t>(n));
        const auto h = random_inputs<T>(n, g);
        for (const unsigned pct : {0u, 1u, 50u, 99u, 100u}) {
            std::vector<std::uint8_t> stencil(h.size());
            std::uniform_int_distribution<int> d(0, 99);
            for (auto& s : stencil) s = static_cast<std::uint8_t>(d(g) < static_cast<int>(pct) ? 1 + g() % 255 : 0);
            check_forms(h, keep_percent{pct}, stencil, "keep " + std::to_string(pct) + " %");
        }
        for (const std::int64_t max_run : {std::int64_t{40}, std::int64_t{5000}}) {
            const auto flags = random_runs(n, max_run, g);
            const auto hr = inputs_with_flags<T>(flags, g);
            const auto sflags = random_runs(n, max_run, g);
            std::vector<std::uint8_t> stencil(h.size());
            for (std::size_t i = 0; i < stencil.size(); ++i) stencil[i] = sflags[i] ? 7 : 0;
            check_forms(hr, keep_percent{50}, stencil,
                        "random runs of up to " + std::to_string(max_run));
        }
    }
}

}  // namespace sweep_gpu_test
