// test/scan.cpp -- host tests: inclusive_scan and exclusive_scan, every overload.
//
// seq against std::inclusive_scan / std::exclusive_scan (same association, so bit for bit, floats
// included); every host policy against seq: exactly for integers, the record and integer-valued
// floats, within the rounding bound of oracles.hpp for real-valued floats.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

// The results of every scan overload on one input. `wide` is an exclusive scan whose init is
// std::int64_t, so the accumulator is wider than the element (API.md: the standard's rule).
// Not for uint64_t: its values (the full range, generators.hpp) summed in std::int64_t overflow,
// which is undefined behaviour (UBSan reported it in the seq, std:: and par runs alike).
template <class T>
inline constexpr bool wide_fits =
    std::is_arithmetic_v<T> && !(std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t));

template <class T>
struct scan_results {
    std::vector<T> inc, inc_op, inc_op_init, exc_init, exc_init_op;
    std::vector<std::int64_t> wide;
};

// Fills r (reusing its capacity: the large sizes would otherwise spend their time in page
// faults) with every overload's result under pol.
template <class T, class P>
void sweep_scans(const P& pol, const std::vector<T>& in, scan_results<T>& r) {
    const auto n = static_cast<std::ptrdiff_t>(in.size());
    for (auto* v : {&r.inc, &r.inc_op, &r.inc_op_init, &r.exc_init, &r.exc_init_op})
        v->assign(in.size(), T{});
    const auto op = max_op<T>();
    const auto sum = sum_op<T>();
    const T init = some_init<T>();
    if constexpr (std::is_arithmetic_v<T>) {
        CHECK(sweep::inclusive_scan(pol, in.begin(), in.end(), r.inc.begin()) == r.inc.end());
        CHECK(sweep::exclusive_scan(pol, in.begin(), in.end(), r.exc_init.begin(), init) ==
              r.exc_init.end());
        if constexpr (wide_fits<T>) {
            r.wide.assign(in.size(), 0);
            sweep::exclusive_scan(pol, in.begin(), in.end(), r.wide.begin(), std::int64_t{-5});
        }
    } else {
        CHECK(sweep::inclusive_scan(pol, in.begin(), in.end(), r.inc.begin(), sum) ==
              r.inc.end());
        CHECK(sweep::exclusive_scan(pol, in.begin(), in.end(), r.exc_init.begin(), init, sum) ==
              r.exc_init.end());
    }
    CHECK(sweep::inclusive_scan(pol, in.begin(), in.end(), r.inc_op.begin(), op) - r.inc_op.begin() ==
          n);
    CHECK(sweep::inclusive_scan(pol, in.begin(), in.end(), r.inc_op_init.begin(), sum, init) -
              r.inc_op_init.begin() ==
          n);
    CHECK(sweep::exclusive_scan(pol, in.begin(), in.end(), r.exc_init_op.begin(), init, op) -
              r.exc_init_op.begin() ==
          n);
}

template <class T>
scan_results<T> std_scans(const std::vector<T>& in) {
    scan_results<T> r;
    for (auto* v : {&r.inc, &r.inc_op, &r.inc_op_init, &r.exc_init, &r.exc_init_op})
        v->assign(in.size(), T{});
    const auto op = max_op<T>();
    const auto sum = sum_op<T>();
    const T init = some_init<T>();
    if constexpr (std::is_arithmetic_v<T>) {
        std::inclusive_scan(in.begin(), in.end(), r.inc.begin());
        std::exclusive_scan(in.begin(), in.end(), r.exc_init.begin(), init);
        if constexpr (wide_fits<T>) {
            r.wide.assign(in.size(), 0);
            std::exclusive_scan(in.begin(), in.end(), r.wide.begin(), std::int64_t{-5});
        }
    } else {
        std::inclusive_scan(in.begin(), in.end(), r.inc.begin(), sum);
        std::exclusive_scan(in.begin(), in.end(), r.exc_init.begin(), init, sum);
    }
    std::inclusive_scan(in.begin(), in.end(), r.inc_op.begin(), op);
    std::inclusive_scan(in.begin(), in.end(), r.inc_op_init.begin(), sum, init);
    std::exclusive_scan(in.begin(), in.end(), r.exc_init_op.begin(), init, op);
    return r;
}

// Compares every result of a run; `cmp` is mismatch (values) or bit_mismatch (bits). The wide
// (int64-accumulator) results are integers and always compared by value.
template <class T, class Cmp>
void check_results(const scan_results<T>& got, const scan_results<T>& want, Cmp cmp) {
    CHECK(cmp(got.inc, want.inc) == "");
    CHECK(cmp(got.inc_op, want.inc_op) == "");
    CHECK(cmp(got.inc_op_init, want.inc_op_init) == "");
    CHECK(cmp(got.exc_init, want.exc_init) == "");
    CHECK(cmp(got.exc_init_op, want.exc_init_op) == "");
    CHECK(mismatch(got.wide, want.wide) == "");
}

template <class T>
void check_same(const scan_results<T>& got, const scan_results<T>& want) {
    check_results(got, want, [](const auto& a, const auto& b) { return mismatch(a, b); });
}

template <class T>
void check_bits_same(const scan_results<T>& got, const scan_results<T>& want) {
    check_results(got, want, [](const auto& a, const auto& b) { return bit_mismatch(a, b); });
}

// all_policies: every host policy; else only those that reach distinct backends (for the large
// sizes, where the standard policies would only repeat sweep::seq / sweep::par).
template <class T>
void check_every_policy(const std::vector<std::int64_t>& sizes, std::uint64_t salt,
                        bool all_policies = true) {
    scan_results<T> want, got;
    for (const auto n : sizes) {
        INFO("n = " << n);
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto in = random_values<T>(n, g);
        sweep_scans(sweep::seq, in, want);
        check_bits_same(want, std_scans(in));  // the oracle itself, against std::
        auto one = [&](const char* name, const auto& pol) {
            INFO("policy " << name);
            sweep_scans(pol, in, got);
            check_same(got, want);
        };
        if (all_policies) for_each_host_policy(one);
        else for_each_backend_policy(one);
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("scan: every element type, every policy, against seq and std::", "[scan]",
                        element_types) {
    check_every_policy<TestType>(family_sizes(), 100);
}

TEST_CASE("scan: int32 over every block-edge and large size, every policy", "[scan][large]") {
    check_every_policy<std::int32_t>(small_sizes(), 200);
    check_every_policy<std::int32_t>(block_edge_sizes(), 210);
    check_every_policy<std::int32_t>(large_sizes(), 220, false);
}

TEST_CASE("scan: integer-valued float over block edges, every policy (exact)", "[scan][large]") {
    check_every_policy<float>(block_edge_sizes(), 300);
}

TEST_CASE("scan: uint64 and double over large sizes (exact)", "[scan][large]") {
    check_every_policy<std::uint64_t>({3'000'017}, 400, false);
    check_every_policy<double>({max_size}, 500, false);
}

TEMPLATE_TEST_CASE("scan: real-valued floats, every policy within the rounding bound of seq",
                   "[scan][float]", float, double) {
    using T = TestType;
    auto sizes = small_sizes();
    for (std::int64_t s : {1023, 1024, 1025, 65535, 65537, 131073}) sizes.push_back(s);
    if constexpr (std::is_same_v<T, double>) sizes.push_back(3'000'017);
    for (const auto n : sizes) {
        INFO("n = " << n);
        auto g = rng(600 + static_cast<std::uint64_t>(n));
        const auto in = random_reals<T>(n, g);
        const T init = T(0.25);
        std::vector<double> abs_prefix(in.size()), abs_prefix_init(in.size());
        double s = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            s += std::fabs(static_cast<double>(in[i]));
            abs_prefix[i] = s;
            abs_prefix_init[i] = s + 0.25;
        }
        std::vector<T> inc_seq(in.size()), exc_seq(in.size()), want(in.size());
        sweep::inclusive_scan(sweep::seq, in.begin(), in.end(), inc_seq.begin());
        std::inclusive_scan(in.begin(), in.end(), want.begin());
        CHECK(bit_mismatch(inc_seq, want) == "");
        sweep::exclusive_scan(sweep::seq, in.begin(), in.end(), exc_seq.begin(), init);
        std::exclusive_scan(in.begin(), in.end(), want.begin(), init);
        CHECK(bit_mismatch(exc_seq, want) == "");
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            std::vector<T> out(in.size());
            sweep::inclusive_scan(pol, in.begin(), in.end(), out.begin());
            CHECK(tolerance_mismatch(out, inc_seq, abs_prefix) == "");
            sweep::exclusive_scan(pol, in.begin(), in.end(), out.begin(), init);
            // exclusive prefix i sums init and x_0..x_{i-1}: bounded by the inclusive |x| sums.
            CHECK(tolerance_mismatch(out, exc_seq, abs_prefix_init) == "");
        });
    }
}

TEMPLATE_TEST_CASE("scan: real-valued floats under par are the same bits for any thread count",
                   "[scan][float]", float, double) {
    // backend/tbb/scan.hpp: fixed 2^15-element blocks combined in block order, so the association
    // (and thus the rounding) does not depend on .threads(k). Not an API.md promise without
    // .deterministic(), but the backend's documented design; a change here should be deliberate.
    using T = TestType;
    for (const std::int64_t n : {32769, 1048577}) {
        INFO("n = " << n);
        auto g = rng(700 + static_cast<std::uint64_t>(n));
        const auto in = random_reals<T>(n, g);
        std::vector<T> ref(in.size()), got(in.size());
        sweep::inclusive_scan(sweep::par, in.begin(), in.end(), ref.begin());
        for (const int k : {1, 2}) {
            INFO("threads " << k);
            sweep::inclusive_scan(sweep::par.threads(k), in.begin(), in.end(), got.begin());
            CHECK(bit_mismatch(got, ref) == "");
        }
        sweep::inclusive_scan(std::execution::par_unseq, in.begin(), in.end(), got.begin());
        CHECK(bit_mismatch(got, ref) == "");
        sweep::inclusive_scan(sweep::automatic, in.begin(), in.end(), got.begin());
        CHECK(bit_mismatch(got, ref) == "");
    }
}
