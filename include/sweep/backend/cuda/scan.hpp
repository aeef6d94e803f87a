// PLACEHOLDER: replaced by the GPU engine's scan entry (host-side dispatch to the look-back engine).
#pragma once
#include <cstdint>
#include <sweep/detail/dispatch.hpp>
namespace sweep::detail {
template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(gpu_tag, const P&, In, std::int64_t, Out d_first, Op, F, Init) {
    static_assert(dependent_false<P>, "sweep::gpu: scans on the GPU backend are not built yet");
    return d_first;
}
}  // namespace sweep::detail
