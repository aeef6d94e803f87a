// sweep/backend/cuda/tuning/compaction_tuning.cuh -- GPU backend, tuning: the tile geometry of
// stream compaction (copy_if, partition_copy, the in-place partitions).
//
// Plain constexpr data chosen by the element's size. A thread holds `rounds` groups of `vec`
// consecutive elements; lane l of a warp holds group (round * 32 + l) of the warp's segment, so
// that every round of a warp covers 32 * vec consecutive elements (agent/compaction_agent.cuh).
// vec = 4 / sizeof(T) for 1- and 2-byte elements (a lane then loads one 32-bit word per round),
// 1 otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace sweep::detail::cuda {

/// threads per block, rounds per thread. MinBlocks: blocks an SM must fit (__launch_bounds__).
template <int Threads, int Rounds, int MinBlocks = 1>
struct compaction_tuning {
    static constexpr int threads = Threads;
    static constexpr int rounds = Rounds;
    static constexpr int min_blocks = MinBlocks;
};

/// Elements per lane and round for a value of `Size` bytes.
constexpr int compaction_vec(std::size_t size) { return size == 1 ? 4 : size == 2 ? 2 : 1; }

// Starting points, not yet measured on the H200 (perf/gpu/bench_gpu_compaction.cu `tuning` runs
// the alternatives): the scan engine's finding (perf/notes-gpu.md) is that tiles of 16 KB in
// 128-thread blocks keep the most blocks resident, and that the look-back wait, not the loads,
// is what resident blocks hide. The same tile bytes are used here: 128 threads and 16 KB of
// input per tile (8 KB for 1-byte types, whose 64 items per thread fill the two flag words).
// MinBlocks 8 caps registers at 64, so that 8 blocks (16 KB of shared memory each) fit an SM;
// left free, ptxas took 64-97 registers depending on the type. With the cap, ptxas reports no
// spills for any built-in type (sm_90, CUDA 13.0), unlike the scan, where a cap spilled.
template <std::size_t Size>
struct default_compaction_tuning_for {
    using type = compaction_tuning<128, (Size <= 16 ? 8 : 4), 8>;  // 16 KB (16 B), 12 KB (24 B)
};
// 8 KB tiles for 1-byte values, 16 KB for the others.
template <> struct default_compaction_tuning_for<1> { using type = compaction_tuning<128, 16, 8>; };
template <> struct default_compaction_tuning_for<2> { using type = compaction_tuning<128, 32, 8>; };
// 4-byte values: min blocks 10 (48 registers, no spill) instead of 8 (64): partition_copy int32
// 50% at 2^28 821 us vs 833, 2^24 70.8 vs 71.4; copy_if 701 vs 737 (register path; `tuning` mode
// of perf/gpu/bench_gpu_compaction.cu, perf/results/gpu-session5-compaction-tune-2026-11-21.md).
template <> struct default_compaction_tuning_for<4> { using type = compaction_tuning<128, 32, 10>; };
template <> struct default_compaction_tuning_for<8> { using type = compaction_tuning<128, 16, 8>; };

template <class T>
using default_compaction_tuning = typename default_compaction_tuning_for<sizeof(T)>::type;

/// The shared-memory tile path (agent/compaction_bulk_agent.cuh): Threads per block, TileBytes of
/// input per tile (a multiple of 512 * Threads / 32), MinBlocks as above. One tile a block
/// (compaction_bulk_kernel). Two and three tile buffers a block (a ticket loop, the next tile's
/// copy or a look-back warp overlapping the look-back wait) measured 1.5-1.9x slower and were
/// removed (perf/notes-gpu.md C4).
template <int Threads, int TileBytes, int MinBlocks = 1>
struct compaction_bulk_tuning {
    static constexpr int threads = Threads;
    static constexpr int tile_bytes = TileBytes;
    static constexpr int min_blocks = MinBlocks;
};

// Not yet measured for compaction: the scan's bulk geometry (128 threads x 16 KB, which beat
// 256 x 32 KB by 3-5% at 2^24 on the H200, tuning/scan_tuning.cuh), i.e. about 16.5 KB of shared
// memory a block and 13 blocks an SM where registers allow (ptxas, sm_90, CUDA 13.0: see
// docs/compaction.md). `sweep_perf_gpu_compaction 28 24 tuning` times alternatives.
template <std::size_t Size>
struct default_compaction_bulk_tuning_for {
    using type = compaction_bulk_tuning<128, 16 * 1024, 12>;
};
// 1-byte values: 16 elements a lane and round; capped at 40 registers ptxas spilled 32 bytes
// (sm_90, CUDA 13.0), at 48 (10 blocks an SM) it does not.
// 4-byte values: 256 threads x 48 KB tiles, 4 blocks an SM (session 18). Since the tile's count
// is published before the placement (agent/compaction_bulk_agent.cuh), the larger tile wins
// everywhere copy_if was measured: int32 at 2^24, 10/50/90 % kept, 41.6/49.8/57.2 us against
// 45.7/50.9/61.5 for 128 x 24 KB (CUB 44.9/51.3/64.1), at 2^28 50 % 550.5 against 568.0 us;
// stable_partition's pass within 2 % either way (perf/results/gpu-session18-compaction-
// 2026-11-27.md). Before that change 128 x 24 KB was the default: 24 KB tiles beat 16 KB (copy_if
// 50 % at 2^28 642 vs 688 us; gpu-session5-compaction-tune-2026-11-21.md), and the 48 KB tiles
// lost at 2^24 50 % (gpu-session16-compaction-tuning-2026-11-27.md).
template <> struct default_compaction_bulk_tuning_for<4> {
    using type = compaction_bulk_tuning<256, 48 * 1024, 4>;
};
template <> struct default_compaction_bulk_tuning_for<1> {
    using type = compaction_bulk_tuning<128, 16 * 1024, 10>;
};

template <class T>
using default_compaction_bulk_tuning = typename default_compaction_bulk_tuning_for<sizeof(T)>::type;

/// The shared-memory path's tile copies read with an L2::evict_first hint (its input is read
/// once: its lines should leave L2 before lines that other work left there) when the input is at
/// most this many times the device's L2 (dispatch/compaction.cuh). From 2^26 int32 on the H200
/// (4 x L2) the input cycles through L2 whole either way and the hint measured level to 1.4 %
/// slower; at 2^25 it helped with 10 % kept and was mixed at 50 and 90 % (a multiple of 4 would
/// take it in: not yet tried in the bench). Measured and reasoned in perf/notes-gpu.md C11
/// (session 28).
inline constexpr std::uint64_t compaction_evict_first_l2_multiple = 2;

/// partition_copy (out of place) takes the shared-memory path from this many elements of a
/// Size-byte value on, the register path below (dispatch/compaction.cuh, compaction_path::
/// automatic; copy_if and the in-place pass take the shared-memory path at every size). Before the
/// count pass the register path was faster for it at 2^28 (int32 838-855 us against 929-946 us,
/// 10/50/90 % kept; perf/results/gpu-session4-compaction-2026-11-21.md). Since then, for 4-byte
/// values, the shared-memory path is 3-4 % faster at 2^26 and 5-6 % at 2^28, and 2-5 % slower at
/// 2^24 with 10 or 50 % kept (gpu-session18-compaction-2026-11-27.md, calls 6 and 11). Other sizes
/// are not measured: the register path.
template <std::size_t Size>
inline constexpr std::int64_t partition_copy_bulk_min_n = std::numeric_limits<std::int64_t>::max();
template <>
inline constexpr std::int64_t partition_copy_bulk_min_n<4> = std::int64_t{1} << 26;

}  // namespace sweep::detail::cuda
