// sweep/backend/cuda/tuning/radix_tuning.cuh -- GPU backend: the shape of the radix sort's kernels.
//
// Every knob is a template parameter so that perf/gpu/bench_gpu_radix.cu can sweep them on the
// device (its tuning mode): digit width, threads per block and keys per thread of the Onesweep
// pass, and the shape of the histogram (upsweep) kernel. docs/radix_sort.md has the reasoning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sweep::detail::cuda {

/// Variant flags of the ranking kernels (perf/notes-gpu.md, R2; 0 is the measured v1 path):
///   radix_ballot_match      peers of a digit found with one vote.ballot per digit bit (CUB's
///                           MatchAny) instead of __match_any_sync, whose cost grows with the
///                           number of distinct digits in the warp;
///   radix_early_counts      Onesweep's order: per-warp histogram (shared atomics) first, the
///                           tile's counts published to the look-back before the ranking, warp
///                           counters pre-offset by the digit starts, so ranking (one returning
///                           shared atomic per peer group) gives the final place in the tile;
///   radix_unrolled_scatter  full tiles: the global scatter as an unrolled loop of Items
///                           (independent shared loads and stores), no bound checks.
/// Session 4 (perf/notes-gpu.md R3: the SASS of the pass next to CUB's), with early counts only:
///   radix_padded_tile       the last tile is padded with keys whose digit is the largest in
///                           every pass (CUB's trick): they rank after every real key, so the
///                           histogram, the ranking and the scatter into shared memory need no
///                           per-item bound check (no predicate per item, no extra ballot);
///   radix_pred_ballot       the ballot match written as predicate PTX (setp; vote.ballot;
///                           @!p not), which ptxas turns into one R2P for all digit bits and
///                           three instructions per bit, instead of the shift/test/select chain
///                           __ballot_sync(bit) and `bit ? m : ~m` compile to (~6 per bit).
inline constexpr int radix_ballot_match = 1;
inline constexpr int radix_early_counts = 2;
inline constexpr int radix_unrolled_scatter = 4;
inline constexpr int radix_all_variants = 7;  // the session-3 set (v7)
inline constexpr int radix_padded_tile = 8;
inline constexpr int radix_pred_ballot = 16;
/// Every flag: v7 + padded tile + predicate ballots.
inline constexpr int radix_lean_variants = 31;
/// Session 19 (perf/gpu/trace_radix.cu):
///   radix_lookback_window   each look-back step reads the words of 4 earlier tiles at once
///                           (one L2 round trip) instead of one, and takes them in order;
///   radix_hist_parts        the histogram kernel's shared counters in parts by lane: lane l
///                           adds to part l % P, and part q of every counter lies in bank q
///                           (mod P): with P = 32 no two lanes of an atomic ever share a bank.
///                           P is the most (up to 32) that fit in 128 bytes of dynamic shared
///                           memory per histogram thread (1024 threads: 128 KB, 32 parts for
///                           keys of up to 4 bytes, 16 for 8-byte keys).
inline constexpr int radix_lookback_window = 32;
inline constexpr int radix_hist_parts = 128;
/// Session 20 (ncu's per-instruction stall samples of the pass next to CUB's, u32 keys):
///   radix_lean_rank         the early-counts ranking with one population count an item (the
///                           lanes up to and including this one: for the leader, all of its
///                           peers) instead of two, and the digit counts' per-warp counters
///                           loaded all at once before the running sum (fully unrolled).
inline constexpr int radix_lean_rank = 256;
/// Session 21, for A/B only (bench_gpu_radix.cu and trace_radix.cu `ab`): with radix_lean_rank,
/// keep the old digit counts (radix_lean_only_rank) or the old ranking (radix_lean_only_counts).
inline constexpr int radix_lean_only_rank = 512;
inline constexpr int radix_lean_only_counts = 1024;
inline constexpr int radix_known_variants = radix_lean_variants | radix_lookback_window |
                                            radix_hist_parts | radix_lean_rank |
                                            radix_lean_only_rank | radix_lean_only_counts;

/// MinBlocks: the blocks per SM the ranking kernels are compiled for (__launch_bounds__'s second
/// argument: it caps registers at 64K / (MinBlocks * Threads)); 1 leaves the compiler free.
template <int RadixBits, int Threads, int ItemsPerThread, int MinBlocks = 1,
          int HistThreads = 256, int HistItems = 16, int Variant = 0>
struct radix_tuning {
    static_assert(RadixBits >= 5 && RadixBits <= 10, "digits of 5 to 10 bits");
    static_assert(Threads % 32 == 0 && Threads >= 64 && Threads <= 1024);
    static_assert(ItemsPerThread >= 1);
    static constexpr int radix_bits = RadixBits;
    static constexpr int radix = 1 << RadixBits;
    static constexpr int threads = Threads;
    static constexpr int items = ItemsPerThread;
    static constexpr int warps = Threads / 32;
    static constexpr std::int64_t tile_items = std::int64_t{Threads} * ItemsPerThread;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int hist_threads = HistThreads;
    static constexpr int hist_items = HistItems;
    static_assert((Variant & ~radix_known_variants) == 0, "unknown radix variant flag");
    static_assert((Variant & radix_padded_tile) == 0 || (Variant & radix_early_counts) != 0,
                  "radix_padded_tile is implemented on the early-counts path only");
    static constexpr int variant = Variant;
    static constexpr bool pred_ballot = (Variant & radix_pred_ballot) != 0;
    static constexpr bool ballot_match = pred_ballot || (Variant & radix_ballot_match) != 0;
    static constexpr bool early_counts = (Variant & radix_early_counts) != 0;
    static constexpr bool unrolled_scatter = (Variant & radix_unrolled_scatter) != 0;
    static constexpr bool padded_tile = (Variant & radix_padded_tile) != 0;
    static constexpr bool lean_rank = (Variant & radix_lean_rank) != 0;
    /// The two parts of radix_lean_rank: the ranking's one population count an item, and the
    /// digit counts' loads first.
    static constexpr bool lean_ranking = lean_rank && (Variant & radix_lean_only_counts) == 0;
    static constexpr bool lean_counts = lean_rank && (Variant & radix_lean_only_rank) == 0;
    /// Look-back words read per step (kernels/radix_kernels.cuh).
    static constexpr int lookback_window = (Variant & radix_lookback_window) != 0 ? 4 : 1;
    /// Parts of the histogram kernel's counters, by key size (kernels/radix_kernels.cuh), and
    /// their dynamic shared memory (0: one part, in static shared memory).
    static constexpr std::size_t hist_part_bytes(std::size_t key_bytes) {
        return (8 * key_bytes + RadixBits - 1) / RadixBits * radix * sizeof(unsigned);
    }
    static constexpr int hist_parts(std::size_t key_bytes) {
        if ((Variant & radix_hist_parts) == 0) return 1;
        int p = 32;
        while (p > 1 && hist_part_bytes(key_bytes) * p > std::size_t{128} * HistThreads) p /= 2;
        return p;
    }
    static constexpr int hist_smem_bytes(std::size_t key_bytes) {
        return hist_parts(key_bytes) > 1
                   ? static_cast<int>(hist_part_bytes(key_bytes) * hist_parts(key_bytes))
                   : 0;
    }
    /// This shape with the histogram of one part (256 threads): where a device cannot give a
    /// block the parts' shared memory (dispatch/radix_sort.cuh).
    using one_part_histogram = radix_tuning<RadixBits, Threads, ItemsPerThread, MinBlocks, 256,
                                            HistItems, (Variant & ~radix_hist_parts)>;
    /// This shape with another ranking variant (A/B of variants: perf/gpu).
    template <int OtherVariant>
    using with_variant = radix_tuning<RadixBits, Threads, ItemsPerThread, MinBlocks, HistThreads,
                                      HistItems, OtherVariant>;
    /// The A/B of radix_lean_rank (perf/gpu: bench_gpu_radix and trace_radix `ab`): this shape
    /// without it, with it, and with each of its two halves alone.
    static constexpr int without_lean_rank =
        Variant & ~(radix_lean_rank | radix_lean_only_rank | radix_lean_only_counts);
    using ab_no_lean_rank = with_variant<without_lean_rank>;
    using ab_lean_rank = with_variant<without_lean_rank | radix_lean_rank>;
    using ab_lean_counts_only =
        with_variant<without_lean_rank | radix_lean_rank | radix_lean_only_counts>;
    using ab_lean_ranking_only =
        with_variant<without_lean_rank | radix_lean_rank | radix_lean_only_rank>;
    /// Register-tight shapes (3 or more blocks per SM) of the padded variants: the ranking
    /// recomputes the digits instead of letting the compiler keep the histogram step's
    /// (radix_agent.cuh, fresh_digit_of): no spills at 384 x 16, 384 x 19 (u32 keys), 384 x 16
    /// (u32 pairs) and 384 x 12 (u64 keys) with 56 registers (R3). The session-3 variants
    /// (no padding) compile as they were measured.
    static constexpr bool fresh_digits = MinBlocks >= 3 && padded_tile;
};

/// The ranking variant of the defaults for keys alone and with values of up to 16 bytes: 447
/// (4-byte keys), 191 (other keys) and 159 (with values) since sessions 19 and 20 (below);
/// before, 31 (session 4: v7 + padded last tile + predicate ballots). By the SASS
/// (perf/notes-gpu.md R3) 31 issues ~80 instructions per key of u32 keys against v7's ~134
/// (CUB's pass: ~87) at the same shape and
/// the same 80 registers without spills; not yet measured on the device when it became the
/// default. v7 (ballot match, counts published before the ranking, unrolled scatter) was the
/// default of session 3: 1.21x the v0 path for u32 keys and 1.15x for u32 pairs on the H200 at
/// 2^28 (perf/results/gpu-session3-radix-tune-2026-11-21.md); it stays reachable as
/// radix_all_variants (the bench's r3 rows time both) and as the whole build's default with
/// -DSWEEP_RADIX_DEFAULT_VARIANT=7 in both CMAKE_CUDA_FLAGS and CMAKE_CXX_FLAGS (so that the
/// precompiled sorts agree): the switch for a device run of the full radix test suite on a
/// variant. Larger values keep v0 (not yet measured with v7 or v31).
/// Session 19 (perf/gpu/trace_radix.cu, perf/notes-gpu.md R5): 191 = 31 + radix_lookback_window
/// + radix_hist_parts, with 1024 histogram threads. On the H200 at 2^28 (u32 keys, trace tool):
/// the look-back walked ~12 words per digit one L2 round trip at a time, 4.4 of a block's 14 us;
/// the window made it 2.4 us (sort 5921 -> 5728 us); the histogram kernel took 481 us for one
/// read of the keys (257 us), bound by the bank conflicts of its shared atomics, and 347 us with
/// 32 parts (sort 5596 us; CUB 5435). u64 keys: 17581 -> 16609 us (CUB 16439). Sorts with
/// values leave the window out (159: default_radix_tuning_for).
/// Session 20 (perf/notes-gpu.md R6): 4-byte keys alone add radix_lean_rank (447:
/// default_radix_tuning_for); on the H200 at 6125e5d u32 keys 2^28 took 5301 us (CUB 5437).
/// Sorts with values (159, measured in session 20: 8092-8115 us at 2^28, CUB 8556) and
/// 8-byte keys (191) keep theirs. 4-byte keys alone add radix_lean_rank to whatever
/// SWEEP_RADIX_DEFAULT_VARIANT names (7 becomes 263 for them).
#ifndef SWEEP_RADIX_DEFAULT_VARIANT
#define SWEEP_RADIX_DEFAULT_VARIANT 191
#endif
inline constexpr int default_radix_variant = SWEEP_RADIX_DEFAULT_VARIANT;
/// The histogram kernel's threads: 1024 with parts (one block of 128 KB an SM), 256 without.
inline constexpr int default_radix_hist_threads =
    (default_radix_variant & radix_hist_parts) != 0 ? 1024 : 256;

/// Defaults, by key and value size (a value size of 0: keys only). 8-bit digits, 384 threads,
/// compiled for 2 blocks per SM (at most 80 registers), with the most keys per thread that
/// compile without spills under that cap (ptxas, sm_90): 16 for keys of up to 4 bytes (keys
/// only or with 4-byte values), 12 with 64-bit keys or 8-byte values. An unconstrained kernel
/// of CUB's shape (384 x 20) takes 122-168 registers, i.e. one block per SM. Not yet measured
/// on the device when written; the 2^28 tune run of session 3 found no shape better than these by
/// more than 1% for v7 (256 x 16 with 3 blocks: +1% u32, +4% pairs; not yet in the variant tests).
/// Blocks per SM of the default shapes, by case, from the session-4 r3 rows (H200, 2^28,
/// perf/results/gpu-session4-radix-r3-2026-11-21.md; perf/notes-gpu.md R3): compiled for 3 blocks
/// an SM (56 registers, CUB's occupancy) where that was measured faster:
///   4-byte integer keys alone   384 x 19 x 3   5707 us vs 7033 at 384 x 16 x 2 (CUB 5457)
///   float keys alone            384 x 16 x 3   6448 us vs 7368                 (CUB 5791)
///   4-byte keys + 4-byte values 384 x 16 x 3   8189 us vs 9148                 (CUB 8544)
///   8-byte keys alone           384 x 12 x 3  16641 us vs 19254                (CUB 16440)
/// Float keys spilled at 3 blocks (12 bytes at 384 x 16) while they converted to ordered bits at
/// every digit; since session 9 the pass converts once at the load and once at the store
/// (kernels/radix_kernels.cuh), float keys compile like u32 keys (56 registers, no spill at
/// 384 x 19 x 3) and take the u32 shape. Everything else keeps
/// 2 blocks (80 registers): 1- and 2-byte keys and 8-byte values were not measured at 3 and
/// spill there. SWEEP_RADIX_DEFAULT_BLOCKS_PER_SM=2 or 3 (in both CMAKE_CUDA_FLAGS and
/// CMAKE_CXX_FLAGS) forces one count everywhere (3: 19 keys a thread for every 4-byte key alone).
#ifndef SWEEP_RADIX_DEFAULT_BLOCKS_PER_SM
#define SWEEP_RADIX_DEFAULT_BLOCKS_PER_SM 0
#endif
inline constexpr int default_radix_blocks_per_sm = SWEEP_RADIX_DEFAULT_BLOCKS_PER_SM;
static_assert(default_radix_blocks_per_sm == 0 || default_radix_blocks_per_sm == 2 ||
                  default_radix_blocks_per_sm == 3,
              "SWEEP_RADIX_DEFAULT_BLOCKS_PER_SM: 0 (by case), 2 or 3");

template <std::size_t KeyBytes, std::size_t ValueBytes, bool FloatKey = false>
struct default_radix_tuning_for {
    static constexpr bool measured_3 =
        (KeyBytes == 4 && (ValueBytes == 0 || ValueBytes == 4)) || (KeyBytes == 8 && ValueBytes == 0);
    static constexpr int blocks = default_radix_blocks_per_sm != 0 ? default_radix_blocks_per_sm
                                                                    : (measured_3 ? 3 : 2);
    static constexpr bool nineteen = blocks == 3 && KeyBytes == 4 && ValueBytes == 0;
    static constexpr int items =
        (KeyBytes <= 4 && ValueBytes <= 4) ? (nineteen ? 19 : 16) : 12;
    // Values past 16 bytes: a tile's values stay within about 96 KB of shared memory (fewer
    // threads and keys per thread as they grow; radix_sort.hpp refuses values past 2 KB).
    static constexpr int big_threads = ValueBytes <= 384 ? 256 : (ValueBytes <= 768 ? 128 : 64);
    static constexpr std::size_t big_fit = 98304 / (big_threads * (ValueBytes ? ValueBytes : 1));
    static constexpr int big_items = big_fit < 1 ? 1 : (big_fit > 8 ? 8 : int(big_fit));
    // With values the look-back window is left out: u32 pairs at 2^28 took 8559 us with it
    // (session 19, call 5), against 8000-8112 us without it in sessions 9 and 17 (CUB 8549-8553
    // in each); their histogram is the keys' (it reads no values) and keeps its parts.
    // 4-byte keys alone also take radix_lean_rank (session 20: sweep_perf_gpu_radix at 2^28,
    // 1.03x CUB). Session 21: trace_radix ab timed each of its two parts alone (u32 191 / lean
    // rank / ranking only / counts only 5593 / 5508 / 5596 / 5499 us; u64 16599 / 17018 / 17067
    // / 16320; CUB 5434, 16427), but with counts only (1471) for 4- and 8-byte keys the bench
    // gave u32 5566 us and u64 16388 against 5300 and 15948 with these defaults on the same
    // machine. trace_radix's kernels carry its timing hooks (the likely reason its A/B does not
    // carry over to the library's kernels). Kept as they were; `sweep_perf_gpu_radix ab` times
    // the variants without hooks (perf/notes-gpu.md R7).
    static constexpr int variant =
        ValueBytes != 0 ? (default_radix_variant & ~radix_lookback_window)
                        : (KeyBytes == 4 ? (default_radix_variant | radix_lean_rank)
                                         : default_radix_variant);
    using type = std::conditional_t<
        (ValueBytes > 16), radix_tuning<8, big_threads, big_items, 1, 256, 16, 0>,
        radix_tuning<8, 384, items, blocks, default_radix_hist_threads, 16, variant>>;
};

template <class K, class V>
using default_radix_tuning =
    typename default_radix_tuning_for<sizeof(K), std::is_empty_v<V> ? 0 : sizeof(V),
                                      std::is_floating_point_v<K>>::type;

}  // namespace sweep::detail::cuda
