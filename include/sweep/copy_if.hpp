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

template <execution_policy P, detail::random_access In, class Out, class Pred>
Out copy_if(P&& policy, In first, In last, Out d_first, Pred pred) {
    const std::int64_t n = detail::checked_distance("copy_if", first, last);
    return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
        return detail::copy_if(tag, pol, first, n, first, d_first, pred);
    });
}

template <execution_policy P, detail::random_access In, detail::random_access Stencil, class Out,
          class Pred>
Out copy_if(P&& policy, In first, In last, Stencil stencil, Out d_first, Pred pred) {
    const std::int64_t n = detail::checked_distance("copy_if", first, last);
    return detail::invoke_backend(policy, n, [&](auto tag, const auto& pol) {
        return detail::copy_if(tag, pol, first, n, stencil, d_first, pred);
    });
}

}  // namespace sweep
