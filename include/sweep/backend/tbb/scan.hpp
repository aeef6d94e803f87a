// PLACEHOLDER: replaced by the cache-blocked two-pass oneTBB scan.
#pragma once
#include <sweep/backend/seq/scan.hpp>
namespace sweep::detail {
template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(par_tag, const P&, In first, std::int64_t n, Out d_first, Op op, F f, Init init) {
    return scan<Exclusive, Acc>(seq_tag{}, seq_policy<>{}, first, n, d_first, op, f, init);
}
}  // namespace sweep::detail
