// test/partition.cpp -- host tests: partition, stable_partition, partition_copy.
//
// partition leaves the order inside each part unspecified, so it is checked by its properties:
// the returned split equals std::count_if, every element before it satisfies pred and none after,
// and the result is a permutation of the input. stable_partition and partition_copy are checked
// element for element against std::stable_partition and std::partition_copy.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include <sweep/partition.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

// A strict weak order on object bits, for the permutation check of any trivially copyable type
// (floats by their bits, so that NaNs and -0.0 compare as themselves).
struct bits_less {
    template <class T>
    bool operator()(const T& a, const T& b) const {
        if constexpr (sizeof(T) == 1) return std::bit_cast<std::uint8_t>(a) < std::bit_cast<std::uint8_t>(b);
        else if constexpr (sizeof(T) == 2) return std::bit_cast<std::uint16_t>(a) < std::bit_cast<std::uint16_t>(b);
        else if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(a) < std::bit_cast<std::uint32_t>(b);
        else if constexpr (sizeof(T) == 8) return std::bit_cast<std::uint64_t>(a) < std::bit_cast<std::uint64_t>(b);
        else return std::memcmp(&a, &b, sizeof(T)) < 0;
    }
};

template <class T>
std::vector<T> sorted_bits(std::vector<T> a) {
    std::sort(a.begin(), a.end(), bits_less{});
    return a;
}

// An order-independent fingerprint of a multiset: sums of two different 64-bit mixes of each
// element's bits (a drop + duplicate changes it with probability ~1 - 2^-64). O(n), where sorting
// every policy's output would dominate the test's run time.
template <class T>
std::pair<std::uint64_t, std::uint64_t> multiset_hash(const T* p, std::size_t n) {
    std::uint64_t s1 = 0, s2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t w[(sizeof(T) + 7) / 8] = {};
        std::memcpy(w, p + i, sizeof(T));
        std::uint64_t h = 0x243F6A8885A308D3ull;
        for (auto x : w) {
            h = (h ^ x) * 0xBF58476D1CE4E5B9ull;
            h ^= h >> 31;
        }
        s1 += h;
        s2 += (h ^ (h >> 29)) * 0x94D049BB133111EBull;
    }
    return {s1, s2};
}

// b_sorted: sorted_bits of the other range, computed once per input.
template <class T>
bool is_permutation_of(const std::vector<T>& a, const std::vector<T>& b_sorted) {
    const auto s = sorted_bits(a);
    return s.size() == b_sorted.size() &&
           (s.empty() || std::memcmp(s.data(), b_sorted.data(), s.size() * sizeof(T)) == 0);
}

template <class T>
bool is_mark(const T& x) {
    unsigned char m[sizeof(T)];
    std::memset(m, 0xAB, sizeof(T));
    return std::memcmp(&x, m, sizeof(T)) == 0;
}

template <class T>
void check_partitions(const std::vector<std::int64_t>& sizes, std::uint64_t salt,
                      bool all_policies, std::vector<unsigned> percents = {0, 3, 50, 100}) {
    for (const auto n : sizes) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto in = random_mixed<T>(n, g);
        // The exact (sorting) permutation check up to 2^16 + 1 elements, the fingerprint always.
        const bool exact_perm = n <= 65537;
        const auto in_sorted = exact_perm ? sorted_bits(in) : std::vector<T>{};
        const auto in_hash = multiset_hash(in.data(), in.size());
        for (const unsigned pct : percents) {
            INFO("n = " << n << ", true for " << pct << " %");
            const keep_percent<T> pred{pct};
            const auto count = std::count_if(in.begin(), in.end(), pred);

            // Oracles: std:: against the seq backend.
            auto stable_want = in;
            std::stable_partition(stable_want.begin(), stable_want.end(), pred);
            std::vector<T> true_want, false_want;
            std::partition_copy(in.begin(), in.end(), std::back_inserter(true_want),
                                std::back_inserter(false_want), pred);
            auto seq_buf = in;
            const auto seq_mid = sweep::stable_partition(sweep::seq, seq_buf.begin(), seq_buf.end(), pred);
            CHECK(seq_mid - seq_buf.begin() == count);
            CHECK(bit_mismatch(seq_buf, stable_want) == "");

            std::vector<T> buf, d_true(in.size() + 1), d_false(in.size() + 1);
            auto one = [&](const char* name, const auto& pol) {
                INFO("policy " << name);
                buf = in;
                auto mid = sweep::partition(pol, buf.begin(), buf.end(), pred);
                REQUIRE(mid - buf.begin() == count);
                CHECK(std::all_of(buf.begin(), mid, pred));
                CHECK(std::none_of(mid, buf.end(), pred));
                CHECK(multiset_hash(buf.data(), buf.size()) == in_hash);
                if (exact_perm) CHECK(is_permutation_of(buf, in_sorted));

                buf = in;
                mid = sweep::stable_partition(pol, buf.begin(), buf.end(), pred);
                CHECK(mid - buf.begin() == count);
                CHECK(bit_mismatch(buf, stable_want) == "");

                std::memset(static_cast<void*>(d_true.data()), 0xAB, d_true.size() * sizeof(T));
                std::memset(static_cast<void*>(d_false.data()), 0xAB, d_false.size() * sizeof(T));
                const auto [et, ef] = sweep::partition_copy(pol, in.begin(), in.end(),
                                                            d_true.begin(), d_false.begin(), pred);
                REQUIRE(et - d_true.begin() == static_cast<std::ptrdiff_t>(true_want.size()));
                REQUIRE(ef - d_false.begin() == static_cast<std::ptrdiff_t>(false_want.size()));
                CHECK(bit_mismatch(std::vector<T>(d_true.begin(), et), true_want) == "");
                CHECK(bit_mismatch(std::vector<T>(d_false.begin(), ef), false_want) == "");
                // Past each returned end nothing was written (for types of 4 bytes or more
                // the 0xAB.. pattern is not a value the generators draw, practically).
                if constexpr (sizeof(T) >= 4) {
                    CHECK(std::all_of(et, d_true.end(), is_mark<T>));
                    CHECK(std::all_of(ef, d_false.end(), is_mark<T>));
                }
            };
            if (all_policies) for_each_host_policy(one);
            else for_each_backend_policy(one);
        }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("partition: every element type, every policy", "[partition]",
                        element_types) {
    check_partitions<TestType>(family_sizes(), 5000, true);
}

TEST_CASE("partition: int32 over block edges and large sizes", "[partition][large]") {
    // Every policy up to 2^16 + 1; past it, those that reach distinct backends (run time).
    auto sizes = small_sizes(), big = std::vector<std::int64_t>{};
    for (auto s : block_edge_sizes()) (s <= 65537 ? sizes : big).push_back(s);
    check_partitions<std::int32_t>(sizes, 5100, true);
    check_partitions<std::int32_t>(big, 5150, false, {3, 50});
    check_partitions<std::int32_t>({3'000'017}, 5200, false, {50});
}

TEST_CASE("partition: std::partition result has the same split as sweep::partition (seq)",
          "[partition]") {
    auto g = rng(5300);
    for (const std::int64_t n : {0, 1, 2, 1000, 65537}) {
        INFO("n = " << n);
        auto a = random_values<std::int64_t>(n, g);
        auto b = a;
        const auto odd = [](std::int64_t x) { return (x & 1) != 0; };
        const auto sm = std::partition(a.begin(), a.end(), odd) - a.begin();
        const auto wm = sweep::partition(sweep::seq, b.begin(), b.end(), odd) - b.begin();
        CHECK(wm == sm);
        CHECK(is_permutation_of(a, sorted_bits(b)));
    }
}

TEST_CASE("partition with .deterministic(): the stable result on every host policy",
          "[partition][deterministic]") {
    // API.md: under .deterministic() results are bitwise identical across policies, so partition
    // gives the one result seq gives, the stable one (par otherwise swaps misplaced pairs).
    auto g = rng(5400);
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000},
                                 std::int64_t{65537}, std::int64_t{3'000'017}}) {
        INFO("n = " << n);
        const auto in = random_values<std::int32_t>(n, g);
        const auto odd = [](std::int32_t x) { return (x & 1) != 0; };
        auto want = in;
        const auto k = std::stable_partition(want.begin(), want.end(), odd) - want.begin();
        auto one = [&](const char* name, const auto& pol) {
            INFO("policy " << name);
            auto buf = in;
            CHECK(sweep::partition(pol, buf.begin(), buf.end(), odd) - buf.begin() == k);
            CHECK(buf == want);
        };
        one("seq.deterministic()", sweep::seq.deterministic());
        one("par.deterministic()", sweep::par.deterministic());
        one("par.threads(3).deterministic()", sweep::par.threads(3).deterministic());
    }
}
