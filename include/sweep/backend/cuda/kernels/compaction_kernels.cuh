// sweep/backend/cuda/kernels/compaction_kernels.cuh -- GPU backend, kernels: the __global__ entry
// points of stream compaction, nothing else. Their bodies pick a tile and hand it to the agent.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/compaction_agent.cuh>
#include <sweep/backend/cuda/agent/compaction_bulk_agent.cuh>
#include <sweep/backend/cuda/agent/count_prefix.cuh>
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
/// behind as a programmatic dependent launch). The last tile writes the kept count.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_lookback_kernel(const typename Agent::params p, const count_tile_state state,
                               unsigned int* ticket, std::int64_t tiles) {
    __shared__ typename Agent::shared_storage smem;
    Agent agent(p, smem);
    wait_for_reset();  // before the ticket and any tile state
    // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
    if (threadIdx.x == 0) smem.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    const std::int64_t tile = smem.tile;
    count_lookback<count_tile_state> prefix{state, p.fenced};
    const std::int64_t total = agent.run_tile(tile, prefix);
    if (threadIdx.x == 0 && tile == tiles - 1) *p.total = total;
}

/// Large inputs, the shared-memory tile path (compaction_bulk_agent): one block per tile in
/// ticket order, the tile copied into shared memory by the copy engine, launched behind the
/// tile-state reset as the kernel above. The in-place pass may be mirrored (p.direction, chosen
/// by the reset kernel): tiles are then taken from the back. The tile taken last writes the kept
/// count, with bit 62 set when mirrored (dispatch/compaction.cuh decodes it).
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_bulk_kernel(const typename Agent::params p, const count_tile_state state,
                           unsigned int* ticket, std::int64_t tiles) {
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    Agent agent(p, dynamic_smem);
    wait_for_reset();  // before the ticket, any tile state and the direction
    const bool mirror = p.direction != nullptr && *p.direction != 0;  // uniform
    if (threadIdx.x == 0) {
        bulk::init(&agent.h.bar[0]);
        bulk::fence_init();
        // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
        const std::int64_t order = atomicAdd(ticket, 1u);
        const std::int64_t tile = mirror ? tiles - 1 - order : order;
        if (agent.is_full(tile)) agent.start_copy(tile);
        agent.h.order[0] = order;
    }
    __syncthreads();
    const std::int64_t order = agent.h.order[0];
    const std::int64_t tile = mirror ? tiles - 1 - order : order;
    if (agent.is_full(tile)) {
        bulk::wait(&agent.h.bar[0], 0);
    } else {
        agent.load_partial(tile);
        __syncthreads();
    }
    count_lookback<count_tile_state> prefix{state, p.fenced};
    const std::int64_t total = agent.run_tile(tile, order, mirror, prefix);
    if (threadIdx.x == 0 && order == tiles - 1)
        *p.total = mirror ? (p.n - total) | compaction_mirrored_bit : total;
}

/// The shared-memory tile path with two tile buffers (compaction_bulk_tuning's Stages = 2): a
/// grid of at most the resident blocks, each looping over tickets. While a block works on the
/// tile in buffer b (place, count, look-back wait, store), the copy engine brings its next tile
/// (the next ticket) into buffer b ^ 1, so that the look-back wait and the barriers overlap a
/// load instead of idling the block. Otherwise as compaction_bulk_kernel (ticket order, mirrored
/// in-place pass, the last ticket writes the count).
///
/// The protocol, per iteration (tile t in buffer b, its ticket read from h.order[b]):
///   1. thread 0 takes the next ticket into h.order[b ^ 1] and, when its tile is full, arms
///      bar[b ^ 1] and starts the copy into buffer b ^ 1. Buffer b ^ 1 is free: its last tile's
///      stores (generic reads and the in-place permutation's writes) ended before the barrier that
///      closed the previous iteration, each thread having issued fence.proxy.async before it, so
///      that they are ordered before the copy engine's writes (the async proxy). h.order[b ^ 1]
///      was last read right after that barrier, before run_tile's barriers of the previous tile.
///   2. wait for bar[b] (the phase parity kept per buffer: it flips each time that buffer's
///      barrier completes; a partial tile is loaded by the threads and arms nothing).
///   3. run_tile(t) -- two barriers inside; warp 0 looks back while the copy of step 1 lands.
///   4. fence.proxy.async.shared::cta, barrier: buffer b and the header are free, h.order[b ^ 1]
///      is visible to every thread.
/// Forward progress: a block holds at most two tickets, t < t', and finishes t before t'; the
/// lowest unfinished ticket waits only on finished ones, so it finishes, and by induction all do
/// (as scan_lookback_pipelined_kernel). Every copy a block starts is for a ticket below `tiles`,
/// which it then waits for: no copy outlives the block. Each block takes one ticket past the
/// last tile (grid + tiles < 2^32: tiles < 2^31, checked by the dispatch layer).
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_bulk_pipelined_kernel(const typename Agent::params p, const count_tile_state state,
                                     unsigned int* ticket, std::int64_t tiles) {
    static_assert(Agent::stages == 2);
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    Agent agent(p, dynamic_smem);
    wait_for_reset();  // before the ticket, any tile state and the direction
    const bool mirror = p.direction != nullptr && *p.direction != 0;  // uniform
    // Thread 0: the next ticket into h.order[b]; its tile, when full, copied into buffer b.
    const auto take = [&](int b) {
        // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
        const std::int64_t order = atomicAdd(ticket, 1u);
        agent.h.order[b] = order;
        if (order < tiles) {
            const std::int64_t tile = mirror ? tiles - 1 - order : order;
            if (agent.is_full(tile)) agent.start_copy(tile, b);
        }
    };
    if (threadIdx.x == 0) {
        bulk::init(&agent.h.bar[0]);
        bulk::init(&agent.h.bar[1]);
        bulk::fence_init();
        take(0);
    }
    __syncthreads();
    count_lookback<count_tile_state> prefix{state, p.fenced};
    unsigned parity = 0;  // bit b: the phase of bar[b] to wait for next
    int b = 0;
    std::int64_t order = agent.h.order[0];
    while (order < tiles) {
        const std::int64_t tile = mirror ? tiles - 1 - order : order;
        if (threadIdx.x == 0) take(b ^ 1);
        if (agent.is_full(tile)) {
            bulk::wait(&agent.h.bar[b], (parity >> b) & 1u);
            parity ^= 1u << b;
        } else {
            agent.load_partial(tile, b);
            __syncthreads();
        }
        const std::int64_t total = agent.run_tile(tile, order, mirror, prefix, b);
        if (threadIdx.x == 0 && order == tiles - 1)
            *p.total = mirror ? (p.n - total) | compaction_mirrored_bit : total;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        // This thread's generic accesses of buffer b (reads, the in-place permutation's writes)
        // before the copy engine's writes into it, which step 1 of the next iteration starts.
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
        __syncthreads();
        b ^= 1;
        order = agent.h.order[b];
    }
}

/// The shared-memory tile path with a look-back warp (compaction_bulk_tuning's Stages = 3): a
/// grid of at most the resident blocks, each looping over tickets with three tile buffers. Warp
/// 0 places and stores nothing; it resolves the look-back of the block's previous tile while the
/// other warps place the current one, so that the look-back wait overlaps work instead of idling
/// the block (with Stages 1 and 2 every warp waits at a barrier for warp 0's look-back).
///
/// Iteration i: cur = ticket i of the block in buffer i % 3 (header set i % 2), prev = ticket
/// i - 1 in buffer (i - 1) % 3 (placed and announced in iteration i - 1), next = ticket i + 1
/// loading into buffer (i + 1) % 3.
///   1. warp 0: resolve prev's look-back (its prefix into header set (i - 1) % 2).
///      the others: wait for cur's copy (or load a partial cur, named barrier 1 among them),
///      place cur (counts into set i % 2).
///   2. barrier A: cur's counts and prev's prefix visible.
///   3. warp 0: announce cur's count (after its own wait on cur's barrier: the copy engine's
///      reads of cur's input are then ordered before the publication, as with one buffer).
///      the others: store prev from buffer (i - 1) % 3.
///   4. every thread fence.proxy.async.shared::cta, barrier B: buffer (i - 1) % 3 is free.
///   5. thread 0 takes the next ticket into buffer (i + 2) % 3 = (i - 1) % 3 and starts its copy.
/// The header sets alternate, so that place of cur (set i % 2) never meets prev's counts (set
/// (i - 1) % 2), which the stores of iteration i read before barrier B. h.order[(i + 2) % 3] was
/// last read right after barrier B of iteration i - 2. Forward progress: a block resolves its
/// tickets in order and a tile's look-back waits only on lower tickets; a tile's count is
/// published one resolve after it is placed, and that resolve waits only on lower tickets again:
/// the lowest unresolved ticket always finds every lower one published. No copy outlives the
/// block: the loop runs until neither cur nor prev is a tile, and a copy is only started for a
/// ticket that then becomes cur.
template <class Agent>
__global__ void __launch_bounds__(Agent::threads, Agent::tuning::min_blocks)
    compaction_bulk_lookahead_kernel(const typename Agent::params p, const count_tile_state state,
                                     unsigned int* ticket, std::int64_t tiles) {
    static_assert(Agent::stages == 3 && Agent::warps >= 2);
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    Agent agent(p, dynamic_smem);
    wait_for_reset();  // before the ticket, any tile state and the direction
    const bool mirror = p.direction != nullptr && *p.direction != 0;  // uniform
    // Thread 0: the next ticket into h.order[b]; its tile, when full, copied into buffer b.
    const auto take = [&](int b) {
        // Relaxed: the ticket orders nothing but itself (see scan_lookback_kernel).
        const std::int64_t order = atomicAdd(ticket, 1u);
        agent.h.order[b] = order;
        if (order < tiles) {
            const std::int64_t tile = mirror ? tiles - 1 - order : order;
            if (agent.is_full(tile)) agent.start_copy(tile, b);
        }
    };
    if (threadIdx.x == 0) {
        bulk::init(&agent.h.bar[0]);
        bulk::init(&agent.h.bar[1]);
        bulk::init(&agent.h.bar[2]);
        bulk::fence_init();
        take(0);
        take(1);
    }
    __syncthreads();
    count_lookback<count_tile_state> prefix{state, p.fenced};
    const bool worker = agent.wk >= 0;  // warp 0 is the look-back warp
    unsigned parity = 0;                // bit b: the phase of bar[b] to wait for next
    int b = 0;                          // cur's buffer
    int set = 0;                        // cur's header set
    std::int64_t order = agent.h.order[0];
    // prev: placed and announced, to be resolved and stored.
    bool have_prev = false;
    std::int64_t prev_order = 0, prev_tile = 0;
    int prev_len = 0, prev_kept = 0, prev_counted = 0, prev_warp_before = 0, prev_warp_kept = 0;
    for (;;) {
        const bool have_cur = order < tiles;  // uniform
        if (!have_cur && !have_prev) break;
        std::int64_t tile = 0;
        int len = 0;
        if (have_cur) {
            tile = mirror ? tiles - 1 - order : order;
            len = agent.tile_len(tile);
        }
        const bool full = have_cur && len == Agent::tile_items;
        const unsigned phase = (parity >> b) & 1u;
        int warp_kept = 0;
        // ---- 1. warp 0 resolves prev; the others place cur ----------------------------------
        if (!worker) {
            if (have_prev)
                prefix.resolve(prev_order, static_cast<std::int64_t>(prev_counted),
                               &agent.h.prefix[set ^ 1]);
        } else if (have_cur) {
            if (full) {
                bulk::wait(&agent.h.bar[b], phase);
            } else {
                agent.load_partial(tile, b, warp_threads, Agent::work_threads);
#if defined(__CUDA_ARCH__)
                asm volatile("bar.sync 1, %0;" ::"r"(Agent::work_threads) : "memory");
#endif
            }
            warp_kept = agent.place(len, b, set);
        }
        if (full) parity ^= 1u << b;
        __syncthreads();  // A
        // ---- 3. warp 0 announces cur; the others store prev ---------------------------------
        int warp_before = 0, kept = 0;
        if (have_cur) kept = agent.tile_counts(set, warp_before);
        const int counted = mirror ? len - kept : kept;
        if (!worker && have_cur) {
            if (full) bulk::wait(&agent.h.bar[b], phase);  // completed: returns at once
            agent.announce(order, counted, prefix);
        }
        if (have_prev) {
            const std::int64_t before = agent.h.prefix[set ^ 1];
            if (worker)
                agent.store(prev_tile, prev_len, prev_kept, prev_warp_before, prev_warp_kept,
                            before, mirror, (b + 2) % 3, set ^ 1);
            if (threadIdx.x == 0 && prev_order == tiles - 1) {
                const std::int64_t total = before + prev_counted;
                *p.total = mirror ? (p.n - total) | compaction_mirrored_bit : total;
            }
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        // This thread's generic accesses of prev's buffer before the copy engine's writes into it.
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
        __syncthreads();  // B
        // ---- 5. the ticket after next into prev's buffer ------------------------------------
        if (threadIdx.x == 0) take((b + 2) % 3);
        have_prev = have_cur;
        prev_order = order;
        prev_tile = tile;
        prev_len = len;
        prev_kept = kept;
        prev_counted = counted;
        prev_warp_before = warp_before;
        prev_warp_kept = warp_kept;
        b = (b + 1) % 3;
        set ^= 1;
        order = agent.h.order[b];
    }
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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
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
