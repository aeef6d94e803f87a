// sweep/copy_if.hpp -- public layer: stream compaction into a second range.
//
// copy_if is stable. The stencil form keeps first[i] where pred(stencil[i]) holds, as Thrust's.
// Both forms reduce to one backend call with a stencil (the input itself for the plain form):
//     copy_if(tag, policy, first, n, stencil, d_first, pred) -> d_first + kept
#pragma once

#include <cstdint>

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
/// Whether sweep::automatic may send this copy_if to the GPU from this translation unit.
template <class In, class Stencil, class Out, class Pred>
constexpr bool copy_if_on_gpu() {
#if SWEEP_HAS_CUDA
    return cuda::copy_if_runs_here_v<In, Stencil, Out, Pred>;
#else
    return false;
#endif
}
}  // namespace detail

namespace algo {
/// sweep::copy_if, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct copy_if_fn {
    template <execution_policy P, detail::random_access In, class Out, class Pred>
    Out operator()(P&& policy, In first, In last, Out d_first, Pred pred) const {
        const std::int64_t n = detail::checked_distance("copy_if", first, last);
        const auto where =
            detail::locate<detail::copy_if_on_gpu<In, In, Out, Pred>()>("copy_if", first, d_first);
        return detail::invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return detail::copy_if(tag, pol, first, n, first, d_first, pred);
        });
    }

    template <execution_policy P, detail::random_access In, detail::random_access Stencil, class Out,
              class Pred>
    Out operator()(P&& policy, In first, In last, Stencil stencil, Out d_first, Pred pred) const {
        const std::int64_t n = detail::checked_distance("copy_if", first, last);
        const auto where = detail::locate<detail::copy_if_on_gpu<In, Stencil, Out, Pred>()>(
            "copy_if", first, stencil, d_first);
        return detail::invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return detail::copy_if(tag, pol, first, n, stencil, d_first, pred);
        });
    }
};
}  // namespace algo
inline constexpr algo::copy_if_fn copy_if{};

}  // namespace sweep
