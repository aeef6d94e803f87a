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

namespace algo {
/// sweep::partition: a function object (not found by argument-dependent lookup, so that
/// other libraries' unqualified calls are never redirected to sweep).
struct partition_fn {
    template <execution_policy P, detail::random_access It, class Pred>
    It operator()(P&& policy, It first, It last, Pred pred) const {
        const std::int64_t n = detail::checked_distance("partition", first, last);
        return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
            return first + detail::partition(tag, pol, first, n, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::partition_fn partition{};

namespace algo {
/// sweep::stable_partition: a function object (not found by argument-dependent lookup, so that
/// other libraries' unqualified calls are never redirected to sweep).
struct stable_partition_fn {
    template <execution_policy P, detail::random_access It, class Pred>
    It operator()(P&& policy, It first, It last, Pred pred) const {
        const std::int64_t n = detail::checked_distance("stable_partition", first, last);
        return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
            return first + detail::stable_partition(tag, pol, first, n, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::stable_partition_fn stable_partition{};

namespace algo {
/// sweep::partition_copy: a function object (not found by argument-dependent lookup, so that
/// other libraries' unqualified calls are never redirected to sweep).
struct partition_copy_fn {
    template <execution_policy P, detail::random_access In, class OutTrue, class OutFalse,
              class Pred>
    std::pair<OutTrue, OutFalse> operator()(P&& policy, In first, In last, OutTrue d_true,
                                                OutFalse d_false, Pred pred) const {
        const std::int64_t n = detail::checked_distance("partition_copy", first, last);
        return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
            return detail::partition_copy(tag, pol, first, n, d_true, d_false, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::partition_copy_fn partition_copy{};

}  // namespace sweep
