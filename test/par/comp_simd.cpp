// test/par/comp_simd.cpp -- the SIMD passes of par's compensated sums (backend/tbb/
// comp_scan_simd.hpp): the eight-row block scan against the exact prefix sums and the documented
// bound, inclusive with and without a carry-in and exclusive; the reduce at every short length;
// the AVX2 copy bitwise equal to the baseline copy, in place equal to out of place; row lengths at
// their edges (too short for rows, one line a row, rows with a tail); infinities and NaNs inside
// the rows on both copies; and through the public API: that the calls take the SIMD path (type
// traits, and the bits of a one-block call), thread-count independence, in place, init, raw
// pointers and const iterators.
#include <array>
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
using sweep::detail::comp_sum;

template <class T>
constexpr double unit_roundoff() {
    return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

template <class T>
bool same_bits_v(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// The plain sum's non-finite prefixes are the compensated sum's: NaN where it is NaN, the same
/// infinity where it is infinite, finite elsewhere. Returns the first index that breaks it, or -1.
template <class T>
std::int64_t first_nonfinite_mismatch(const std::vector<T>& plain, const std::vector<T>& comp) {
    for (std::size_t i = 0; i < plain.size(); ++i) {
        const bool ok = std::isnan(plain[i])   ? std::isnan(comp[i])
                        : std::isinf(plain[i]) ? comp[i] == plain[i]
                                               : std::isfinite(comp[i]);
        if (!ok) return static_cast<std::int64_t>(i);
    }
    return -1;
}

}  // namespace

#if SWEEP_COMP_SIMD

namespace {

namespace cs = sweep::detail::tbb_backend::comp_simd;
namespace tb = sweep::detail::tbb_backend;

// The public calls' types take the SIMD passes (the accumulator, operator and transform that
// scan_entry makes of a .compensated() call, with the iterator kinds users pass).
template <class T, class In, class Out>
constexpr bool takes_simd_v =
    tb::comp_simd_scan_v<comp_sum<T>, In, Out, sweep::detail::comp_plus<T>,
                         sweep::detail::to_comp<T, sweep::detail::identity>>;
static_assert(takes_simd_v<float, std::vector<float>::iterator, std::vector<float>::iterator>);
static_assert(takes_simd_v<float, std::vector<float>::const_iterator, std::vector<float>::iterator>);
static_assert(takes_simd_v<double, const double*, double*>);
static_assert(takes_simd_v<double, double*, std::array<double, 4>::iterator>);
static_assert(!takes_simd_v<float, const float*, double*>);  // output of another type: scalar pass

/// Block lengths around the row geometry: rows_len is 0 below 8 rows of one cache line, then
/// odd multiples of a line a row, the rest a scalar tail.
template <class T>
std::vector<std::int64_t> block_lengths() {
    constexpr std::int64_t line = 64 / sizeof(T);
    return {1, 2, 8 * line - 1, 8 * line, 8 * line + 1, 16 * line - 1, 16 * line, 24 * line,
            24 * line + 5, 5000, tb::scan_block - 1, tb::scan_block};
}

enum class mode { inclusive, inclusive_carry, exclusive };

/// One block through the given copy of the SIMD pass; empty where the block is too short for
/// rows. carry: null for an inclusive scan without one.
template <bool Exclusive, class T, class Fn>
std::vector<T> run_block(Fn fn, const std::vector<T>& x, const comp_sum<T>* carry) {
    std::vector<T> y(x.size(), T(-7));
    const auto len = static_cast<std::int64_t>(x.size());
    if (carry == nullptr) {
        if (cs::rows_len<T>(len - 1) == 0) return {};
        const comp_sum<T> first{x[0], T(0)};
        y[0] = static_cast<T>(first);
        fn(x.data() + 1, y.data() + 1, len - 1, first);
    } else {
        if (cs::rows_len<T>(len) == 0) return {};
        fn(x.data(), y.data(), len, *carry);
    }
    return y;
}

enum class copy { generic, avx2 };

/// One block through the chosen copy of the SIMD pass (avx2 only where SWEEP_COMP_SIMD_AVX2).
template <bool Exclusive, copy C = copy::generic, class T>
std::vector<T> run_copy(const std::vector<T>& x, const comp_sum<T>* carry) {
    return run_block<Exclusive>(
        [](const T* a, T* b, std::int64_t n, comp_sum<T> c) {
#if SWEEP_COMP_SIMD_AVX2
            if constexpr (C == copy::avx2) {
                cs::block_scan_avx2<Exclusive, T>(a, b, n, c);
                return;
            }
#endif
            cs::block_scan_generic<Exclusive, T>(a, b, n, c);
        },
        x, carry);
}

template <class T, mode M>
void check_block_copies() {
    constexpr bool Exclusive = M == mode::exclusive;
    const double u = unit_roundoff<T>();
    for (const std::int64_t len : block_lengths<T>()) {
        for (const double cond : {1e2, 1e6}) {
            auto g = rng(static_cast<std::uint64_t>(len) * 31 + static_cast<std::uint64_t>(M) * 7 +
                         (sizeof(T) == 4 ? 0 : 1000));
            const auto x = ill_conditioned<T>(static_cast<std::size_t>(len), cond, g);
            const T init = T(0.75);
            const comp_sum<T> carry{init, T(0)};
            const comp_sum<T>* pc = M == mode::inclusive ? nullptr : &carry;
            INFO((sizeof(T) == 4 ? "float" : "double")
                 << (M == mode::exclusive         ? " exclusive"
                     : M == mode::inclusive_carry ? " inclusive with a carry-in"
                                                  : " inclusive")
                 << ", block length " << len << ", cond " << cond << ", seed " << seed());
            const bool rows = cs::rows_len<T>(pc ? len : len - 1) > 0;
            const auto generic = run_copy<Exclusive>(x, pc);
            CHECK(generic.empty() == !rows);
            // The entry: the same bits where it takes the rows, false where it does not.
            std::vector<T> via_entry(x.size(), T(-7));
            const bool took = cs::block_scan<Exclusive, T>(x.data(), via_entry.data(), len, pc);
            CHECK(took == rows);
            if (!rows) continue;
            CHECK(same_bits_v(via_entry, generic));
            const accuracy a = check_prefixes(x, generic, Exclusive, pc ? double(init) : 0.0, u,
                                              pc != nullptr);
            INFO("first bad prefix " << a.first_bad << " = " << a.bad_result << ", exact "
                                     << a.bad_exact << ", bound " << a.bad_bound);
            CHECK(a.first_bad == -1);
#if SWEEP_COMP_SIMD_AVX2
            if (cs::has_avx2()) CHECK(same_bits_v(run_copy<Exclusive, copy::avx2>(x, pc), generic));
#endif
            // In place: the same bits as out of place.
            std::vector<T> inplace = x;
            REQUIRE(cs::block_scan<Exclusive, T>(inplace.data(), inplace.data(), len, pc));
            CHECK(same_bits_v(inplace, generic));
        }
    }
}

template <class T>
void check_reduce() {
    const double u = unit_roundoff<T>();
    std::vector<std::int64_t> lengths;
    for (std::int64_t n = 1; n <= 40; ++n) lengths.push_back(n);
    for (const std::int64_t n : {63, 64, 65, 1000, 32768}) lengths.push_back(n);
    for (const std::int64_t n : lengths) {
        auto g = rng(static_cast<std::uint64_t>(n) + (sizeof(T) == 4 ? 50 : 90));
        const auto x = ill_conditioned<T>(static_cast<std::size_t>(n), 1e6, g);
        INFO((sizeof(T) == 4 ? "float" : "double") << " reduce, n = " << n << ", seed " << seed());
        const comp_sum<T> r = cs::reduce_generic(x.data(), n);
        // The reduction is the last prefix: within the bound like every prefix.
        exact_sum e;
        double abs_sum = 0;
        for (const T v : x) {
            e.add(double(v));
            abs_sum += std::fabs(double(v));
        }
        const double S = e.value();
        const double err = std::fabs(e.error_of(double(static_cast<T>(r))));
        const double bound = compensated_bound(S, abs_sum * 1.0001, double(n), u);
        INFO("result " << double(static_cast<T>(r)) << ", exact " << S << ", error " << err
                       << ", bound " << bound);
        CHECK(err <= bound);
#if SWEEP_COMP_SIMD_AVX2
        if (cs::has_avx2()) {
            const comp_sum<T> r2 = cs::reduce_avx2(x.data(), n);
            CHECK(std::memcmp(&r2, &r, sizeof r) == 0);
        }
#endif
        const comp_sum<T> r3 = cs::reduce(x.data(), n);
        CHECK(std::memcmp(&r3, &r, sizeof r) == 0);
    }
}

/// Infinities and NaNs inside the rows of one block, on both copies: the same bits from each, and
/// the plain sum's non-finite prefixes.
template <class T>
void check_nonfinite_block() {
    const std::int64_t len = 5000;
    auto g = rng(sizeof(T) == 4 ? 31337 : 31338);
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<T> x(static_cast<std::size_t>(len));
    for (auto& v : x) v = static_cast<T>(d(g));
    const T big = std::numeric_limits<T>::max();
    const T inf = std::numeric_limits<T>::infinity();
    const std::int64_t L = cs::rows_len<T>(len);
    x[static_cast<std::size_t>(L + 3)] = big;  // row 1 overflows
    x[static_cast<std::size_t>(L + 4)] = big;
    x[static_cast<std::size_t>(4 * L + 10)] = -inf;  // row 4: -inf onto +inf, NaN from here
    const comp_sum<T> carry{T(0.5), T(0)};
    std::vector<T> plain(x.size());
    T acc = T(0.5);
    for (std::size_t i = 0; i < x.size(); ++i) plain[i] = acc = acc + x[i];
    const auto generic = run_copy<false>(x, &carry);
    INFO((sizeof(T) == 4 ? "float" : "double") << ", seed " << seed());
    REQUIRE(!generic.empty());
    CHECK(first_nonfinite_mismatch(plain, generic) == -1);
    CHECK(std::isinf(generic[static_cast<std::size_t>(L + 4)]));
    CHECK(std::isnan(generic.back()));
#if SWEEP_COMP_SIMD_AVX2
    if (cs::has_avx2()) CHECK(same_bits_v(run_copy<false, copy::avx2>(x, &carry), generic));
#endif
}

}  // namespace

TEST_CASE("comp_simd: one block, float and double, inclusive (with and without a carry-in) and "
          "exclusive",
          "[par][numerics]") {
    check_block_copies<float, mode::inclusive>();
    check_block_copies<float, mode::inclusive_carry>();
    check_block_copies<float, mode::exclusive>();
    check_block_copies<double, mode::inclusive>();
    check_block_copies<double, mode::inclusive_carry>();
    check_block_copies<double, mode::exclusive>();
}

TEST_CASE("comp_simd: the reduce at every short length, both copies", "[par][numerics]") {
    check_reduce<float>();
    check_reduce<double>();
}

TEST_CASE("comp_simd: infinities and NaNs inside the rows, both copies", "[par][numerics]") {
    check_nonfinite_block<float>();
    check_nonfinite_block<double>();
}

TEST_CASE("comp_simd: a one-block public call has the bits of the SIMD block scan",
          "[par][numerics]") {
    // Data so ill-conditioned that the compensated prefixes depend on the association (far past
    // cond ~ 1 / (m^2 u)), so that the scalar order (seq's, the scalar pass's) gives other bits:
    // required, or the comparison could not tell the paths apart. A draw can still round the same
    // both ways (about one in twenty for double), so up to 8 draws are tried for one that does not.
    for (const std::size_t n : {std::size_t{5000}, std::size_t{20000}}) {
        auto g = rng(n + 5);
        INFO("n = " << n << ", seed " << seed());
        bool told_f = false, told_d = false;
        for (int draw = 0; !told_f && draw < 8; ++draw) {
            const auto x = ill_conditioned<float>(n, 1e30, g);
            std::vector<float> want(n), got(n), scalar(n);
            REQUIRE(cs::block_scan<false, float>(x.data(), want.data(),
                                                 static_cast<std::int64_t>(n), nullptr));
            sweep::inclusive_scan(sweep::seq.compensated(), x.begin(), x.end(), scalar.begin());
            if (same_bits_v(scalar, want)) continue;
            told_f = true;
            sweep::inclusive_scan(sweep::par.compensated(), x.begin(), x.end(), got.begin());
            CHECK(same_bits_v(got, want));
        }
        for (int draw = 0; !told_d && draw < 8; ++draw) {
            const auto xd = ill_conditioned<double>(n, 1e200, g);
            std::vector<double> wantd(n), gotd(n), scalard(n);
            const comp_sum<double> init{-2.5, 0.0};
            REQUIRE(cs::block_scan<true, double>(xd.data(), wantd.data(),
                                                 static_cast<std::int64_t>(n), &init));
            sweep::exclusive_scan(sweep::seq.compensated(), xd.begin(), xd.end(), scalard.begin(),
                                  -2.5);
            if (same_bits_v(scalard, wantd)) continue;
            told_d = true;
            const double* first = xd.data();
            sweep::exclusive_scan(sweep::par.compensated(), first, first + n, gotd.data(), -2.5);
            CHECK(same_bits_v(gotd, wantd));
        }
        CHECK(told_f);  // a float draw told the SIMD order from the scalar one
        CHECK(told_d);
    }
}

#endif  // SWEEP_COMP_SIMD

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
    INFO("seed " << seed());
    CHECK(first_nonfinite_mismatch(plain, comp) == -1);
    CHECK(std::isinf(comp[9001]));
    CHECK(std::isnan(comp[n - 1]));
}

TEST_CASE("comp_simd: par.compensated() is thread-count independent; in place, init, raw "
          "pointers and const iterators agree",
          "[par][numerics]") {
    constexpr std::int64_t block = sweep::detail::tbb_backend::scan_block;
    for (const std::int64_t n : {block - 1, block, block + 1, 5 * block + 77}) {
        auto g = rng(static_cast<std::uint64_t>(n));
        const auto xf = ill_conditioned<float>(static_cast<std::size_t>(n), 1e5, g);
        std::vector<float> a(xf.size()), b(xf.size());
        INFO("n = " << n << ", seed " << seed());
        sweep::inclusive_scan(sweep::par.threads(1).compensated(), xf.begin(), xf.end(), a.begin());
        sweep::inclusive_scan(sweep::par.threads(3).compensated(), xf.cbegin(), xf.cend(), b.begin());
        CHECK(same_bits_v(a, b));
        std::vector<float> inplace = xf;
        sweep::inclusive_scan(sweep::par.compensated(), inplace.begin(), inplace.end(),
                              inplace.begin());
        CHECK(same_bits_v(a, inplace));
        const accuracy acc = check_prefixes(xf, a, false, 0.0, unit_roundoff<float>(), false);
        INFO("first bad prefix " << acc.first_bad);
        CHECK(acc.first_bad == -1);
        // Inclusive with an init: within the bound, and thread-count independent.
        sweep::inclusive_scan(sweep::par.threads(1).compensated(), xf.begin(), xf.end(), a.begin(),
                              sweep::plus<>{}, 3.25f);
        sweep::inclusive_scan(sweep::par.threads(2).compensated(), xf.data(), xf.data() + n,
                              b.data(), sweep::plus<>{}, 3.25f);
        CHECK(same_bits_v(a, b));
        const accuracy ai = check_prefixes(xf, a, false, 3.25, unit_roundoff<float>(), true);
        INFO("inclusive with init: first bad prefix " << ai.first_bad);
        CHECK(ai.first_bad == -1);

        const auto xd = ill_conditioned<double>(static_cast<std::size_t>(n), 1e12, g);
        std::vector<double> c(xd.size()), e(xd.size());
        sweep::exclusive_scan(sweep::par.threads(1).compensated(), xd.begin(), xd.end(), c.begin(),
                              -0.5);
        sweep::exclusive_scan(sweep::par.threads(2).compensated(), xd.data(), xd.data() + n,
                              e.data(), -0.5);
        CHECK(same_bits_v(c, e));
        const accuracy accd = check_prefixes(xd, c, true, -0.5, unit_roundoff<double>(), true);
        INFO("double exclusive: first bad prefix " << accd.first_bad);
        CHECK(accd.first_bad == -1);
        // Exclusive in place.
        std::vector<double> inplace_d = xd;
        sweep::exclusive_scan(sweep::par.compensated(), inplace_d.begin(), inplace_d.end(),
                              inplace_d.begin(), -0.5);
        CHECK(same_bits_v(c, inplace_d));
    }
}
