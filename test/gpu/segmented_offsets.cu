// test/gpu/segmented_offsets.cu -- the offsets form's block-derived heads on sweep::gpu against
// sweep::seq, where they can go wrong: the validation kernel's tile index (index[t] = the first
// offset >= t * tile, searched by a group of 32 lanes per boundary up to 8192 boundaries, of
// fewer lanes beyond) and the marking of a tile's offsets in shared memory
// (agent/segment_heads.cuh, block_read).
// (The group sizes of the index search below 16 lanes need more tiles than the default
// geometries give cheaply: test/gpu/segmented_variants.cu covers them with 64-element tiles.)
//
// Offsets: every element its own segment, one segment over every tile, segments straddling
// tiles (first and last too), boundaries on and around tile, warp and thread edges, runs of empty
// segments on those edges and at both ends, far more empty segments than elements (k >> n),
// and offsets given as a Thrust transform iterator. Value types with 64, 16, 8, 4 and 2 items a
// thread (each path of the flag-byte read), a non-commutative operator, in place, int32 and
// int64 offsets, sizes around the tile, the single-block limit, and both sides of the 8192
// boundaries where the index search changes. Seeds: printed by the test main; cases by salt.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "segments.hpp"

using namespace sweep_gpu_test;

namespace {

enum class off_case {
    all_length1,    // 0, 1, ..., n
    one_segment,    // 0, n
    straddling,     // segments of 0.3 - 2.5 tiles: every boundary mid-tile, first and last too
    edges,          // boundaries at t*tile - 1, t*tile, t*tile + 1, warp and thread edges
    empty_edges,    // the same, each boundary repeated 1-5 times; runs at 0 and n too
    mostly_empty,   // ~n/50 boundaries, then 300000 empty segments spread over a few spots
    short_runs,     // segments of 1-8 elements (dense offsets: checked by the scan's tiles)
    equal_rows,     // o[j] = j L, L in 1-16 dividing n (rows of a matrix)
    spaced_random,  // n / L segments, L in 1-16 dividing n, at random places with empties
};
const char* case_name(off_case c) {
    switch (c) {
    case off_case::all_length1: return "every element a segment";
    case off_case::one_segment: return "one segment";
    case off_case::straddling: return "segments straddling tiles";
    case off_case::edges: return "boundaries on tile/warp/thread edges";
    case off_case::empty_edges: return "runs of empty segments on the edges";
    case off_case::mostly_empty: return "k >> n: mostly empty segments";
    case off_case::short_runs: return "segments of 1-8 elements";
    case off_case::equal_rows: return "equal rows (o[j] = j L)";
    case off_case::spaced_random: return "n / L random segments";
    }
    return "?";
}
constexpr off_case all_cases[] = {off_case::all_length1, off_case::one_segment,
                                  off_case::straddling,  off_case::edges,
                                  off_case::empty_edges, off_case::mostly_empty,
                                  off_case::short_runs,  off_case::equal_rows,
                                  off_case::spaced_random};

/// Valid offsets (0 = o[0] <= ... <= o[k] = n) of case `c` for tiles of `tile` elements and
/// `items` a thread.
std::vector<std::int64_t> make_offsets(off_case c, std::int64_t n, std::int64_t tile,
                                       std::int64_t items, std::mt19937_64& g) {
    std::vector<std::int64_t> b;  // interior boundaries, any order, duplicates meaning empties
    auto add = [&](std::int64_t p, int copies) {
        if (p > 0 && p < n)
            for (int i = 0; i < copies; ++i) b.push_back(p);
    };
    switch (c) {
    case off_case::all_length1:
        for (std::int64_t p = 1; p < n; ++p) b.push_back(p);
        break;
    case off_case::one_segment: break;
    case off_case::straddling:
        for (std::int64_t p = tile / 3 + static_cast<std::int64_t>(g() % std::uint64_t(tile)); p < n;
             p += tile / 3 + static_cast<std::int64_t>(g() % std::uint64_t(2 * tile)))
            add(p, 1);
        break;
    case off_case::edges:
    case off_case::empty_edges: {
        const bool empties = c == off_case::empty_edges;
        auto copies = [&] { return empties ? 1 + static_cast<int>(g() % 5) : 1; };
        const std::int64_t warp = 32 * items;
        for (std::int64_t t = 0; t * tile <= n; ++t) {
            const std::int64_t e = t * tile;
            add(e - 1, copies());
            add(e, copies());
            add(e + 1, copies());
            if (t % 3 == 1)  // warp edges of this tile
                for (std::int64_t w = e + warp; w < e + tile; w += warp) add(w, copies());
            if (t % 5 == 2)  // every thread's first item, and every thread's last
                for (std::int64_t i = e; i < e + tile; i += items) {
                    add(i, copies());
                    add(i + items - 1, 1);
                }
        }
        break;
    }
    case off_case::short_runs:
        for (std::int64_t p = 1 + static_cast<std::int64_t>(g() % 8); p < n;
             p += 1 + static_cast<std::int64_t>(g() % 8))
            b.push_back(p);
        break;
    case off_case::equal_rows:
    case off_case::spaced_random: {
        std::vector<std::int64_t> lengths;  // the lengths 1-16 that divide n
        for (std::int64_t l = 1; l <= 16; ++l)
            if (n % l == 0) lengths.push_back(l);
        const std::int64_t l = lengths[g() % lengths.size()];
        for (std::int64_t j = 1; j < n / l; ++j)
            b.push_back(c == off_case::equal_rows
                            ? j * l
                            : static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(n + 1)));
        break;
    }
    case off_case::mostly_empty: {
        for (std::int64_t i = 0; i < n / 50; ++i)
            add(1 + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(n)), 1);
        add(tile, 100000);          // on a tile edge (if n > tile)
        add(n / 2 + 1, 100000);     // mid-tile
        add(n - 1, 50000);          // in the last tile
        break;
    }
    }
    std::sort(b.begin(), b.end());
    std::vector<std::int64_t> o;
    const bool runs = c == off_case::empty_edges || c == off_case::mostly_empty;
    const std::uint64_t spread = c == off_case::mostly_empty ? 50000 : 3;
    const int front = runs ? 3 + static_cast<int>(g() % spread) : 1;
    const int back = runs ? 3 + static_cast<int>(g() % spread) : 1;
    if (n == 0) return {0};
    for (int i = 0; i < front; ++i) o.push_back(0);
    o.insert(o.end(), b.begin(), b.end());
    for (int i = 0; i < back; ++i) o.push_back(n);
    return o;
}

/// Inclusive and exclusive scans over int64 and int32 offsets, out of place and in place, gpu
/// against seq.
template <class T, class Op>
void check_offsets(const std::vector<T>& x, const std::vector<std::int64_t>& o64, Op op, T init,
                   const std::string& what) {
    const auto n = static_cast<std::int64_t>(x.size());
    const std::vector<std::int32_t> o32(o64.begin(), o64.end());
    device_vector<std::int64_t> d64(o64);
    device_vector<std::int32_t> d32(o32);
    device_vector<T> in(x), out(x.size());
    std::vector<T> want(x.size());
    INFO(what << ", n = " << n << ", k + 1 = " << o64.size() << " offsets");
    {
        INFO("inclusive, int64 offsets");
        out.poison();
        sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(d64.begin(), d64.end()), op);
        sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::offsets(o64.begin(), o64.end()), op);
        CHECK(first_difference(out.download(), want) == -1);
    }
    {
        INFO("inclusive, int32 offsets, in place");
        device_vector<T> io(x);
        sweep::segmented_inclusive_scan(sweep::gpu, io.begin(), io.end(), io.begin(),
                                        sweep::offsets(d32.begin(), d32.end()), op);
        CHECK(first_difference(io.download(), want) == -1);
    }
    // Unsigned offsets: the order checks compare them unsigned (0 has no value below it).
    auto inclusive_unsigned = [&](auto zero, const char* what) {
        using U = decltype(zero);
        INFO(what);
        device_vector<U> du(std::vector<U>(o64.begin(), o64.end()));
        out.poison();
        sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(du.begin(), du.end()), op);
        CHECK(first_difference(out.download(), want) == -1);
    };
    inclusive_unsigned(std::uint32_t{}, "inclusive, uint32 offsets");
    inclusive_unsigned(std::uint64_t{}, "inclusive, uint64 offsets");
    {
        INFO("exclusive, int32 offsets");
        out.poison();
        sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(d32.begin(), d32.end()), init, op);
        sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::offsets(o64.begin(), o64.end()), init, op);
        CHECK(first_difference(out.download(), want) == -1);
    }
    {
        // Offsets 4 bytes past a 16-byte boundary: the scalar read of the tile's offsets (an
        // aligned raw pointer takes the 16-byte vector read).
        INFO("exclusive, int32 offsets, misaligned");
        std::vector<std::int32_t> shifted(o32.size() + 1, -7);
        std::copy(o32.begin(), o32.end(), shifted.begin() + 1);
        device_vector<std::int32_t> ds(shifted);
        out.poison();
        sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(ds.begin() + 1, ds.end()), init, op);
        CHECK(first_difference(out.download(), want) == -1);
    }
    {
        INFO("exclusive, int64 offsets, in place");
        device_vector<T> io(x);
        sweep::segmented_exclusive_scan(sweep::gpu, io.begin(), io.end(), io.begin(),
                                        sweep::offsets(d64.begin(), d64.end()), init, op);
        CHECK(first_difference(io.download(), want) == -1);
    }
}

template <class T, class Op>
void check_type(const char* tname, Op op, std::uint64_t salt) {
    using tn = sweep::detail::cuda::default_segmented_tuning<T>;
    const std::int64_t tile = tn::tile_items;
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, tile - 1, tile, tile + 1,
                                 4 * tile, 4 * tile + 1, 37 * tile + 11}) {
        for (const off_case c : all_cases) {
            auto g = sweep_test::rng(salt++);
            const auto o = make_offsets(c, n, tile, tn::items, g);
            const auto x = random_values<T>(static_cast<std::size_t>(n), g);
            check_offsets<T>(x, o, op, sample_init<T>(),
                             std::string(tname) + " (" + std::to_string(tn::threads) + " x " +
                                 std::to_string(tn::items) + "), " + case_name(c));
        }
    }
}

struct times37 {
    __host__ __device__ std::int64_t operator()(std::int64_t j) const { return 37 * j; }
};

}  // namespace

TEST_CASE("gpu segmented scans, offsets: 64 items a thread (uint8)", "[gpu][segmented_scan]") {
    check_type<std::uint8_t>("uint8", sweep::plus<>{}, 40000);
}

TEST_CASE("gpu segmented scans, offsets: 16 items a thread (int32)", "[gpu][segmented_scan]") {
    check_type<std::int32_t>("int32", sweep::plus<>{}, 41000);
}

TEST_CASE("gpu segmented scans, offsets: 8 items a thread (int64)", "[gpu][segmented_scan]") {
    check_type<std::int64_t>("int64", sweep::maximum<>{}, 42000);
}

TEST_CASE("gpu segmented scans, offsets: 4 items a thread (2x2 matrices, non-commutative)",
          "[gpu][segmented_scan]") {
    check_type<mat2>("mat2", mat2_product{}, 43000);
}

TEST_CASE("gpu segmented scans, offsets: 2 items a thread (24-byte triples)",
          "[gpu][segmented_scan]") {
    check_type<triple>("triple", sweep::plus<>{}, 44000);
}

TEST_CASE("gpu segmented scans, offsets: both index searches (8192 boundaries and more)",
          "[gpu][segmented_scan]") {
    using tn = sweep::detail::cuda::default_segmented_tuning<std::int32_t>;
    const std::int64_t tile = tn::tile_items;
    std::uint64_t salt = 45000;
    // tiles + 1 boundaries: 8192 (a warp each), 8193 and 8194 (16 lanes each: 2^24 int32 values
    // fall here). Every group size: test/gpu/segmented_variants.cu.
    for (const std::int64_t n : {8191 * tile, 8191 * tile + 1, 8192 * tile + 5}) {
        for (const off_case c : {off_case::straddling, off_case::empty_edges,
                                 off_case::mostly_empty}) {
            auto g = sweep_test::rng(salt++);
            const auto o = make_offsets(c, n, tile, tn::items, g);
            const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
            check_offsets<std::int32_t>(x, o, sweep::plus<>{}, 3,
                                        std::string("int32, ") + case_name(c));
        }
    }
}

TEST_CASE("gpu segmented scans, offsets: a Thrust transform iterator as the offsets",
          "[gpu][segmented_scan][thrust]") {
    auto g = sweep_test::rng(46000);
    const std::int64_t k = 200'003;
    const std::int64_t n = 37 * k;  // o[j] = 37 j, j = 0 .. k
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
    device_vector<std::int32_t> in(x), out(x.size());
    auto o = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), times37{});
    sweep::segmented_exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                    sweep::offsets(o, o + (k + 1)), 4);
    std::vector<std::int64_t> ho(static_cast<std::size_t>(k + 1));
    for (std::int64_t j = 0; j <= k; ++j) ho[static_cast<std::size_t>(j)] = 37 * j;
    std::vector<std::int32_t> want(x.size());
    sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                    sweep::offsets(ho.begin(), ho.end()), 4);
    CHECK(first_difference(out.download(), want) == -1);
}

namespace {

/// Invalid offsets out of place past the one-block sizes: dense ones are checked by the scan's
/// tiles as they read them (dispatch/segmented_scan.cuh); every way to break "nondecreasing
/// from 0 to n" must still throw, the input must stay unchanged, and the valid offsets they
/// were made from must not throw.
template <class O>
void check_invalid_in_scan(std::int64_t n, std::uint64_t salt) {
    using tn = sweep::detail::cuda::default_segmented_tuning<std::int32_t>;
    const std::int64_t tile = tn::tile_items;
    auto g = sweep_test::rng(salt);
    const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
    device_vector<std::int32_t> in(x), out(x.size());
    auto run = [&](const std::vector<std::int64_t>& o64, bool misaligned) {
        std::vector<O> o(o64.size() + (misaligned ? 1 : 0), O{});
        std::transform(o64.begin(), o64.end(), o.begin() + (misaligned ? 1 : 0),
                       [](std::int64_t v) { return static_cast<O>(v); });
        device_vector<O> d(o);
        O* const first = d.begin() + (misaligned ? 1 : 0);
        sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(first, d.end()));
    };
    // Dense offsets (all_length1, short_runs, mostly_empty) are checked by the scan's tiles,
    // sparse ones (straddling, empty_edges) by the validation kernel first.
    for (const off_case c : {off_case::all_length1, off_case::short_runs, off_case::straddling,
                             off_case::empty_edges, off_case::mostly_empty}) {
        const auto good = make_offsets(c, n, tile, tn::items, g);
        const auto k = static_cast<std::int64_t>(good.size()) - 1;
        if (k < 4) continue;
        for (const bool misaligned : {false, true}) {
            INFO(case_name(c) << ", n = " << n << ", k = " << k << ", offsets of "
                              << sizeof(O) << " bytes" << (misaligned ? ", misaligned" : ""));
            CHECK_NOTHROW(run(good, misaligned));
            auto pick = [&](std::int64_t lo, std::int64_t hi) {  // in [lo, hi)
                return lo + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(hi - lo));
            };
            // Each perturbation below leaves o[0] == 0 and o[k] == n (so that only the tiles
            // can see it), and is drawn until it really breaks the order.
            for (int trial = 0; trial < 14; ++trial) {
                auto o = good;
                const int kind = trial % 7;
                std::string what;
                if (kind == 0) {  // one interior offset above its successor
                    const auto j = pick(1, k - 1);
                    if (o[j + 1] >= n) continue;
                    o[j] = o[j + 1] + 1 + pick(0, 3);
                    if (o[j] > n) continue;
                    what = "o[j] > o[j + 1], j = " + std::to_string(j);
                } else if (kind == 1) {  // one interior offset below its predecessor
                    const auto j = pick(2, k);
                    if (o[j - 1] == 0) continue;
                    o[j] = o[j - 1] - 1;
                    what = "o[j] < o[j - 1], j = " + std::to_string(j);
                } else if (kind == 2) {  // two offsets far apart swapped
                    const auto a = pick(1, k / 2), b = pick(k / 2, k);
                    if (o[a] == o[b]) continue;
                    std::swap(o[a], o[b]);
                    what = "swapped " + std::to_string(a) + " and " + std::to_string(b);
                } else if (kind == 3) {  // the last tile's edge: just below n, after an n
                    if (o[k - 1] != n || k < 2) {
                        o.insert(o.end() - 1, n);
                        o.insert(o.end() - 1, n - 1);
                    } else {
                        o.insert(o.end() - 1, n - 1);
                    }
                    what = "n - 1 after an n (in the tail)";
                } else if (kind == 4) {  // an offset past n, mid-way
                    const auto j = pick(1, k);
                    o[j] = n + 1 + pick(0, 1000);
                    what = "o[j] > n, j = " + std::to_string(j);
                } else if (kind == 5) {  // a negative offset mid-way (unsigned: past n)
                    const auto j = pick(1, k);
                    o[j] = -1 - pick(0, 1000);
                    what = "o[j] < 0, j = " + std::to_string(j);
                } else {  // an offset before the tile it claims, at a tile edge
                    const auto t = pick(1, (n + tile - 1) / tile);
                    const auto j = std::lower_bound(o.begin(), o.end(), t * tile) - o.begin();
                    if (j <= 1 || j >= k) continue;
                    o[j] = o[j - 1] - 1;
                    if (o[j] < 0) continue;
                    what = "decreasing at the edge of tile " + std::to_string(t);
                }
                INFO(what);
                CHECK_THROWS_AS(run(o, misaligned), std::invalid_argument);
                CHECK(in.download() == x);  // the input untouched (the output may be written)
            }
        }
    }
}

}  // namespace

TEST_CASE("gpu segmented scans, offsets: invalid offsets checked by the scan's tiles throw",
          "[gpu][segmented_scan][errors]") {
    using tn = sweep::detail::cuda::default_segmented_tuning<std::int32_t>;
    const std::int64_t tile = tn::tile_items;
    std::uint64_t salt = 47000;
    for (const std::int64_t n : {5 * tile, 5 * tile + 3, 61 * tile + 1000}) {
        check_invalid_in_scan<std::int32_t>(n, salt++);
        check_invalid_in_scan<std::int64_t>(n, salt++);
        check_invalid_in_scan<std::uint32_t>(n, salt++);
        check_invalid_in_scan<std::uint64_t>(n, salt++);
    }
}
