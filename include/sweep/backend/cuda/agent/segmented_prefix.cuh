// sweep/backend/cuda/agent/segmented_prefix.cuh -- GPU backend, agents: the prefix services of the
// segmented scan. Called by every thread of a block with the tile's aggregate under the segmented
// operator, (has_head, value), and whether the tile needs what comes before it (its first element
// is not a head). They return the inclusive scan value of the element before the tile (with the
// init folded in at its segment's head), or nothing when the tile does not need it.
//
// The tile state carries values only, no flags. A tile with a head knows its inclusive prefix
// without looking back: it is the value of its own last segment, (f, a) . (true, b) = (true, b).
// So such a tile publishes P at once, before (and whether or not) it looks back itself, and the
// chain of look-backs is cut at every tile with a head: with short segments every tile publishes
// P immediately and no tile waits on another for longer than one read. Only tiles without a head
// publish A (their plain reduction) and wait; an A is then always flag-free, and the look-back's
// plain fold, P_j op A_j+1 op ... op A_t-1, is the segmented one. Tile 0 always has a head
// (element 0), so P exists and no init enters the look-back.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/lookback.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>

namespace sweep::detail::cuda {

/// One block walks the tiles in order, carrying the inclusive value at the previous tile's end.
template <class Acc, class Op>
struct segmented_carry_prefix {
    maybe<Acc> carry;
    Op op;
    __device__ maybe<Acc> operator()(std::int64_t, bool has_head, const Acc& aggregate, bool) {
        const maybe<Acc> before = carry;
        carry = has_head ? maybe<Acc>(aggregate) : maybe<Acc>(combine(carry, aggregate, op));
        return before;
    }
};

/// A tile state whose publish does nothing: lets a tile that already published P run the engine's
/// look-back (lookback::tile_exclusive_prefix, which publishes A first) read-only.
template <class State>
struct read_only_state : State {
    template <class T>
    __device__ void publish(std::int64_t, std::uint32_t, const T&) const {}
};

/// Decoupled look-back (lookback/lookback.cuh) with the segmented rules above.
template <bool Ordered, unsigned BackoffNs, int Windows, class Acc, class Op, class State>
struct segmented_lookback_prefix {
    // The agent may find a tile's prefix in the data before it instead (its look-behind): not in
    // the ordered mode, whose association is the look-back's.
    static constexpr bool look_behind_ok = !Ordered;
    State state;
    Op op;
    smem_array<Acc, 1>* slot;

    __device__ maybe<Acc> operator()(std::int64_t tile, bool has_head, const Acc& aggregate,
                                     bool need) {
        if (has_head) {
            if (threadIdx.x == 0) state.publish(tile, lookback::status_prefix, aggregate);
            if (!need) return maybe<Acc>();  // uniform: `need` comes from shared memory
            if (threadIdx.x < warp_threads) {
                const read_only_state<State> ro{state};
                const Acc before = lookback::tile_exclusive_prefix<Ordered, BackoffNs, Windows>(
                    ro, tile, aggregate, op, static_cast<int>(threadIdx.x));
                if (threadIdx.x == 0) slot->set(0, before);
            }
        } else {
            // No head: tile > 0, and the tile continues the segment open before it.
            if (threadIdx.x < warp_threads) {
                const Acc before = lookback::tile_exclusive_prefix<Ordered, BackoffNs, Windows>(
                    state, tile, aggregate, op, static_cast<int>(threadIdx.x));
                if (threadIdx.x == 0) {
                    state.publish(tile, lookback::status_prefix,
                                  static_cast<Acc>(op(before, aggregate)));
                    slot->set(0, before);
                }
            }
        }
        __syncthreads();
        return maybe<Acc>(slot->get(0));
    }
};

}  // namespace sweep::detail::cuda
