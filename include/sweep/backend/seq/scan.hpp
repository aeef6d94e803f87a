// sweep/backend/seq/scan.hpp -- seq backend: the reference scan (the oracle).
//
// A left-to-right loop in the accumulator type, exactly the association of the standard's
// definition: out[i] = (((init op x0) op x1) ... op xi). Each input is read before the output at
// the same index is written, so d_first == first (in place) is fine.
// `.deterministic()` (for operators that are not exact) instead runs the canonical tree
// (detail/canonical.hpp), tile by tile: the bits every other backend gives.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <sweep/detail/canonical.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>

namespace sweep::detail {

template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(seq_tag, const P&, const char*, In first, std::int64_t n, Out d_first, Op op, F f, Init init) {
    if (n == 0) return d_first;
    if constexpr (use_canonical_v<P, Acc, Op> && std::is_trivially_copyable_v<Acc>) {
        auto get = [&](std::int64_t i) -> Acc { return static_cast<Acc>(f(first[i])); };
        auto put = [&](std::int64_t i, const Acc& v) { d_first[i] = v; };
        canonical::opt<Acc> carry;
        if constexpr (has_init_v<Init>) carry = canonical::opt<Acc>(static_cast<Acc>(init));
        canonical::scan_serial<Exclusive, Acc>(get, put, op, n, carry);
        return d_first + n;
    }
    if constexpr (Exclusive) {
        Acc acc = std::move(init);
        for (std::int64_t i = 0; i < n; ++i) {
            Acc next = op(acc, f(first[i]));  // read x_i before writing out[i]
            d_first[i] = acc;
            acc = std::move(next);
        }
    } else {
        Acc acc = [&]() -> Acc {
            if constexpr (has_init_v<Init>) return op(std::move(init), f(first[0]));
            else return f(first[0]);
        }();
        d_first[0] = acc;
        for (std::int64_t i = 1; i < n; ++i) {
            acc = op(acc, f(first[i]));
            d_first[i] = acc;
        }
    }
    return d_first + n;
}

}  // namespace sweep::detail
