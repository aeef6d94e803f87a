// sweep/detail/not_on_gpu_yet.hpp -- dispatch layer: stream compaction on gpu_tag before the GPU
// backend has it. A call then fails to compile with a message that says so, instead of a wall of
// overload-resolution errors. Removed when backend/cuda/compaction.hpp exists.
#pragma once

#include <cstdint>
#include <utility>

#include <sweep/detail/config.hpp>
#include <sweep/detail/dispatch.hpp>

namespace sweep::detail {

template <class P, class In, class Stencil, class Out, class Pred>
Out copy_if(gpu_tag, const P&, In, std::int64_t, Stencil, Out d_first, Pred) {
    static_assert(dependent_false<P>,
                  "sweep::gpu: copy_if is not available on the GPU backend yet (stream-compaction issue)");
    return d_first;
}
template <class P, class In, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> partition_copy(gpu_tag, const P&, In, std::int64_t, OutTrue t,
                                            OutFalse f, Pred) {
    static_assert(dependent_false<P>,
                  "sweep::gpu: partition_copy is not available on the GPU backend yet");
    return {t, f};
}
template <class P, class... A>
std::int64_t partition(gpu_tag, const P&, A&&...) {
    static_assert(dependent_false<P>, "sweep::gpu: partition is not available on the GPU backend yet");
    return 0;
}
template <class P, class... A>
std::int64_t stable_partition(gpu_tag, const P&, A&&...) {
    static_assert(dependent_false<P>,
                  "sweep::gpu: stable_partition is not available on the GPU backend yet");
    return 0;
}

}  // namespace sweep::detail
