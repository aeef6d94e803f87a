// test/gpu/support/segments.hpp -- helpers of the GPU segmented-scan tests: segmentations drawn
// from the distributions the engine must hold its speed and correctness on, each described in
// every form (keys, head flags, offsets with and without empty segments).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace sweep_gpu_test {

enum class seg_dist {
    all_heads,    // one element per segment
    mean100,      // random heads, mean segment 100
    mean1e4,      // random heads, mean segment 1e4
    one_segment,  // no head but element 0: segments spanning every tile
    skewed,       // mostly 1-3 elements, sometimes 50-500, rarely many tiles
    tile_edges,   // heads on tile, warp and thread boundaries and one before them
};
inline const char* dist_name(seg_dist d) {
    switch (d) {
    case seg_dist::all_heads: return "one element per segment";
    case seg_dist::mean100: return "mean segment 100";
    case seg_dist::mean1e4: return "mean segment 1e4";
    case seg_dist::one_segment: return "one segment";
    case seg_dist::skewed: return "skewed mix";
    case seg_dist::tile_edges: return "heads on tile/warp/thread edges";
    }
    return "?";
}
inline constexpr seg_dist all_seg_dists[] = {seg_dist::all_heads, seg_dist::mean100,
                                             seg_dist::mean1e4,  seg_dist::one_segment,
                                             seg_dist::skewed,   seg_dist::tile_edges};

/// head[i] != 0: element i starts a segment (element 0 always does). `tile` and `items` are the
/// engine's tile and per-thread sizes, for the edge cases.
inline std::vector<char> make_heads(std::int64_t n, seg_dist d, std::int64_t tile,
                                    std::int64_t items, std::mt19937_64& g) {
    std::vector<char> h(static_cast<std::size_t>(n), 0);
    auto set = [&](std::int64_t i) {
        if (i >= 0 && i < n) h[static_cast<std::size_t>(i)] = 1;
    };
    auto random_mean = [&](std::int64_t mean) {
        std::uniform_int_distribution<std::int64_t> u(0, mean - 1);
        for (std::int64_t i = 0; i < n; ++i)
            if (u(g) == 0) set(i);
    };
    switch (d) {
    case seg_dist::all_heads: std::fill(h.begin(), h.end(), char{1}); break;
    case seg_dist::mean100: random_mean(100); break;
    case seg_dist::mean1e4: random_mean(10000); break;
    case seg_dist::one_segment: break;
    case seg_dist::skewed: {
        std::int64_t i = 0;
        while (i < n) {
            set(i);
            const auto r = g() % 1000;
            if (r < 900) i += 1 + static_cast<std::int64_t>(g() % 3);
            else if (r < 995) i += 50 + static_cast<std::int64_t>(g() % 451);
            else i += tile + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(6 * tile));
        }
        break;
    }
    case seg_dist::tile_edges: {
        const std::int64_t warp = 32 * items;
        for (std::int64_t t = 0; t * tile < n; ++t) {
            const std::int64_t b = t * tile;
            switch (t % 7) {
            case 0: set(b); break;                                   // head on the tile start
            case 1: set(b + tile - 1); break;                        // only the last element
            case 2: set(b + 1); set(b + tile - 1); break;
            case 3: break;                                           // no head at all
            case 4:                                                  // every thread starts one
                for (std::int64_t i = b; i < b + tile; i += items) set(i);
                break;
            case 5:                                                  // every thread's last item
                for (std::int64_t i = b + items - 1; i < b + tile; i += items) set(i);
                break;
            case 6:                                                  // warp edges, and one after
                for (std::int64_t i = b + warp; i < b + tile; i += warp) {
                    set(i);
                    set(i + 1);
                }
                break;
            }
        }
        set(n - 1);
        break;
    }
    }
    if (n > 0) h[0] = 1;
    return h;
}

/// The segmentation `h` as keys (segment id, as K: neighbours in different segments differ),
/// keys equal mod 1000 within a segment only (for a custom key_eq), head flags, and offsets.
struct seg_forms {
    std::vector<std::int32_t> keys;
    std::vector<std::int32_t> keys_mod;
    std::vector<std::uint8_t> flags;   // nonzero at heads; element 0 either
    std::vector<std::int64_t> off64;   // with empty segments (front, back, runs of up to 3000)
    std::vector<std::int32_t> off32;   // without
};

struct eq_mod1000 {
    __host__ __device__ bool operator()(std::int32_t a, std::int32_t b) const {
        return a % 1000 == b % 1000;
    }
};

inline seg_forms make_forms(const std::vector<char>& h, std::mt19937_64& g) {
    const auto n = static_cast<std::int64_t>(h.size());
    seg_forms f;
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
    if (n > 0 && g() % 2) f.flags[0] = 0;
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

/// Keys of type K for the segmentation `h`: segment id mod 100 (+ 0.5 for floating K), so that
/// neighbouring segments differ and equal keys recur in non-neighbouring segments.
template <class K>
std::vector<K> keys_as(const std::vector<char>& h) {
    std::vector<K> k(h.size());
    int id = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (i > 0 && h[i]) id = (id + 1) % 100;
        k[i] = static_cast<K>(id) + (std::is_floating_point_v<K> ? K(0.5) : K(0));
    }
    return k;
}

/// The first index where got and want differ (operator==), or -1.
template <class T>
std::int64_t first_difference(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) return 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (!(got[i] == want[i])) return static_cast<std::int64_t>(i);
    return -1;
}

}  // namespace sweep_gpu_test
