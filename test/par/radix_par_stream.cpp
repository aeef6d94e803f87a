// test/par/radix_par_stream.cpp -- the par radix sort with its tuning constants shrunk, so that
// small inputs take every large-input path (backend/tbb/radix_sort.hpp, docs/radix_sort.md):
// streaming stores from 1 KiB up (the MSD scatter's full and partial lines, the leaves' copy
// into the caller's range with decoding in place), leaves of 4 KiB (serial splits, parallel
// recursion into skewed buckets), the parallel path from 256 keys (chunks of the MSD pass cut at
// odd positions, runs shorter than a line). A separate executable: the constants are macros and
// must be the same in the whole program.
//
// Every key type, both directions, keys alone and with values (original indices: stability
// element by element, and 24-byte records), sizes around lines, chunks and leaves, against the
// stable order of std::stable_sort under IEEE totalOrder (oracles.hpp). Seed printed by main.
#define SWEEP_RADIX_STREAM_KIB 1
#define SWEEP_RADIX_LEAF_KIB 4
#define SWEEP_RADIX_SERIAL_BELOW 256

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <sweep/radix_sort.hpp>

#include "catch.hpp"
#include "oracles.hpp"
#include "random.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

template <class K>
using bits_of = std::conditional_t<
    sizeof(K) == 1, std::uint8_t,
    std::conditional_t<sizeof(K) == 2, std::uint16_t,
                       std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;

enum class shape { uniform, specials, and2, one_digit, equal, few };

/// Keys of a shape: uniform bits; uniform with a quarter special values (min, max, 0, -0.0,
/// infinities, NaNs of both signs); AND of two randoms (skewed buckets); only bits 12..15 vary
/// (keys with one nonzero digit); all equal; three distinct values.
template <class K>
std::vector<K> make(std::int64_t n, shape s, std::mt19937_64& g) {
    using U = bits_of<K>;
    using L = std::numeric_limits<K>;
    std::vector<K> special{L::lowest(), L::max(), K(0), K(1)};
    if constexpr (std::is_floating_point_v<K>)
        special.insert(special.end(), {K(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(),
                                       -L::quiet_NaN(), L::denorm_min()});
    std::vector<K> k(static_cast<std::size_t>(n));
    for (auto& x : k) {
        U u = static_cast<U>(g());
        switch (s) {
            case shape::uniform: case shape::specials: break;
            case shape::and2: u = U(u & static_cast<U>(g())); break;
            case shape::one_digit: u = U(u & U(sizeof(U) > 1 ? 0xF000u & U(~U(0)) : 0xF0u)); break;
            case shape::equal: u = U(0x3C); break;
            case shape::few: u = U(g() % 3 * 0x2345u); break;
        }
        x = std::bit_cast<K>(u);
        if (s == shape::specials && g() % 4 == 0) x = special[g() % special.size()];
    }
    return k;
}

template <class K>
void check(const std::vector<K>& keys) {
    for (const bool desc : {false, true}) {
        INFO((desc ? "descending" : "ascending"));
        std::vector<std::uint32_t> order(keys.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return desc ? total_less(keys[b], keys[a]) : total_less(keys[a], keys[b]);
        });
        std::vector<K> want(keys.size());
        std::vector<rec24> want_recs(keys.size()), recs(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) {
            want[i] = keys[order[i]];
            recs[i] = rec24{static_cast<std::uint64_t>(i) * 31, static_cast<std::int32_t>(i), 7,
                            static_cast<std::uint32_t>(i) ^ 0x5Au, 1};
        }
        for (std::size_t i = 0; i < keys.size(); ++i) want_recs[i] = recs[order[i]];
        auto one = [&](const auto& pol) {
            std::vector<K> k = keys;
            if (desc) sweep::radix_sort(pol, k.begin(), k.end(), sweep::descending);
            else sweep::radix_sort(pol, k.begin(), k.end());
            CHECK(bit_mismatch(k, want) == "");
            k = keys;
            std::vector<std::uint32_t> v(keys.size());
            std::iota(v.begin(), v.end(), 0u);
            if (desc)
                sweep::radix_sort_by_key(pol, k.begin(), k.end(), v.begin(), sweep::descending);
            else sweep::radix_sort_by_key(pol, k.begin(), k.end(), v.begin());
            CHECK(bit_mismatch(k, want) == "");
            CHECK(mismatch(v, order) == "");
            if (keys.size() <= 5000) {
                k = keys;
                auto r = recs;
                if (desc)
                    sweep::radix_sort_by_key(pol, k.begin(), k.end(), r.begin(), sweep::descending);
                else sweep::radix_sort_by_key(pol, k.begin(), k.end(), r.begin());
                CHECK(bit_mismatch(k, want) == "");
                CHECK(mismatch(r, want_recs) == "");
            }
        };
        for (const int t : {1, 2, 3, 0}) {
            INFO("threads " << t << " (0: all)");
            if (t == 0) one(sweep::par);
            else one(sweep::par.threads(t));
        }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("par radix, streaming paths: every key type, shapes, line and leaf edges",
                        "[par][radix]", key_types) {
    using K = TestType;
    // Lines hold 64 / sizeof(K) keys; leaves 4 KiB; the parallel path starts at 256 keys.
    for (const std::int64_t n : {0, 1, 2, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1023, 1025, 4097,
                                 20001, 131073}) {
        for (const shape s : {shape::uniform, shape::specials, shape::and2, shape::one_digit,
                              shape::equal, shape::few}) {
            INFO("n = " << n << ", shape " << static_cast<int>(s));
            auto g = rng(9100 + sizeof(K) * 1000 + (std::is_floating_point_v<K> ? 500 : 0) +
                         (std::is_signed_v<K> ? 250 : 0) +
                         static_cast<std::uint64_t>(n) % 1009 * 8 + static_cast<std::uint64_t>(s));
            check(make<K>(n, s, g));
        }
    }
}

TEST_CASE("par radix, streaming paths: MSD digits of the widest width", "[par][radix]") {
    // More than 2^11 leaves (a leaf is at least 1024 keys): the parallel pass takes a 12-bit digit
    // (max_msd_bits), its write-combining lines and chunk histograms at their largest.
    auto g = rng(9150);
    check(make<std::uint64_t>(2'200'003, shape::uniform, g));
    check(make<double>(2'150'001, shape::specials, g));
    check(make<std::uint32_t>(2'300'001, shape::and2, g));
}

TEST_CASE("par radix, streaming paths: a sub-range at every offset in a line", "[par][radix]") {
    // The caller's range starts at any element of a 64-byte line: the streaming copies begin and
    // end with partial lines, and the elements around the range are not written.
    auto g = rng(9200);
    const std::vector<std::uint32_t> base = make<std::uint32_t>(9000, shape::uniform, g);
    for (std::size_t off = 0; off < 16; ++off) {
        INFO("offset " << off);
        std::vector<std::uint32_t> k = base, want = base;
        const std::size_t len = 8000 + off * 3;
        std::stable_sort(want.begin() + off, want.begin() + off + len);
        sweep::radix_sort(sweep::par.threads(2), k.begin() + off, k.begin() + off + len);
        CHECK(mismatch(k, want) == "");
    }
}

TEST_CASE("par radix, streaming paths: counting sorts of a sub-range at every offset in a line",
          "[par][radix]") {
    // Keys alone over a narrow span take the counting sort (radix_sort.hpp count_sort), whose
    // fill writes runs of one key with streaming stores from stream_bytes (here 1 KiB) between
    // ordinary stores at the line-broken ends. The caller's range starts anywhere in a 64-byte
    // line; the elements around it are not written. Runs of about 1500-3000 keys.
    namespace rx = sweep::detail::tbb_backend::radix;
    auto g = rng(9250);
    auto one = [&](auto zero, auto make) {
        using K = decltype(zero);
        std::vector<K> base(24'000);
        for (auto& x : base) x = make();
        for (std::size_t off = 0; off < 64; off += 3) {
            INFO("key bytes " << sizeof(K) << ", offset " << off);
            const std::size_t len = 20'000 + off * 5;
            for (const bool desc : {false, true}) {
                auto k = base, want = base;
                if (desc) std::stable_sort(want.begin() + off, want.begin() + off + len, std::greater<>());
                else std::stable_sort(want.begin() + off, want.begin() + off + len);
                const auto before = rx::count_sorts_for_tests.load();
                if (desc)
                    sweep::radix_sort(sweep::par.threads(3), k.begin() + off, k.begin() + off + len,
                                      sweep::descending);
                else sweep::radix_sort(sweep::par.threads(3), k.begin() + off, k.begin() + off + len);
                CHECK(mismatch(k, want) == "");
                CHECK(rx::count_sorts_for_tests.load() - before == 1);
            }
        }
    };
    one(std::uint8_t{}, [&] { return static_cast<std::uint8_t>(g() % 13); });
    one(std::uint16_t{}, [&] { return static_cast<std::uint16_t>(g() % 7 * 91); });
    one(std::int32_t{}, [&] { return -4096 - static_cast<std::int32_t>(g() % 9) * 16; });  // a 9-bit span
    one(std::uint64_t{}, [&] { return std::uint64_t{0x123456789A000000} + g() % 8 * 100; });
}

TEST_CASE("par radix, streaming paths: no counting sort where its counters outgrow the scratch",
          "[par][radix]") {
    // 13 varying bits and enough keys for each counter of 3 workers, but 2^13 counters (32 KiB) a
    // worker do not fit the 16 KiB of scratch a worker has with 4 KiB leaves: the radix path
    // sorts them (count_sort takes no memory of its own, so it must not run).
    namespace rx = sweep::detail::tbb_backend::radix;
    auto g = rng(9300);
    std::vector<std::uint32_t> k(100'000);
    for (auto& x : k) x = static_cast<std::uint32_t>(g() & 0x1FFF);
    auto want = k;
    std::stable_sort(want.begin(), want.end());
    const auto before = rx::count_sorts_for_tests.load();
    sweep::radix_sort(sweep::par.threads(3), k.begin(), k.end());
    CHECK(mismatch(k, want) == "");
    CHECK(rx::count_sorts_for_tests.load() == before);
}
