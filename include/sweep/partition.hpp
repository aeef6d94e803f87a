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

namespace detail {
/// Whether sweep::automatic may send these calls to the GPU from this translation unit.
template <class It, class Pred>
constexpr bool partition_on_gpu() {
#if SWEEP_HAS_CUDA
    return cuda::partition_runs_here_v<It, Pred>;
#else
    return false;
#endif
}
template <class In, class OutT, class OutF, class Pred>
constexpr bool partition_copy_on_gpu() {
#if SWEEP_HAS_CUDA
    return cuda::partition_copy_runs_here_v<In, OutT, OutF, Pred>;
#else
    return false;
#endif
}
}  // namespace detail

namespace algo {
/// sweep::partition, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct partition_fn {
    template <execution_policy P, detail::random_access It, class Pred>
    It operator()(P&& policy, It first, It last, Pred pred) const {
        const std::int64_t n = detail::checked_distance("partition", first, last);
        const auto where = detail::locate<detail::partition_on_gpu<It, Pred>()>("partition", first);
        return detail::invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return first + detail::partition(tag, pol, first, n, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::partition_fn partition{};

namespace algo {
/// sweep::stable_partition, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct stable_partition_fn {
    template <execution_policy P, detail::random_access It, class Pred>
    It operator()(P&& policy, It first, It last, Pred pred) const {
        const std::int64_t n = detail::checked_distance("stable_partition", first, last);
        const auto where = detail::locate<detail::partition_on_gpu<It, Pred>()>("stable_partition", first);
        return detail::invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return first + detail::stable_partition(tag, pol, first, n, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::stable_partition_fn stable_partition{};

namespace algo {
/// sweep::partition_copy, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct partition_copy_fn {
    template <execution_policy P, detail::random_access In, class OutTrue, class OutFalse,
              class Pred>
    std::pair<OutTrue, OutFalse> operator()(P&& policy, In first, In last, OutTrue d_true,
                                                OutFalse d_false, Pred pred) const {
        const std::int64_t n = detail::checked_distance("partition_copy", first, last);
        const auto where =
            detail::locate<detail::partition_copy_on_gpu<In, OutTrue, OutFalse, Pred>()>(
                "partition_copy", first, d_true, d_false);
        return detail::invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return detail::partition_copy(tag, pol, first, n, d_true, d_false, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::partition_copy_fn partition_copy{};

}  // namespace sweep
