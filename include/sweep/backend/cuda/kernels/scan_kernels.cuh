// sweep/backend/cuda/kernels/scan_kernels.cuh -- GPU backend, kernels: the __global__ entry
// points of the scan, nothing else. Their bodies pick a tile and hand it to the agent.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/grid_dependency.cuh>
#include <sweep/backend/cuda/agent/scan_agent.cuh>
#include <sweep/backend/cuda/agent/scan_bulk_agent.cuh>
#include <sweep/backend/cuda/agent/tile_prefix.cuh>

namespace sweep::detail::cuda {

/// Waits until the grid this one was launched behind (the tile-state reset, launched as a
/// programmatic dependency: dispatch/scan.cuh) has finished and its writes are visible. A no-op
/// when the kernel was launched plainly.
__device__ __forceinline__ void wait_for_reset() { pdl::wait(); }

/// Small inputs: one block scans every tile in order, carrying the prefix.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads)
    scan_single_block_kernel(const typename Agent::params p) {
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    Agent agent(p, smem);
    carry_prefix<acc_t, typename Agent::op_type> prefix{
        p.mode.has_init ? maybe<acc_t>(p.init[0]) : maybe<acc_t>(), p.op};
    const std::int64_t tiles = (p.n + Agent::tile_items - 1) / Agent::tile_items;
    for (std::int64_t t = 0; t < tiles; ++t) {
        if (t != 0) __syncthreads();  // the previous tile is done with shared memory
        agent.run_tile(t, prefix);
    }
}

/// Large inputs: one block per tile, tiles in the order blocks start (atomic ticket; the
/// dispatch layer zeroed the ticket and the tile states before this launch, or they are in the
/// clean half of the stream's arena and the blocks zero the other half: lookback::leave_clean).
template <class Agent, bool Ordered, class State>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    scan_lookback_kernel(const typename Agent::params p, const State state,
                         unsigned int* ticket, const lookback::arena_cleanup cleanup) {
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    Agent agent(p, smem);
    // (Copying tile blockIdx.x in before the ticket arrives, and starting over when the ticket
    // differs, was measured: it cost registers, hence resident blocks, and lost 10%.)
    // A relaxed atomic is enough: the ticket orders nothing but itself. It makes tile t's block
    // start no earlier than the blocks of tiles < t, so the look-back only waits on started blocks.
    wait_for_reset();
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    const std::int64_t tile = smem.tile;
    lookback_prefix<Ordered, Agent::tuning::backoff_ns, Agent::tuning::windows, acc_t,
                    typename Agent::op_type, State>
        prefix{state, p.mode.has_init ? maybe<acc_t>(p.init[0]) : maybe<acc_t>(), p.op,
               &smem.tile_prefix};
    agent.run_tile(tile, prefix);
    lookback::leave_clean(cleanup);
}

/// Large inputs, contiguous aligned data (scan_bulk_agent): one block per tile, the tile copied
/// into shared memory by the copy engine. Speculative: thread 0 starts copying tile blockIdx.x
/// before its ticket arrives (blocks mostly start in index order), so that the ticket's round
/// trip overlaps the load; when the ticket differs, it waits for that copy and fetches the right
/// tile.
template <class Agent, bool Ordered, bool Speculative, class State>
__global__ void __launch_bounds__(Agent::threads)
    scan_bulk_kernel(const typename Agent::params p, const State state, unsigned int* ticket,
                     const lookback::arena_cleanup cleanup) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    using acc_t = typename Agent::acc_type;
    Agent agent(p, dynamic_smem);
    wait_for_reset();  // before the ticket and any tile state
    if (threadIdx.x == 0) {
        bulk::init(&agent.h.bar);
        bulk::fence_init();
        const std::int64_t guess = blockIdx.x;
        bool guessed = false;
        if constexpr (Speculative) {
            if (agent.is_full(guess)) {
                agent.start_copy(guess);
                guessed = true;
            }
        }
        // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
        const std::int64_t tile = atomicAdd(ticket, 1u);
        unsigned parity = 0;
        if (guessed && tile != guess) {
            bulk::wait(&agent.h.bar, 0);  // the wrong tile must land before anything overwrites it
            parity = 1;
        }
        if ((!guessed || tile != guess) && agent.is_full(tile)) agent.start_copy(tile);
        agent.h.tile = tile;
        agent.h.parity = parity;
    }
    __syncthreads();
    const std::int64_t tile = agent.h.tile;
    if (agent.is_full(tile)) {
        bulk::wait(&agent.h.bar, agent.h.parity);
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    lookback_prefix<Ordered, Agent::tuning::backoff_ns, 1, acc_t, typename Agent::op_type, State>
        prefix{state, p.mode.has_init ? maybe<acc_t>(p.init[0]) : maybe<acc_t>(), p.op,
               &agent.h.tile_prefix};
    agent.run_tile(tile, prefix);
    lookback::leave_clean(cleanup);
}

/// Large inputs, persistent: as many blocks as fit the device at once, each taking tickets until
/// the tiles run out. A block takes its next ticket and starts copying that tile into its other
/// shared-memory stage before it scans, looks back on and stores the current one, so the look-back
/// wait overlaps a load instead of idling the SM's share of memory bandwidth.
///
/// Forward progress: a block holds at most two tickets, t < t', and finishes t before t'. The
/// lowest unfinished tile waits only on finished tiles, so it finishes; by induction all do.
template <class Agent, bool Ordered, class State>
__global__ void __launch_bounds__(Agent::threads)
    scan_lookback_pipelined_kernel(const typename Agent::params p, const State state,
                                   unsigned int* ticket, std::int64_t tiles,
                                   const lookback::arena_cleanup cleanup) {
    static_assert(Agent::stages >= 2);
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    Agent agent(p, smem);
    lookback_prefix<Ordered, Agent::tuning::backoff_ns, Agent::tuning::windows, acc_t,
                    typename Agent::op_type, State>
        prefix{state, p.mode.has_init ? maybe<acc_t>(p.init[0]) : maybe<acc_t>(), p.op,
               &smem.tile_prefix};

    wait_for_reset();
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    std::int64_t tile = smem.tile;
    int stage = 0;
    bool prefetched = agent.prefetch(tile, stage, tile < tiles);
    while (tile < tiles) {
        __syncthreads();  // all have read smem.tile; the other stage's last reader is done
        if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
        __syncthreads();
        const std::int64_t next = smem.tile;
        const bool next_prefetched = agent.prefetch(next, stage ^ 1, next < tiles);
        agent.run_tile(tile, prefix, stage, prefetched);
        tile = next;
        stage ^= 1;
        prefetched = next_prefetched;
    }
    wait_copies<0>();  // no copy may outlive the block
    lookback::leave_clean(cleanup);
}

}  // namespace sweep::detail::cuda
