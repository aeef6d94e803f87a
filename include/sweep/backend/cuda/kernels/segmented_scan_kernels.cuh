// sweep/backend/cuda/kernels/segmented_scan_kernels.cuh -- GPU backend, kernels: the __global__
// entry points of the segmented scans, nothing else.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/grid_dependency.cuh>
#include <sweep/backend/cuda/agent/segmented_prefix.cuh>
#include <sweep/backend/cuda/agent/segmented_scan_agent.cuh>
#include <sweep/backend/cuda/kernels/scan_kernels.cuh>  // wait_for_reset

namespace sweep::detail::cuda {

/// Threads that search the tile index's boundaries (below) in one wave of the device (132 SMs x
/// 2048 threads on the H200): groups * Group at most this many.
inline constexpr std::int64_t index_search_threads = std::int64_t{1} << 18;

/// The widest group (32, 16, ..., 1 lanes) for `bounds` boundaries searched in one wave: 2^24
/// int32 values (8193 boundaries) get 16 lanes, 2^28 int8 (32769) 4, 2^28 int32 (131073) 1.
inline int index_search_group(std::int64_t bounds) {
    int g = 32;
    while (g > 1 && bounds * g > index_search_threads) g /= 2;
    return g;
}

/// Checks k + 1 >= 1 offsets: o[0] == 0, o[j - 1] <= o[j], o[k] == n. Reads only o[0 .. count).
/// If `index` is not null, also writes the tile index of the offsets form's heads
/// (agent/segment_heads.cuh): index[t] = the first j with o[j] >= min(t * tile_items, n), for
/// t = 0 .. tiles, each boundary searched by a group of `Group` lanes (group_lower_bound:
/// log_(Group+1)(k) dependent loads; the dispatch picks the widest group for which every
/// boundary's group fits in one wave of the device). The searches stay in [0, count) whatever
/// the offsets hold. `full`: every pair is checked here, and the scan kernels check *invalid
/// first (an index built over invalid offsets is never used); else only o[0] and o[count - 1],
/// and the scan's tiles check the rest as they read it (agent/segment_heads.cuh block_read).
template <int Group, class OffIt>
__global__ void validate_offsets_kernel(OffIt o, std::int64_t count, std::int64_t n,
                                        unsigned* invalid, std::int64_t* index, std::int64_t tiles,
                                        std::int64_t tile_items, bool full) {
    // The scan kernel behind this one (a programmatic dependent launch) may start its blocks; they
    // wait for this grid to finish (griddepcontrol.wait) before they read what it writes.
    pdl::launch_dependents();
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    const std::int64_t first = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    bool decreasing = false;
    for (std::int64_t j = first + 1; full && j < count; j += stride)
        decreasing |= static_cast<std::int64_t>(o[j]) < static_cast<std::int64_t>(o[j - 1]);
    if (__any_sync(0xffffffffu, decreasing) && threadIdx.x % 32 == 0)
        atomicOr(invalid, offsets_decreasing);
    if (first == 0) {
        unsigned bad = 0;
        if (static_cast<std::int64_t>(o[0]) != 0) bad |= offsets_first_not_zero;
        if (static_cast<std::int64_t>(o[count - 1]) != n) bad |= offsets_last_not_n;
        if (bad) atomicOr(invalid, bad);
    }
    if (index == nullptr) return;
    const std::int64_t groups = stride / Group;  // blockDim.x: a multiple of 32
    const int lane = static_cast<int>(threadIdx.x % warp_threads);
    for (std::int64_t t = first / Group; t <= tiles; t += groups) {  // uniform over a group
        const std::int64_t target = t * tile_items < n ? t * tile_items : n;
        // Dense offsets: start where t would be if the offsets grew evenly.
        const std::int64_t guess =
            dense_offsets(count, n)
                ? static_cast<std::int64_t>(static_cast<double>(target) / static_cast<double>(n) *
                                            static_cast<double>(count - 1))
                : -1;
        const std::int64_t j = group_lower_bound<Group>(o, count, target, lane, guess);
        if (lane % Group == 0) index[t] = j;
    }
}

/// Small inputs: one block scans every tile in order, carrying the prefix. Launched behind the
/// validation of the offsets (if any) as a programmatic dependent launch.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads)
    segmented_single_block_kernel(const typename Agent::params p) {
    wait_for_reset();  // the validation word and the tile index are written
    if (p.verdict != nullptr && threadIdx.x == 0) publish_verdict(p);  // for the host
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

/// Large inputs: one block per tile, tiles in the order blocks start (atomic ticket). Launched
/// as a programmatic dependent launch behind the reset of the ticket, the tile states and the
/// validation word (reset_tile_states_kernel), or behind the validation of the offsets, which
/// runs after that reset.
template <class Agent, bool Ordered, class State>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    segmented_lookback_kernel(const typename Agent::params p, const State state,
                              unsigned int* ticket, const lookback::arena_cleanup cleanup) {
    wait_for_reset();
    const bool checked_first = p.invalid != nullptr && p.checked == nullptr;
    if (checked_first && p.verdict != nullptr && blockIdx.x == 0 && threadIdx.x == 0)
        publish_verdict(p);
    // Every block returns here or none does, so no block waits on one that returned. The
    // cleaning of the arena's other half (the offsets form may take an arena) is owed all the
    // same.
    if (checked_first && *p.invalid != 0) {
        lookback::leave_clean(cleanup);
        return;
    }
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
    lookback::leave_clean(cleanup);
}

}  // namespace sweep::detail::cuda
