// sweep/functional.hpp -- public layer: the built-in operators and tags.
//
// sweep::plus<>, minimum<> and maximum<> are shaped like std::plus<>: `T = void` is the transparent
// form. They work on host and device, and the precompiled GPU kernels exist for them (and for
// std::plus<>/std::plus<T>) on the built-in element types.
//
// The comparison predicates (greater_than, greater_or_equal, less_than, less_or_equal,
// equal_to_value, not_equal_to_value, nonzero) are the unary predicates of copy_if and the
// partitions: `sweep::greater_than{5}` is `x > 5`. They hold their value, work on host and device
// and on every policy; with the element type as T they have precompiled GPU kernels.
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

// ---- comparison predicates -----------------------------------------------------------------
// pred(x) is `x OP value`, compared as C++ compares x and value (so greater_than<int>{2} keeps the
// double 2.5: the comparison is 2.5 > 2.0, not int(2.5) > 2). Aggregates, so
// `sweep::greater_than{5}` deduces T = int and `sweep::greater_than<float>{0.5f}` names T.

/// x > value
template <class T>
struct greater_than {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x > value; }
};
/// x >= value
template <class T>
struct greater_or_equal {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x >= value; }
};
/// x < value
template <class T>
struct less_than {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x < value; }
};
/// x <= value
template <class T>
struct less_or_equal {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x <= value; }
};
/// x == value
template <class T>
struct equal_to_value {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x == value; }
};
/// x != value
template <class T>
struct not_equal_to_value {
    T value;
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x != value; }
};
template <class T> greater_than(T) -> greater_than<T>;
template <class T> greater_or_equal(T) -> greater_or_equal<T>;
template <class T> less_than(T) -> less_than<T>;
template <class T> less_or_equal(T) -> less_or_equal<T>;
template <class T> equal_to_value(T) -> equal_to_value<T>;
template <class T> not_equal_to_value(T) -> not_equal_to_value<T>;

/// x != 0, e.g. a flag of the stencil form of copy_if. nonzero<> (or sweep::nonzero{}) takes any
/// type; nonzero<T> converts the element to T first, like std::plus<T>.
template <class T = void>
struct nonzero {
    SWEEP_HD constexpr bool operator()(const T& x) const { return x != T(0); }
};
template <>
struct nonzero<void> {
    template <class U>
    SWEEP_HD constexpr bool operator()(const U& x) const { return x != U(0); }
};

/// Tag for radix_sort(..., sweep::descending).
struct descending_t {
    explicit constexpr descending_t() = default;
};
inline constexpr descending_t descending{};

}  // namespace sweep
