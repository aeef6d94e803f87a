// test/noncommutative.cpp -- host tests: associative operators that are not commutative.
//
// Composition of affine maps and 2x2 matrix products over Z/2^32 (exact, so any association
// gives the same bits, but a swapped operand pair does not), and the record's first/last fields.
// The expected results are left folds written here by hand; every policy must match them, across
// block edges, in the scans, the by-key scans and the offset-segmented scans.
#include <cstdint>
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

template <class T, class Op>
std::vector<T> fold_inclusive(const std::vector<T>& x, Op op, const T* init) {
    std::vector<T> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = i == 0 ? (init ? op(*init, x[0]) : x[0]) : op(out[i - 1], x[i]);
    return out;
}

template <class T, class Op>
std::vector<T> fold_exclusive(const std::vector<T>& x, T init, Op op) {
    std::vector<T> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = i == 0 ? init : op(out[i - 1], x[i - 1]);
    return out;
}

template <class T, class Op>
void check_scans(const std::vector<T>& in, Op op, T init, bool all_policies) {
    const auto inc = fold_inclusive(in, op, static_cast<const T*>(nullptr));
    const auto inc_init = fold_inclusive(in, op, &init);
    const auto exc = fold_exclusive(in, init, op);
    std::vector<T> got(in.size());
    auto one = [&](const char* name, const auto& pol) {
        INFO("policy " << name);
        sweep::inclusive_scan(pol, in.begin(), in.end(), got.begin(), op);
        CHECK(mismatch(got, inc) == "");
        sweep::inclusive_scan(pol, in.begin(), in.end(), got.begin(), op, init);
        CHECK(mismatch(got, inc_init) == "");
        sweep::exclusive_scan(pol, in.begin(), in.end(), got.begin(), init, op);
        CHECK(mismatch(got, exc) == "");
    };
    if (all_policies) for_each_host_policy(one);
    else for_each_backend_policy(one);
}

std::vector<std::int64_t> sizes_with_large() {
    auto s = small_sizes();
    for (auto x : block_edge_sizes()) s.push_back(x);
    s.push_back(3'000'017);
    return s;
}

}  // namespace

TEST_CASE("non-commutative: affine map composition, every policy, block edges",
          "[noncommutative]") {
    // The operator really is non-commutative on these inputs (else the test proves nothing).
    const affine f{3, 1}, h{5, 7};
    REQUIRE(!(affine_then{}(f, h) == affine_then{}(h, f)));
    for (const auto n : sizes_with_large()) {
        INFO("n = " << n);
        auto g = rng(2000 + static_cast<std::uint64_t>(n));
        check_scans(random_affine(n, g), affine_then{}, affine{7, 9}, n < 1'000'000);
    }
}

TEST_CASE("non-commutative: 2x2 matrix product, every policy", "[noncommutative]") {
    const mat2 a{{1, 2, 3, 4}}, b{{0, 1, 1, 0}};
    REQUIRE(!(mat2_mul{}(a, b) == mat2_mul{}(b, a)));
    auto sizes = small_sizes();
    for (std::int64_t s : {1023, 1024, 1025, 4097, 65535, 65537, 1048577}) sizes.push_back(s);
    for (const auto n : sizes) {
        INFO("n = " << n);
        auto g = rng(2100 + static_cast<std::uint64_t>(n));
        check_scans(random_mat2(n, g), mat2_mul{}, mat2{{1, 0, 0, 1}}, true);
    }
}

TEST_CASE("non-commutative: the 24-byte record (first/last fields), every policy",
          "[noncommutative]") {
    for (const std::int64_t n : {0, 1, 2, 1023, 1025, 131073}) {
        INFO("n = " << n);
        auto g = rng(2200 + static_cast<std::uint64_t>(n));
        check_scans(random_values<rec24>(n, g), rec24_op{}, rec24{1, 2, 3, 4, 5}, true);
    }
}

TEST_CASE("non-commutative: by-key and offset-segmented scans of affine maps", "[noncommutative]") {
    for (const std::int64_t n : {0, 1, 2, 33, 1025, 65537, 1048577}) {
        INFO("n = " << n);
        auto g = rng(2300 + static_cast<std::uint64_t>(n));
        const auto in = random_affine(n, g);
        const auto keys = random_run_keys(n, 300, g);
        const auto kheads = heads_from_keys(keys, std::equal_to<>{});
        const auto offs = random_offsets(n, n / 500 + 2, g);
        const auto oheads = heads_from_offsets(offs, in.size());
        const affine init{11, 13};
        const auto by_key_inc = segmented_inclusive(in, kheads, affine_then{});
        const auto by_key_exc = segmented_exclusive(in, kheads, init, affine_then{});
        const auto seg_inc = segmented_inclusive(in, oheads, affine_then{});
        const auto seg_exc = segmented_exclusive(in, oheads, init, affine_then{});
        std::vector<affine> got(in.size());
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name);
            sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                         std::equal_to<>{}, affine_then{});
            CHECK(mismatch(got, by_key_inc) == "");
            sweep::exclusive_scan_by_key(pol, keys.begin(), keys.end(), in.begin(), got.begin(),
                                         init, std::equal_to<>{}, affine_then{});
            CHECK(mismatch(got, by_key_exc) == "");
            const auto segs = sweep::offsets(offs.begin(), offs.end());
            sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), got.begin(), segs,
                                            affine_then{});
            CHECK(mismatch(got, seg_inc) == "");
            sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), got.begin(), segs, init,
                                            affine_then{});
            CHECK(mismatch(got, seg_exc) == "");
        });
    }
}
