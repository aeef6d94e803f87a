// sweep/backend/cuda/agent/count_prefix.cuh -- GPU backend, agents: the prefix services of stream
// compaction, whose tile aggregate is a count (the tile's kept elements) and whose prefix is the
// number of kept elements before the tile. 64-bit throughout: counts pass 2^31.
//
// The look-back itself is the engine's (lookback/lookback.cuh); what is compaction's own here:
//   * count_tile_state: status and count in one 64-bit word {count:62 | status:2}, one relaxed
//     access each way (the same reasoning as tile_state_64: the word is the only thing
//     communicated, and it is single-copy atomic). Half the bytes of the 128-bit layout that a
//     64-bit value would otherwise take, and counts up to 2^62.
//   * the fences of the in-place mode (see count_lookback).
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/lookback.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>

namespace sweep::detail::cuda {

struct count_tile_state {
    std::uint64_t* words;

    static constexpr std::size_t status_bytes(std::int64_t tiles) {
        return static_cast<std::size_t>(tiles) * 8;
    }
    static constexpr std::size_t value_bytes(std::int64_t) { return 0; }
    static count_tile_state make(void* status, void*, std::int64_t) {
        return count_tile_state{static_cast<std::uint64_t*>(status)};
    }

    __device__ void publish(std::int64_t tile, std::uint32_t status, const std::int64_t& v) const {
        lookback::store_relaxed(words + tile, (static_cast<std::uint64_t>(v) << 2) | status);
    }
    __device__ std::uint32_t read(std::int64_t tile, std::int64_t& v) const {
        const std::uint64_t w = lookback::load_relaxed(words + tile);
        v = static_cast<std::int64_t>(w >> 2);
        return static_cast<std::uint32_t>(w & 3u);
    }
};

/// a + b on counts (the look-back's operator).
struct count_plus {
    __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};

// A prefix service is used by the 32 lanes of warp 0 only, in two steps: announce(tile, count) as
// soon as the tile's count is known (a look-back publishes it at once, so that successors can
// use it), and resolve(tile, count, slot) once warp 0 has placed its own elements (the look-back
// proper; lane 0 writes the kept count before the tile to `slot`). Splitting the two keeps the
// look-back's registers and the tile's values from being live at the same time. Meanwhile the
// other warps place their elements; a barrier after that hands the slot to the whole block.

/// One block walks the tiles in order, carrying the count: no tile state.
struct count_carry {
    std::int64_t carry = 0;  // the same in every lane of warp 0
    __device__ void announce(std::int64_t, std::int64_t) {}
    __device__ void resolve(std::int64_t, std::int64_t aggregate, std::int64_t* slot) {
        if (threadIdx.x == 0) *slot = carry;
        carry += aggregate;
    }
};

/// Decoupled look-back on counts. Windows: windows of 32 tiles read per poll (lookback.cuh).
///
/// Fenced (the in-place partitions write their kept elements back into the input): a tile may
/// then overwrite input of the tiles before it, which is safe only if each of them has finished
/// reading its input before this tile learns its prefix. A tile publishes its count only after
/// every thread of its block has loaded its input and counted it (a barrier lies between), and
/// this tile learns its prefix only from counts published by every tile before it (directly, or
/// through an inclusive prefix that was itself computed from them). The two fences make that
/// chain a happens-before in the PTX memory model, which relaxed status words alone do not:
/// fence, then publish (release pattern); observe, then fence (acquire pattern). Tiles after
/// this one are never written by it (its output ends where its own input ends).
template <class State, int Windows = 1>
struct count_lookback {
    State state;
    bool fenced;

    __device__ void announce(std::int64_t tile, std::int64_t aggregate) {
        if (fenced) __threadfence();
        if (threadIdx.x == 0)
            state.publish(tile, tile == 0 ? lookback::status_prefix : lookback::status_aggregate,
                          aggregate);
    }
    __device__ void resolve(std::int64_t tile, std::int64_t aggregate, std::int64_t* slot) {
        const int lane = static_cast<int>(threadIdx.x);
        std::int64_t before = 0;
        if (tile != 0) {
            // (tile_exclusive_prefix publishes the aggregate again: the same word, harmless.)
            count_plus op;
            before = lookback::tile_exclusive_prefix<false, 0, Windows>(state, tile, aggregate, op, lane);
            if (fenced) __threadfence();
            if (lane == 0) state.publish(tile, lookback::status_prefix, before + aggregate);
        }
        if (lane == 0) *slot = before;
    }
};

}  // namespace sweep::detail::cuda
