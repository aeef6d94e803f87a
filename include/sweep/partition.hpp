// sweep/partition.hpp -- public layer: partition, stable_partition (in place), partition_copy.
//
// partition:        in place; the elements that satisfy pred come first. The order inside each
//                   part is unspecified (each backend documents its own; see docs/api.md).
// stable_partition: in place; the order inside both parts is kept.
// partition_copy:   stable, into two output ranges; returns the ends of both.
#pragma once

#include <cstdint>
#include <utility>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>

#include <sweep/backend/seq/compaction.hpp>
#if SWEEP_HAS_TBB
#include <sweep/backend/tbb/compaction.hpp>
#endif
#if SWEEP_HAS_CUDA
#include <sweep/backend/cuda/compaction.hpp>
#endif

namespace sweep {

template <execution_policy P, detail::random_access It, class Pred>
It partition(P&& policy, It first, It last, Pred pred) {
    const std::int64_t n = detail::checked_distance("partition", first, last);
    return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
        return first + detail::partition(tag, pol, first, n, pred);
    });
}

template <execution_policy P, detail::random_access It, class Pred>
It stable_partition(P&& policy, It first, It last, Pred pred) {
    const std::int64_t n = detail::checked_distance("stable_partition", first, last);
    return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
        return first + detail::stable_partition(tag, pol, first, n, pred);
    });
}

template <execution_policy P, detail::random_access In, class OutTrue, class OutFalse,
          class Pred>
std::pair<OutTrue, OutFalse> partition_copy(P&& policy, In first, In last, OutTrue d_true,
                                            OutFalse d_false, Pred pred) {
    const std::int64_t n = detail::checked_distance("partition_copy", first, last);
    return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
        return detail::partition_copy(tag, pol, first, n, d_true, d_false, pred);
    });
}

}  // namespace sweep
