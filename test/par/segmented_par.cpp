// test/par/segmented_par.cpp -- host tests of the par backend's segmented scans against seq.
//
// The par backend cuts the input into fixed blocks of 2^15 elements and hands a (has-head, value)
// carry from block to block; its first pass stores everything after a block's first head. So the
// cases aim at the blocks: sizes 0, 1, B-1, B, B+1, many B; segmentations with heads exactly on
// block starts and ends, blocks without a head, segments spanning many blocks, one element per
// segment, and skewed mixes; offsets with runs of thousands of empty segments. Every form (keys
// with == and with a custom key_eq, head flags, int64 and int32 offsets) describes the same
// segmentation, at thread counts 1, 2, 3 and all, for int32 sums, a non-commutative operator
// (affine maps), in place, and the errors of bad offsets (nothing written).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "generators.hpp"
#include "oracles.hpp"
#include "random.hpp"
#include "types.hpp"

namespace {

using namespace sweep_test;

constexpr std::int64_t B = sweep::detail::tbb_backend::scan_block;

std::vector<std::int64_t> edge_sizes() {
    return {0, 1, 2, B - 1, B, B + 1, 2 * B, 3 * B + 7, 37 * B + 1};
}

enum class dist { all_heads, mean100, mean1e4, one_segment, skewed, block_edges };
const char* dist_name(dist d) {
    switch (d) {
    case dist::all_heads: return "one element per segment";
    case dist::mean100: return "mean segment 100";
    case dist::mean1e4: return "mean segment 1e4";
    case dist::one_segment: return "one segment";
    case dist::skewed: return "skewed mix";
    case dist::block_edges: return "heads on block edges";
    }
    return "?";
}
constexpr dist all_dists[] = {dist::all_heads, dist::mean100,  dist::mean1e4,
                              dist::one_segment, dist::skewed, dist::block_edges};

/// head[i]: does element i start a segment (head[0] always).
std::vector<bool> make_heads(std::int64_t n, dist d, std::mt19937_64& g) {
    std::vector<bool> h(static_cast<std::size_t>(n), false);
    auto set = [&](std::int64_t i) {
        if (i >= 0 && i < n) h[static_cast<std::size_t>(i)] = true;
    };
    auto random_mean = [&](std::int64_t mean) {
        std::uniform_int_distribution<std::int64_t> u(0, mean - 1);
        for (std::int64_t i = 0; i < n; ++i)
            if (u(g) == 0) set(i);
    };
    switch (d) {
    case dist::all_heads: std::fill(h.begin(), h.end(), true); break;
    case dist::mean100: random_mean(100); break;
    case dist::mean1e4: random_mean(10000); break;
    case dist::one_segment: break;
    case dist::skewed: {
        // Runs: mostly 1-3 elements, sometimes 50-500, rarely several blocks long.
        std::int64_t i = 0;
        while (i < n) {
            set(i);
            const auto r = g() % 1000;
            if (r < 900) i += 1 + static_cast<std::int64_t>(g() % 3);
            else if (r < 995) i += 50 + static_cast<std::int64_t>(g() % 451);
            else i += B + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(4 * B));
        }
        break;
    }
    case dist::block_edges:
        // Heads at block starts, at the last element of a block, one past a start; some blocks
        // with none, one block whose only head is its last element.
        for (std::int64_t b = 0; b * B < n; ++b) {
            switch (b % 5) {
            case 0: set(b * B); break;
            case 1: set(b * B + B - 1); break;
            case 2: set(b * B + 1); set(b * B + B - 1); break;
            case 3: break;
            case 4: set(b * B); set(b * B + 1); set(b * B + 2); break;
            }
        }
        set(n - 1);
        break;
    }
    if (n > 0) h[0] = true;
    return h;
}

/// One segmentation, described in every form.
struct forms {
    std::vector<std::int32_t> keys;     // equal neighbours <=> same segment
    std::vector<std::int32_t> keys_mod; // same segment <=> equal mod 1000 (custom key_eq)
    std::vector<std::uint8_t> flags;    // nonzero at heads (element 0: either)
    std::vector<std::int64_t> off64;    // with runs of empty segments
    std::vector<std::int32_t> off32;    // without
};

struct eq_mod1000 {
    bool operator()(std::int32_t a, std::int32_t b) const { return a % 1000 == b % 1000; }
};

forms make_forms(const std::vector<bool>& h, std::mt19937_64& g) {
    const auto n = static_cast<std::int64_t>(h.size());
    forms f;
    f.keys.resize(h.size());
    f.keys_mod.resize(h.size());
    f.flags.resize(h.size());
    std::int32_t seg = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto s = static_cast<std::size_t>(i);
        if (i > 0 && h[s]) ++seg;
        f.keys[s] = seg;
        f.keys_mod[s] = seg % 1000 + 1000 * static_cast<std::int32_t>(g() % 100);
        f.flags[s] = h[s] ? static_cast<std::uint8_t>(1 + g() % 255) : 0;
    }
    if (n > 0 && g() % 2) f.flags[0] = 0;  // element 0 starts a segment flagged or not
    // Offsets: every head, then n; int64 ones with empty segments at the front, the back, and in
    // runs (one of thousands) at random heads.
    std::vector<std::int64_t> o;
    for (std::int64_t i = 0; i < n; ++i)
        if (h[static_cast<std::size_t>(i)]) o.push_back(i);
    o.push_back(n);
    f.off32.assign(o.begin(), o.end());
    f.off64.push_back(0);
    f.off64.push_back(0);
    for (std::size_t j = 0; j < o.size(); ++j) {
        const auto r = g() % 64;
        const std::size_t copies = r == 0 ? 1 + g() % 8 : (r == 1 && j % 7 == 0 ? 3000 : 0);
        for (std::size_t c = 0; c <= copies; ++c) f.off64.push_back(o[j]);
    }
    f.off64.push_back(n);
    return f;
}

/// Runs every form of the segmented scans on `pol` and on seq and compares.
template <class T, class Op>
void compare_with_seq(const std::vector<T>& x, const forms& f, Op op, T init, const auto& pol,
                      const std::string& what) {
    std::vector<T> want(x.size()), got(x.size());
    const auto kb = f.keys.begin(), ke = f.keys.end();
    const auto mb = f.keys_mod.begin(), me = f.keys_mod.end();

    // scan(policy, in, out) runs one form; each runs out of place and in place (out == in).
    auto run_both = [&](const char* form, auto scan) {
        // out of place
        {
            INFO(what << ", " << form << ", out of place");
            scan(sweep::seq, x.data(), want.data());
            std::fill(got.begin(), got.end(), init);
            CHECK(scan(pol, x.data(), got.data()) == got.data() + got.size());
            CHECK(mismatch(got, want) == "");
        }
        {
            INFO(what << ", " << form << ", in place");
            got = x;
            CHECK(scan(pol, got.data(), got.data()) == got.data() + got.size());
            CHECK(mismatch(got, want) == "");
        }
    };
    const auto n = static_cast<std::ptrdiff_t>(x.size());

    run_both("inclusive by key", [&](const auto& p, const T* in, T* out) {
        return sweep::inclusive_scan_by_key(p, kb, ke, in, out, std::equal_to<>{}, op);
    });
    run_both("inclusive by key, custom key_eq", [&](const auto& p, const T* in, T* out) {
        return sweep::inclusive_scan_by_key(p, mb, me, in, out, eq_mod1000{}, op);
    });
    run_both("exclusive by key", [&](const auto& p, const T* in, T* out) {
        return sweep::exclusive_scan_by_key(p, kb, ke, in, out, init, std::equal_to<>{}, op);
    });
    run_both("exclusive by key, custom key_eq", [&](const auto& p, const T* in, T* out) {
        return sweep::exclusive_scan_by_key(p, mb, me, in, out, init, eq_mod1000{}, op);
    });
    run_both("inclusive, head flags", [&](const auto& p, const T* in, T* out) {
        return sweep::segmented_inclusive_scan(p, in, in + n, out,
                                               sweep::head_flags(f.flags.begin()), op);
    });
    run_both("exclusive, head flags", [&](const auto& p, const T* in, T* out) {
        return sweep::segmented_exclusive_scan(p, in, in + n, out,
                                               sweep::head_flags(f.flags.data()), init, op);
    });
    run_both("inclusive, int64 offsets with empty segments", [&](const auto& p, const T* in,
                                                                 T* out) {
        return sweep::segmented_inclusive_scan(
            p, in, in + n, out, sweep::offsets(f.off64.begin(), f.off64.end()), op);
    });
    run_both("exclusive, int64 offsets with empty segments", [&](const auto& p, const T* in,
                                                                 T* out) {
        return sweep::segmented_exclusive_scan(
            p, in, in + n, out, sweep::offsets(f.off64.data(), f.off64.data() + f.off64.size()),
            init, op);
    });
    run_both("inclusive, int32 offsets", [&](const auto& p, const T* in, T* out) {
        return sweep::segmented_inclusive_scan(
            p, in, in + n, out, sweep::offsets(f.off32.begin(), f.off32.end()), op);
    });
    run_both("exclusive, int32 offsets", [&](const auto& p, const T* in, T* out) {
        return sweep::segmented_exclusive_scan(
            p, in, in + n, out, sweep::offsets(f.off32.begin(), f.off32.end()), init, op);
    });
}

template <class F>
void for_each_thread_count(F&& f) {
    f("par.threads(1)", sweep::par.threads(1));
    f("par.threads(2)", sweep::par.threads(2));
    f("par.threads(3)", sweep::par.threads(3));
    f("par", sweep::par);
}

}  // namespace

TEST_CASE("par segmented scans equal seq: int32 sums, every form and distribution",
          "[par][segmented_scan]") {
    std::uint64_t salt = 9000;
    for (const std::int64_t n : edge_sizes()) {
        for (const dist d : all_dists) {
            auto g = rng(++salt);
            const auto h = make_heads(n, d, g);
            const forms f = make_forms(h, g);
            const auto x = random_values<std::int32_t>(n, g);
            for_each_thread_count([&](const char* pname, const auto& pol) {
                compare_with_seq<std::int32_t>(x, f, sweep::plus<>{}, 17, pol,
                                               std::string(pname) + ", n = " + std::to_string(n) +
                                                   ", " + dist_name(d));
            });
        }
    }
}

TEST_CASE("par segmented scans equal seq: a non-commutative operator", "[par][segmented_scan]") {
    std::uint64_t salt = 9100;
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, B - 1, B + 1, 9 * B + 3}) {
        for (const dist d : all_dists) {
            auto g = rng(++salt);
            const auto h = make_heads(n, d, g);
            const forms f = make_forms(h, g);
            const auto x = random_affine(n, g);
            const affine init{3, 5};
            for_each_thread_count([&](const char* pname, const auto& pol) {
                compare_with_seq<affine>(x, f, affine_then{}, init, pol,
                                         std::string(pname) + ", n = " + std::to_string(n) + ", " +
                                             dist_name(d));
            });
        }
    }
}

TEST_CASE("par segmented scans: other element types and operators", "[par][segmented_scan]") {
    std::uint64_t salt = 9200;
    const std::int64_t n = 5 * B + 11;
    for (const dist d : {dist::mean100, dist::skewed, dist::block_edges}) {
        auto g = rng(++salt);
        const auto h = make_heads(n, d, g);
        const forms f = make_forms(h, g);
        const std::string what = std::string("n = ") + std::to_string(n) + ", " + dist_name(d);
        compare_with_seq<std::uint8_t>(random_values<std::uint8_t>(n, g), f, sweep::plus<>{},
                                       std::uint8_t{200}, sweep::par, "uint8 plus, " + what);
        compare_with_seq<std::int64_t>(random_values<std::int64_t>(n, g), f, sweep::minimum<>{},
                                       std::int64_t{1} << 50, sweep::par, "int64 min, " + what);
        compare_with_seq<std::int16_t>(random_values<std::int16_t>(n, g), f, sweep::maximum<>{},
                                       std::int16_t{-7}, sweep::par.threads(3),
                                       "int16 max, " + what);
        compare_with_seq<rec24>(random_values<rec24>(n, g), f, rec24_op{}, some_init<rec24>(),
                                sweep::par, "rec24, " + what);
        // Integer-valued doubles: exact in any association.
        compare_with_seq<double>(random_values<double>(n, g), f, sweep::plus<>{}, 0.5, sweep::par,
                                 "double (integer values), " + what);
    }
}

TEST_CASE("par segmented double sums are bitwise identical for every thread count",
          "[par][segmented_scan]") {
    std::uint64_t salt = 9300;
    for (const std::int64_t n : {B + 1, 3 * B + 7, 37 * B + 1}) {
        for (const dist d : {dist::one_segment, dist::mean1e4, dist::skewed}) {
            auto g = rng(++salt);
            const auto h = make_heads(n, d, g);
            const forms f = make_forms(h, g);
            const auto x = random_reals<double>(n, g);
            std::vector<double> one(x.size()), other(x.size());
            sweep::inclusive_scan_by_key(sweep::par.threads(1), f.keys.begin(), f.keys.end(),
                                         x.begin(), one.begin());
            for (int t : {2, 3, 0}) {
                sweep::inclusive_scan_by_key(sweep::par.threads(t), f.keys.begin(), f.keys.end(),
                                             x.begin(), other.begin());
                INFO("n = " << n << ", " << dist_name(d) << ", threads " << t);
                CHECK(bit_mismatch(other, one) == "");
            }
            sweep::segmented_exclusive_scan(sweep::par.threads(1), x.begin(), x.end(),
                                            one.begin(),
                                            sweep::offsets(f.off64.begin(), f.off64.end()), 0.25);
            sweep::segmented_exclusive_scan(sweep::par, x.begin(), x.end(), other.begin(),
                                            sweep::offsets(f.off64.begin(), f.off64.end()), 0.25);
            INFO("n = " << n << ", " << dist_name(d) << ", exclusive, offsets");
            CHECK(bit_mismatch(other, one) == "");
        }
    }
}

TEST_CASE("par segmented scans: bad offsets throw before anything is written",
          "[par][segmented_scan][errors]") {
    // Large enough that the offsets are checked in parallel (64K or more of them).
    for (const std::int64_t n : {std::int64_t{1000}, 5 * B}) {
        std::vector<std::int32_t> x(static_cast<std::size_t>(n), 1);
        std::vector<std::int64_t> good(static_cast<std::size_t>(n + 1));
        for (std::int64_t j = 0; j <= n; ++j) good[static_cast<std::size_t>(j)] = j;
        auto expect_throw = [&](std::vector<std::int64_t> o, const char* what) {
            INFO("n = " << n << ": " << what);
            for (int t : {1, 0}) {
                auto inplace = x;
                std::vector<std::int32_t> out(x.size(), -5);
                CHECK_THROWS_AS(sweep::segmented_inclusive_scan(
                                    sweep::par.threads(t), x.begin(), x.end(), out.begin(),
                                    sweep::offsets(o.begin(), o.end())),
                                std::invalid_argument);
                CHECK(std::all_of(out.begin(), out.end(), [](std::int32_t v) { return v == -5; }));
                CHECK_THROWS_AS(sweep::segmented_exclusive_scan(
                                    sweep::par.threads(t), inplace.begin(), inplace.end(),
                                    inplace.begin(), sweep::offsets(o.begin(), o.end()), 0),
                                std::invalid_argument);
                CHECK(inplace == x);
            }
        };
        auto o = good;
        o[0] = 1;
        expect_throw(o, "o[0] != 0");
        o = good;
        o.back() = n - 1;
        expect_throw(o, "o[k] < n");
        o = good;
        o.back() = n + 1;
        expect_throw(o, "o[k] > n");
        o = good;
        o[static_cast<std::size_t>(n * 3 / 4)] = 0;  // decreasing deep inside
        expect_throw(o, "decreasing");
        o = good;
        o[static_cast<std::size_t>(n / 2)] = n + 100;  // out of range, then decreasing
        expect_throw(o, "an offset past n");
        o = good;
        o[static_cast<std::size_t>(n / 3)] = -1;
        expect_throw(o, "a negative offset");
        expect_throw({}, "no offsets for a nonempty input");
        // The same offsets with the right n do not throw.
        std::vector<std::int32_t> out(x.size());
        CHECK_NOTHROW(sweep::segmented_inclusive_scan(sweep::par, x.begin(), x.end(), out.begin(),
                                                      sweep::offsets(good.begin(), good.end())));
        CHECK(std::all_of(out.begin(), out.end(), [](std::int32_t v) { return v == 1; }));
    }
}

TEST_CASE("par segmented scans: an exception from the operator reaches the caller",
          "[par][segmented_scan]") {
    const std::int64_t n = 40 * B;
    std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1), out(in.size());
    std::vector<int> keys(in.size());
    for (std::int64_t i = 0; i < n; ++i) keys[static_cast<std::size_t>(i)] = static_cast<int>(i / 1000);
    std::atomic<std::int64_t> calls{0};
    auto throwing_plus = [&](std::int64_t a, std::int64_t b) {
        if (calls.fetch_add(1) == 20 * B) throw std::runtime_error("op failed");
        return a + b;
    };
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::par, keys.begin(), keys.end(), in.begin(),
                                                 out.begin(), std::equal_to<>{}, throwing_plus),
                    std::runtime_error);
}
