// test/transform_scan.cpp -- host tests: transform_inclusive_scan and transform_exclusive_scan.
//
// seq against std::transform_*_scan; every host policy against seq. The transforms capture state
// (a lookup table held by value, a factor, a reference to a table), change the element type
// (uint8 -> int64: the accumulator of the no-init form is the transform's result type), and
// the record type runs with its own operator.
#include <cstdint>
#include <numeric>
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

// A transform of T with captured state: a 256-entry table (by value, so every copy a backend
// makes carries it) and a factor.
template <class T>
auto table_transform(std::mt19937_64& g) {
    std::vector<std::int64_t> table(256);
    for (auto& t : table) t = static_cast<std::int64_t>(g() % 2001) - 1000;
    const std::int64_t factor = 3;
    return [table, factor](const T& x) -> std::int64_t {
        std::uint64_t h;
        if constexpr (std::is_same_v<T, rec24>) h = x.first;
        else h = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
        return table[h & 255] * factor;
    };
}

template <class T>
void check_type(const std::vector<std::int64_t>& sizes, std::uint64_t salt) {
    for (const auto n : sizes) {
        INFO("n = " << n);
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto in = random_values<T>(n, g);
        const auto f = table_transform<T>(g);
        const auto op = sweep::plus<>{};
        const std::int64_t init = -77;
        std::vector<std::int64_t> inc(in.size()), inc_init(in.size()), exc(in.size());

        // The oracle: seq against std::.
        std::vector<std::int64_t> want(in.size());
        CHECK(sweep::transform_inclusive_scan(sweep::seq, in.begin(), in.end(), inc.begin(), op,
                                              f) == inc.end());
        std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), op, f);
        CHECK(mismatch(inc, want) == "");
        CHECK(sweep::transform_inclusive_scan(sweep::seq, in.begin(), in.end(), inc_init.begin(),
                                              op, f, init) == inc_init.end());
        std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), op, f, init);
        CHECK(mismatch(inc_init, want) == "");
        CHECK(sweep::transform_exclusive_scan(sweep::seq, in.begin(), in.end(), exc.begin(), init,
                                              op, f) == exc.end());
        std::transform_exclusive_scan(in.begin(), in.end(), want.begin(), init, op, f);
        CHECK(mismatch(exc, want) == "");

        std::vector<std::int64_t> got(in.size());
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            std::fill(got.begin(), got.end(), 0);
            CHECK(sweep::transform_inclusive_scan(pol, in.begin(), in.end(), got.begin(), op, f) ==
                  got.end());
            CHECK(mismatch(got, inc) == "");
            std::fill(got.begin(), got.end(), 0);
            sweep::transform_inclusive_scan(pol, in.begin(), in.end(), got.begin(), op, f, init);
            CHECK(mismatch(got, inc_init) == "");
            std::fill(got.begin(), got.end(), 0);
            sweep::transform_exclusive_scan(pol, in.begin(), in.end(), got.begin(), init, op, f);
            CHECK(mismatch(got, exc) == "");
        });
    }
}

}  // namespace

TEMPLATE_TEST_CASE("transform scans: capturing transform to int64, every policy", "[transform_scan]",
                   std::uint8_t, std::int16_t, std::uint32_t, std::int64_t, double, rec24) {
    check_type<TestType>(family_sizes(), 1000);
}

TEST_CASE("transform scans: int32 over block edges and large sizes", "[transform_scan][large]") {
    auto sizes = small_sizes();
    for (auto s : block_edge_sizes()) sizes.push_back(s);
    sizes.push_back(3'000'017);
    check_type<std::int32_t>(sizes, 1100);
}

TEST_CASE("transform scans: transform keeps the element type, op is not plus",
          "[transform_scan]") {
    // x -> x*x as uint32 (wraps), scanned with max; and the record transformed into a record.
    for (const std::int64_t n : {0, 1, 1025, 65537}) {
        INFO("n = " << n);
        auto g = rng(1200 + static_cast<std::uint64_t>(n));
        const auto in = random_values<std::uint32_t>(n, g);
        const auto sq = [](std::uint32_t x) { return x * x; };
        std::vector<std::uint32_t> want(in.size()), got(in.size());
        std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), sweep::maximum<>{}, sq);
        const auto recs = random_values<rec24>(n, g);
        const auto flip = [](rec24 r) { r.lo = -r.lo; r.hi = -r.hi; std::swap(r.lo, r.hi); return r; };
        std::vector<rec24> rwant(recs.size()), rgot(recs.size());
        const rec24 rinit{1, 0, 0, 5, 5};
        std::transform_exclusive_scan(recs.begin(), recs.end(), rwant.begin(), rinit, rec24_op{},
                                      flip);
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            sweep::transform_inclusive_scan(pol, in.begin(), in.end(), got.begin(),
                                            sweep::maximum<>{}, sq);
            CHECK(mismatch(got, want) == "");
            sweep::transform_exclusive_scan(pol, recs.begin(), recs.end(), rgot.begin(), rinit,
                                            rec24_op{}, flip);
            CHECK(mismatch(rgot, rwant) == "");
        });
    }
}

TEST_CASE("transform scans: a transform that reads a captured table by reference",
          "[transform_scan]") {
    auto g = rng(1300);
    std::vector<double> weights(1024);
    for (auto& w : weights) w = static_cast<double>(g() % 64);  // integer-valued: sums are exact
    const auto lookup = [&weights](std::uint32_t i) { return weights[i & 1023]; };
    for (const std::int64_t n : {0, 2, 1023, 1024, 1025, 1048577}) {
        INFO("n = " << n);
        const auto in = random_values<std::uint32_t>(n, g);
        std::vector<double> want(in.size()), got(in.size());
        std::transform_exclusive_scan(in.begin(), in.end(), want.begin(), 0.5, std::plus<>{},
                                      lookup);
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            sweep::transform_exclusive_scan(pol, in.begin(), in.end(), got.begin(), 0.5,
                                            std::plus<>{}, lookup);
            CHECK(mismatch(got, want) == "");
        });
    }
}

TEST_CASE("transform scans: Thrust's argument order (unary_op first) gives the standard's results",
          "[transform_scan][thrust_order]") {
    const std::uint64_t salt = 9100;
    INFO("seed " << sweep_test::seed() << " salt " << salt);
    auto g = sweep_test::rng(salt);
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000},
                                 std::int64_t{100'003}}) {
        INFO("n = " << n);
        std::vector<std::int32_t> x(static_cast<std::size_t>(n));
        for (auto& v : x) v = static_cast<std::int32_t>(g() % 201) - 100;
        auto sq = [](std::int32_t v) { return static_cast<std::int64_t>(v) * v; };
        const std::plus<std::int64_t> add;
        std::vector<std::int64_t> want(x.size()), got(x.size());
        sweep_test::for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            // (unary_op, op) == (op, unary_op)
            sweep::transform_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), add, sq);
            sweep::transform_inclusive_scan(pol, x.begin(), x.end(), got.begin(), sq, add);
            CHECK(got == want);
            // (unary_op, init, op) == (op, unary_op, init)
            sweep::transform_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), add, sq,
                                            std::int64_t{7});
            sweep::transform_inclusive_scan(pol, x.begin(), x.end(), got.begin(), sq,
                                            std::int64_t{7}, add);
            CHECK(got == want);
            // exclusive: (unary_op, init, op) == (init, op, unary_op)
            sweep::transform_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            std::int64_t{-5}, add, sq);
            sweep::transform_exclusive_scan(pol, x.begin(), x.end(), got.begin(), sq,
                                            std::int64_t{-5}, add);
            CHECK(got == want);
        });
        // The standard order itself matches std::.
        std::vector<std::int64_t> ref(x.size());
        std::transform_exclusive_scan(x.begin(), x.end(), ref.begin(), std::int64_t{-5}, add, sq);
        sweep::transform_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        std::int64_t{-5}, add, sq);
        CHECK(want == ref);
    }
}
