// sweep/backend/tbb/compaction.hpp -- par backend (oneTBB): copy_if, partition_copy,
// stable_partition and partition.
//
// copy_if and partition_copy are one chained pass (chained_pass.hpp) whose carry is the count of
// kept elements before the block: count the block (pass one, into cache), hand the count on,
// re-evaluate pred and copy (pass two, from cache). No n-sized flag array; both are stable.
// stable_partition: the same pass into an n-sized temporary (kept ones from the front, the others
// from the back, reversed), allocated before anything moves, then a parallel copy back.
// partition: in place by swapping misplaced pairs, no temporary; see tbb/partition.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <sweep/backend/seq/compaction.hpp>
#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/compaction_bricks.hpp>
#include <sweep/backend/tbb/partition.hpp>
#include <sweep/backend/tbb/temporary.hpp>
#include <sweep/detail/dispatch.hpp>

namespace sweep::detail {

namespace tbb_backend {
/// Elements per block; the same reasoning as scan_block (tbb/scan.hpp): a block's input and
/// output stay in L2 between the count and the copy.
inline constexpr std::int64_t compaction_block = std::int64_t{1} << 15;

/// The chained split: the kept elements of [0, n) go to d_true in order, the others to d_false
/// (when WithFalse). Returns the number kept.
template <bool WithFalse, class In, class Stencil, class OutTrue, class OutFalse, class Pred>
std::int64_t chained_split(int max_threads, In first, std::int64_t n, Stencil stencil,
                           OutTrue d_true, OutFalse d_false, Pred& pred) {
    const block_grid grid{n, compaction_block};
    std::int64_t total = 0;  // written by the last block only
    chained_pass<std::int64_t>(
        max_threads, grid.count(), std::optional<std::int64_t>(0),
        [&](std::int64_t b) { return block_count(stencil, grid.begin(b), grid.end(b), pred); },
        [](std::int64_t prefix, std::int64_t local) { return prefix + local; },
        [&](std::int64_t b, const std::int64_t* kept_before) {
            const std::int64_t lo = grid.begin(b);
            const std::int64_t hi = grid.end(b);
            auto ends = block_split<WithFalse>(first, stencil, lo, hi, d_true + *kept_before,
                                               d_false + (lo - *kept_before), pred);
            if (b + 1 == grid.count()) total = static_cast<std::int64_t>(ends.first - d_true);
        });
    return total;
}
}  // namespace tbb_backend

template <class P, class In, class Stencil, class Out, class Pred>
Out copy_if(par_tag, const P& policy, In first, std::int64_t n, Stencil stencil, Out d_first,
            Pred pred) {
    if (n == 0) return d_first;
    // d_false is never written without WithFalse; d_first stands in for its type.
    return d_first + tbb_backend::chained_split<false>(policy.max_threads, first, n, stencil,
                                                       d_first, d_first, pred);
}

template <class P, class In, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> partition_copy(par_tag, const P& policy, In first, std::int64_t n,
                                            OutTrue d_true, OutFalse d_false, Pred pred) {
    if (n == 0) return {d_true, d_false};
    const std::int64_t kept = tbb_backend::chained_split<true>(policy.max_threads, first, n, first,
                                                               d_true, d_false, pred);
    return {d_true + kept, d_false + (n - kept)};
}

template <class P, class It, class Pred>
std::int64_t stable_partition(par_tag, const P& policy, It first, std::int64_t n, Pred pred) {
    using T = value_t<It>;
    if constexpr (!std::is_trivially_copyable_v<T>) {
        // Moving non-trivial objects through a raw temporary from several threads cannot be
        // unwound cleanly when a predicate throws; such types take the seq oracle (documented).
        return stable_partition(seq_tag{}, seq_policy<>{}, first, n, pred);
    } else {
        if (n == 0) return 0;
        using namespace tbb_backend;
        raw_temporary<T> tmp(n);  // std::bad_alloc here leaves the input intact
        T* const t = tmp.get();
        const std::int64_t kept = chained_split<true>(
            policy.max_threads, first, n, first, t, std::reverse_iterator<T*>(t + n), pred);
        const block_grid grid{n, compaction_block};
        in_arena(policy.max_threads, [&](int) {
            tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, grid.count()),
                              [&](const tbb::blocked_range<std::int64_t>& r) {
                                  for (std::int64_t b = r.begin(); b != r.end(); ++b) {
                                      const std::int64_t lo = grid.begin(b), hi = grid.end(b);
                                      const std::int64_t mid = std::clamp(kept, lo, hi);
                                      std::copy(t + lo, t + mid, first + lo);
                                      // [kept, n) holds the rejected ones back to front.
                                      std::copy(std::reverse_iterator<T*>(t + n - (mid - kept)),
                                                std::reverse_iterator<T*>(t + n - (hi - kept)),
                                                first + mid);
                                  }
                              });
        });
        return kept;
    }
}

template <class P, class It, class Pred>
std::int64_t partition(par_tag, const P& policy, It first, std::int64_t n, Pred pred) {
    if (n == 0) return 0;
    // .deterministic(): the stable result, the one every policy gives then (docs/api.md).
    if constexpr ((P::numerics & numerics_deterministic) != 0)
        return stable_partition(par_tag{}, policy, first, n, pred);
    else
        return tbb_backend::swap_partition(policy.max_threads, first, n, pred);
}

}  // namespace sweep::detail
