// sweep/backend/cuda/kernels/radix_kernels.cuh -- GPU backend, radix sort: the kernels.
//
//   radix_single_tile_kernel   n <= one tile: every pass in shared memory, one block.
//   radix_histogram_kernel     one read of the keys: the counts of every digit of every pass
//                              (shared-memory counters per block, merged with global atomics).
//   radix_scan_bins_kernel     per pass, the exclusive scan of its 2^bits counts (where each
//                              digit's keys start), which passes are trivial (one digit holds
//                              every key: skipped), and which buffer each pass reads.
//   radix_onesweep_kernel      one per pass: tiles in ticket order; rank (radix_agent.cuh);
//                              per-(tile, digit) counts published and looked back, digit-parallel
//                              (thread d looks back for digit d); scatter through shared memory.
//   radix_copy_back_kernel     when the last pass wrote the temporary buffer, copies it back.
//
// The look-back words: one 64-bit word per (tile, digit), {code:16 | count:48}, code = 2 * epoch
// (+1 once the count is the inclusive prefix over tiles 0..this one), epoch = pass + 1. A word
// of an earlier pass (or the zeroed state) has another code and reads as "not yet published", so
// the states are zeroed once per sort, not once per pass. Status and count travel in one word,
// written and read with one relaxed 64-bit access (tile_state.cuh explains why that is enough).
// Tiles are taken from an atomic ticket, so every tile a block waits on has started: the spin
// ends whatever the scheduler does.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cub/block/block_scan.cuh>

#include <sweep/backend/cuda/agent/radix_agent.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/lookback/tile_state.cuh>

// Trace points of the Onesweep pass (perf/gpu/trace_radix.cu defines them before including this
// header to time each block's phases; nothing otherwise). Every thread of the block calls
// SWEEP_RADIX_TRACE_POINT(point, pass, tile) at the same places (tile: -1 before the ticket is
// known); SWEEP_RADIX_TRACE_WALK(loads) is called by each look-back thread with the words it
// read.
#ifndef SWEEP_RADIX_TRACE_POINT
#define SWEEP_RADIX_TRACE_POINT(point, pass, tile) ((void)0)
#define SWEEP_RADIX_TRACE_WALK(loads) ((void)0)
#define SWEEP_RADIX_TRACE_END() ((void)0)
#endif
// Measurement only (perf/gpu/trace_radix.cu): true for a Tuning whose passes skip the look-back
// and scatter each digit of tile t from a made-up offset (uniform keys: the right place give or
// take a few keys), so that the pass's time without any wait on earlier tiles can be timed. The
// result is not sorted, and only large uniform inputs stay in bounds (the tool runs it at 2^22
// and up, uniform keys only).
#ifndef SWEEP_RADIX_TRACE_BARE
#define SWEEP_RADIX_TRACE_BARE(Tuning) false
#endif

namespace sweep::detail::cuda {

inline constexpr int radix_value_shift = 48;
inline constexpr std::uint64_t radix_value_mask = (std::uint64_t{1} << radix_value_shift) - 1;

/// Where each pass reads: info[p] = -1 (skipped), 0 (the caller's buffer), 1 (the temporary);
/// info[passes] = which buffer holds the result. K: the stored key type (radix_stored_t), V: the
/// moved value type (radix_moved_value).
template <class K, class V, bool Flip>
struct radix_pass_params {
    K* keys[2];    // [0]: the caller's range, [1]: the temporary
    V* values[2];  // null for keys only
    radix_codec<K, Flip> codec;
    std::int64_t n;
    const std::uint64_t* bins;  // passes x radix: where each digit's keys start
    const int* info;
    std::uint64_t* states;      // tiles x radix look-back words
    unsigned* tickets;          // one per pass
};

// ---- one tile ------------------------------------------------------------------------------------

template <class Tuning, class K, class V, bool Flip>
__global__ void __launch_bounds__(Tuning::threads)  // one block: no register cap
    radix_single_tile_kernel(K* keys, V* values, int n, radix_codec<K, Flip> codec) {
    using ranker = radix_ranker<Tuning>;
    constexpr int items = Tuning::items;
    constexpr int passes = radix_pass_count<K>(Tuning::radix_bits);
    constexpr bool with_values = radix_has_values_v<V>;
    extern __shared__ __align__(16) unsigned char radix_dynamic_smem[];
    __shared__ typename ranker::block_scan::TempStorage scan_tmp;
    const radix_smem<Tuning, K, V> sm{radix_dynamic_smem};
    // The keys as their ordered bits (codec: converted once here and once at the end).
    using U = ordered_bits_t<K>;
    U* const tile_keys = reinterpret_cast<U*>(sm.keys());  // K's size

    U k[items];
    reg_array<V, with_values ? items : 1> v;
#pragma unroll
    for (int j = 0; j < items; ++j) {
        const int e = ranker::element(j);
        k[j] = U{};
        if (e < n) {
            k[j] = codec.encode(keys[e]);
            if constexpr (with_values) v[j] = values[e];
        }
    }
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = pass * Tuning::radix_bits;
        ranker::zero_hist(sm.hist());
        __syncthreads();
        unsigned rank[items];
        ranker::template rank_in_warps<false>(k, n, shift, sm.hist(), rank);
        __syncthreads();
        unsigned count[ranker::dpt];
        ranker::digit_counts(sm.hist(), count);
        bool all_one = false;
#pragma unroll
        for (int i = 0; i < ranker::dpt; ++i) all_one = all_one || count[i] == unsigned(n);
        if (__syncthreads_or(all_one)) continue;  // every key has the same digit: nothing moves
        unsigned first[ranker::dpt];
        ranker::digit_starts(scan_tmp, count, first, sm.start());
        __syncthreads();
        ranker::places(n, sm.hist(), sm.start(), rank);
        __syncthreads();  // the counters are read: the keys may overlay them
#pragma unroll
        for (int j = 0; j < items; ++j) {
            if (ranker::element(j) < n) {
                tile_keys[rank[j]] = k[j];
                if constexpr (with_values) sm.values()[rank[j]] = v[j];
            }
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < items; ++j) {
            const int e = ranker::element(j);
            if (e < n) {
                k[j] = tile_keys[e];
                if constexpr (with_values) v[j] = sm.values()[e];
            }
        }
        __syncthreads();  // read before the next pass zeroes the counters over them
    }
#pragma unroll
    for (int j = 0; j < items; ++j) {
        const int e = ranker::element(j);
        if (e < n) {
            keys[e] = codec.decode(k[j]);
            if constexpr (with_values) values[e] = v[j];
        }
    }
}

// ---- histogram of every pass ---------------------------------------------------------------------

template <class Tuning, class K, bool Flip>
__global__ void __launch_bounds__(Tuning::hist_threads)
    radix_histogram_kernel(const K* keys, std::int64_t n, std::int64_t per_block,
                           unsigned long long* hist, radix_codec<K, Flip> codec) {
    constexpr int passes = radix_pass_count<K>(Tuning::radix_bits);
    constexpr int radix = Tuning::radix;
    constexpr int threads = Tuning::hist_threads;
    constexpr int items = Tuning::hist_items;
    // counts[(pass * radix + digit) * parts + part]: lane l adds to part l % parts, so part q of
    // every counter is in bank q (mod parts): lanes of different parts never share a bank.
    // Parts live in dynamic shared memory (Tuning::hist_smem_bytes), one part in static.
    constexpr int parts = Tuning::hist_parts(sizeof(K));
    constexpr int words = passes * radix * parts;
    __shared__ unsigned static_counts[parts > 1 ? 1 : words];
    extern __shared__ __align__(16) unsigned char radix_dynamic_smem[];
    unsigned* const counts =
        parts > 1 ? reinterpret_cast<unsigned*>(radix_dynamic_smem) : static_counts;
    const int lane = static_cast<int>(threadIdx.x % warp_threads);
    const int part = lane % parts;
    static_assert(words % 4 == 0, "radix >= 32: the counters are whole uint4s");
    for (int i = threadIdx.x; i < words / 4; i += threads)
        reinterpret_cast<uint4*>(counts)[i] = make_uint4(0u, 0u, 0u, 0u);
    __syncthreads();
    const std::int64_t begin = std::int64_t{blockIdx.x} * per_block;
    const std::int64_t end = begin + per_block < n ? begin + per_block : n;
    for (std::int64_t chunk = begin; chunk < end; chunk += std::int64_t{threads} * items) {
        ordered_bits_t<K> bits[items];
        bool ok[items];
#pragma unroll
        for (int j = 0; j < items; ++j) {
            const std::int64_t i = chunk + j * threads + threadIdx.x;
            ok[j] = i < end;
            if (ok[j]) bits[j] = codec.encode(keys[i]);
        }
#pragma unroll
        for (int j = 0; j < items; ++j) {
            if (ok[j]) {
#pragma unroll
                for (int p = 0; p < passes; ++p)
                    atomicAdd(&counts[(p * radix +
                                       radix_digit<Tuning::radix_bits>(bits[j],
                                                                       p * Tuning::radix_bits)) *
                                          parts +
                                      part],
                              1u);
            }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < passes * radix; i += threads) {
        unsigned c = 0;
        // Lane l starts at part l: the lanes read different banks at each step.
#pragma unroll
        for (int q = 0; q < parts; ++q) c += counts[i * parts + (q + lane) % parts];
        if (c != 0) atomicAdd(hist + i, static_cast<unsigned long long>(c));
    }
}

// ---- the bins of every pass ----------------------------------------------------------------------

template <int Radix, int Passes>
__global__ void __launch_bounds__(Radix)
    radix_scan_bins_kernel(const unsigned long long* hist, std::uint64_t* bins, int* info,
                           std::int64_t n) {
    using scan = cub::BlockScan<unsigned long long, Radix>;
    __shared__ typename scan::TempStorage tmp;
    __shared__ int trivial[Passes];
    for (int p = 0; p < Passes; ++p) {
        const unsigned long long c = hist[p * Radix + threadIdx.x];
        unsigned long long first;
        scan(tmp).ExclusiveSum(c, first);
        bins[p * Radix + threadIdx.x] = first;
        const int t = __syncthreads_or(c == static_cast<unsigned long long>(n));
        if (threadIdx.x == 0) trivial[p] = t;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int cur = 0;
        for (int p = 0; p < Passes; ++p) {
            if (trivial[p]) {
                info[p] = -1;
            } else {
                info[p] = cur;
                cur ^= 1;
            }
        }
        info[Passes] = cur;
    }
}

// ---- one pass ------------------------------------------------------------------------------------

__device__ __forceinline__ std::uint64_t radix_word(unsigned code, std::uint64_t value) {
    return (std::uint64_t{code} << radix_value_shift) | value;
}

template <class Tuning, class K, class V, bool Flip>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks)
    radix_onesweep_kernel(radix_pass_params<K, V, Flip> p, int pass) {
    using ranker = radix_ranker<Tuning>;
    constexpr int items = Tuning::items;
    constexpr int radix = Tuning::radix;
    constexpr std::int64_t tile_items = Tuning::tile_items;
    constexpr bool with_values = radix_has_values_v<V>;
    extern __shared__ __align__(16) unsigned char radix_dynamic_smem[];
    __shared__ typename ranker::block_scan::TempStorage scan_tmp;
    __shared__ unsigned s_tile;
    const radix_smem<Tuning, K, V> sm{radix_dynamic_smem};

    // The pass's source and the tile's ticket are two independent L2 round trips: both are
    // issued before either is waited on, and the zeroing overlaps them (R3; before, the ticket
    // waited for the test of src). A trivial pass takes tickets too: nobody reads them.
    SWEEP_RADIX_TRACE_POINT(0, pass, -1);
    const int src = __ldg(p.info + pass);  // written by the bins kernel, read-only here
    if (threadIdx.x == 0) s_tile = atomicAdd(p.tickets + pass, 1u);
    ranker::zero_hist(sm.hist());
    __syncthreads();
    if (src < 0) return;  // a trivial pass: every key has the same digit (uniform: all return)
    const std::int64_t tile = s_tile;
    SWEEP_RADIX_TRACE_POINT(1, pass, tile);
    const std::int64_t base = tile * tile_items;
    const int valid = p.n - base < tile_items ? static_cast<int>(p.n - base)
                                              : static_cast<int>(tile_items);
    const int shift = pass * Tuning::radix_bits;
    // Selected, not indexed: a run-time index into the parameter arrays would copy them to
    // local memory.
    const K* const in = src == 0 ? p.keys[0] : p.keys[1];
    K* const out = src == 0 ? p.keys[1] : p.keys[0];

    // The keys go through the pass as their ordered bits (p.codec: descending ones
    // complemented), converted once at the load and back once at the store: every digit is then
    // a shift and a mask, and the pass is the unsigned ascending one (signed and floating keys
    // used to convert at every digit they took: float keys spilled at 3 blocks an SM).
    using U = ordered_bits_t<K>;
    U k[items];
    if constexpr (Tuning::padded_tile) {
        // The missing elements of the last tile become keys of the largest digit, which rank
        // after every real key (ranker::pad_key): no bound checks until the global scatter.
        const K* const tile_in = in + base;
        if (valid == tile_items) {
#pragma unroll
            for (int j = 0; j < items; ++j)
                k[j] = p.codec.encode(tile_in[ranker::element(j)]);
        } else {
            const U pad = ranker::template pad_key<false, U>();
#pragma unroll
            for (int j = 0; j < items; ++j) {
                const int e = ranker::element(j);
                k[j] = e < valid ? p.codec.encode(tile_in[e]) : pad;
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < items; ++j) {
            const int e = ranker::element(j);
            k[j] = U{};
            if (e < valid) k[j] = p.codec.encode(in[base + e]);
        }
    }
    unsigned rank[items];
    unsigned count[ranker::dpt];
    unsigned first[ranker::dpt];
    const unsigned epoch = static_cast<unsigned>(pass) + 1;
    std::uint64_t* const my_words = p.states + tile * radix;
    // Publish this tile's counts as early as possible: the next tiles wait on them.
    const auto publish = [&] {
#pragma unroll
        for (int i = 0; i < ranker::dpt; ++i) {
            const int d = threadIdx.x * ranker::dpt + i;
            if (d < radix)
                lookback::store_relaxed(my_words + d,
                                        radix_word(2 * epoch + (tile == 0 ? 1 : 0), count[i]));
        }
    };
    if constexpr (Tuning::early_counts) {
        // Counts first (one shared atomic per key), published before the ranking.
        ranker::template warp_histogram<false>(k, valid, shift, sm.hist());
        __syncthreads();
        SWEEP_RADIX_TRACE_POINT(2, pass, tile);
        ranker::digit_counts(sm.hist(), count);
        publish();
        ranker::digit_starts(scan_tmp, count, first, sm.start());
        ranker::offsets_to_places(sm.hist(), first);
        __syncthreads();
        ranker::template places_in_tile<false>(k, valid, shift, sm.hist(), rank);
        __syncthreads();  // the counters are read: the keys may overlay them
        SWEEP_RADIX_TRACE_POINT(3, pass, tile);
    } else {
        ranker::template rank_in_warps<false>(k, valid, shift, sm.hist(), rank);
        __syncthreads();
        ranker::digit_counts(sm.hist(), count);
        publish();
        ranker::digit_starts(scan_tmp, count, first, sm.start());
        __syncthreads();
        ranker::places(valid, sm.hist(), sm.start(), rank);
        __syncthreads();  // the counters are read: the keys may overlay them
    }
    // Padded tiles: the padding's places are [valid, tile), written and never read.
    U* const tile_keys = reinterpret_cast<U*>(sm.keys());  // ordered bits, K's size
#pragma unroll
    for (int j = 0; j < items; ++j)
        if (Tuning::padded_tile || ranker::element(j) < valid) tile_keys[rank[j]] = k[j];
    if constexpr (with_values) {
        const V* const vin = src == 0 ? p.values[0] : p.values[1];
#pragma unroll
        for (int j = 0; j < items; ++j) {
            const int e = ranker::element(j);
            if (e < valid) sm.values()[rank[j]] = vin[base + e];
        }
    }

    SWEEP_RADIX_TRACE_POINT(4, pass, tile);
    // Look back, digit-parallel: the keys of digit d before this tile, over all earlier tiles.
#pragma unroll
    for (int i = 0; i < ranker::dpt; ++i) {
        const int d = threadIdx.x * ranker::dpt + i;
        if (d < radix) {
            std::uint64_t before = 0;
            if constexpr (SWEEP_RADIX_TRACE_BARE(Tuning)) {
                static_assert(tile_items >= 2 * radix, "the bare row needs 2 keys a digit a tile");
                before = static_cast<std::uint64_t>(tile) * (tile_items / radix - 1);
            } else if (tile > 0) {
                [[maybe_unused]] int loads = 0;
                std::int64_t t = tile - 1;
                if constexpr (Tuning::lookback_window > 1) {
                    // Window: the words of tiles t, t-1, .., t-W+1 read at once (independent
                    // loads, one L2 round trip), then taken in order: aggregates are added and
                    // passed, a prefix ends the walk, a word not yet published ends the window
                    // (the next one starts at it). The same words are summed as one at a time.
                    constexpr int W = Tuning::lookback_window;
                    for (;;) {
                        std::uint64_t w[W];
#pragma unroll
                        for (int k = 0; k < W; ++k)
                            w[k] = t - k >= 0
                                       ? lookback::load_relaxed(p.states + (t - k) * radix + d)
                                       : 0;
                        loads += W;
                        int k = 0;
                        bool done = false;
#pragma unroll
                        for (int j = 0; j < W; ++j) {
                            if (k != j) continue;  // stopped at an earlier word
                            const unsigned code = static_cast<unsigned>(w[j] >> radix_value_shift);
                            if (code == 2 * epoch || code == 2 * epoch + 1) {
                                before += w[j] & radix_value_mask;
                                done = code == 2 * epoch + 1;
                                k = done ? W + 1 : j + 1;
                            }
                        }
                        if (done) break;
                        t -= k;  // k words taken (tile 0 always publishes a prefix: t >= 0)
                    }
                } else {
                    for (;;) {
                        const std::uint64_t w = lookback::load_relaxed(p.states + t * radix + d);
                        ++loads;
                        const unsigned code = static_cast<unsigned>(w >> radix_value_shift);
                        if (code == 2 * epoch) {
                            before += w & radix_value_mask;
                            --t;  // an aggregate: keep going (tile 0 always publishes a prefix)
                        } else if (code == 2 * epoch + 1) {
                            before += w & radix_value_mask;
                            break;
                        }
                    }
                }
                SWEEP_RADIX_TRACE_WALK(loads);
                lookback::store_relaxed(my_words + d, radix_word(2 * epoch + 1, before + count[i]));
            }
            sm.base()[d] = static_cast<std::int64_t>(p.bins[pass * radix + d] + before) -
                           static_cast<std::int64_t>(first[i]);
        }
    }
    __syncthreads();
    SWEEP_RADIX_TRACE_POINT(5, pass, tile);

    V* const vout = src == 0 ? p.values[1] : p.values[0];
    if constexpr (Tuning::unrolled_scatter) {
        if (valid == tile_items) {
            // Independent iterations: the shared loads of all items in flight at once.
#pragma unroll
            for (int j = 0; j < items; ++j) {
                const int e = static_cast<int>(threadIdx.x) + j * Tuning::threads;
                const U key = tile_keys[e];
                const int d = radix_digit<Tuning::radix_bits>(key, shift);
                const std::int64_t to = sm.base()[d] + e;
                out[to] = p.codec.decode(key);
                if constexpr (with_values) vout[to] = sm.values()[e];
            }
            SWEEP_RADIX_TRACE_END();
            return;
        }
    }
    for (int e = threadIdx.x; e < valid; e += Tuning::threads) {
        const U key = tile_keys[e];
        const int d = radix_digit<Tuning::radix_bits>(key, shift);
        const std::int64_t to = sm.base()[d] + e;
        out[to] = p.codec.decode(key);
        if constexpr (with_values) vout[to] = sm.values()[e];
    }
    SWEEP_RADIX_TRACE_END();
}

// ---- the result back into the caller's range -----------------------------------------------------

template <class K, class V>
__global__ void radix_copy_back_kernel(K* keys, const K* from_keys, V* values,
                                       const V* from_values, std::int64_t n, const int* info,
                                       int passes) {
    if (info[passes] == 0) return;
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        keys[i] = from_keys[i];
        if constexpr (radix_has_values_v<V>) values[i] = from_values[i];
    }
}

}  // namespace sweep::detail::cuda
