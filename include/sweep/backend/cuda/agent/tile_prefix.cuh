// sweep/backend/cuda/agent/tile_prefix.cuh -- GPU backend, agents: the two prefix services a tile
// agent can be given. Each is called by every thread of the block with the tile's aggregate and
// returns the reduction of everything before the tile (nothing for the first tile of an
// inclusive scan without init).
//
// Other algorithms (copy_if, partition, radix sort offsets, segmented scans with a (flag, value)
// operator) reuse these with their own value type and operator.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/lookback.cuh>

namespace sweep::detail::cuda {

/// One block walks the tiles in order and carries the running prefix: no tile state.
template <class Acc, class Op>
struct carry_prefix {
    maybe<Acc> carry;
    Op op;
    __device__ maybe<Acc> operator()(std::int64_t, const Acc& aggregate) {
        const maybe<Acc> before = carry;
        carry = maybe<Acc>(combine(carry, aggregate, op));
        return before;
    }
};

/// Decoupled look-back across blocks. Tile 0 publishes its inclusive prefix at once; every other
/// tile's warp 0 runs the look-back and hands the result to the block through shared memory.
/// Ordered (the deterministic mode): the grouped chain of the canonical tree instead
/// (lookback::grouped_exclusive_prefix).
template <bool Ordered, unsigned BackoffNs, int Windows, class Acc, class Op, class State>
struct lookback_prefix {
    State state;
    maybe<Acc> init;
    Op op;
    smem_array<Acc, 1>* slot;

    __device__ maybe<Acc> operator()(std::int64_t tile, const Acc& aggregate) {
        if constexpr (Ordered) {
            // The deterministic mode: the grouped chain of the canonical tree (every tile,
            // tile 0 included, publishes its aggregate; lookback.cuh).
            if (threadIdx.x < warp_threads) {
                const maybe<Acc> before = lookback::grouped_exclusive_prefix<BackoffNs>(
                    state, tile, aggregate, init, op, static_cast<int>(threadIdx.x));
                if (threadIdx.x == 0) slot->set(0, before.has ? before.get() : aggregate);
            }
            __syncthreads();
            // Nothing before only for tile 0 without init.
            return tile != 0 || init.has ? maybe<Acc>(slot->get(0)) : maybe<Acc>();
        } else {
            return unordered(tile, aggregate);
        }
    }

    __device__ __forceinline__ maybe<Acc> unordered(std::int64_t tile, const Acc& aggregate) {
        if (tile == 0) {
            if (threadIdx.x == 0)
                state.publish(0, lookback::status_prefix, combine(init, aggregate, op));
            return init;
        }
        if (threadIdx.x < warp_threads) {
            const int lane = threadIdx.x;
            const Acc before =
                lookback::tile_exclusive_prefix<false, BackoffNs, Windows>(state, tile, aggregate, op,
                                                                       lane);
            if (lane == 0) {
                state.publish(tile, lookback::status_prefix, static_cast<Acc>(op(before, aggregate)));
                slot->set(0, before);
            }
        }
        __syncthreads();
        return maybe<Acc>(slot->get(0));
    }
};

}  // namespace sweep::detail::cuda
