// sweep/backend/cuda/agent/scan_agent.cuh -- GPU backend, agents: one tile of a scan.
//
// A block scans one tile of Threads * Items values: load (transform fused) -> scan in each
// thread -> scan across the warp -> scan across the warps -> the tile's prefix from a prefix
// service (look-back, or the carry of a single block) -> combine -> store. The association is
// fixed by the tile geometry alone; only the prefix service can bring timing into it.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/tile_io.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>

namespace sweep::detail::cuda {

/// What a launch knows at run time (one kernel serves all of these: fewer instantiations).
struct scan_mode {
    bool exclusive = false;    // exclusive scans always have an init
    bool has_init = false;
    bool in_aligned = false;   // input is a 16-byte aligned pointer: vector loads allowed
    bool out_aligned = false;  // likewise for the output
};

template <class Acc, class In, class Out, class Op, class F>
struct scan_params {
    In in;
    Out out;
    std::int64_t n;
    Op op;
    F f;
    reg_array<Acc, 1> init;
    scan_mode mode;
};

template <class It>
using iter_value_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

template <class Tuning, class Acc, class In, class Out, class Op, class F>
struct scan_agent {
    static constexpr int threads = Tuning::threads;
    static constexpr int items = Tuning::items;
    static constexpr int tile_items = Tuning::tile_items;
    static constexpr int warps = threads / warp_threads;
    static constexpr int stages = Tuning::stages;
    using tuning = Tuning;
    static_assert(threads % warp_threads == 0);

    using params = scan_params<Acc, In, Out, Op, F>;
    using acc_type = Acc;
    using op_type = Op;
    using in_value = iter_value_t<In>;
    using out_value = std::conditional_t<std::is_pointer_v<Out>, std::remove_pointer_t<Out>, Acc>;

    // Vector paths: contiguous memory whose per-thread share is whole 16-byte vectors, and whose
    // shared-memory slices stay small (40 KB a block over all stages, under the 48 KB of static
    // shared memory, so that several blocks fit an SM).
    static constexpr int io_limit = 40 * 1024 / Tuning::stages;
    static constexpr bool vector_in = std::is_pointer_v<In> && items * sizeof(in_value) % 16 == 0 &&
                                      warps * warp_io_bytes(items, sizeof(in_value)) <= io_limit;
    static constexpr bool vector_out =
        std::is_pointer_v<Out> && items * sizeof(out_value) % 16 == 0 &&
        warps * warp_io_bytes(items, sizeof(out_value)) <= io_limit;
    static constexpr int io_in = vector_in ? warp_io_bytes(items, sizeof(in_value)) : 16;
    static constexpr int io_out = vector_out ? warp_io_bytes(items, sizeof(out_value)) : 16;
    static constexpr int io_bytes = io_in > io_out ? io_in : io_out;

    struct shared_storage {
        alignas(16) unsigned char io[stages][warps][io_bytes];
        smem_array<Acc, warps> warp_totals;
        smem_array<Acc, 1> tile_prefix;
        std::int64_t tile;
    };

    const params& p;
    shared_storage& smem;
    Op op;
    int tid, lane, warp;

    __device__ scan_agent(const params& p_, shared_storage& s)
        : p(p_), smem(s), op(p_.op), tid(threadIdx.x), lane(threadIdx.x % warp_threads),
          warp(threadIdx.x / warp_threads) {}

    /// Starts copying tile `tile` into stage `stage` when it can go the vector way, and closes a
    /// group of copies either way (so that wait_copies<1> in run_tile counts right). Returns
    /// whether it copied.
    __device__ bool prefetch(std::int64_t tile, int stage, bool want) {
        bool started = false;
        if constexpr (vector_in) {
            const std::int64_t base = tile * tile_items;
            if (want && p.n - base >= tile_items && p.mode.in_aligned) {
                prefetch_warp<items>(p.in + base + warp * warp_threads * items, smem.io[stage][warp],
                                     lane);
                started = true;
            }
        }
        commit_copies();
        return started;
    }

    /// Scans tile `tile` (its first element at tile * tile_items). Prefix: a callable
    /// (tile, aggregate) -> maybe<Acc>, the reduction of everything before the tile, called by all
    /// threads after the warp totals are in shared memory. `prefetched`: the tile is on its way
    /// into stage `stage` (prefetch), with at most `Pending` newer groups of copies behind it.
    template <int Pending = 1, class Prefix>
    __device__ void run_tile(std::int64_t tile, Prefix& prefix, int stage = 0,
                             bool prefetched = false) {
        const std::int64_t base = tile * tile_items;
        const std::int64_t left = p.n - base;
        const bool full = left >= tile_items;
        const std::int64_t mine = base + std::int64_t{tid} * items;  // my first item
        reg_array<Acc, items> x;

        // ---- load (the transform fused) -----------------------------------------------------
        bool loaded = false;
        if constexpr (vector_in) {
            if (prefetched) {
                wait_copies<Pending>();
                reg_array<in_value, items> raw;
                read_warp_blocked<items>(smem.io[stage][warp], lane, raw);
#pragma unroll
                for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(p.f(raw[i]));
                loaded = true;
            } else if (full && p.mode.in_aligned) {
                reg_array<in_value, items> raw;
                load_warp_blocked<items>(p.in + base + warp * warp_threads * items, smem.io[stage][warp],
                                         lane, raw);
#pragma unroll
                for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(p.f(raw[i]));
                loaded = true;
            }
        }
        if (loaded) {
        } else if (full) {
#pragma unroll
            for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(p.f(p.in[mine + i]));
        } else {
            // Partial (last) tile: slots past the end get a copy of a real value, so that the
            // operator only ever sees values of the input (its results there are not stored).
            const Acc filler = static_cast<Acc>(p.f(p.in[base]));
#pragma unroll
            for (int i = 0; i < items; ++i)
                x[i] = mine + i < p.n ? static_cast<Acc>(p.f(p.in[mine + i])) : filler;
        }

        // ---- scan within the thread ---------------------------------------------------------
#pragma unroll
        for (int i = 1; i < items; ++i) x[i] = static_cast<Acc>(op(x[i - 1], x[i]));

        // ---- scan across the warp, then across the warps -----------------------------------
        const Acc warp_incl = warp_inclusive_scan(x[items - 1], op, lane);
        const Acc lane_excl = shfl_up(warp_incl, 1);  // meaningless on lane 0
        if (lane == warp_threads - 1) smem.warp_totals.set(warp, warp_incl);
        __syncthreads();

        maybe<Acc> warp_excl;
        const Acc aggregate = fold_warp_totals(smem.warp_totals, warp, op, warp_excl);

        // ---- the tile's prefix --------------------------------------------------------------
        const maybe<Acc> tile_excl = prefix(tile, aggregate);

        // ---- combine: prefix of my first item, then every item --------------------------------
        maybe<Acc> run = combine(tile_excl, warp_excl, op);
        if (lane != 0) run = combine(run, maybe<Acc>(lane_excl), op);
        if (p.mode.exclusive) {
            // exclusive: out_i = run op x_{i-1}; run always holds (at least) the init.
#pragma unroll
            for (int i = items - 1; i > 0; --i) x[i] = static_cast<Acc>(op(run.get(), x[i - 1]));
            x[0] = run.get();
        } else if (run.has) {
#pragma unroll
            for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(op(run.get(), x[i]));
        }

        // ---- store ---------------------------------------------------------------------------
        if constexpr (vector_out) {
            if (full && p.mode.out_aligned) {
                reg_array<out_value, items> o;
#pragma unroll
                for (int i = 0; i < items; ++i) o[i] = x[i];
                store_warp_blocked<items>(p.out + base + warp * warp_threads * items,
                                          smem.io[stage][warp], lane, o);
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < items; ++i)
            if (full || mine + i < p.n) p.out[mine + i] = x[i];
    }
};

}  // namespace sweep::detail::cuda
