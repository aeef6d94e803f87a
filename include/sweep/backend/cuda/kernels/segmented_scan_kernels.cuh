// sweep/backend/cuda/kernels/segmented_scan_kernels.cuh -- GPU backend, kernels: the __global__
// entry points of the segmented scans, nothing else.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/segmented_prefix.cuh>
#include <sweep/backend/cuda/agent/segmented_scan_agent.cuh>

namespace sweep::detail::cuda {

/// Bits of the validation word (one per message of detail::validate_offsets, in its order).
enum : unsigned {
    offsets_first_not_zero = 1,
    offsets_decreasing = 2,
    offsets_last_not_n = 4,
};

/// Checks k + 1 >= 1 offsets: o[0] == 0, o[j - 1] <= o[j], o[k] == n. Reads only o[0 .. count).
template <class OffIt>
__global__ void validate_offsets_kernel(OffIt o, std::int64_t count, std::int64_t n,
                                        unsigned* invalid) {
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    const std::int64_t first = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    bool decreasing = false;
    for (std::int64_t j = first + 1; j < count; j += stride)
        decreasing |= static_cast<std::int64_t>(o[j]) < static_cast<std::int64_t>(o[j - 1]);
    if (__any_sync(0xffffffffu, decreasing) && threadIdx.x % 32 == 0)
        atomicOr(invalid, offsets_decreasing);
    if (first == 0) {
        unsigned bad = 0;
        if (static_cast<std::int64_t>(o[0]) != 0) bad |= offsets_first_not_zero;
        if (static_cast<std::int64_t>(o[count - 1]) != n) bad |= offsets_last_not_n;
        if (bad) atomicOr(invalid, bad);
    }
}

/// Small inputs: one block scans every tile in order, carrying the prefix.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads)
    segmented_single_block_kernel(const typename Agent::params p) {
    if (p.invalid != nullptr && *p.invalid != 0) return;  // bad offsets: write nothing
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    Agent agent(p, smem);
    segmented_carry_prefix<acc_t, typename Agent::op_type> prefix{maybe<acc_t>(), p.op};
    const std::int64_t tiles = (p.n + Agent::tile_items - 1) / Agent::tile_items;
    for (std::int64_t t = 0; t < tiles; ++t) {
        if (t != 0) __syncthreads();  // the previous tile is done with shared memory
        agent.run_tile(t, prefix);
    }
}

/// Large inputs: one block per tile, tiles in the order blocks start (atomic ticket; the
/// dispatch layer zeroed the ticket and the tile states before this launch).
template <class Agent, bool Ordered, class State>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    segmented_lookback_kernel(const typename Agent::params p, const State state,
                              unsigned int* ticket) {
    // Every block returns here or none does, so no block waits on one that returned.
    if (p.invalid != nullptr && *p.invalid != 0) return;
    __shared__ typename Agent::shared_storage smem;
    using acc_t = typename Agent::acc_type;
    Agent agent(p, smem);
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    const std::int64_t tile = smem.tile;
    segmented_lookback_prefix<Ordered, Agent::tuning::backoff_ns, Agent::tuning::windows, acc_t,
                              typename Agent::op_type, State>
        prefix{state, p.op, &smem.tile_prefix};
    agent.run_tile(tile, prefix);
}

}  // namespace sweep::detail::cuda
