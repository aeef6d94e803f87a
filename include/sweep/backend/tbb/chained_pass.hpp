// sweep/backend/tbb/chained_pass.hpp -- par backend (oneTBB): the cache-blocked chained pass that
// every scan-like algorithm of the backend (scans, copy_if, partition_copy, stable_partition) runs.
//
// The input is cut into fixed blocks. A worker takes the next block from an atomic ticket and
// keeps it from start to end: (1) reduce the block (this read brings it into the worker's L2),
// (2) wait for the inclusive prefix of the block before it, publish its own, (3) finish the block
// with its carry-in, re-reading it from cache. DRAM sees each input byte once and each output
// byte once; there is no barrier and no serial O(n) step, only a chain of one cache-line hand-off
// per block (StreamScan, Yan, Long, Zhang, PPoPP 2013, on a CPU). See docs/decisions/0002-par-scan.md.
//
// The carries are combined strictly in block order, P[b] = P[b-1] op local[b], so the association
// is fixed by the block size alone, never by the thread count or by timing.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <sweep/backend/tbb/arena.hpp>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sweep::detail::tbb_backend {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

/// One block's published inclusive prefix, alone on its cache line (64 bytes on every x86 and
/// ARMv8 server core) so that the hand-off between two workers moves one line.
template <class Carry>
struct alignas(64) prefix_slot {
    std::atomic<std::uint32_t> ready{0};
    std::optional<Carry> value;
};

/// Runs the chained pass over `blocks` blocks, in its general form:
///   reduce(b) -> Local              what block b contributes (not called for the last block)
///   link(const Carry* prefix, Local&& local) -> Carry
///                                  block b's inclusive prefix from the one before it (null for
///                                  block 0 without an initial carry)
///   finish(b, const Carry* carry_in) the block's second pass; carry_in is null only for block 0
///                                  without an initial carry
/// `init` is the carry into block 0 (empty: none). Exceptions from the callbacks propagate; the
/// workers waiting on a failed block stop.
template <class Carry, class Reduce, class Link, class Finish>
void chained_pass_linked(int max_threads, std::int64_t blocks, std::optional<Carry> init,
                         Reduce reduce, Link link, Finish finish) {
    using Local = std::remove_cvref_t<decltype(reduce(std::int64_t{0}))>;
    if (blocks <= 0) return;
    if (blocks == 1) {
        finish(std::int64_t{0}, init ? &*init : static_cast<const Carry*>(nullptr));
        return;
    }
    // Allocated before any output is written, so std::bad_alloc leaves the output untouched.
    std::unique_ptr<prefix_slot<Carry>[]> slots(
        new prefix_slot<Carry>[testing::temporary_size(static_cast<std::size_t>(blocks - 1))]);
    std::atomic<std::int64_t> ticket{0};
    std::atomic<bool> failed{false};

    auto process = [&](std::int64_t b) -> bool {
        std::optional<Local> local;
        if (b + 1 < blocks) local.emplace(reduce(b));
        const Carry* carry_in = nullptr;
        if (b == 0) {
            if (init) carry_in = &*init;
        } else {
            prefix_slot<Carry>& prev = slots[static_cast<std::size_t>(b - 1)];
            // The previous block's owner is running (it took its ticket first) and its reduce
            // does not wait, so this wait ends. Spin briefly (the usual case: the hand-off is a
            // few hundred ns), then yield, for oversubscribed machines.
            for (unsigned spins = 0; prev.ready.load(std::memory_order_acquire) == 0; ++spins) {
                if (failed.load(std::memory_order_relaxed)) return false;
                if (spins < 4096) cpu_relax();
                else std::this_thread::yield();
            }
            carry_in = &*prev.value;
        }
        if (local) {
            prefix_slot<Carry>& mine = slots[static_cast<std::size_t>(b)];
            mine.value.emplace(link(carry_in, std::move(*local)));
            mine.ready.store(1, std::memory_order_release);
        }
        finish(b, carry_in);
        return true;
    };

    auto worker = [&] {
        try {
            for (;;) {
                const std::int64_t b = ticket.fetch_add(1, std::memory_order_relaxed);
                if (b >= blocks || !process(b)) return;
            }
        } catch (...) {
            failed.store(true, std::memory_order_relaxed);
            throw;
        }
    };

    in_arena(max_threads, [&](int workers) {
        const int w = static_cast<int>(std::min<std::int64_t>(std::max(workers, 1), blocks));
        if (w == 1) {
            worker();
            return;
        }
        tbb::parallel_for(
            tbb::blocked_range<int>(0, w, 1),
            [&](const tbb::blocked_range<int>& r) {
                for (int i = r.begin(); i != r.end(); ++i) {
                    // Isolated: were the user's operator itself to run oneTBB work, this thread
                    // must not pick up another of our workers while it holds a ticket, which
                    // could wait on the ticket below it on the same stack.
                    tbb::this_task_arena::isolate(worker);
                }
            },
            tbb::simple_partitioner());
    });
}

/// The chained pass where a block contributes one Carry, its aggregate:
///   reduce(b) -> Carry              the block's own aggregate (not called for the last block)
///   combine(const Carry& prefix, Carry&& local) -> Carry
///   finish(b, const Carry* carry_in) as above.
template <class Carry, class Reduce, class Combine, class Finish>
void chained_pass(int max_threads, std::int64_t blocks, std::optional<Carry> init, Reduce reduce,
                  Combine combine, Finish finish) {
    chained_pass_linked<Carry>(
        max_threads, blocks, std::move(init), [&](std::int64_t b) -> Carry { return reduce(b); },
        [&](const Carry* prefix, Carry&& local) -> Carry {
            if (prefix) return combine(*prefix, std::move(local));
            return std::move(local);
        },
        std::move(finish));
}

/// Blocks of `block` elements over n: the count, and block b's bounds.
struct block_grid {
    std::int64_t n;
    std::int64_t block;
    std::int64_t count() const noexcept { return n == 0 ? 0 : (n + block - 1) / block; }
    std::int64_t begin(std::int64_t b) const noexcept { return b * block; }
    std::int64_t end(std::int64_t b) const noexcept { return std::min(n, (b + 1) * block); }
};

}  // namespace sweep::detail::tbb_backend
