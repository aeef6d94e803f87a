// test/inplace.cpp -- host tests: scans whose output range is their input range.
//
// API.md: "the output range may equal the input range wherever the standard allows it for
// scans". Each case runs the same call out of place (checked against the seq oracle elsewhere)
// and in place (d_first == first; for segmented and by-key scans, d_first == values_first) and
// requires the same result under every host policy, across block edges.
#include <cstdint>
#include <numeric>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

std::vector<std::int64_t> inplace_sizes() {
    auto s = small_sizes();
    for (auto x : block_edge_sizes()) s.push_back(x);
    s.push_back(3'000'017);
    return s;
}

// Runs call(pol, in_first, in_last, out_first) once out of place under seq (the expectation) and
// then in place under every policy.
template <class T, class Call>
void check_in_place(const std::vector<T>& in, Call call, bool all_policies) {
    std::vector<T> want(in.size());
    call(sweep::seq, in.begin(), in.end(), want.begin());
    std::vector<T> buf;
    auto one = [&](const char* name, const auto& pol) {
        INFO("policy " << name);
        buf = in;
        const auto end = call(pol, buf.begin(), buf.end(), buf.begin());
        CHECK(end == buf.end());
        CHECK(mismatch(buf, want) == "");
    };
    if (all_policies) for_each_host_policy(one);
    else for_each_backend_policy(one);
}

}  // namespace

TEST_CASE("in place: inclusive and exclusive scans of int32", "[inplace]") {
    for (const auto n : inplace_sizes()) {
        INFO("n = " << n);
        auto g = rng(3000 + static_cast<std::uint64_t>(n));
        const auto in = random_values<std::int32_t>(n, g);
        const bool all = n < 1'000'000;
        // The oracle itself against std:: in place.
        auto s = in;
        std::inclusive_scan(s.begin(), s.end(), s.begin());
        auto t = in;
        sweep::inclusive_scan(sweep::seq, t.begin(), t.end(), t.begin());
        CHECK(mismatch(t, s) == "");

        check_in_place(in, [](const auto& p, auto f, auto l, auto d) {
            return sweep::inclusive_scan(p, f, l, d);
        }, all);
        check_in_place(in, [](const auto& p, auto f, auto l, auto d) {
            return sweep::inclusive_scan(p, f, l, d, sweep::plus<>{}, std::int32_t{-9});
        }, all);
        check_in_place(in, [](const auto& p, auto f, auto l, auto d) {
            return sweep::exclusive_scan(p, f, l, d, std::int32_t{5});
        }, all);
        check_in_place(in, [](const auto& p, auto f, auto l, auto d) {
            return sweep::exclusive_scan(p, f, l, d, std::int32_t{5}, sweep::minimum<>{});
        }, all);
    }
}

TEST_CASE("in place: transform scans", "[inplace]") {
    for (const std::int64_t n : {0, 1, 2, 1023, 1024, 1025, 65537, 1048577}) {
        INFO("n = " << n);
        auto g = rng(3100 + static_cast<std::uint64_t>(n));
        const auto in = random_values<std::int64_t>(n, g);
        const std::int64_t k = 3;
        const auto f = [k](std::int64_t x) { return (x >> 4) * k; };
        check_in_place(in, [&](const auto& p, auto fi, auto l, auto d) {
            return sweep::transform_inclusive_scan(p, fi, l, d, sweep::plus<>{}, f);
        }, true);
        check_in_place(in, [&](const auto& p, auto fi, auto l, auto d) {
            return sweep::transform_inclusive_scan(p, fi, l, d, sweep::plus<>{}, f, std::int64_t{1});
        }, true);
        check_in_place(in, [&](const auto& p, auto fi, auto l, auto d) {
            return sweep::transform_exclusive_scan(p, fi, l, d, std::int64_t{1}, sweep::plus<>{}, f);
        }, true);
    }
}

TEST_CASE("in place: non-commutative and record scans", "[inplace]") {
    for (const std::int64_t n : {0, 1, 1025, 65537, 1048577}) {
        INFO("n = " << n);
        auto g = rng(3200 + static_cast<std::uint64_t>(n));
        const auto maps = random_affine(n, g);
        check_in_place(maps, [](const auto& p, auto f, auto l, auto d) {
            return sweep::inclusive_scan(p, f, l, d, affine_then{});
        }, true);
        check_in_place(maps, [](const auto& p, auto f, auto l, auto d) {
            return sweep::exclusive_scan(p, f, l, d, affine{3, 4}, affine_then{});
        }, true);
        const auto recs = random_values<rec24>(n, g);
        check_in_place(recs, [](const auto& p, auto f, auto l, auto d) {
            return sweep::exclusive_scan(p, f, l, d, rec24{}, rec24_op{});
        }, true);
    }
}

TEST_CASE("in place: segmented and by-key scans write over their values", "[inplace]") {
    for (const std::int64_t n : {0, 1, 2, 1023, 1025, 65537, 1048577, 3'000'017}) {
        INFO("n = " << n);
        auto g = rng(3300 + static_cast<std::uint64_t>(n));
        const auto in = random_values<std::int32_t>(n, g);
        const auto keys = random_run_keys(n, 100, g);
        const auto offs = random_offsets(n, n / 700 + 3, g);
        const auto flags = random_flags(n, 500, g);
        const bool all = n < 2'000'000;
        check_in_place(in, [&](const auto& p, auto f, auto l, auto d) {
            return sweep::inclusive_scan_by_key(p, keys.begin(), keys.begin() + (l - f), f, d);
        }, all);
        check_in_place(in, [&](const auto& p, auto f, auto l, auto d) {
            return sweep::exclusive_scan_by_key(p, keys.begin(), keys.begin() + (l - f), f, d,
                                                std::int32_t{4});
        }, all);
        check_in_place(in, [&](const auto& p, auto f, auto l, auto d) {
            return sweep::segmented_inclusive_scan(p, f, l, d,
                                                   sweep::offsets(offs.begin(), offs.end()));
        }, all);
        check_in_place(in, [&](const auto& p, auto f, auto l, auto d) {
            return sweep::segmented_exclusive_scan(p, f, l, d, sweep::head_flags(flags.begin()),
                                                   std::int32_t{-2}, sweep::maximum<>{});
        }, all);
    }
}
