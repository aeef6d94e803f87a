// sweep/backend/cuda/kernels/scan_kernels.cuh -- GPU backend, kernels: the __global__ entry
// points of the scan, nothing else. Their bodies pick a tile and hand it to the agent.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/scan_agent.cuh>
#include <sweep/backend/cuda/agent/tile_prefix.cuh>

namespace sweep::detail::cuda {

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
/// dispatch layer zeroed the ticket and the tile states before this launch).
template <class Agent, bool Ordered, class State>
__global__ void __launch_bounds__(Agent::threads)
    scan_lookback_kernel(const typename Agent::params p, const State state,
                         unsigned int* ticket) {
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    // A relaxed atomic is enough: the ticket orders nothing but itself. It makes tile t's block
    // start no earlier than the blocks of tiles < t, so the look-back only waits on started blocks.
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    const std::int64_t tile = smem.tile;
    Agent agent(p, smem);
    lookback_prefix<Ordered, acc_t, typename Agent::op_type, State> prefix{
        state, p.mode.has_init ? maybe<acc_t>(p.init[0]) : maybe<acc_t>(), p.op,
        &smem.tile_prefix};
    agent.run_tile(tile, prefix);
}

}  // namespace sweep::detail::cuda
