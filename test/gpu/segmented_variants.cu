// test/gpu/segmented_variants.cu -- the segmented-scan engine variants that are not a default yet
// (tuning/segmented_tuning.cuh: the look-behind), through the internal launch API, against
// sweep::seq: proven correct in the same device run that measures them
// (sweep_perf_gpu_segmented tune).
//
// The look-behind: a tile that holds a head but does not start with one reduces from the last
// head among the elements before it instead of waiting for its predecessor. What can go wrong:
// the last head on the first or last element of the window, or on a step (32-element) edge;
// no head in the window (the look-back then); the init at the head (exclusive); the order of a
// non-commutative operator; each form (keys, flags, offsets with empty segments). Look-back
// kernel sizes only (the single-block kernel has no look-behind). Seeds: printed by the test
// main; cases by salt.
#include <cstdint>
#include <string>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "segments.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {

/// Heads placed just before tile edges: at base - d for d in the window's corners and step edges,
/// and nothing else in some tiles (so that the window holds no head, or the tile none at all).
std::vector<char> window_heads(std::int64_t n, std::int64_t tile, int window, std::mt19937_64& g) {
    std::vector<char> h(static_cast<std::size_t>(n), 0);
    auto set = [&](std::int64_t i) {
        if (i >= 0 && i < n) h[static_cast<std::size_t>(i)] = 1;
    };
    const std::int64_t ds[] = {1, 2, 31, 32, 33, window - 1, window, window + 1};
    for (std::int64_t t = 1; t * tile < n; ++t) {
        const std::int64_t b = t * tile;
        switch (t % 5) {
        case 0: break;  // no head near the edge
        case 1: set(b - ds[g() % 8]); set(b + 7); break;
        case 2: set(b - ds[g() % 8]); set(b - ds[g() % 8]); set(b + tile / 2); break;
        case 3: set(b + 1 + static_cast<std::int64_t>(g() % 100)); break;  // only after the edge
        case 4: set(b - window - 1 - static_cast<std::int64_t>(g() % 100)); set(b + 3); break;
        }
    }
    h[0] = 1;
    return h;
}

/// Every form, inclusive and exclusive, through launch_segmented_scan<Tuning>, against seq.
template <class Tuning, class T, class Op>
void check_variant(const std::vector<T>& x, const std::vector<char>& h, std::mt19937_64& g,
                   Op op, T init, const std::string& what) {
    const auto n = static_cast<std::int64_t>(x.size());
    const seg_forms f = make_forms(h, g);
    device_vector<std::int32_t> dk(f.keys);
    device_vector<std::uint8_t> df(f.flags);
    device_vector<std::int64_t> dof(f.off64);
    device_vector<T> in(x), out(x.size());
    std::vector<T> want(x.size());
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    cu::reg_array<T, 1> ini;
    ini[0] = init;
    const T* d_in = in.data();
    T* d_out = out.data();
    using keys_t = sweep::detail::key_heads<const std::int32_t*, std::equal_to<>>;
    using flags_t = sweep::detail::flag_heads<const std::uint8_t*>;
    using offs_t = sweep::detail::offset_segments<const std::int64_t*>;
    const keys_t keys{dk.data(), {}};
    const flags_t flags{df.data()};
    const offs_t offs{dof.data(), dof.data() + dof.size()};
    INFO(what << ", n = " << n << " (tile " << Tuning::tile_items << ", look-behind "
              << cu::look_behind_of<Tuning> << ")");
    for (const bool exclusive : {false, true}) {
        INFO((exclusive ? "exclusive" : "inclusive"));
        if (exclusive)
            sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::head_flags(f.flags.begin()), init, op);
        else
            sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                            sweep::head_flags(f.flags.begin()), op);
        auto run = [&](const char* form, const auto& segs, bool aligned) {
            INFO(form);
            out.poison();
            cu::launch_segmented_scan<Tuning, false, T>("variant", d_in, d_out, n, op, segs, ini,
                                                        exclusive, exclusive, aligned, nullptr,
                                                        alloc);
            cuda_ok(cudaDeviceSynchronize(), "variant");
            CHECK(first_difference(out.download(), want) == -1);
        };
        run("keys", keys, true);
        run("head flags", flags, true);
        run("int64 offsets with empty segments", offs, false);
    }
}

template <class Tuning, class T, class Op>
void check_sizes(const char* tname, Op op, std::uint64_t salt) {
    const std::int64_t tile = Tuning::tile_items;
    constexpr int window = cu::look_behind_of<Tuning>;
    for (const std::int64_t n : {5 * tile, 5 * tile + 1, 37 * tile + 11, 301 * tile - 1}) {
        for (int dist = 0; dist < 5; ++dist) {
            auto g = sweep_test::rng(salt++);
            std::vector<char> h;
            const char* name = "window edges";
            switch (dist) {
            case 0: h = window_heads(n, tile, window, g); break;
            case 1: h = make_heads(n, seg_dist::mean100, tile, Tuning::items, g); name = "mean 100"; break;
            case 2: h = make_heads(n, seg_dist::skewed, tile, Tuning::items, g); name = "skewed"; break;
            case 3: h = make_heads(n, seg_dist::tile_edges, tile, Tuning::items, g); name = "tile edges"; break;
            default: h = make_heads(n, seg_dist::all_heads, tile, Tuning::items, g); name = "all heads"; break;
            }
            const auto x = random_values<T>(static_cast<std::size_t>(n), g);
            check_variant<Tuning>(x, h, g, op, sample_init<T>(), std::string(tname) + ", " + name);
        }
    }
}

}  // namespace

TEST_CASE("gpu segmented variants: look-behind, int32 sums", "[gpu][segmented_scan][variants]") {
    check_sizes<cu::segmented_look_behind_tuning<128, 16, 128, 9>, std::int32_t>(
        "int32, 128 x 16, look-behind 128", sweep::plus<>{}, 50000);
    check_sizes<cu::segmented_look_behind_tuning<128, 16, 256, 9>, std::int32_t>(
        "int32, 128 x 16, look-behind 256", sweep::plus<>{}, 51000);
}

TEST_CASE("gpu segmented variants: look-behind, int8 sums", "[gpu][segmented_scan][variants]") {
    check_sizes<cu::segmented_look_behind_tuning<128, 64, 256, 5>, std::int8_t>(
        "int8, 128 x 64, look-behind 256", sweep::plus<>{}, 52000);
}

TEST_CASE("gpu segmented variants: look-behind, affine maps (non-commutative)",
          "[gpu][segmented_scan][variants]") {
    check_sizes<cu::segmented_look_behind_tuning<128, 8, 256>, affine>(
        "affine, 128 x 8, look-behind 256", affine_then{}, 53000);
}

TEST_CASE("gpu segmented variants: the tile index searched by groups of 32 down to 1 lane",
          "[gpu][segmented_scan][variants]") {
    // Tiles of 64 elements (32 threads x 2 items, which also reads the flag bytes one by one), so
    // that a few million elements give every group size of the index search
    // (kernels/segmented_scan_kernels.cuh, index_search_group): boundaries <= 8192 -> 32 lanes,
    // 16384 -> 16, 32768 -> 8, 65536 -> 4, 131072 -> 2, more -> 1.
    using tn = sweep::detail::cuda::scan_tuning<32, 2, 1>;
    std::uint64_t salt = 54000;
    for (const std::int64_t tiles : {std::int64_t{8191}, std::int64_t{8192}, std::int64_t{12000},
                                     std::int64_t{30000}, std::int64_t{60000},
                                     std::int64_t{120000}, std::int64_t{200000}}) {
        const std::int64_t n = tiles * tn::tile_items - 5;
        const int group = cu::index_search_group(tiles + 1);
        for (const seg_dist dist : {seg_dist::mean100, seg_dist::skewed}) {
            auto g = sweep_test::rng(salt++);
            const auto h = make_heads(n, dist, tn::tile_items, tn::items, g);
            const auto x = random_values<std::int32_t>(static_cast<std::size_t>(n), g);
            check_variant<tn>(x, h, g, sweep::plus<>{}, std::int32_t{3},
                              std::string("index search by ") + std::to_string(group) +
                                  " lanes, " + dist_name(dist));
        }
    }
}

