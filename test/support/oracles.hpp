// test/support/oracles.hpp -- host tests: expected results written independently of sweep, and
// comparisons that report the first difference instead of printing million-element vectors.
//
// The seq backend is checked against std:: and against the hand loops here; every other policy is
// checked against the seq backend.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace sweep_test {

template <class T>
std::string show(const T& x) {
    if constexpr (std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>) {
        return std::to_string(static_cast<int>(x));
    } else if constexpr (std::is_arithmetic_v<T>) {
        std::ostringstream s;
        s.precision(std::numeric_limits<T>::max_digits10);
        s << x;
        return s.str();
    } else {
        return "<" + std::to_string(sizeof(T)) + "-byte value>";
    }
}

/// "" when got == want element by element (operator==), else where they first differ.
template <class T>
std::string mismatch(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size())
        return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i]))
            return "first difference at " + std::to_string(i) + " of " +
                   std::to_string(got.size()) + ": got " + show(got[i]) + ", want " +
                   show(want[i]);
    return "";
}

/// Like mismatch, but compares object bits (NaNs, -0.0).
template <class T>
std::string bit_mismatch(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size())
        return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
            return "first bitwise difference at " + std::to_string(i) + " of " +
                   std::to_string(got.size()) + ": got " + show(got[i]) + ", want " +
                   show(want[i]);
    return "";
}

/// Floating-point scans whose association differs from seq's (par's block tree).
/// Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed., Sec. 4.2): any order of
/// summing k terms has |computed - exact| <= gamma_{k-1} * sum|x_i|, gamma_m = m*u / (1 - m*u).
/// Two such results differ by at most 2 * gamma_{k-1} * sum|x_i|; prefix i has k = i + 1 terms
/// (+1 with init). `abs_prefix[i]` is that sum of |x| (including |init|).
template <class T>
std::string tolerance_mismatch(const std::vector<T>& got, const std::vector<T>& want,
                               const std::vector<double>& abs_prefix) {
    if (got.size() != want.size())
        return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
    const double u = std::numeric_limits<T>::epsilon() / 2;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double m = static_cast<double>(i + 1);
        const double gamma = m * u / (1 - m * u);
        const double tol = 2 * gamma * abs_prefix[i];
        const double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
        if (!(d <= tol))
            return "difference " + show(d) + " > tolerance " + show(tol) + " at " +
                   std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
    }
    return "";
}

// ---- segmented scans, by hand ---------------------------------------------------------------

/// Segment heads from keys: i == 0 or !eq(k[i-1], k[i]).
template <class K, class Eq>
std::vector<bool> heads_from_keys(const std::vector<K>& k, Eq eq) {
    std::vector<bool> h(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) h[i] = i == 0 || !eq(k[i - 1], k[i]);
    return h;
}

/// Segment heads from offsets: the first element of every nonempty segment.
template <class O>
std::vector<bool> heads_from_offsets(const std::vector<O>& o, std::size_t n) {
    std::vector<bool> h(n, false);
    for (std::size_t j = 0; j + 1 < o.size(); ++j)
        if (o[j] < o[j + 1]) h[static_cast<std::size_t>(o[j])] = true;
    return h;
}

template <class F>
std::vector<bool> heads_from_flags(const std::vector<F>& f) {
    std::vector<bool> h(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) h[i] = i == 0 || f[i] != 0;
    return h;
}

/// Inclusive segmented scan: out[i] = x[i] at a head, else out[i-1] op x[i].
template <class T, class Op>
std::vector<T> segmented_inclusive(const std::vector<T>& x, const std::vector<bool>& head, Op op) {
    std::vector<T> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = head[i] ? x[i] : op(out[i - 1], x[i]);
    return out;
}

/// Exclusive segmented scan: out[i] = init at a head, else out[i-1] op x[i-1].
template <class T, class Op>
std::vector<T> segmented_exclusive(const std::vector<T>& x, const std::vector<bool>& head, T init,
                                   Op op) {
    std::vector<T> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = head[i] ? init : op(out[i - 1], x[i - 1]);
    return out;
}

// ---- radix sort keys ------------------------------------------------------------------------

/// IEEE 754 totalOrder (and < for integers), written from the definition rather than from the
/// bit trick sweep uses: negatives before positives (by sign bit, so -0 < +0 and -NaN first),
/// NaNs at the ends, ordered by payload among themselves.
template <class T>
bool total_less(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        return a < b;
    } else {
        using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        const bool sa = std::signbit(a), sb = std::signbit(b);
        if (sa != sb) return sa;
        const bool na = std::isnan(a), nb = std::isnan(b);
        if (na && nb) {
            const U ba = std::bit_cast<U>(a), bb = std::bit_cast<U>(b);
            return sa ? bb < ba : ba < bb;  // a larger payload is further from zero
        }
        if (na || nb) return sa ? na : nb;  // -NaN is least, +NaN is greatest
        return a < b;                       // same sign: -0 == -0, +0 == +0
    }
}

}  // namespace sweep_test
