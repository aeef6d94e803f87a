// sweep/backend/cuda/tuning/scan_tuning.cuh -- GPU backend, tuning: the tile geometry of the scan.
//
// Plain constexpr data chosen by the accumulator's size (one table: sm_90 is the only measured
// architecture). The evidence behind each value is in perf/notes-gpu.md and docs/engine.md.
#pragma once

#include <cstddef>

namespace sweep::detail::cuda {

/// One tile = threads * items elements, processed by one block. `items * sizeof(T)` is kept a
/// multiple of 16 so that a thread's items are whole 16-byte vectors (the transposes through
/// shared memory then move 16 bytes per access, without bank conflicts: agent/tile_io.cuh).
template <int Threads, int Items>
struct scan_tuning {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr int tile_items = Threads * Items;
};

// The sizes are chosen so that a tile is about 16 KB of input: with 256 threads and a few blocks
// resident per SM this keeps 48-64 KB of loads in flight per SM, enough to cover HBM3e latency at
// 4.2 TB/s over 132 SMs (Little's law: ~4.2e12 B/s * ~700 ns / 132 ~ 22 KB per SM).
template <std::size_t Size>
struct default_scan_tuning_for {
    // Wider values: 2 items per thread (48 bytes for a 24-byte type), registers permitting.
    using type = scan_tuning<256, (Size <= 16 ? 4 : 2)>;
};
template <> struct default_scan_tuning_for<1> { using type = scan_tuning<256, 32>; };
template <> struct default_scan_tuning_for<2> { using type = scan_tuning<256, 32>; };
template <> struct default_scan_tuning_for<4> { using type = scan_tuning<256, 16>; };
template <> struct default_scan_tuning_for<8> { using type = scan_tuning<256, 8>; };

template <class Acc>
using default_scan_tuning = typename default_scan_tuning_for<sizeof(Acc)>::type;

/// Inputs of at most this many tiles run in one block that walks the tiles in order: no tile
/// state, no memset, no look-back (the small-n path).
inline constexpr int single_block_max_tiles = 4;

}  // namespace sweep::detail::cuda
