// test/copy_if.cpp -- host tests: copy_if, plain and with a stencil.
//
// seq against std::copy_if (and a hand loop for the stencil form, which the standard lacks);
// every host policy against seq, for every element type and selectivities 0 % to 100 %. The
// output is prefilled with a sentinel: past the returned end nothing may be written.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <sweep/copy_if.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "policies.hpp"
#include "sizes.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

template <class T>
T sentinel() {
    if constexpr (std::is_same_v<T, rec24>) return rec24{0xDEAD, -1, -1, 0xBEEF, 0xBEEF};
    else return T(42);
}

template <class T>
void check_copy_if(const std::vector<std::int64_t>& sizes, std::uint64_t salt, bool all_policies) {
    for (const auto n : sizes) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto in = random_mixed<T>(n, g);
        std::vector<std::uint8_t> stencil(in.size());
        for (auto& s : stencil) s = static_cast<std::uint8_t>(g());
        for (const unsigned pct : {0u, 1u, 50u, 99u, 100u}) {
            INFO("n = " << n << ", keep " << pct << " %");
            const keep_percent<T> pred{pct};
            const auto spred = [pct](std::uint8_t s) { return s * 100u < pct * 256u; };

            std::vector<T> want;
            std::copy_if(in.begin(), in.end(), std::back_inserter(want), pred);
            std::vector<T> got(in.size() + 1, sentinel<T>());
            auto end = sweep::copy_if(sweep::seq, in.begin(), in.end(), got.begin(), pred);
            REQUIRE(end - got.begin() == static_cast<std::ptrdiff_t>(want.size()));
            CHECK(bit_mismatch(std::vector<T>(got.begin(), end), want) == "");
            std::vector<T> swant;
            for (std::size_t i = 0; i < in.size(); ++i)
                if (spred(stencil[i])) swant.push_back(in[i]);

            auto one = [&](const char* name, const auto& pol) {
                INFO("policy " << name);
                std::fill(got.begin(), got.end(), sentinel<T>());
                auto e = sweep::copy_if(pol, in.begin(), in.end(), got.begin(), pred);
                REQUIRE(e - got.begin() == static_cast<std::ptrdiff_t>(want.size()));
                CHECK(bit_mismatch(std::vector<T>(got.begin(), e), want) == "");
                CHECK(std::all_of(e, got.end(), [](const T& x) { return x == sentinel<T>(); }));

                std::fill(got.begin(), got.end(), sentinel<T>());
                e = sweep::copy_if(pol, in.begin(), in.end(), stencil.begin(), got.begin(), spred);
                REQUIRE(e - got.begin() == static_cast<std::ptrdiff_t>(swant.size()));
                CHECK(bit_mismatch(std::vector<T>(got.begin(), e), swant) == "");
                CHECK(std::all_of(e, got.end(), [](const T& x) { return x == sentinel<T>(); }));
            };
            if (all_policies) for_each_host_policy(one);
            else for_each_backend_policy(one);
        }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("copy_if: every element type, every policy, against seq and std::",
                        "[copy_if]", element_types) {
    check_copy_if<TestType>(family_sizes(), 4000, true);
}

TEST_CASE("copy_if: int32 over block edges and large sizes", "[copy_if][large]") {
    auto sizes = small_sizes();
    for (auto s : block_edge_sizes()) sizes.push_back(s);
    check_copy_if<std::int32_t>(sizes, 4100, true);
    check_copy_if<std::int32_t>(large_sizes(), 4200, false);
}

TEST_CASE("copy_if: a stateful predicate reading a captured table, stencil of another type",
          "[copy_if]") {
    auto g = rng(4300);
    std::vector<bool> allowed(4096);
    for (std::size_t i = 0; i < allowed.size(); ++i) allowed[i] = g() % 3 == 0;
    const auto pred = [&allowed](std::int64_t s) { return allowed[static_cast<std::size_t>(s) & 4095]; };
    for (const std::int64_t n : {0, 1, 4095, 4096, 4097, 1048577}) {
        INFO("n = " << n);
        const auto in = random_values<double>(n, g);
        const auto st = random_values<std::int64_t>(n, g);
        std::vector<double> want, got(in.size());
        for (std::size_t i = 0; i < in.size(); ++i)
            if (pred(st[i])) want.push_back(in[i]);
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            const auto e = sweep::copy_if(pol, in.begin(), in.end(), st.begin(), got.begin(), pred);
            CHECK(bit_mismatch(std::vector<double>(got.begin(), e), want) == "");
        });
    }
}
