// sweep/backend/cuda/agent/bulk_copy.cuh -- GPU backend, agents: whole-tile copies from global
// into shared memory by the copy engine (cp.async.bulk, sm_90), completing on an mbarrier.
//
// One thread arms the barrier with the number of bytes it expects and starts the copy; every
// thread of the block then waits on the barrier's phase. The copy takes no registers and no issue
// slots while it is in flight, so the bytes a block has in flight no longer cost registers (and
// resident blocks), as they do when each thread loads its share into registers.
// PTX ISA 8.x: mbarrier (section 9.7.12.15), cp.async.bulk (9.7.9.25).
#pragma once

#include <cstdint>

namespace sweep::detail::cuda::bulk {

// The instructions exist from sm_90 on. Code built for older devices keeps compiling; the dispatch
// layer never takes this path there (device_has_bulk_copy), and if it did, the kernel would trap.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define SWEEP_BULK_ASM(...) __trap()
#else
#define SWEEP_BULK_ASM(...) asm volatile(__VA_ARGS__)
#endif

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Initializes the barrier for one arriving thread (the one that arms it). Call from one thread,
/// then make it visible to the block and to the copy engine (fence_init + __syncthreads).
__device__ __forceinline__ void init(std::uint64_t* bar) {
    SWEEP_BULK_ASM("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)) : "memory");
}

/// Orders the barrier's initialization before its use by the async proxy (the copy engine).
__device__ __forceinline__ void fence_init() {
    SWEEP_BULK_ASM("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/// Arrives on the barrier and tells it to expect `bytes` more bytes of completed copies.
__device__ __forceinline__ void arrive_expect(std::uint64_t* bar, unsigned bytes) {
    SWEEP_BULK_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

/// Starts copying `bytes` (a multiple of 16; both addresses 16-byte aligned) from global to shared
/// memory; the barrier's transaction count drops by `bytes` when they have landed. `evict_first`:
/// the reads carry an L2::evict_first cache hint (createpolicy, PTX ISA 9.7.9.17; cp.async.bulk's
/// .L2::cache_hint), for input read once, whose lines should leave L2 before the lines other work
/// keeps there.
__device__ __forceinline__ void copy_to_shared(void* dst, const void* src, unsigned bytes,
                                               std::uint64_t* bar, bool evict_first = false) {
    if (evict_first) {
        [[maybe_unused]] std::uint64_t policy = 0;  // unused where the asm is a trap (< sm_90)
        SWEEP_BULK_ASM("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
        SWEEP_BULK_ASM(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint "
            "[%0], [%1], %2, [%3], %4;" ::"r"(smem_addr(dst)),
            "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(policy)
            : "memory");
    } else {
        SWEEP_BULK_ASM(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
            "[%3];" ::"r"(smem_addr(dst)),
            "l"(src), "r"(bytes), "r"(smem_addr(bar))
            : "memory");
    }
}

/// Waits until the barrier's phase `parity` has completed (all expected bytes landed). What the
/// copy wrote is then visible to the waiting thread.
__device__ __forceinline__ void wait(std::uint64_t* bar, unsigned parity) {
    SWEEP_BULK_ASM(
        "{\n\t.reg .pred done;\n"
        "wait_%=:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
        "@!done bra wait_%=;\n}" ::"r"(smem_addr(bar)),
        "r"(parity)
        : "memory");
}

/// Starts copying `bytes` (a multiple of 16; both addresses 16-byte aligned) from shared to global
/// memory, in this thread's current bulk async-group. The threads that wrote the source must have
/// run fence_proxy_async() and then met the issuing thread at a barrier.
__device__ __forceinline__ void copy_to_global(void* dst, const void* src, unsigned bytes) {
    SWEEP_BULK_ASM("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                 "r"(smem_addr(src)), "r"(bytes)
                 : "memory");
}

/// Closes this thread's current bulk async-group (the copies to global started since the last).
__device__ __forceinline__ void commit() {
    SWEEP_BULK_ASM("cp.async.bulk.commit_group;" ::: "memory");
}

/// Waits until every committed group of this thread has read its shared-memory source (which may
/// then be overwritten).
__device__ __forceinline__ void wait_read_all() {
    SWEEP_BULK_ASM("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

/// Waits until every committed group of this thread has completed (its writes are performed).
__device__ __forceinline__ void wait_all() {
    SWEEP_BULK_ASM("cp.async.bulk.wait_group 0;" ::: "memory");
}

/// Orders this thread's earlier generic-proxy accesses to shared memory before later accesses by
/// the async proxy (the copy engine), once a barrier has passed.
__device__ __forceinline__ void fence_proxy_async() {
    SWEEP_BULK_ASM("fence.proxy.async.shared::cta;" ::: "memory");
}

#undef SWEEP_BULK_ASM

/// The last, partial tile of a scan on a bulk-copied path (no copy engine for it): the block
/// copies in[base, base + left) element by element into the tile's `tile_items` slots; the slots
/// past the end get a copy of in[base], a real value, so that the operator only ever sees values
/// of the input (the register agent's filler: the same tree in scan_bulk_blocked_agent).
template <class T, class It>
__device__ __forceinline__ void fill_partial_tile(T* tile, It in, std::int64_t base,
                                                  std::int64_t left, std::int64_t tile_items,
                                                  int tid, int threads) {
    for (std::int64_t i = tid; i < tile_items; i += threads) tile[i] = in[base + (i < left ? i : 0)];
}

}  // namespace sweep::detail::cuda::bulk
