// test/predicates.cpp -- host tests: the comparison predicates of <sweep/functional.hpp>
// (greater_than, greater_or_equal, less_than, less_or_equal, equal_to_value, not_equal_to_value,
// nonzero) against the plain C++ comparison, alone and as the predicate of copy_if,
// partition_copy, stable_partition and partition on seq (every arithmetic type) and par (int32,
// double), with std::copy_if and the hand-written comparison as the oracle.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/functional.hpp>
#include <sweep/partition.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

// Class template argument deduction gives the value's type; constexpr works.
static_assert(std::is_same_v<decltype(sweep::greater_than{5}), sweep::greater_than<int>>);
static_assert(std::is_same_v<decltype(sweep::less_or_equal{0.5f}), sweep::less_or_equal<float>>);
static_assert(std::is_same_v<decltype(sweep::nonzero{}), sweep::nonzero<void>>);
static_assert(sweep::greater_than{2}(3) && !sweep::greater_than{2}(2));
static_assert(sweep::greater_or_equal{2}(2) && !sweep::greater_or_equal{2}(1));
static_assert(sweep::less_than{2}(1) && !sweep::less_than{2}(2));
static_assert(sweep::less_or_equal{2}(2) && !sweep::less_or_equal{2}(3));
static_assert(sweep::equal_to_value{2}(2) && !sweep::equal_to_value{2}(3));
static_assert(sweep::not_equal_to_value{2}(3) && !sweep::not_equal_to_value{2}(2));
static_assert(sweep::nonzero{}(-1) && !sweep::nonzero{}(0) && !sweep::nonzero{}(0.0));
static_assert(!sweep::nonzero<int>{}(0.5), "nonzero<T> converts to T first, like std::plus<T>");

template <class T>
T at(std::int64_t v) {
    return static_cast<T>(v);
}

/// Every predicate on T: against the comparison, and in the four algorithms on seq, or (with
/// `parallel`) on seq, par, par with one thread and automatic.
template <bool Parallel, class T>
void check_type(std::uint64_t salt) {
    auto g = rng(salt);
    // A narrow range, so that every comparison with a value in it keeps a fair share.
    std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -5 : 0, 5);
    for (const std::int64_t n : {0, 1, 33, 1025, 65537, 262143}) {
        std::vector<T> in(static_cast<std::size_t>(n));
        for (auto& x : in) x = static_cast<T>(d(g));
        const T v = at<T>(std::is_signed_v<T> ? -1 : 2);
        INFO("n = " << n);

        auto one = [&](const char* what, auto pred, auto same) {
            INFO(what);
            // The predicate is the comparison.
            CHECK(std::all_of(in.begin(), in.end(), [&](const T& x) { return pred(x) == same(x); }));
            std::vector<T> want, want_f;
            std::copy_if(in.begin(), in.end(), std::back_inserter(want), same);
            std::remove_copy_if(in.begin(), in.end(), std::back_inserter(want_f), same);
            auto stable = want;
            stable.insert(stable.end(), want_f.begin(), want_f.end());
            auto policy = [&](const char* name, const auto& pol) {
                INFO("policy " << name);
                std::vector<T> got(in.size()), got_f(in.size());
                const auto e = sweep::copy_if(pol, in.begin(), in.end(), got.begin(), pred);
                CHECK(bit_mismatch(std::vector<T>(got.begin(), e), want) == "");
                const auto [et, ef] =
                    sweep::partition_copy(pol, in.begin(), in.end(), got.begin(), got_f.begin(), pred);
                CHECK(bit_mismatch(std::vector<T>(got.begin(), et), want) == "");
                CHECK(bit_mismatch(std::vector<T>(got_f.begin(), ef), want_f) == "");
                auto buf = in;
                const auto m = sweep::stable_partition(pol, buf.begin(), buf.end(), pred);
                CHECK(m - buf.begin() == static_cast<std::ptrdiff_t>(want.size()));
                CHECK(bit_mismatch(buf, stable) == "");
                buf = in;
                const auto m2 = sweep::partition(pol, buf.begin(), buf.end(), pred);
                CHECK(m2 - buf.begin() == static_cast<std::ptrdiff_t>(want.size()));
                CHECK(std::all_of(buf.begin(), m2, same));
                CHECK(std::none_of(m2, buf.end(), same));
            };
            // The policies that reach distinct backends, for two types (a predicate is a plain
            // functor to the algorithms: more pairs would add compile time, not coverage).
            if constexpr (Parallel) for_each_backend_policy(policy);
            else policy("sweep::seq", sweep::seq);
        };
        one("greater_than", sweep::greater_than<T>{v}, [v](T x) { return x > v; });
        one("greater_or_equal", sweep::greater_or_equal<T>{v}, [v](T x) { return x >= v; });
        one("less_than", sweep::less_than<T>{v}, [v](T x) { return x < v; });
        one("less_or_equal", sweep::less_or_equal<T>{v}, [v](T x) { return x <= v; });
        one("equal_to_value", sweep::equal_to_value<T>{v}, [v](T x) { return x == v; });
        one("not_equal_to_value", sweep::not_equal_to_value<T>{v}, [v](T x) { return x != v; });
        one("nonzero<>", sweep::nonzero<>{}, [](T x) { return x != T(0); });
        one("nonzero<T>", sweep::nonzero<T>{}, [](T x) { return x != T(0); });
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("comparison predicates: every arithmetic type on seq", "[predicates]",
                        arithmetic_types) {
    check_type<false, TestType>(9000);
}

TEST_CASE("comparison predicates: int32 and double on seq, par and automatic", "[predicates]") {
    check_type<true, std::int32_t>(9100);
    check_type<true, double>(9200);
}

TEST_CASE("comparison predicates compare as C++ compares", "[predicates]") {
    // greater_than<int>{2} on a double compares 2.5 > 2.0, it does not truncate 2.5 to 2.
    CHECK(sweep::greater_than<int>{2}(2.5));
    CHECK_FALSE(sweep::less_or_equal<int>{2}(2.5));
    // NaN is unordered and unequal to everything.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(sweep::greater_than{0.0}(nan));
    CHECK_FALSE(sweep::less_or_equal{0.0}(nan));
    CHECK_FALSE(sweep::equal_to_value{nan}(nan));
    CHECK(sweep::not_equal_to_value{nan}(nan));
    CHECK(sweep::nonzero<>{}(nan));
    CHECK_FALSE(sweep::nonzero<>{}(-0.0));
    // A stencil of another type, with copy_if's stencil form.
    const std::vector<double> values = {1.5, 2.5, 3.5, 4.5};
    const std::vector<std::int8_t> flags = {0, 3, 0, -1};
    std::vector<double> got(4);
    for_each_host_policy([&](const char* name, const auto& pol) {
        INFO("policy " << name);
        const auto e = sweep::copy_if(pol, values.begin(), values.end(), flags.begin(), got.begin(),
                                      sweep::nonzero<>{});
        CHECK(std::vector<double>(got.begin(), e) == std::vector<double>{2.5, 4.5});
    });
}
