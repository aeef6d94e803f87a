// test/par/comp_simd.cpp -- the SIMD scan pass of par's compensated sums (backend/tbb/
// comp_scan_simd.hpp): the eight-row block scan against the exact prefix sums and the documented
// bound, the AVX2 copy bitwise equal to the baseline copy, in place equal to out of place, row
// lengths at their edges (too short for rows, one row line, rows with a tail), infinities and NaNs
// inside the rows, and through the public API: thread-count independence and the tail of a call.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "numerics.hpp"
#include "random.hpp"

namespace {

using namespace sweep_test;

template <class T>
constexpr double unit_roundoff() {
    return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

template <class T>
bool same_bits_v(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

#if SWEEP_COMP_SIMD

namespace {

namespace cs = sweep::detail::tbb_backend::comp_simd;

/// Block lengths around the row geometry: rows_len is 0 below 8 rows of one cache line, then
/// odd multiples of a line a row, the rest a scalar tail.
template <class T>
std::vector<std::int64_t> block_lengths() {
    constexpr std::int64_t line = 64 / sizeof(T);
    std::vector<std::int64_t> v{1, 2, 8 * line - 1, 8 * line, 8 * line + 1, 16 * line - 1,
                                16 * line, 24 * line, 24 * line + 5, 5000,
                                sweep::detail::tbb_backend::scan_block - 1,
                                sweep::detail::tbb_backend::scan_block};
    return v;
}

/// One block through the given copy of the SIMD pass (or the scalar pass where the block is too
/// short); the carry is null for an inclusive scan without one.
template <bool Exclusive, class T, class Fn>
std::vector<T> run_block(Fn fn, const std::vector<T>& x, const sweep::detail::comp_sum<T>* carry) {
    std::vector<T> y(x.size(), T(-7));
    const auto len = static_cast<std::int64_t>(x.size());
    if (carry == nullptr) {
        if (cs::rows_len<T>(len - 1) == 0) return {};
        const sweep::detail::comp_sum<T> first{x[0], T(0)};
        y[0] = static_cast<T>(first);
        fn(x.data() + 1, y.data() + 1, len - 1, first);
    } else {
        if (cs::rows_len<T>(len) == 0) return {};
        fn(x.data(), y.data(), len, *carry);
    }
    return y;
}

template <class T, bool Exclusive>
void check_block_copies() {
    const double u = unit_roundoff<T>();
    for (const std::int64_t len : block_lengths<T>()) {
        for (const double cond : {1e2, 1e6}) {
            auto g = rng(static_cast<std::uint64_t>(len) * 31 + (Exclusive ? 7 : 0) +
                         (sizeof(T) == 4 ? 0 : 1000));
            const auto x = ill_conditioned<T>(static_cast<std::size_t>(len), cond, g);
            const T init = T(0.75);
            const sweep::detail::comp_sum<T> carry{init, T(0)};
            const sweep::detail::comp_sum<T>* pc = Exclusive ? &carry : nullptr;
            INFO((sizeof(T) == 4 ? "float" : "double") << (Exclusive ? " exclusive" : " inclusive")
                                                       << ", block length " << len << ", cond "
                                                       << cond << ", seed " << seed());
            const bool rows = cs::rows_len<T>(Exclusive ? len : len - 1) > 0;
            auto generic = run_block<Exclusive>(
                [](const T* a, T* b, std::int64_t n, sweep::detail::comp_sum<T> c) {
                    cs::block_scan_generic<Exclusive, T>(a, b, n, c);
                },
                x, pc);
            CHECK(generic.empty() == !rows);
            // The public entry: the same bits where it takes the rows, false where it does not.
            std::vector<T> via_entry(x.size(), T(-7));
            const bool took = cs::block_scan<Exclusive, T>(x.data(), via_entry.data(), len, pc);
            CHECK(took == rows);
            if (!rows) continue;
            CHECK(same_bits_v(via_entry, generic));
            const accuracy a =
                check_prefixes(x, generic, Exclusive, Exclusive ? double(init) : 0.0, u, Exclusive);
            INFO("first bad prefix " << a.first_bad << " = " << a.bad_result << ", exact "
                                     << a.bad_exact << ", bound " << a.bad_bound);
            CHECK(a.first_bad == -1);
#if SWEEP_COMP_SIMD_AVX2
            if (cs::has_avx2()) {
                const auto avx2 = run_block<Exclusive>(
                    [](const T* a, T* b, std::int64_t n, sweep::detail::comp_sum<T> c) {
                        cs::block_scan_avx2<Exclusive, T>(a, b, n, c);
                    },
                    x, pc);
                CHECK(same_bits_v(avx2, generic));
            }
#endif
            // In place: the same bits as out of place.
            std::vector<T> inplace = x;
            REQUIRE(cs::block_scan<Exclusive, T>(inplace.data(), inplace.data(), len, pc));
            CHECK(same_bits_v(inplace, generic));
        }
    }
}

}  // namespace

TEST_CASE("comp_simd: one block, float and double, inclusive and exclusive", "[par][numerics]") {
    check_block_copies<float, false>();
    check_block_copies<float, true>();
    check_block_copies<double, false>();
    check_block_copies<double, true>();
}

TEST_CASE("comp_simd: infinities and NaNs inside the rows pass through as in the plain sum",
          "[par][numerics]") {
    const std::size_t n = 3 * static_cast<std::size_t>(sweep::detail::tbb_backend::scan_block) + 333;
    auto g = rng(4242);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<double> x(n);
    for (auto& v : x) v = d(g);
    const double inf = std::numeric_limits<double>::infinity();
    // An overflow in row 2 of block 0, +inf in row 5 of block 1, then -inf (NaN from there on).
    x[9000] = 1e308;
    x[9001] = 1e308;
    x[32768 + 21000] = inf;
    x[2 * 32768 + 100] = -inf;
    std::vector<double> plain(n), comp(n);
    sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), plain.begin());
    sweep::inclusive_scan(sweep::par.compensated(), x.begin(), x.end(), comp.begin());
    std::size_t mismatches = 0, first = n;
    for (std::size_t i = 0; i < n; ++i) {
        const bool ok = std::isnan(plain[i]) ? std::isnan(comp[i])
                        : std::isinf(plain[i]) ? comp[i] == plain[i]
                                               : std::isfinite(comp[i]);
        if (!ok && mismatches++ == 0) first = i;
    }
    INFO("first mismatch at " << first << ", seed " << seed());
    CHECK(mismatches == 0);
    CHECK(std::isinf(comp[9001]));
    CHECK(std::isnan(comp[n - 1]));
}

#endif  // SWEEP_COMP_SIMD

TEST_CASE("comp_simd: par.compensated() is thread-count independent and in place matches",
          "[par][numerics]") {
    constexpr std::int64_t block = sweep::detail::tbb_backend::scan_block;
    for (const std::int64_t n : {block - 1, block, block + 1, 5 * block + 77}) {
        auto g = rng(static_cast<std::uint64_t>(n));
        const auto xf = ill_conditioned<float>(static_cast<std::size_t>(n), 1e5, g);
        std::vector<float> a(xf.size()), b(xf.size());
        INFO("n = " << n << ", seed " << seed());
        sweep::inclusive_scan(sweep::par.threads(1).compensated(), xf.begin(), xf.end(), a.begin());
        sweep::inclusive_scan(sweep::par.threads(3).compensated(), xf.begin(), xf.end(), b.begin());
        CHECK(same_bits_v(a, b));
        std::vector<float> inplace = xf;
        sweep::inclusive_scan(sweep::par.compensated(), inplace.begin(), inplace.end(),
                              inplace.begin());
        CHECK(same_bits_v(a, inplace));
        const accuracy acc = check_prefixes(xf, a, false, 0.0, unit_roundoff<float>(), false);
        INFO("first bad prefix " << acc.first_bad);
        CHECK(acc.first_bad == -1);

        const auto xd = ill_conditioned<double>(static_cast<std::size_t>(n), 1e12, g);
        std::vector<double> c(xd.size()), e(xd.size());
        sweep::exclusive_scan(sweep::par.threads(1).compensated(), xd.begin(), xd.end(), c.begin(),
                              -0.5);
        sweep::exclusive_scan(sweep::par.threads(2).compensated(), xd.begin(), xd.end(), e.begin(),
                              -0.5);
        CHECK(same_bits_v(c, e));
        const accuracy accd = check_prefixes(xd, c, true, -0.5, unit_roundoff<double>(), true);
        INFO("double exclusive: first bad prefix " << accd.first_bad);
        CHECK(accd.first_bad == -1);
    }
}
