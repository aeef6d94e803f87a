// PLACEHOLDER: replaced by the two-pass oneTBB stream compaction.
#pragma once
#include <sweep/backend/seq/compaction.hpp>
namespace sweep::detail {
template <class P, class In, class Stencil, class Out, class Pred>
Out copy_if(par_tag, const P&, In first, std::int64_t n, Stencil stencil, Out d_first, Pred pred) {
    return copy_if(seq_tag{}, seq_policy<>{}, first, n, stencil, d_first, pred);
}
template <class P, class In, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> partition_copy(par_tag, const P&, In first, std::int64_t n,
                                            OutTrue d_true, OutFalse d_false, Pred pred) {
    return partition_copy(seq_tag{}, seq_policy<>{}, first, n, d_true, d_false, pred);
}
template <class P, class It, class Pred>
std::int64_t stable_partition(par_tag, const P&, It first, std::int64_t n, Pred pred) {
    return stable_partition(seq_tag{}, seq_policy<>{}, first, n, pred);
}
template <class P, class It, class Pred>
std::int64_t partition(par_tag, const P&, It first, std::int64_t n, Pred pred) {
    return stable_partition(seq_tag{}, seq_policy<>{}, first, n, pred);
}
}  // namespace sweep::detail
