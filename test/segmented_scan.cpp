// test/segmented_scan.cpp -- host tests: by-key scans and scans over explicit segments.
//
// Expected results are the hand loops of oracles.hpp (restart at every head). Segments come as
// runs of equal keys (std::equal_to and a custom key_eq), as offsets (int64 and int32, with
// empty segments at the front, inside and at the back) and as head flags (uint8 and int, element
// 0 flagged or not), at mean segment lengths from 1 to longer than the input, under every policy.
#include <cstdint>
#include <functional>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

// Keys equal when they agree after dropping the low bit: runs of 0/1 and of 2/3 merge.
struct same_pair {
    bool operator()(std::int32_t a, std::int32_t b) const { return (a >> 1) == (b >> 1); }
};

template <class T>
void check_segmented(std::int64_t n, std::int64_t mean_len, std::uint64_t salt,
                     bool all_policies) {
    auto g = rng(salt);
    const auto in = random_values<T>(n, g);
    const auto op = sum_op<T>();
    const auto mx = max_op<T>();
    const T init = some_init<T>();
    const auto keys = random_run_keys(n, mean_len, g);
    const auto offs64 = random_offsets<std::int64_t>(n, n / mean_len + 2, g);
    const auto offs32 = random_offsets<std::int32_t>(n, n / mean_len + 1, g);
    auto flags8 = random_flags(n, mean_len, g);
    std::vector<int> flags_int(flags8.begin(), flags8.end());
    if (n > 0) flags_int[0] = 1;  // a flagged element 0 is the same as an unflagged one

    const auto kh = heads_from_keys(keys, std::equal_to<>{});
    const auto kh2 = heads_from_keys(keys, same_pair{});
    const auto oh64 = heads_from_offsets(offs64, in.size());
    const auto oh32 = heads_from_offsets(offs32, in.size());
    const auto fh = heads_from_flags(flags8);

    // The expectations, once per input (not per policy). For arithmetic T, op is a + b.
    const auto w_key_inc = segmented_inclusive(in, kh, op);
    const auto w_pair_inc_op = segmented_inclusive(in, kh2, op);
    const auto w_pair_inc = segmented_inclusive(in, kh2, op);
    const auto w_key_exc_zero = segmented_exclusive(in, kh, T{}, op);
    const auto w_key_exc = segmented_exclusive(in, kh, init, op);
    const auto w_pair_exc = segmented_exclusive(in, kh2, init, op);
    const auto w_key_exc_max = segmented_exclusive(in, kh, init, mx);
    const auto w_o64_inc = segmented_inclusive(in, oh64, op);
    const auto w_o32_exc = segmented_exclusive(in, oh32, init, op);
    const auto w_o32_inc_max = segmented_inclusive(in, oh32, mx);
    const auto w_o64_exc_op = segmented_exclusive(in, oh64, init, op);
    const auto w_flag_inc = segmented_inclusive(in, fh, op);
    const auto w_flag_exc = segmented_exclusive(in, fh, init, op);
    const auto w_flag_inc_op = segmented_inclusive(in, fh, op);
    const auto w_flag_exc_max = segmented_exclusive(in, fh, init, mx);

    std::vector<T> got(in.size());
    auto one = [&](const char* name, const auto& pol) {
        INFO("policy " << name);
        // by key, inclusive
        if constexpr (std::is_arithmetic_v<T>) {
            CHECK(sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(),
                                               got.begin()) == got.end());
            CHECK(mismatch(got, w_key_inc) == "");
        }
        sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                     same_pair{}, op);
        CHECK(mismatch(got, w_pair_inc_op) == "");
        if constexpr (std::is_arithmetic_v<T>) {
            sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                         same_pair{});
            CHECK(mismatch(got, w_pair_inc) == "");
        }
        // by key, exclusive
        if constexpr (std::is_arithmetic_v<T>) {
            CHECK(sweep::exclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(),
                                               got.begin()) == got.end());
            CHECK(mismatch(got, w_key_exc_zero) == "");
            sweep::exclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                         init);
            CHECK(mismatch(got, w_key_exc) == "");
            sweep::exclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                         init, same_pair{});
            CHECK(mismatch(got, w_pair_exc) == "");
        }
        sweep::exclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(), init,
                                     std::equal_to<>{}, mx);
        CHECK(mismatch(got, w_key_exc_max) == "");

        // offsets
        const auto o64 = sweep::offsets(offs64.begin(), offs64.end());
        const auto o32 = sweep::offsets(offs32.begin(), offs32.end());
        if constexpr (std::is_arithmetic_v<T>) {
            CHECK(sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), got.begin(), o64) ==
                  got.end());
            CHECK(mismatch(got, w_o64_inc) == "");
            CHECK(sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), got.begin(), o32,
                                                  init) == got.end());
            CHECK(mismatch(got, w_o32_exc) == "");
        }
        sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), got.begin(), o32, mx);
        CHECK(mismatch(got, w_o32_inc_max) == "");
        sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), got.begin(), o64, init, op);
        CHECK(mismatch(got, w_o64_exc_op) == "");

        // head flags
        const auto f8 = sweep::head_flags(flags8.begin());
        const auto fi = sweep::head_flags(flags_int.begin());
        if constexpr (std::is_arithmetic_v<T>) {
            sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), got.begin(), f8);
            CHECK(mismatch(got, w_flag_inc) == "");
            sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), got.begin(), fi, init);
            CHECK(mismatch(got, w_flag_exc) == "");
        }
        sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), got.begin(), fi, op);
        CHECK(mismatch(got, w_flag_inc_op) == "");
        sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), got.begin(), f8, init, mx);
        CHECK(mismatch(got, w_flag_exc_max) == "");
    };
    if (all_policies) for_each_host_policy(one);
    else for_each_backend_policy(one);
}

}  // namespace

TEMPLATE_TEST_CASE("segmented scans: element types x segment lengths, every policy",
                   "[segmented_scan]", std::uint8_t, std::int32_t, std::uint64_t, double, rec24) {
    for (const std::int64_t n : {0, 1, 2, 33, 1023, 1024, 1025, 65537}) {
        for (const std::int64_t len : {1, 3, 40, 5000, 1 << 20}) {
            INFO("n = " << n << ", mean segment length " << len);
            check_segmented<TestType>(n, len, 7000 + static_cast<std::uint64_t>(n * 31 + len),
                                      true);
        }
    }
}

TEST_CASE("segmented scans: int32 over block edges and large sizes", "[segmented_scan][large]") {
    // Up to 2^16 + 1 every policy and three segment lengths; past it (run time) the policies
    // that reach distinct backends and one length per size, rotating.
    const std::int64_t lens[3] = {2, 700, 100000};
    int turn = 0;
    for (const auto n : block_edge_sizes()) {
        for (const std::int64_t len : lens) {
            if (n > 65537 && len != lens[turn % 3]) continue;
            INFO("n = " << n << ", mean segment length " << len);
            check_segmented<std::int32_t>(n, len, 7100 + static_cast<std::uint64_t>(n + len),
                                          n <= 65537);
        }
        ++turn;
    }
    INFO("n = 3000017, mean segment length 4000");
    check_segmented<std::int32_t>(3'000'017, 4000, 7200, false);
}

TEST_CASE("segmented scans: hand-written cases", "[segmented_scan]") {
    const std::vector<int> x{1, 2, 3, 4, 5, 6};
    // offsets with leading, inner and trailing empty segments
    const std::vector<int> o{0, 0, 2, 2, 2, 5, 6, 6};
    const std::vector<int> want_inc{1, 3, 3, 7, 12, 6};
    const std::vector<int> want_exc{10, 11, 10, 13, 17, 10};
    // keys: 7 7 | 8 | 7 7 7   (runs, not values, make segments)
    const std::vector<int> k{7, 7, 8, 7, 7, 7};
    const std::vector<int> want_key_inc{1, 3, 3, 4, 9, 15};
    const std::vector<int> want_key_exc{0, 1, 0, 0, 4, 9};
    const std::vector<unsigned char> f{0, 0, 1, 0, 0, 1};
    const std::vector<int> want_flag_inc{1, 3, 3, 7, 12, 6};
    for_each_host_policy([&](const char* name, const auto& pol) {
        INFO("policy " << name);
        std::vector<int> out(6);
        sweep::segmented_inclusive_scan(pol, x.begin(), x.end(), out.begin(),
                                        sweep::offsets(o.begin(), o.end()));
        CHECK(out == want_inc);
        sweep::segmented_exclusive_scan(pol, x.begin(), x.end(), out.begin(),
                                        sweep::offsets(o.begin(), o.end()), 10);
        CHECK(out == want_exc);
        sweep::inclusive_scan_by_key(pol, k.begin(), k.end(), x.begin(), out.begin());
        CHECK(out == want_key_inc);
        sweep::exclusive_scan_by_key(pol, k.begin(), k.end(), x.begin(), out.begin());
        CHECK(out == want_key_exc);
        sweep::segmented_inclusive_scan(pol, x.begin(), x.end(), out.begin(),
                                        sweep::head_flags(f.begin()));
        CHECK(out == want_flag_inc);
        // empty input with offsets {0} (one empty segment) and with no offsets at all
        const std::vector<int> zero{0}, none{};
        std::vector<int> e;
        CHECK(sweep::segmented_inclusive_scan(pol, e.begin(), e.end(), e.begin(),
                                              sweep::offsets(zero.begin(), zero.end())) == e.end());
        CHECK(sweep::segmented_inclusive_scan(pol, e.begin(), e.end(), e.begin(),
                                              sweep::offsets(none.begin(), none.end())) == e.end());
    });
}
