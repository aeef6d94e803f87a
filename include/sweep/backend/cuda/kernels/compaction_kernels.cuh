// sweep/backend/cuda/kernels/compaction_kernels.cuh -- GPU backend, kernels: the __global__ entry
// points of stream compaction, nothing else. Their bodies pick a tile and hand it to the agent.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/compaction_agent.cuh>
#include <sweep/backend/cuda/agent/compaction_bulk_agent.cuh>
#include <sweep/backend/cuda/agent/count_prefix.cuh>
#include <sweep/backend/cuda/agent/grid_dependency.cuh>
#include <sweep/backend/cuda/kernels/scan_kernels.cuh>  // wait_for_reset

namespace sweep::detail::cuda {

/// Small inputs: one block compacts every tile in order, carrying the count.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads)
    compaction_single_block_kernel(const typename Agent::params p) {
    __shared__ typename Agent::shared_storage smem;
    Agent agent(p, smem);
    count_carry prefix;
    const std::int64_t tiles = (p.n + Agent::tile_items - 1) / Agent::tile_items;
    std::int64_t total = 0;
    for (std::int64_t t = 0; t < tiles; ++t) {
        if (t != 0) __syncthreads();  // the previous tile is done with shared memory
        total = agent.run_tile(t, prefix);
    }
    if (threadIdx.x == 0) *p.total = total;
}

/// Large inputs: one block per tile, tiles in the order blocks start (atomic ticket; the
/// dispatch layer resets the ticket and the tile states with a kernel this one is launched
/// behind as a programmatic dependent launch, or they are in the clean half of the stream's
/// arena and the blocks zero the other: lookback::leave_clean). The last tile writes the kept
/// count.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_lookback_kernel(const typename Agent::params p, const count_tile_state state,
                               unsigned int* ticket, std::int64_t tiles,
                               const lookback::arena_cleanup cleanup) {
    __shared__ typename Agent::shared_storage smem;
    Agent agent(p, smem);
    pdl::launch_dependents();  // the count's handoff kernel, when it follows (compaction_wait)
    wait_for_reset();  // before the ticket and any tile state
    // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    const std::int64_t tile = smem.tile;
    count_lookback<count_tile_state> prefix{state, p.fenced};
    const std::int64_t total = agent.run_tile(tile, prefix);
    if (threadIdx.x == 0 && tile == tiles - 1) *p.total = total;
    lookback::leave_clean(cleanup);
}

/// Large inputs, the shared-memory tile path (compaction_bulk_agent): one block per tile in
/// ticket order, the tile copied into shared memory by the copy engine, launched behind the
/// tile-state reset as the kernel above. The in-place pass may be mirrored (p.direction, chosen
/// by the reset kernel): tiles are then taken from the back. The tile taken last writes the kept
/// count, with bit 62 set when mirrored (dispatch/compaction.cuh decodes it).
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_bulk_kernel(const typename Agent::params p, const count_tile_state state,
                           unsigned int* ticket, std::int64_t tiles,
                           const lookback::arena_cleanup cleanup) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    Agent agent(p, dynamic_smem);
    pdl::launch_dependents();  // the count's handoff kernel, when it follows (compaction_wait)
    wait_for_reset();  // before the ticket, any tile state and the direction
    const bool mirror = p.direction != nullptr && *p.direction != 0;  // uniform
    if (threadIdx.x == 0) {
        bulk::init(&agent.h.bar);
        bulk::fence_init();
        // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
        const std::int64_t order = atomicAdd(ticket, 1u);
        const std::int64_t tile = mirror ? tiles - 1 - order : order;
        if (agent.is_full(tile)) agent.start_copy(tile);
        agent.h.order = order;
    }
    __syncthreads();
    const std::int64_t order = agent.h.order;
    const std::int64_t tile = mirror ? tiles - 1 - order : order;
    if (agent.is_full(tile)) {
        bulk::wait(&agent.h.bar, 0);
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    count_lookback<count_tile_state> prefix{state, p.fenced};
    const std::int64_t total = agent.run_tile(tile, order, mirror, prefix);
    if (threadIdx.x == 0 && order == tiles - 1)
        *p.total = mirror ? (p.n - total) | compaction_mirrored_bit : total;
    lookback::leave_clean(cleanup);
}

/// The tile-state reset of an in-place pass on the shared-memory path (vectors 16-byte vectors
/// zeroed, as reset_tile_states_kernel), which also chooses the pass's direction: block 0 applies
/// the predicate to 2048 evenly spaced elements and writes 1 (mirrored: tiles from the back,
/// rejected elements in place, kept ones to the temporary) to *direction when fewer than half are
/// kept, else 0. The pass then moves 2n + 2 min(k, n - k) elements instead of 2n + 2 (n - k)
/// (docs/compaction.md). The direction word lies in the zeroed header, in block 0's vectors:
/// the barriers below order its zeroing before its write.
template <class In, class Pred>
__global__ void __launch_bounds__(256)
    compaction_reset_and_sample_kernel(uint4* words, std::size_t vectors, In in, std::int64_t n,
                                       Pred pred, std::uint32_t* direction) {
    pdl::launch_dependents();
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < vectors) words[i] = make_uint4(0, 0, 0, 0);
    if (blockIdx.x != 0) return;
    constexpr int per_thread = 8;
    constexpr std::int64_t samples = 256 * per_thread;
    int kept = 0;
    for (int j = 0; j < per_thread; ++j) {
        const std::int64_t k = std::int64_t{j} * 256 + threadIdx.x;
        // (k * n) / samples without overflow for any n below 2^62: k < 2^11.
        const std::int64_t at = (n / samples) * k + ((n % samples) * k) / samples;
        kept += __syncthreads_count(static_cast<bool>(pred(in[at])));
    }
    if (threadIdx.x == 0) *direction = 2 * kept < samples ? 1u : 0u;
}

/// The call's wait handed to the host without a stream synchronization (compaction_wait::flag,
/// dispatch/compaction.cuh): one warp launched behind the pass as a programmatic dependent launch
/// waits for the pass's grid (griddepcontrol.wait returns once that grid has completed and its
/// writes are visible), then copies the pass's count from device memory into the host's mapped
/// slot with a system-scope release store. The host spins on the slot (wait_for_mapped).
/// A template (of nothing) so that every translation unit that includes this header can define it
/// (as reset_tile_states_kernel).
template <int = 0>
__global__ void __launch_bounds__(32)
    compaction_count_handoff_kernel(const std::int64_t* count, std::int64_t* slot) {
    pdl::wait();
    if (threadIdx.x == 0) {
        const std::int64_t v = *count;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
        asm volatile("st.release.sys.global.s64 [%0], %1;" ::"l"(slot), "l"(v) : "memory");
#else
        __threadfence_system();
        *reinterpret_cast<volatile std::int64_t*>(slot) = v;
#endif
    }
}

/// The in-place partitions' second step for iterators that are not raw pointers (raw pointers
/// take cudaMemcpyAsync): dst[i] = src[i] for i < count.
template <class T, class Out>
__global__ void __launch_bounds__(256)
    compaction_copy_kernel(const T* src, Out dst, std::int64_t count) {
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
         i += stride)
        dst[i] = src[i];
}

}  // namespace sweep::detail::cuda
