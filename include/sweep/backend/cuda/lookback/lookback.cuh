// sweep/backend/cuda/lookback/lookback.cuh -- GPU backend, look-back engine: the tile prefix
// service. Given a tile's aggregate, returns the reduction of every tile before it.
//
// One warp per tile runs it (Merrill & Garland 2016, "decoupled look-back"): it publishes the
// aggregate, then inspects a window of the 32 nearest predecessors at once, one per lane, spinning
// with exponential back-off while any of them has published nothing. The window is combined up to
// the nearest tile that published its inclusive prefix; if none did, the window moves 32 tiles
// back. Tile indices come from an atomic ticket in start order, so every predecessor has started
// and will publish: the spin needs no guarantee about scheduling to end.
//
// The deterministic mode of the plain scans uses the grouped chain at the end of this file
// (grouped_exclusive_prefix). tile_exclusive_prefix<Ordered = true> below, the tile-by-tile chain,
// serves the segmented kernel's ordered mode.
// Ordered = true gives a result that does not depend on timing: the windows are folded strictly
// left to right starting from a published prefix (never from an aggregate-only window), so that
// every tile's prefix is ((A_0 op A_1) op A_2) ... whatever the scheduler did (the deterministic
// mode, docs/numerics.md). It walks back to the nearest prefix as the default mode does, then
// folds forward serially (one op per tile after the prefix, its operand shuffled in ahead of the
// chain: fold_lanes) over the windows it passed, kept in registers (kept_windows; a longer walk
// reads the windows beyond those a second time on its way forward: ordered_walk_far).
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>

namespace sweep::detail::cuda::lookback {

/// Back-off between polls of a window: none at first (most waits are short), then doubling from
/// 32 ns up to MaxNs so that a long wait does not hammer L2 with polls of the same lines.
/// MaxNs = 0: spin. The value in use is measured (tuning/scan_tuning.cuh).
template <unsigned MaxNs>
struct backoff {
    unsigned ns = 0;
    __device__ void pause() {
        if constexpr (MaxNs != 0) {
            if (ns != 0) __nanosleep(ns);
            ns = ns == 0 ? 32 : (ns < MaxNs ? ns * 2 : MaxNs);
        }
    }
};

/// Reads Windows windows of 32 tiles at once, [end - 32 * Windows, end): lane l of window j holds
/// tile end - 1 - 32 j - l (window 0 the nearest). Polls until every one of them has published
/// something; a status once seen is kept (an A that turned into a P meanwhile is still right).
/// Tiles before tile 0 count as a prefix with no value; they are never combined, since tile 0
/// publishes its prefix directly and lies nearer. All loads of a poll are issued together, so
/// reading several windows costs one round trip to L2, not several: with hundreds of tiles in
/// flight, the nearest published prefix is often more than 32 tiles back.
template <unsigned BackoffNs, int Windows, class T, class State>
__device__ __forceinline__ void read_windows(const State& state, std::int64_t end, int lane,
                                             std::uint32_t (&s)[Windows],
                                             reg_array<T, Windows>& v) {
#pragma unroll
    for (int j = 0; j < Windows; ++j)
        s[j] = end - 1 - j * warp_threads - lane >= 0 ? status_invalid : status_prefix;
    backoff<BackoffNs> b;
    for (;;) {
        bool valid = true;
#pragma unroll
        for (int j = 0; j < Windows; ++j) {
            if (s[j] == status_invalid) s[j] = state.read(end - 1 - j * warp_threads - lane, v[j]);
            valid = valid && s[j] != status_invalid;
        }
        if (__all_sync(full_mask, valid)) break;
        b.pause();
    }
    if constexpr (requires { state.read_value(end, s[0]); }) {
        // Split layout: acquire the writers' value slots now that their statuses are seen.
        fence_acquire();
#pragma unroll
        for (int j = 0; j < Windows; ++j) {
            const std::int64_t pred = end - 1 - j * warp_threads - lane;
            if (pred >= 0) v[j] = state.read_value(pred, s[j]);
        }
    }
}

/// Reduces lanes k..0 of one window (tiles end-1-k .. end-1) and returns it on every lane. The
/// higher lane is the earlier tile, so it is the left operand. After step d, lane l holds tiles
/// [l, min(l + 2d - 1, k)].
template <class T, class Op>
__device__ __forceinline__ T reduce_window(T x, int k, Op& op, int lane) {
#pragma unroll
    for (int d = 1; d < warp_threads; d *= 2) {
        const T y = shfl_down(x, d);
        if (lane + d <= k) x = static_cast<T>(op(y, x));
    }
    return shfl_idx(x, 0);
}

/// Folds lanes top, top-1, ..., 0 of `v` onto `w`, strictly in that order (the higher lane is the
/// earlier tile): w = (((w op v_top) op v_top-1) ... op v_0), or starting from v_top when w is
/// empty. The ops form a dependent chain, but the shuffles feeding them do not: they are issued
/// eight at a time ahead of the ops, so that a tile costs one op's latency and not a shuffle's as
/// well. (A loop with a run-time bound paid both: ~21-25 ns per tile on the H200, which capped the
/// deterministic chain at ~45 tiles per microsecond whatever the tile size.)
template <class T, class Op>
__device__ __forceinline__ void fold_lanes(maybe<T>& w, const T& v, int top, Op& op) {
    constexpr int chunk = 8;
#pragma unroll
    for (int c = warp_threads / chunk - 1; c >= 0; --c) {
        if (c * chunk > top) continue;  // warp-uniform
        reg_array<T, chunk> y;
#pragma unroll
        for (int i = chunk - 1; i >= 0; --i) y[i] = shfl_idx(v, c * chunk + i);
#pragma unroll
        for (int i = chunk - 1; i >= 0; --i)
            if (c * chunk + i <= top)
                w = w.has ? maybe<T>(static_cast<T>(op(w.get(), y[i]))) : maybe<T>(y[i]);
    }
}

/// Windows the ordered look-back keeps in registers while it walks (one value per lane each).
inline constexpr int kept_windows = 8;

/// Where a poll's nearest published prefix lies: window jw (-1: none), lane k of it.
struct prefix_pos {
    int jw, k;
};

/// The nearest published prefix of one poll (read_windows: lane l of window j holds tile
/// end - 1 - 32 j - l): the nearest window holding one and its nearest such lane. The same on
/// every lane (ballots). The ordered look-back's search, in the kept-window polls and in
/// ordered_walk_far.
template <int Windows>
__device__ __forceinline__ prefix_pos nearest_prefix(const std::uint32_t (&s)[Windows]) {
    int jw = -1, k = 0;
#pragma unroll
    for (int j = 0; j < Windows; ++j) {
        const unsigned prefixes = __ballot_sync(full_mask, s[j] == status_prefix);
        if (jw < 0 && prefixes != 0) {
            jw = j;
            k = __ffs(prefixes) - 1;
        }
    }
    return prefix_pos{jw, k};
}

/// Folds one poll onto `w` from its nearest published prefix `at` (nearest_prefix, at.jw >= 0),
/// strictly left to right: lanes at.k..0 of window at.jw, then windows at.jw - 1..0 whole. With
/// `w` empty, the chain through tile end - 1.
template <int Windows, class T, class Op>
__device__ __forceinline__ void fold_from_prefix(maybe<T>& w, const reg_array<T, Windows>& v,
                                                 prefix_pos at, Op& op) {
#pragma unroll
    for (int j = Windows - 1; j >= 0; --j) {
        if (j > at.jw) continue;
        fold_lanes(w, v[j], j == at.jw ? at.k : warp_threads - 1, op);
    }
}

/// The ordered chain through tile `stop` - 1 (stop > 0), for walks longer than the kept windows:
/// walks back from `stop`, Windows windows per poll, to the nearest published prefix, then reads
/// the passed windows again on the way forward (each was seen published: these reads do not wait;
/// one may have become a prefix meanwhile, and then the fold restarts from the nearest such,
/// which is the chain's value again).
template <unsigned BackoffNs, int Windows, class T, class Op, class State>
__device__ __noinline__ T ordered_walk_far(const State& state, std::int64_t stop, Op& op, int lane) {
    std::int64_t end = stop;
    for (;;) {
        std::uint32_t s[Windows];
        reg_array<T, Windows> v;
        read_windows<BackoffNs, Windows>(state, end, lane, s, v);
        const prefix_pos at = nearest_prefix(s);
        if (at.jw < 0) {  // no prefix in this poll: every tile of it has its aggregate; go on
            end -= Windows * warp_threads;
            continue;
        }
        maybe<T> w;
        fold_from_prefix(w, v, at, op);
        // w: the chain through tile end - 1; forward over [end, stop), 32 tiles at a time.
        while (end < stop) {
            const std::int64_t e = end + warp_threads < stop ? end + warp_threads : stop;
            std::uint32_t s1[1];
            reg_array<T, 1> v1;
            read_windows<BackoffNs, 1>(state, e, lane, s1, v1);  // lane l: tile e - 1 - l
            const int top = static_cast<int>(e - 1 - end);      // lanes top..0: end..e-1
            const unsigned prefixes =
                __ballot_sync(full_mask, lane <= top && s1[0] == status_prefix);
            int from = top;
            if (prefixes != 0) {
                const int kk = __ffs(prefixes) - 1;
                w = maybe<T>(shfl_idx(v1[0], kk));
                from = kk - 1;
            }
            if (from >= 0) fold_lanes(w, v1[0], from, op);
            end = e;
        }
        return w.get();
    }
}

/// The exclusive prefix of `tile` (> 0). Called by all 32 lanes of one warp; every lane returns
/// the prefix. Publishes A(aggregate) first and P(prefix op aggregate) last.
template <bool Ordered, unsigned BackoffNs, int Windows, class T, class Op, class State>
__device__ T tile_exclusive_prefix(const State& state, std::int64_t tile, const T& aggregate, Op& op,
                                   int lane) {
    if (lane == 0) state.publish(tile, status_aggregate, aggregate);

    if constexpr (Ordered) {
        // Walk back, Windows windows (32 * Windows tiles) per poll, to the nearest published
        // prefix P_j, as the default mode walks; then fold strictly left to right from P_j over
        // every tile after it. Any P_j gives the same value (P_j is the chain up to j), so where
        // the walk stops changes the speed, never the bits.
        // The windows the walk passes are kept in registers (up to kept_windows of them), so that
        // the fold forward needs no second read of them: with a re-read per 32 tiles, a tile far
        // from the nearest prefix paid two L2 round trips per 32 tiles of distance, the prefixes
        // then advanced ~16 tiles per round trip, and deterministic scans ran at 0.35-0.5x the
        // default mode on the H200 (time proportional to the number of tiles, ~22-26 ns each,
        // whatever the tile size). Longer walks fall back to the re-read (ordered_walk_far).
        constexpr int polls = kept_windows / Windows > 0 ? kept_windows / Windows : 1;
        reg_array<T, polls * Windows> kept;
        std::int64_t end = tile;
#pragma unroll
        for (int poll = 0; poll < polls; ++poll) {
            std::uint32_t s[Windows];
            reg_array<T, Windows> v;
            read_windows<BackoffNs, Windows>(state, end, lane, s, v);
            const prefix_pos at = nearest_prefix(s);
            if (at.jw >= 0) {
                maybe<T> w;
                fold_from_prefix(w, v, at, op);
                // w: the chain through tile end - 1; the kept windows (tiles end .. tile - 1) on
                // top of it.
#pragma unroll
                for (int q = poll - 1; q >= 0; --q)
#pragma unroll
                    for (int j = Windows - 1; j >= 0; --j)
                        fold_lanes(w, kept[q * Windows + j], warp_threads - 1, op);
                return w.get();
            }
#pragma unroll
            for (int j = 0; j < Windows; ++j) kept[poll * Windows + j] = v[j];
            end -= Windows * warp_threads;
        }
        // No prefix within the kept windows: the chain through tile end - 1 the slow way, then
        // the kept windows on top of it.
        maybe<T> w(ordered_walk_far<BackoffNs, Windows, T>(state, end, op, lane));
#pragma unroll
        for (int q = polls - 1; q >= 0; --q)
#pragma unroll
            for (int j = Windows - 1; j >= 0; --j)
                fold_lanes(w, kept[q * Windows + j], warp_threads - 1, op);
        return w.get();
    } else {
        maybe<T> acc;  // reduction of the tiles already combined (to the right of the window)
        std::int64_t end = tile;
        for (;;) {
            std::uint32_t s[Windows];
            reg_array<T, Windows> v;
            read_windows<BackoffNs, Windows>(state, end, lane, s, v);
#pragma unroll
            for (int j = 0; j < Windows; ++j) {
                const unsigned prefixes = __ballot_sync(full_mask, s[j] == status_prefix);
                const int k = prefixes != 0 ? __ffs(prefixes) - 1 : warp_threads - 1;
                const T w = reduce_window(v[j], k, op, lane);
                acc = acc.has ? maybe<T>(static_cast<T>(op(w, acc.get()))) : maybe<T>(w);
                if (prefixes != 0) return acc.get();
            }
            end -= Windows * warp_threads;
        }
    }
}

// ---- the grouped chain: the deterministic mode of the plain scans ------------------------------
//
// The canonical tree between tiles (detail/canonical.hpp) is chained by groups of 32 tiles: tile
// t = 32 g + p gets op(G_{g-1}, K_g[p - 1]), K_g the Kogge-Stone scan of the group's aggregates
// across one warp, G_g = op(G_{g-1}, K_g[31]). Every tile publishes its aggregate (A) only; the
// last tile of a group then publishes G_g in its own word as its "prefix" (P). So a group's words
// are A's, except the last, which goes A -> P; a tile only ever waits for aggregates of tiles
// before it (each published before its owner looks back: no cycle) and the timing decides only
// which P a walk finds first, never the value: G_h found as a P equals the fold of the older
// groups' K[31]'s that the walk would otherwise do. Against the strict tile chain (ordered_walk
// above): a window costs a 5-step warp scan and one op, not 32 dependent ops, and nothing is kept
// per tile walked (a group's total is one value: lane i of one register keeps the i-th).

/// Tiles per group of the grouped chain (one warp's lanes).
inline constexpr int group_tiles = warp_threads;

/// Kogge-Stone inclusive scan of lanes [0, valid) (the canonical steps: lane l >= d takes
/// op(lane[l - d], lane[l])); lanes from `valid` on never enter an op.
template <class T, class Op>
__device__ __forceinline__ T group_scan(T x, int valid, Op& op, int lane) {
#pragma unroll
    for (int d = 1; d < warp_threads; d *= 2) {
        const T y = shfl_up(x, d);
        if (lane >= d && lane < valid) x = static_cast<T>(op(y, x));
    }
    return x;
}

/// Polls the words of tiles first[j] + lane for lanes < valid[j] of N groups at once (one round
/// trip for all), until each has published; v[j] of the other lanes is left as it was. Returns
/// the statuses (status_prefix on the lanes not read).
template <unsigned BackoffNs, int N, class T, class State>
__device__ __forceinline__ void read_groups(const State& state, const std::int64_t (&first)[N],
                                            const int (&valid)[N], int lane,
                                            std::uint32_t (&s)[N], reg_array<T, N>& v) {
#pragma unroll
    for (int j = 0; j < N; ++j) s[j] = lane < valid[j] ? status_invalid : status_prefix;
    backoff<BackoffNs> b;
    for (;;) {
        bool done = true;
#pragma unroll
        for (int j = 0; j < N; ++j) {
            if (s[j] == status_invalid) s[j] = state.read(first[j] + lane, v[j]);
            done = done && s[j] != status_invalid;
        }
        if (__all_sync(full_mask, done)) break;
        b.pause();
    }
    if constexpr (requires { state.read_value(first[0], s[0]); }) {
        fence_acquire();  // split layout: the value slots after their statuses (read_windows)
#pragma unroll
        for (int j = 0; j < N; ++j)
            if (lane < valid[j]) v[j] = state.read_value(first[j] + lane, s[j]);
    }
}

/// G_h (the chain through group h, h >= 0) the slow way, for walks longer than 32 groups: back to
/// the nearest group whose last tile published its P (or to the start: the init), then forward
/// over the groups after it, reading each again (all published: these reads do not wait; one that
/// has become a P meanwhile restarts the fold from it, which is the chain's value again).
template <unsigned BackoffNs, class T, class Op, class State>
__device__ __forceinline__ maybe<T> group_prefix_far(const State& state, std::int64_t h,
                                                  const maybe<T>& init, Op& op, int lane,
                                                  const T& filler) {
    maybe<T> w = init;
    std::int64_t f = h;
    for (; f >= 0; --f) {
        const std::int64_t first[1] = {f * group_tiles};
        const int valid[1] = {warp_threads};
        std::uint32_t s[1];
        reg_array<T, 1> v;
        v[0] = filler;
        read_groups<BackoffNs>(state, first, valid, lane, s, v);
        if (__shfl_sync(full_mask, s[0], warp_threads - 1) == status_prefix) {
            w = maybe<T>(shfl_idx(v[0], warp_threads - 1));
            break;
        }
    }
    for (std::int64_t k = f + 1; k <= h; ++k) {
        const std::int64_t first[1] = {k * group_tiles};
        const int valid[1] = {warp_threads};
        std::uint32_t s[1];
        reg_array<T, 1> v;
        v[0] = filler;
        read_groups<BackoffNs>(state, first, valid, lane, s, v);
        if (__shfl_sync(full_mask, s[0], warp_threads - 1) == status_prefix) {
            w = maybe<T>(shfl_idx(v[0], warp_threads - 1));
        } else {
            const T total = shfl_idx(group_scan(v[0], warp_threads, op, lane), warp_threads - 1);
            w = maybe<T>(combine(w, total, op));
        }
    }
    return w;
}

/// The exclusive prefix of `tile` in the grouped chain (nothing only for tile 0 without init), on
/// every lane; called by all 32 lanes of one warp, for every tile including 0. Publishes the
/// tile's A, and for the last tile of a group G_g as its P.
template <unsigned BackoffNs, class T, class Op, class State>
__device__ maybe<T> grouped_exclusive_prefix(const State& state, std::int64_t tile,
                                             const T& aggregate, const maybe<T>& init, Op& op,
                                             int lane) {
    if (lane == 0) state.publish(tile, status_aggregate, aggregate);
    const std::int64_t g = tile / group_tiles;
    const int p = static_cast<int>(tile % group_tiles);

    // One poll for the group's tiles before this one and the whole group before (its last word
    // is G_{g-1} once published, which is what most tiles find).
    const std::int64_t first[2] = {g * group_tiles, (g - 1) * group_tiles};
    const int valid[2] = {p, g > 0 ? warp_threads : 0};
    std::uint32_t s[2];
    reg_array<T, 2> v;
    v[0] = aggregate;  // lane p keeps it (and lanes above: never combined)
    v[1] = aggregate;
    read_groups<BackoffNs>(state, first, valid, lane, s, v);
    const T k = group_scan(v[0], p + 1, op, lane);  // K_g[0 .. p]

    // G_{g-1}: the group before's P, or its total K[31] on top of the groups before it.
    maybe<T> before = init;
    if (g > 0) {
        if (__shfl_sync(full_mask, s[1], warp_threads - 1) == status_prefix) {
            before = maybe<T>(shfl_idx(v[1], warp_threads - 1));
        } else {
            // Walk back a group at a time; lane i of `kept` holds the total of group g - 1 - i.
            reg_array<T, 1> kept;
            kept[0] = shfl_idx(group_scan(v[1], warp_threads, op, lane), warp_threads - 1);
            int count = 1;
            std::int64_t h = g - 2;
            for (; h >= 0; --h) {
                if (count == warp_threads) {  // 32 groups without a P: the rest the slow way
                    before = group_prefix_far<BackoffNs>(state, h, init, op, lane, aggregate);
                    break;
                }
                const std::int64_t f1[1] = {h * group_tiles};
                const int n1[1] = {warp_threads};
                std::uint32_t s1[1];
                reg_array<T, 1> v1;
                v1[0] = aggregate;
                read_groups<BackoffNs>(state, f1, n1, lane, s1, v1);
                if (__shfl_sync(full_mask, s1[0], warp_threads - 1) == status_prefix) {
                    before = maybe<T>(shfl_idx(v1[0], warp_threads - 1));
                    break;
                }
                const T total = shfl_idx(group_scan(v1[0], warp_threads, op, lane), warp_threads - 1);
                if (lane == count) kept[0] = total;
                ++count;
            }
            // h < 0: the walk passed group 0 without a P, so `before` is still the init.
            // Fold forward: the farthest kept group first.
            for (int i = count - 1; i >= 0; --i)
                before = maybe<T>(combine(before, shfl_idx(kept[0], i), op));
        }
    }

    if (p == group_tiles - 1) {  // warp-uniform: the group is complete; publish G_g
        const T total = shfl_idx(k, warp_threads - 1);
        if (lane == 0) state.publish(tile, status_prefix, combine(before, total, op));
    }
    if (p == 0) return before;
    return maybe<T>(combine(before, shfl_idx(k, p - 1), op));
}

}  // namespace sweep::detail::cuda::lookback
