// test/numerics.cpp -- .deterministic() and .compensated() on the host policies.
//
// Deterministic: the bits of every output equal sweep::seq.deterministic()'s on par at 1, 2, 3 and
// all threads and on automatic, for float and double sums, float min (NaNs included), a user
// operator on floats (affine-map composition: not commutative) and transform scans, inclusive and
// exclusive, with and without init, at the canonical tile edges. Exact data (small integers) and
// exact operators (integers) also equal the plain seq scan, which catches a tree that drops or
// repeats an element. (test/gpu/numerics_*.cu: the GPU gives the same bits.)
//
// Compensated: every prefix is within the bound of docs/numerics.md against an exact
// superaccumulator, on ill-conditioned sums (condition up to 1e16), cancelling pairs and values
// over 600 binades; the plain scan's errors are printed beside, not asserted.
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "numerics.hpp"
#include "numerics_cases.hpp"
#include "random.hpp"

using namespace sweep_test;

namespace {

/// f(name, policy) for every host policy with .deterministic().
template <class F>
void for_each_deterministic(F&& f) {
    f("seq.deterministic()", sweep::seq.deterministic());
    f("par.deterministic()", sweep::par.deterministic());
    f("par.threads(1).deterministic()", sweep::par.threads(1).deterministic());
    f("par.threads(2).deterministic()", sweep::par.threads(2).deterministic());
    f("par.deterministic().threads(3)", sweep::par.deterministic().threads(3));
    f("automatic.deterministic()", sweep::automatic.deterministic());
}

/// Runs `scan(policy, in, out)` under every deterministic host policy and requires the bits of
/// seq.deterministic()'s result.
template <class T, class Scan>
void expect_same_bits(const char* what, const std::vector<T>& in, Scan scan) {
    std::vector<T> want(in.size());
    scan(sweep::seq.deterministic(), in, want);
    for_each_deterministic([&](const char* name, auto policy) {
        std::vector<T> got(in.size());
        scan(policy, in, got);
        INFO(what << " under " << name << ", n = " << in.size() << ", seed "
                  << sweep_test::seed() << ": first differing index "
                  << first_difference(got, want));
        CHECK(same_bits(got, want));
    });
}

template <class T>
void bitwise_sums(std::uint64_t salt) {
    std::vector<std::int64_t> sizes = canonical_edges<T>({1'000'003});
    if (numerics_max_n(0) > 0) sizes.push_back(numerics_max_n(0));  // e.g. 2^26
    for (const std::int64_t n : sizes) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto x = uniform_values<T>(static_cast<std::size_t>(n), g);
        expect_same_bits<T>("inclusive sum", x, [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin());
        });
        expect_same_bits<T>("inclusive sum, init", x, [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), std::plus<>{}, T(0.5));
        });
        expect_same_bits<T>("exclusive sum", x, [](auto p, const auto& in, auto& out) {
            sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), T(-0.25));
        });
        expect_same_bits<T>("transform inclusive", x, [](auto p, const auto& in, auto& out) {
            sweep::transform_inclusive_scan(p, in.begin(), in.end(), out.begin(), sweep::plus<>{},
                                            scale_shift{});
        });
        expect_same_bits<T>("transform exclusive", x, [](auto p, const auto& in, auto& out) {
            sweep::transform_exclusive_scan(p, in.begin(), in.end(), out.begin(), T(1),
                                            sweep::plus<>{}, scale_shift{});
        });
        expect_same_bits<T>("compensated + deterministic", x,
                            [](auto p, const auto& in, auto& out) {
                                sweep::inclusive_scan(p.compensated(), in.begin(), in.end(),
                                                      out.begin());
                            });
    }
}

}  // namespace

TEST_CASE("deterministic: float sums have the same bits on every host policy", "[numerics]") {
    bitwise_sums<float>(100);
}

TEST_CASE("deterministic: double sums have the same bits on every host policy", "[numerics]") {
    bitwise_sums<double>(200);
}

TEST_CASE("deterministic: float min (with NaNs) and affine maps", "[numerics]") {
    for (const std::int64_t n : canonical_edges<affinef>({700'001})) {
        auto g = rng(300 + static_cast<std::uint64_t>(n));
        const auto x = values_with_nans(static_cast<std::size_t>(n), g);
        expect_same_bits<float>("float min", x, [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), sweep::minimum<>{});
        });
        expect_same_bits<float>("float max, exclusive", x, [](auto p, const auto& in, auto& out) {
            sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(), -2.0f,
                                  sweep::maximum<float>{});
        });
        const auto a = affine_values(static_cast<std::size_t>(n), g);
        expect_same_bits<affinef>("affine maps", a, [](auto p, const auto& in, auto& out) {
            sweep::inclusive_scan(p, in.begin(), in.end(), out.begin(), affinef_then{});
        });
        expect_same_bits<affinef>("affine maps, exclusive", a,
                                  [](auto p, const auto& in, auto& out) {
                                      sweep::exclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                            affinef{2.0f, 1.0f}, affinef_then{});
                                  });
    }
}

namespace {

/// The canonical tree as docs/numerics.md states it, written out naively (no code shared with
/// detail/canonical.hpp): tiles of Threads x Items; in a tile, serial scans per thread, Kogge-Stone
/// over each warp's 32 thread totals, warp totals folded left to right, item i of thread t =
/// op(op(op(E, W_w), L_{l-1}), x'_i) with absent terms left out; between tiles, groups of 32:
/// E_t = op(G_{g-1}, K_g[p - 1]), G_g = op(G_{g-1}, K_g[31]), K_g the Kogge-Stone scan of the
/// group's tile aggregates. Inclusive, with an optional init (G_{-1}).
template <int Threads, int Items, class T, class Op>
std::vector<T> documented_tree(const std::vector<T>& x, Op op,
                               std::type_identity_t<std::optional<T>> init) {
    const std::int64_t n = static_cast<std::int64_t>(x.size());
    constexpr std::int64_t tile = std::int64_t{Threads} * Items;
    auto cat = [&](const std::optional<T>& a, const std::optional<T>& b) -> std::optional<T> {
        if (!a) return b;
        if (!b) return a;
        return op(*a, *b);
    };
    auto kogge_stone = [&](std::vector<T> v) {  // inclusive, in place over v.size() lanes
        for (std::size_t d = 1; d < 32; d *= 2)
            for (std::size_t l = v.size(); l-- > d;) v[l] = op(v[l - d], v[l]);
        return v;
    };
    std::vector<T> out(x.size());
    std::optional<T> group_before = init;  // G_{g-1}
    std::vector<T> group_aggs;             // the current group's tile aggregates
    for (std::int64_t base = 0; base < n; base += tile) {
        const std::int64_t len = std::min(tile, n - base);
        std::optional<T> e = group_before;
        if (!group_aggs.empty()) e = cat(e, kogge_stone(group_aggs).back());
        // Threads' serial scans and totals.
        std::vector<std::vector<T>> xs;
        for (std::int64_t f = 0; f < len; f += Items) {
            std::vector<T> v;
            for (std::int64_t i = f; i < std::min(len, f + Items); ++i)
                v.push_back(v.empty() ? x[base + i] : op(v.back(), x[base + i]));
            xs.push_back(v);
        }
        std::optional<T> w_excl, aggregate;
        for (std::size_t w = 0; w * 32 < xs.size(); ++w) {
            std::vector<T> totals;
            for (std::size_t t = w * 32; t < std::min(xs.size(), w * 32 + 32); ++t)
                totals.push_back(xs[t].back());
            const std::vector<T> lanes = kogge_stone(totals);
            for (std::size_t l = 0; l < lanes.size(); ++l) {
                std::optional<T> run = cat(e, w_excl);
                if (l > 0) run = cat(run, lanes[l - 1]);
                const std::vector<T>& v = xs[w * 32 + l];
                for (std::size_t i = 0; i < v.size(); ++i)
                    out[base + (w * 32 + l) * Items + i] = run ? op(*run, v[i]) : v[i];
            }
            if (lanes.size() == 32) w_excl = cat(w_excl, lanes.back());
        }
        aggregate = w_excl;
        if (len == tile) {
            group_aggs.push_back(*aggregate);
            if (group_aggs.size() == 32) {
                group_before = cat(group_before, kogge_stone(group_aggs).back());
                group_aggs.clear();
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("deterministic: seq computes the documented tree", "[numerics]") {
    // float and double sums (128 x 32 and 128 x 16 tiles) and affine maps (not commutative;
    // 8-byte: 128 x 16), across several groups of 32 tiles.
    auto g = rng(900);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{33 * 4096 + 17},
                                 std::int64_t{70 * 4096 + 5}}) {
        const auto xf = uniform_values<float>(static_cast<std::size_t>(n), g);
        std::vector<float> got(xf.size());
        sweep::inclusive_scan(sweep::seq.deterministic(), xf.begin(), xf.end(), got.begin());
        INFO("float, n = " << n << ", seed " << sweep_test::seed());
        CHECK(same_bits(got, documented_tree<128, 32>(xf, std::plus<float>{}, std::nullopt)));
        sweep::inclusive_scan(sweep::seq.deterministic(), xf.begin(), xf.end(), got.begin(),
                              sweep::plus<>{}, 0.75f);
        CHECK(same_bits(got, documented_tree<128, 32>(xf, std::plus<float>{}, 0.75f)));

        const auto xd = uniform_values<double>(static_cast<std::size_t>(n), g);
        std::vector<double> gd(xd.size());
        sweep::inclusive_scan(sweep::seq.deterministic(), xd.begin(), xd.end(), gd.begin());
        CHECK(same_bits(gd, documented_tree<128, 16>(xd, std::plus<double>{}, std::nullopt)));

        const auto a = affine_values(static_cast<std::size_t>(n), g);
        std::vector<affinef> ga(a.size());
        sweep::inclusive_scan(sweep::seq.deterministic(), a.begin(), a.end(), ga.begin(),
                              affinef_then{});
        CHECK(same_bits(ga, documented_tree<128, 16>(a, affinef_then{}, std::nullopt)));
    }
}

TEST_CASE("deterministic: exact data and exact operators give the plain scan's result",
          "[numerics]") {
    for (const std::int64_t n : canonical_edges<float>({300'007})) {
        auto g = rng(400 + static_cast<std::uint64_t>(n));
        const auto x = small_integers<float>(static_cast<std::size_t>(n), g);
        std::vector<float> want(x.size()), got(x.size());
        sweep::exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), 3.0f);
        for_each_deterministic([&](const char* name, auto p) {
            sweep::exclusive_scan(p, x.begin(), x.end(), got.begin(), 3.0f);
            INFO(name << ", n = " << n << ": first difference " << first_difference(got, want));
            CHECK(same_bits(got, want));
        });
        std::vector<std::int64_t> xi(x.begin(), x.end()), wi(x.size()), gi(x.size());
        sweep::inclusive_scan(sweep::seq, xi.begin(), xi.end(), wi.begin());
        for_each_deterministic([&](const char* name, auto p) {
            sweep::inclusive_scan(p, xi.begin(), xi.end(), gi.begin());
            INFO(name << ", n = " << n);
            CHECK(gi == wi);
        });
    }
}

// ---- compensated -----------------------------------------------------------------------------

namespace {

template <class T>
constexpr double unit_roundoff() {
    return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

template <class T>
void check_compensated(const char* data, const std::vector<T>& x, std::uint64_t salt) {
    (void)salt;
    const double u = unit_roundoff<T>();
    // The plain scan's worst relative error, for the record.
    std::vector<T> plain(x.size());
    sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), plain.begin());
    const accuracy ap = check_prefixes(x, plain, false, 0.0, u, false);
    auto run = [&](const char* name, auto policy) {
        std::vector<T> got(x.size());
        sweep::inclusive_scan(policy, x.begin(), x.end(), got.begin());
        const accuracy a = check_prefixes(x, got, false, 0.0, u, false);
        std::printf("compensated %-6s %-28s %-34s n=%-8zu worst rel %.3g (bound ratio %.3g); "
                    "plain seq worst rel %.3g\n",
                    sizeof(T) == 4 ? "float" : "double", data, name, x.size(), a.worst_rel,
                    a.worst_ratio, ap.worst_rel);
        INFO(name << " on " << data << ", n = " << x.size() << ", seed " << sweep_test::seed()
                  << ": prefix " << a.first_bad << " = " << a.bad_result << ", exact "
                  << a.bad_exact << ", bound " << a.bad_bound);
        CHECK(a.first_bad == -1);

        // exclusive with an init
        const T init = static_cast<T>(x.empty() ? 1 : -x[0]);
        sweep::exclusive_scan(policy, x.begin(), x.end(), got.begin(), init);
        const accuracy e = check_prefixes(x, got, true, static_cast<double>(init), u, true);
        INFO("exclusive with init: prefix " << e.first_bad << " = " << e.bad_result << ", exact "
                                            << e.bad_exact << ", bound " << e.bad_bound);
        CHECK(e.first_bad == -1);
    };
    run("seq.compensated()", sweep::seq.compensated());
    run("par.compensated()", sweep::par.compensated());
    run("par.threads(3).compensated()", sweep::par.threads(3).compensated());
    run("seq.deterministic().compensated()", sweep::seq.deterministic().compensated());
    run("par.compensated().deterministic()", sweep::par.compensated().deterministic());
}

template <class T>
void compensated_suite(std::uint64_t salt, const std::vector<double>& conds, int binades) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{200'003}}) {
        for (const double c : conds) {
            auto g = rng(salt + n + static_cast<std::uint64_t>(std::log10(c)));
            char name[64];
            std::snprintf(name, sizeof name, "ill-conditioned 1e%d", int(std::log10(c)));
            check_compensated<T>(name, ill_conditioned<T>(n, c, g), salt);
        }
        auto g = rng(salt + n + 99);
        check_compensated<T>("cancelling pairs", cancelling<T>(n, g), salt);
        char name[64];
        std::snprintf(name, sizeof name, "%d binades", binades);
        check_compensated<T>(name, wide<T>(n, binades, g), salt);
    }
}

}  // namespace

TEST_CASE("compensated: double prefixes within the bound", "[numerics][compensated]") {
    compensated_suite<double>(500, {1e4, 1e8, 1e12, 1e16}, 600);
}

TEST_CASE("compensated: float prefixes within the bound", "[numerics][compensated]") {
    compensated_suite<float>(600, {1e3, 1e6, 1e8}, 200);
}

TEST_CASE("compensated: transform scans and the std policies", "[numerics][compensated]") {
    auto g = rng(700);
    const auto x = ill_conditioned<double>(50'001, 1e12, g);
    std::vector<double> tx(x.size()), want(x.size()), got(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) tx[i] = -x[i];
    sweep::inclusive_scan(sweep::seq.compensated(), tx.begin(), tx.end(), want.begin());
    sweep::transform_inclusive_scan(sweep::par.compensated(), x.begin(), x.end(), got.begin(),
                                    std::plus<double>{}, std::negate<>{});
    // Same pair arithmetic, different trees: both within the bound; not bitwise.
    const accuracy a = check_prefixes(tx, got, false, 0, 0x1p-53, false);
    INFO("first bad prefix " << a.first_bad << ", seed " << sweep_test::seed());
    CHECK(a.first_bad == -1);
    // Deterministic: bitwise with seq.
    sweep::transform_inclusive_scan(sweep::seq.deterministic().compensated(), x.begin(), x.end(),
                                    want.begin(), std::plus<double>{}, std::negate<>{});
    sweep::transform_inclusive_scan(sweep::par.threads(2).compensated().deterministic(), x.begin(),
                                    x.end(), got.begin(), std::plus<double>{}, std::negate<>{});
    CHECK(same_bits(got, want));
}

TEST_CASE("compensated: by-key and segmented scans within the bound", "[numerics][compensated]") {
    for (const int max_run : {1, 50, 5000, 1 << 20}) {
        auto g = rng(800 + static_cast<std::uint64_t>(max_run));
        const std::size_t n = 300'007;
        const auto x = ill_conditioned<double>(n, 1e14, g);
        const auto keys = run_keys(n, max_run, g);
        std::vector<char> heads(n);
        std::vector<std::int64_t> offs{0};
        for (std::size_t i = 0; i < n; ++i) {
            heads[i] = i == 0 || keys[i] != keys[i - 1];
            if (i > 0 && heads[i]) offs.push_back(static_cast<std::int64_t>(i));
        }
        offs.push_back(static_cast<std::int64_t>(n));
        auto run = [&](const char* name, auto p) {
            std::vector<double> got(n);
            sweep::inclusive_scan_by_key(p, keys.begin(), keys.end(), x.begin(), got.begin());
            accuracy a = check_segmented_prefixes(x, heads, got, false, 0, 0x1p-53, false);
            INFO(name << " inclusive_scan_by_key, runs up to " << max_run << ", seed "
                      << sweep_test::seed() << ": prefix " << a.first_bad << " = " << a.bad_result
                      << ", exact " << a.bad_exact << ", bound " << a.bad_bound);
            CHECK(a.first_bad == -1);
            sweep::segmented_exclusive_scan(p, x.begin(), x.end(), got.begin(),
                                            sweep::offsets(offs.begin(), offs.end()), 0.25);
            a = check_segmented_prefixes(x, heads, got, true, 0.25, 0x1p-53, true);
            INFO("segmented_exclusive_scan (offsets, init 0.25): prefix "
                 << a.first_bad << " = " << a.bad_result << ", exact " << a.bad_exact
                 << ", bound " << a.bad_bound);
            CHECK(a.first_bad == -1);
        };
        run("seq.compensated()", sweep::seq.compensated());
        run("par.compensated()", sweep::par.compensated());
        run("par.threads(3).compensated().deterministic()",
            sweep::par.threads(3).compensated().deterministic());
    }
}

TEST_CASE("deterministic: by-key scans are thread-count independent on par", "[numerics]") {
    auto g = rng(900);
    const std::size_t n = 500'003;
    const auto x = uniform_values<float>(n, g);
    const auto keys = run_keys(n, 70'000, g);
    std::vector<float> want(n), got(n);
    sweep::inclusive_scan_by_key(sweep::par.deterministic().threads(1), keys.begin(), keys.end(),
                                 x.begin(), want.begin());
    for (const int t : {2, 3, 0}) {
        sweep::inclusive_scan_by_key(sweep::par.deterministic().threads(t), keys.begin(),
                                     keys.end(), x.begin(), got.begin());
        INFO("threads " << t << ": first difference " << first_difference(got, want));
        CHECK(same_bits(got, want));
    }
}

TEST_CASE("compensated: infinities and NaNs pass through as in the plain sum", "[numerics][compensated]") {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> x{1.0, 1e308, 1e308, -1.0, 2.0, -inf, 3.0};
    std::vector<double> plain(x.size()), comp(x.size());
    sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), plain.begin());
    for_each_deterministic([&](const char* name, auto p) {
        sweep::inclusive_scan(p.compensated(), x.begin(), x.end(), comp.begin());
        for (std::size_t i = 0; i < x.size(); ++i) {
            INFO(name << ".compensated(), prefix " << i << ": plain " << plain[i]
                      << ", compensated " << comp[i]);
            if (std::isnan(plain[i])) CHECK(std::isnan(comp[i]));
            else if (std::isinf(plain[i])) CHECK(comp[i] == plain[i]);
        }
    });
}

TEST_CASE("deterministic: inclusive by-key and head-flag scans have the same bits on every host policy",
          "[numerics][segmented]") {
    for (const int max_run : {1, 40, 5000, 1 << 22}) {
        for (const std::int64_t n : canonical_edges<sweep::detail::seg_pair<double>>({400'009})) {
            auto g = rng(1000 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(max_run));
            const auto keys = run_keys(static_cast<std::size_t>(n), max_run, g);
            const std::vector<char> flags = head_flags_of(keys);
            const auto xf = uniform_values<float>(keys.size(), g);
            const auto xd = uniform_values<double>(keys.size(), g);
            expect_same_bits<float>("inclusive_scan_by_key float", xf,
                                    [&](auto p, const auto& in, auto& out) {
                                        sweep::inclusive_scan_by_key(p, keys.begin(), keys.end(),
                                                                     in.begin(), out.begin());
                                    });
            expect_same_bits<double>("segmented_inclusive_scan double (head flags)", xd,
                                     [&](auto p, const auto& in, auto& out) {
                                         sweep::segmented_inclusive_scan(
                                             p, in.begin(), in.end(), out.begin(),
                                             sweep::head_flags(flags.begin()));
                                     });
            expect_same_bits<double>("inclusive_scan_by_key double, compensated", xd,
                                     [&](auto p, const auto& in, auto& out) {
                                         sweep::inclusive_scan_by_key(p.compensated(), keys.begin(),
                                                                      keys.end(), in.begin(),
                                                                      out.begin());
                                     });
            expect_same_bits<float>("inclusive_scan_by_key float min", xf,
                                    [&](auto p, const auto& in, auto& out) {
                                        sweep::inclusive_scan_by_key(
                                            p, keys.begin(), keys.end(), in.begin(), out.begin(),
                                            std::equal_to<>{}, sweep::minimum<>{});
                                    });
        }
        // Exact data: the pair scan's tree gives the plain segmented result.
        auto g = rng(1100 + static_cast<std::uint64_t>(max_run));
        const auto keys = run_keys(300'001, max_run, g);
        const auto xi = small_integers<float>(keys.size(), g);
        std::vector<float> want(keys.size()), got(keys.size());
        sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), xi.begin(), want.begin());
        sweep::inclusive_scan_by_key(sweep::par.deterministic(), keys.begin(), keys.end(), xi.begin(),
                                     got.begin());
        INFO("exact data, runs up to " << max_run << ": first difference "
                                       << first_difference(got, want));
        CHECK(same_bits(got, want));
    }
}

TEST_CASE("deterministic: offsets forms have the same bits on every host policy, and the head-flag form's",
          "[numerics][segmented]") {
    for (const int max_run : {1, 40, 5000, 1 << 22}) {
        for (const std::int64_t n : canonical_edges<sweep::detail::seg_pair<double>>({400'009})) {
            auto g = rng(1200 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(max_run));
            const auto keys = run_keys(static_cast<std::size_t>(n), max_run, g);
            const std::vector<char> flags = head_flags_of(keys);
            const auto o = offsets_of(flags, g);  // with empty segments
            const auto xf = uniform_values<float>(keys.size(), g);
            const auto xd = uniform_values<double>(keys.size(), g);
            auto inclusive = [&](auto p, const auto& in, auto& out) {
                sweep::segmented_inclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                sweep::offsets(o.begin(), o.end()));
            };
            auto exclusive = [&](auto p, const auto& in, auto& out) {
                sweep::segmented_exclusive_scan(p, in.begin(), in.end(), out.begin(),
                                                sweep::offsets(o.begin(), o.end()), -0.5);
            };
            auto compensated = [&](auto p, const auto& in, auto& out) {
                sweep::segmented_inclusive_scan(p.compensated(), in.begin(), in.end(), out.begin(),
                                                sweep::offsets(o.begin(), o.end()));
            };
            expect_same_bits<float>("segmented_inclusive_scan float, offsets", xf, inclusive);
            expect_same_bits<double>("segmented_exclusive_scan double, offsets, init", xd, exclusive);
            expect_same_bits<double>("segmented_inclusive_scan double, offsets, compensated", xd,
                                     compensated);
            // The same segments as head flags: the same tree, so the same bits.
            std::vector<float> a(xf.size()), b(xf.size());
            inclusive(sweep::seq.deterministic(), xf, a);
            sweep::segmented_inclusive_scan(sweep::seq.deterministic(), xf.begin(), xf.end(),
                                            b.begin(), sweep::head_flags(flags.begin()));
            INFO("offsets against head flags, n = " << n << ": first difference "
                                                    << first_difference(a, b));
            CHECK(same_bits(a, b));
            std::vector<double> c(xd.size()), d(xd.size());
            exclusive(sweep::par.deterministic(), xd, c);
            sweep::segmented_exclusive_scan(sweep::seq.deterministic(), xd.begin(), xd.end(),
                                            d.begin(), sweep::head_flags(flags.begin()), -0.5);
            CHECK(same_bits(c, d));
        }
    }
    // Invalid offsets: std::invalid_argument before anything is written.
    std::vector<double> x(100, 1.0), out(100, 7.0);
    const std::vector<std::int64_t> bad_first{1, 50, 100}, decreasing{0, 60, 50, 100},
        bad_last{0, 50, 99};
    for (const auto* bad : {&bad_first, &decreasing, &bad_last}) {
        for_each_deterministic([&](const char* name, auto p) {
            INFO(name);
            CHECK_THROWS_AS(sweep::segmented_inclusive_scan(p, x.begin(), x.end(), out.begin(),
                                                            sweep::offsets(bad->begin(), bad->end())),
                            std::invalid_argument);
            CHECK(out == std::vector<double>(100, 7.0));
        });
    }
}

TEST_CASE("deterministic: exclusive by-key and head-flag scans have the same bits on every host policy",
          "[numerics][segmented]") {
    for (const int max_run : {1, 40, 5000, 1 << 22}) {
        for (const std::int64_t n : canonical_edges<sweep::detail::seg_pair<double>>({400'009})) {
            auto g = rng(1200 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(max_run));
            const auto keys = run_keys(static_cast<std::size_t>(n), max_run, g);
            const std::vector<char> flags = head_flags_of(keys);
            const auto xf = uniform_values<float>(keys.size(), g);
            const auto xd = uniform_values<double>(keys.size(), g);
            expect_same_bits<float>("exclusive_scan_by_key float, init 0.5", xf,
                                    [&](auto p, const auto& in, auto& out) {
                                        sweep::exclusive_scan_by_key(p, keys.begin(), keys.end(),
                                                                     in.begin(), out.begin(), 0.5f);
                                    });
            expect_same_bits<double>("segmented_exclusive_scan double (head flags), compensated", xd,
                                     [&](auto p, const auto& in, auto& out) {
                                         sweep::segmented_exclusive_scan(
                                             p.compensated(), in.begin(), in.end(), out.begin(),
                                             sweep::head_flags(flags.begin()), -1.0);
                                     });
            // In place: the output overwrites the input; same bits as out of place.
            std::vector<double> want(xd.size()), io = xd;
            sweep::exclusive_scan_by_key(sweep::seq.deterministic(), keys.begin(), keys.end(),
                                         xd.begin(), want.begin(), 0.25);
            sweep::exclusive_scan_by_key(sweep::par.deterministic().threads(3), keys.begin(),
                                         keys.end(), io.begin(), io.begin(), 0.25);
            INFO("in place, n = " << n << ", runs up to " << max_run << ": first difference "
                                  << first_difference(io, want));
            CHECK(same_bits(io, want));
            io = xd;
            sweep::exclusive_scan_by_key(sweep::seq.deterministic(), keys.begin(), keys.end(),
                                         io.begin(), io.begin(), 0.25);
            CHECK(same_bits(io, want));
        }
        auto g = rng(1300 + static_cast<std::uint64_t>(max_run));
        const auto keys = run_keys(300'001, max_run, g);
        const auto xi = small_integers<float>(keys.size(), g);
        std::vector<float> want(keys.size()), got(keys.size());
        sweep::exclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), xi.begin(), want.begin(),
                                     2.0f);
        sweep::exclusive_scan_by_key(sweep::par.deterministic(), keys.begin(), keys.end(), xi.begin(),
                                     got.begin(), 2.0f);
        INFO("exclusive, exact data, runs up to " << max_run << ": first difference "
                                                  << first_difference(got, want));
        CHECK(same_bits(got, want));
    }
}
