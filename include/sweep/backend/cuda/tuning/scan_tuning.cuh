// sweep/backend/cuda/tuning/scan_tuning.cuh -- GPU backend, tuning: the tile geometry of the scan.
//
// Plain constexpr data chosen by the accumulator's size (one table: sm_90 is the only measured
// architecture). The evidence behind each value is in perf/notes-gpu.md and docs/engine.md.
#pragma once

#include <cstddef>
#include <type_traits>

#include <sweep/detail/canonical.hpp>
#include <sweep/detail/compensated.hpp>

namespace sweep::detail::cuda {

/// One tile = threads * items elements, processed by one block. `items * sizeof(T)` is kept a
/// multiple of 16 so that a thread's items are whole 16-byte vectors (the transposes through
/// shared memory then move 16 bytes per access, without bank conflicts: agent/tile_io.cuh).
/// Windows: look-back windows of 32 tiles read per poll. Stages: shared-memory buffers per
/// block; 2 selects the persistent kernel that copies its next tile in (cp.async) while it scans,
/// looks back on and stores the current one. BackoffNs: the longest pause between two polls of a
/// look-back window (0: spin).
/// MinBlocks: blocks an SM must fit (__launch_bounds__), capping registers per thread.
template <int Threads, int Items, int Windows = 4, int Stages = 1, unsigned BackoffNs = 0,
          int MinBlocks = 1>
struct scan_tuning {
    static constexpr int min_blocks = MinBlocks;
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr int tile_items = Threads * Items;
    static constexpr int windows = Windows;
    static constexpr int stages = Stages;
    static constexpr unsigned backoff_ns = BackoffNs;
};

// Measured on the H200 at n = 2^28 (perf/gpu/bench_gpu_tuning.cu, perf/notes-gpu.md): the look-back
// wait, not the loads, limits the engine (without it every geometry reaches 97% of copy), and what
// hides the wait is more resident blocks. 128 threads with 16 KB tiles (9 blocks an SM) beat
// 256 threads with 16 KB tiles (6 blocks): int32 70% vs 62% of copy, int64 78% vs 66%. Reading 2-8
// windows per poll cost registers (fewer blocks) and lost 3-12%: one window.
template <std::size_t Size>
struct default_scan_tuning_for {
    // Wider values: 256 threads, 4 items (16-byte types: 16 KB tiles, 1.38x CUB with a custom
    // operator; 128 x 4 gave 1.05x) or 2 (wider).
    using type = scan_tuning<256, (Size <= 16 ? 4 : 2), 1>;
};
template <> struct default_scan_tuning_for<1> { using type = scan_tuning<128, 64, 1>; };  // 40%
template <> struct default_scan_tuning_for<2> { using type = scan_tuning<128, 64, 1>; };  // 63%
template <> struct default_scan_tuning_for<4> { using type = scan_tuning<128, 32, 1>; };  // 70%
template <> struct default_scan_tuning_for<8> { using type = scan_tuning<128, 16, 1>; };  // 78%

/// The default mode's tuning by accumulator type: by size, except compensated pairs
/// (.compensated(): 8-byte input, 16-byte register accumulator for double), whose geometry
/// perf/gpu/bench_gpu_numerics.cu measures separately (6 candidates) so that it can be set here
/// without touching 16-byte user types. Not the canonical geometry of .deterministic().
template <class Acc>
struct scan_tuning_of {
    using type = typename default_scan_tuning_for<sizeof(Acc)>::type;
};
template <class T>
struct scan_tuning_of<comp_sum<T>> {
    // 128 x 16 for both. Double pairs (16 bytes), measured by bench_gpu_numerics on the H200
    // (perf/results/gpu-session3-perf_numerics-2026-11-21.md, and again in session 4): 128 x 16
    // 224 us / 3358 us at 2^24 / 2^28 against 311 / 4653 for the earlier 128 x 8 (chosen then by
    // registers) and 278 / 4162 for 256 x 8. Since session 4 aligned contiguous data takes the
    // shared-memory path (default_scan_bulk_tuning below); this is the rest (misaligned pointers,
    // iterators). Float pairs (8 bytes): the size table's 128 x 16.
    using type = scan_tuning<128, 16, 1>;
};

template <class Acc>
using default_scan_tuning = typename scan_tuning_of<Acc>::type;

/// `.deterministic()`: the register path with the canonical geometry (detail/canonical.hpp),
/// whatever the default tuning above becomes (aligned contiguous data of one element size takes
/// canonical_scan_bulk_tuning below: the same tree on the shared-memory path). One look-back window, no pipelining (the ordered
/// look-back folds a single window).
/// MinBlocks (registers only, never the tree): 8-byte accumulators are capped at 64 registers
/// (8 blocks of 128 an SM; ptxas: 72 uncapped, i.e. 7 blocks, and 4 bytes spilled capped);
/// 4-byte ones need 64 anyway.
template <class Acc>
using canonical_scan_tuning =
    scan_tuning<canonical::geometry<Acc>::threads, canonical::geometry<Acc>::items, 1, 1, 0,
                sizeof(Acc) == 8 ? 8 : 1>;

/// The shared-memory tile path (agent/scan_bulk_agent.cuh): Threads per block, TileBytes of data
/// per tile (a multiple of 512 * Threads / 32 * LaneVecs), Speculative: start the tile's copy
/// before the ticket arrives (kernels/scan_kernels.cuh). LaneVecs: consecutive 16-byte vectors a
/// lane scans per round in the second pass of the wide path (accumulator wider than the element,
/// run_tile_wide): the scan across the lanes, the costly part with a compensated pair, is then
/// paid once per LaneVecs vectors. FastSum: the wide path's in-tile compensated combines by
/// Fast2Sum after a magnitude compare (agent/scan_bulk_agent.cuh comp_plus_fast: the same value,
/// fewer additions; measured by bench_gpu_numerics, off by default). The same-size path ignores
/// both.
template <int Threads, int TileBytes, bool Speculative = false, unsigned BackoffNs = 0,
          int LaneVecs = 1, bool FastSum = false>
struct scan_bulk_tuning {
    static constexpr bool blocked = false;  // scan_bulk_agent (not scan_bulk_blocked_agent)
    static constexpr int threads = Threads;
    static constexpr int tile_bytes = TileBytes;
    static constexpr bool speculative = Speculative;
    static constexpr unsigned backoff_ns = BackoffNs;
    static constexpr int lane_vecs = LaneVecs;
    static constexpr bool fast_sum = FastSum;
};

/// The shared-memory tile path with the register agent's association (agent/
/// scan_bulk_blocked_agent.cuh): Threads x Items values of Size bytes a tile, thread t scanning
/// items [t * Items, (t + 1) * Items). What `.deterministic()` runs on contiguous aligned data,
/// with the canonical geometry (canonical_scan_bulk_tuning below).
template <int Threads, int Items, std::size_t Size>
struct scan_bulk_blocked_tuning {
    static constexpr bool blocked = true;
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr int tile_bytes = Threads * Items * static_cast<int>(Size);
    static constexpr bool speculative = false;
    static constexpr unsigned backoff_ns = 0;
};

template <std::size_t Size>
struct default_scan_bulk_tuning_for {
    using type = scan_bulk_tuning<256, 32 * 1024>;
};

// 4-byte values: 128 threads x 16 KB (13 blocks an SM). At 2^24 on the H200 it beat 256 x 32 KB
// by 3-5% (int32 58.1-59.1 vs 60.0-60.7 us; perf/results/gpu-session3-geo-2p24-2026-11-21.md),
// per-tile diagnostics agree at 2^22 and 2^26, and at 2^28 every geometry landed within 3%
// (perf/notes-gpu.md 9).
// 8-byte values: 128 threads x 24 KB (9 blocks an SM). Since the clean arenas (session 8) it ties
// 128 x 16 KB at 2^24 (int64 110.0-112.1 vs 109.3-112.1 us) and beats it by 2% at 2^26 and 2^28
// (400.9 vs 408.5-409.9 us; 1555.8-1565.4 vs 1589.4-1593.6 us; H100,
// perf/results/gpu-session8-geometry-2026-11-26.md, perf/notes-gpu.md 20).
template <> struct default_scan_bulk_tuning_for<4> { using type = scan_bulk_tuning<128, 16 * 1024>; };
template <> struct default_scan_bulk_tuning_for<8> { using type = scan_bulk_tuning<128, 24 * 1024>; };

/// The shared-memory path's tuning by accumulator type: by size, except compensated pairs, whose
/// tile holds the 4- or 8-byte elements (run_tile_wide): the 4- and 8-byte geometry, 128 threads x
/// 16 KB, with 2 vectors a lane a round in the second pass (by instruction counts: the Kogge-Stone
/// across the lanes is 5 of the ~10 pair additions a lane makes a round with one vector; two
/// vectors halve its share; not yet measured). perf/gpu/bench_gpu_numerics.cu measures the
/// alternatives.
template <class Acc>
struct scan_bulk_tuning_of {
    using type = typename default_scan_bulk_tuning_for<sizeof(Acc)>::type;
};
template <class T>
struct scan_bulk_tuning_of<comp_sum<T>> {
    using type = scan_bulk_tuning<128, 16 * 1024, false, 0, 2>;
};

template <class Acc>
using default_scan_bulk_tuning = typename scan_bulk_tuning_of<Acc>::type;

/// `.deterministic()` on contiguous, 16-byte aligned data of one element size: the canonical
/// geometry on the shared-memory path with the register agent's association (the same tree, so
/// the same bits as canonical_scan_tuning's register path, which serves everything else).
template <class Acc>
using canonical_scan_bulk_tuning =
    scan_bulk_blocked_tuning<canonical::geometry<Acc>::threads, canonical::geometry<Acc>::items,
                             sizeof(Acc)>;

/// Inputs of at most this many tiles run in one block that walks the tiles in order: no tile
/// state, no memset, no look-back (the small-n path).
inline constexpr int single_block_max_tiles = 4;

}  // namespace sweep::detail::cuda
