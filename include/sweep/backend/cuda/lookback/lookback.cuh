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
// Ordered = true gives a result that does not depend on timing: the window is folded strictly
// left to right starting from a published prefix (never from an aggregate-only window), so that
// every tile's prefix is ((A_0 op A_1) op A_2) ... whatever the scheduler did (for the
// deterministic mode of the numerics issue). It costs waiting until a prefix shows in the window.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>

namespace sweep::detail::cuda::lookback {

/// Back-off between polls of a window. Starts without a pause (most waits are short), then doubles
/// up to 1 us so that a long wait does not hammer L2 with polls of the same lines.
struct backoff {
    unsigned ns = 0;
    __device__ void pause() {
        if (ns != 0) __nanosleep(ns);
        ns = ns == 0 ? 32 : (ns < 1024 ? ns * 2 : ns);
    }
};

/// Reads the window [end - 32, end) (lane 0 the nearest tile, end - 1) until every lane's tile
/// has published something. Lanes before tile 0 report a prefix with no value; they are never
/// combined, since tile 0 publishes its prefix directly and lies nearer.
template <class T, class State>
__device__ __forceinline__ std::uint32_t read_window(const State& state, std::int64_t end, int lane,
                                                     T& v) {
    const std::int64_t pred = end - 1 - lane;
    std::uint32_t s = status_prefix;
    backoff b;
    for (;;) {
        if (pred >= 0) s = state.read(pred, v);
        if (__all_sync(full_mask, s != status_invalid)) break;
        b.pause();
    }
    if constexpr (requires { state.read_value(pred, s); }) {
        // Split layout: acquire the writer's value slot now that its status is seen.
        fence_acquire();
        if (pred >= 0) v = state.read_value(pred, s);
    }
    return s;
}

/// The exclusive prefix of `tile` (> 0). Called by all 32 lanes of one warp; every lane returns
/// the prefix. Publishes A(aggregate) first and P(prefix op aggregate) last.
template <bool Ordered, class T, class Op, class State>
__device__ T tile_exclusive_prefix(const State& state, std::int64_t tile, const T& aggregate, Op& op,
                                   int lane) {
    if (lane == 0) state.publish(tile, status_aggregate, aggregate);

    maybe<T> acc;  // reduction of the windows already combined (to the right of the current one)
    std::int64_t end = tile;
    backoff b;  // Ordered only: waiting for a prefix to appear in a fully published window
    for (;;) {
        reg_array<T, 1> v;
        const std::uint32_t s = read_window(state, end, lane, v[0]);
        const unsigned prefixes = __ballot_sync(full_mask, s == status_prefix);
        if constexpr (Ordered) {
            if (prefixes == 0) {  // wait for a prefix in this window: see the file comment
                b.pause();
                continue;
            }
            const int k = __ffs(prefixes) - 1;  // nearest lane holding a prefix
            T w = shfl_idx(v[0], k);
            for (int j = k - 1; j >= 0; --j) w = static_cast<T>(op(w, shfl_idx(v[0], j)));
            return w;
        } else {
            const int k = prefixes != 0 ? __ffs(prefixes) - 1 : warp_threads - 1;
            // Reduce lanes k..0 (tiles end-1-k .. end-1); the higher lane is the earlier tile, so
            // it is the left operand. After step d, lane l holds tiles [l, min(l + 2d - 1, k)].
            T x = v[0];
#pragma unroll
            for (int d = 1; d < warp_threads; d *= 2) {
                const T y = shfl_down(x, d);
                if (lane + d <= k) x = static_cast<T>(op(y, x));
            }
            const T w = shfl_idx(x, 0);
            acc = acc.has ? maybe<T>(static_cast<T>(op(w, acc.get()))) : maybe<T>(w);
            if (prefixes != 0) return acc.get();
            end -= warp_threads;
        }
    }
}

}  // namespace sweep::detail::cuda::lookback
