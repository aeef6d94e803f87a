// sweep/detail/compensated.hpp -- shared by every backend: the accumulator of `.compensated()`.
//
// A compensated sum is a pair (s, c): s the floating-point sum, c the running sum of the rounding
// errors of the additions that produced s. Element x enters as (x, 0). Two pairs combine as
//     s = fl(s1 + s2), e = the exact error of that addition (TwoSum, Knuth), c = fl(c1 + fl(c2 + e))
// (Ogita, Rump & Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005: Sum2,
// here as an operator over pairs, so that any tree can evaluate it). Since s + (sum of all e) is
// the exact sum, the result fl(s + c) has the error bound of docs/numerics.md: u|S| plus a term of
// order (m u)^2 sum|x_i| for a tree of depth m. The scan entry (scan.hpp) wraps a compensated
// call's transform and operator in these; every backend then runs it as just another operator
// over a trivially copyable 8-byte (float) or 16-byte (double) value.
//
// TwoSum needs IEEE round-to-nearest additions evaluated as written: no -ffast-math /
// -fassociative-math (which would fold the error term to 0); FMA contraction cannot apply (there is
// no product). x87 excess precision would break it: x86-64 uses SSE.
#pragma once

#include <type_traits>
#include <utility>

#include <sweep/detail/config.hpp>

namespace sweep::detail {

template <class T>
struct comp_sum {
    T s;
    T c;

    comp_sum() = default;
    /// An element x enters as (x, 0): implicit, so that the segmented backends, which read the
    /// values as the accumulator type, need no transform.
    SWEEP_HD constexpr comp_sum(T sum, T carry = T(0)) noexcept : s(sum), c(carry) {}

    /// The compensated sum rounded once to T. A non-finite s (an infinity or NaN among the
    /// inputs, or overflow) is returned as s, as the plain sum would give it: c is NaN exactly
    /// then (TwoSum of an infinite sum yields NaN), so s + c is NaN exactly then.
    SWEEP_HD constexpr operator T() const noexcept {
        const T r = s + c;
        return r != r ? s : r;
    }
};

/// The combine of two compensated pairs (TwoSum on the sums, the carries added). A class template
/// (not a template call operator) so that a plain T converts to (T, 0) at the call.
template <class T>
struct comp_plus {
    SWEEP_HD constexpr comp_sum<T> operator()(const comp_sum<T>& a, const comp_sum<T>& b) const
        noexcept {
        const T s = a.s + b.s;
        const T bb = s - a.s;
        const T e = (a.s - (s - bb)) + (b.s - bb);
        // c1 + (c2 + e), not (c1 + c2) + e: in a left-to-right fold (a the running prefix, b an
        // element with c2 = 0) the loop-carried chain is then one addition for c, as for s.
        return comp_sum<T>{s, a.c + (b.c + e)};
    }
};

/// The transform of a compensated scan: the user's transform, then x -> (x, 0).
template <class T, class F>
struct to_comp {
    mutable F f;
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
    template <class X>
    SWEEP_HD constexpr comp_sum<T> operator()(X&& x) const {
        return comp_sum<T>{static_cast<T>(f(std::forward<X>(x))), T(0)};
    }
};

template <class T>
inline constexpr bool is_compensable_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace sweep::detail
