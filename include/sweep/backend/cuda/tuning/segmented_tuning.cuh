// sweep/backend/cuda/tuning/segmented_tuning.cuh -- GPU backend, tuning: the tile geometry of the
// segmented scans.
//
// Plain constexpr data chosen by the accumulator's size, like tuning/scan_tuning.cuh (whose
// scan_tuning struct it reuses). A segmented tile holds, besides the values, the heads' source
// (keys or flags) while it derives the head bits, so it is given half the items of the plain scan
// for 4- and 8-byte values (the same 8 KB of values a tile, about the same registers a thread as
// the plain scan's 16 KB tile). NOT YET MEASURED: first guesses, to be swept on the H200
// (perf/gpu/bench_gpu_segmented.cu) like the plain scan's were.
#pragma once

#include <cstddef>

#include <sweep/backend/cuda/tuning/scan_tuning.cuh>

namespace sweep::detail::cuda {

template <std::size_t Size>
struct segmented_tuning_for {
    using type = scan_tuning<256, (Size <= 16 ? 4 : 2), 1>;  // as the plain scan
};
// Items a thread: at most 64 (the head bits of a thread live in one 64-bit mask).
// 1-byte values: 128 x 64 (8 KB of values a tile, as the plain scan's register path), from the
// session-2 table (perf/results/gpu-session2-perf_segmented-2026-11-21.md: int8 1.40-1.44x CUB
// with long and skewed segments at 128 x 32, below the 1.5x bar, slower than with short ones)
// and ptxas (sm_90, by key, look-back kernel): 128 x 32 takes 72 registers -> 7 blocks an SM,
// 28 KB of values (+ as many key bytes) in flight; 128 x 64 takes 96 -> 5 blocks, 40 KB, and
// half the tiles, so half the look-back waits per byte (the wait, not the loads, limits a tile
// without a head: perf/notes-gpu.md 2, 10, 11). NOT YET MEASURED: `sweep_perf_gpu_segmented
// tune 28` prints both side by side; revert to 32 if 64 loses there.
// MinBlocks (a register cap): the offsets form's kernel reads and checks its tile's offsets
// (agent/segment_heads.cuh block_read), and ptxas, uncapped, gave it 102-127 registers (4-5
// blocks an SM; by key 56-96), which made it 1.4x slower than before at every segment length
// (H100, session 10). Capped at what keeps it free of spills (ptxas sm_90, int32 and int64
// offsets: 1-byte values 96 registers at 5 blocks, 2-byte 79-80 at 6, 4- and 8-byte 60-64 at 8;
// the by-key kernels stay below the caps: 96, 64, 56, 56).
template <> struct segmented_tuning_for<1> { using type = scan_tuning<128, 64, 1, 1, 0, 5>; };
template <> struct segmented_tuning_for<2> { using type = scan_tuning<128, 32, 1, 1, 0, 6>; };
template <> struct segmented_tuning_for<4> { using type = scan_tuning<128, 16, 1, 1, 0, 8>; };
template <> struct segmented_tuning_for<8> { using type = scan_tuning<128, 8, 1, 1, 0, 8>; };

template <class Acc>
using default_segmented_tuning = typename segmented_tuning_for<sizeof(Acc)>::type;

/// A tile geometry with the look-behind (agent/segmented_scan_agent.cuh): a tile that holds a head
/// but does not start with one reads the LookBehind elements before it (a multiple of 32, at most
/// 1024 and half a tile) and, if one of them is a head, reduces from the last such head instead of
/// waiting for its predecessor's prefix. NOT a default yet: measured by `sweep_perf_gpu_segmented
/// tune`, tested by test/gpu/segmented_variants.cu.
/// MinBlocks: __launch_bounds__' blocks an SM (a register cap: the look-behind's loads raise the
/// register count, ptxas sm_90: by key int32 128 x 16 56 -> 72 with 256 elements, int8 128 x 64
/// 96 -> 128).
template <int Threads, int Items, int LookBehind, int MinBlocks = 1>
struct segmented_look_behind_tuning : scan_tuning<Threads, Items, 1, 1, 0, MinBlocks> {
    static constexpr int look_behind = LookBehind;
};

/// The look-behind of a tuning (0: none).
template <class Tuning>
inline constexpr int look_behind_of = [] {
    if constexpr (requires { Tuning::look_behind; }) return Tuning::look_behind;
    else return 0;
}();

}  // namespace sweep::detail::cuda
