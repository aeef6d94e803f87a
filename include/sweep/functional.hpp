// sweep/functional.hpp -- public layer: the built-in operators and tags.
//
// sweep::plus<>, minimum<> and maximum<> are shaped like std::plus<>: `T = void` is the transparent
// form. They work on host and device, and the precompiled GPU kernels exist for them (and for
// std::plus<>/std::plus<T>) on the built-in element types.
#pragma once

#include <utility>

#include <sweep/detail/config.hpp>

namespace sweep {

template <class T = void>
struct plus {
    SWEEP_HD constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct plus<void> {
    using is_transparent = void;
    template <class A, class B>
    SWEEP_HD constexpr auto operator()(A&& a, B&& b) const
        -> decltype(std::forward<A>(a) + std::forward<B>(b)) {
        return std::forward<A>(a) + std::forward<B>(b);
    }
};

/// min, returning the left operand on ties (so it is associative and stable).
template <class T = void>
struct minimum {
    SWEEP_HD constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <>
struct minimum<void> {
    using is_transparent = void;
    template <class A, class B>
    SWEEP_HD constexpr auto operator()(const A& a, const B& b) const
        -> decltype(b < a ? b : a) {
        return b < a ? b : a;
    }
};

/// max, returning the left operand on ties.
template <class T = void>
struct maximum {
    SWEEP_HD constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <>
struct maximum<void> {
    using is_transparent = void;
    template <class A, class B>
    SWEEP_HD constexpr auto operator()(const A& a, const B& b) const
        -> decltype(a < b ? b : a) {
        return a < b ? b : a;
    }
};

/// Tag for radix_sort(..., sweep::descending).
struct descending_t {
    explicit constexpr descending_t() = default;
};
inline constexpr descending_t descending{};

}  // namespace sweep
