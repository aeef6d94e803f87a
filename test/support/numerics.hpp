// test/support/numerics.hpp -- the numerics tests' exact reference and ill-conditioned inputs.
//
// exact_sum: a fixed-point superaccumulator wide enough for every double (and so every float):
// bit 0 is 2^-1074 and 68 limbs of 32 bits (kept in int64 with lazy carries) cover up to 2^1101,
// so any sum of fewer than 2^77 doubles is exact. Adding a double touches 3 limbs; value() rounds
// faithfully (relative error below 2^-51, enough to measure errors, never to define them);
// error_of(r) gives S - r computed exactly, then rounded the same way.
//
// Generators (each draws from the given generator; every value is exactly representable in T):
//   ill_conditioned(n, cond): after Ogita, Rump & Oishi's recipe (Accurate sum and dot product,
//     2005, sec. 6, for sums): the first half spans exponents 0..log2(cond), the second half
//     cancels the running sum step by step. sum|x| / |sum x| comes out at cond or (often much)
//     above it: `cond` is a target, the tests and the CSV program report what they got.
//   cancelling(n): +a, then values near -a, in pairs: partial sums cancel to the last bits.
//   wide(n, binades): |x| uniform in log over `binades` binades around 1, random signs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace sweep_test {

class exact_sum {
public:
    static constexpr int limbs = 68;
    static constexpr int bias = 1074;  // bit 0 of limb 0 is 2^-1074

    void add(double x) {
        if (x == 0.0) return;
        int e = 0;
        const double m = std::frexp(x, &e);  // x = m 2^e, 0.5 <= |m| < 1
        // x = M 2^(e - 53), M an integer of at most 53 bits (exact for subnormals too: their
        // low bits are zero in M, and e - 53 >= -1074 - 52 is then lifted below).
        auto M = static_cast<std::int64_t>(std::ldexp(m, 53));
        int p = e - 53 + bias;  // bit position of M's bit 0
        while (p < 0) {         // subnormal: M has trailing zeros
            M /= 2;
            ++p;
        }
        const int k = p / 32, r = p % 32;
        const bool neg = M < 0;
        const auto U = static_cast<unsigned __int128>(neg ? -M : M) << r;  // at most 85 bits
        for (int j = 0; j < 3 && k + j < limbs; ++j) {
            const auto d = static_cast<std::int64_t>(static_cast<std::uint64_t>(U >> (32 * j)) & 0xffffffffu);
            v_[k + j] += neg ? -d : d;
        }
        if (++pending_ >= (1 << 29)) normalize();
    }

    /// The sum, rounded faithfully to double.
    double value() const { return to_double(v_); }

    /// S - r, exactly, then rounded as value().
    double error_of(double r) const {
        exact_sum t = *this;
        t.add(-r);
        return t.value();
    }

private:
    std::int64_t v_[limbs] = {};
    int pending_ = 0;

    void normalize() {
        carry(v_);
        pending_ = 0;
    }
    static void carry(std::int64_t* v) {
        for (int j = 0; j + 1 < limbs; ++j) {
            const std::int64_t c = v[j] >> 32;  // floor division by 2^32
            v[j] -= c * (std::int64_t{1} << 32);
            v[j + 1] += c;
        }
    }
    static double to_double(const std::int64_t* src) {
        std::int64_t v[limbs];
        std::copy(src, src + limbs, v);
        carry(v);
        double sign = 1.0;
        if (v[limbs - 1] < 0) {
            for (auto& x : v) x = -x;
            carry(v);
            sign = -1.0;
        }
        int top = limbs - 1;
        while (top >= 0 && v[top] == 0) --top;
        if (top < 0) return 0.0;
        // Three limbs: 64+ significant bits, so the one rounding below is the only one.
        long double acc = 0;
        for (int j = top; j >= top - 2 && j >= 0; --j)
            acc += std::ldexp(static_cast<long double>(v[j]), 32 * j - bias);
        return sign * static_cast<double>(acc);
    }
};

template <class T>
T random_mantissa(std::mt19937_64& g) {
    std::uniform_real_distribution<double> d(0.5, 1.0);
    return static_cast<T>(d(g));
}

/// sum|x| / |sum x| at least about `cond` (Ogita-Rump-Oishi, sec. 6).
template <class T>
std::vector<T> ill_conditioned(std::size_t n, double cond, std::mt19937_64& g) {
    std::vector<T> x(n);
    if (n == 0) return x;
    const int b = static_cast<int>(std::log2(cond));
    const std::size_t half = (n + 1) / 2;
    std::uniform_int_distribution<int> ex(0, b);
    std::bernoulli_distribution sign(0.5);
    exact_sum s;
    for (std::size_t i = 0; i < half; ++i) {
        const int e = i == 0 ? b : (i + 1 == half ? 0 : ex(g));
        x[i] = static_cast<T>(std::ldexp(random_mantissa<double>(g), e)) * (sign(g) ? T(1) : T(-1));
        s.add(static_cast<double>(x[i]));
    }
    for (std::size_t i = half; i < n; ++i) {
        const int e = static_cast<int>(std::lround(b * (1.0 - double(i - half) / double(n - half))));
        const T r = static_cast<T>(std::ldexp(random_mantissa<double>(g), e)) * (sign(g) ? T(1) : T(-1));
        x[i] = static_cast<T>(r - static_cast<T>(s.value()));
        s.add(static_cast<double>(x[i]));
    }
    std::shuffle(x.begin(), x.end(), g);
    return x;
}

/// Pairs (a, -a + small): every other partial sum cancels to a few low bits.
template <class T>
std::vector<T> cancelling(std::size_t n, std::mt19937_64& g) {
    std::vector<T> x(n);
    std::uniform_int_distribution<int> ex(20, 40);
    std::bernoulli_distribution sign(0.5);
    for (std::size_t i = 0; i < n; i += 2) {
        const T a = static_cast<T>(std::ldexp(random_mantissa<double>(g), ex(g))) * (sign(g) ? T(1) : T(-1));
        x[i] = a;
        if (i + 1 < n) x[i + 1] = static_cast<T>(-a + static_cast<T>(random_mantissa<double>(g)));
    }
    return x;
}

/// |x| spread log-uniformly over `binades` binades around 1, random signs.
template <class T>
std::vector<T> wide(std::size_t n, int binades, std::mt19937_64& g) {
    std::vector<T> x(n);
    std::uniform_int_distribution<int> ex(-binades / 2, binades / 2);
    std::bernoulli_distribution sign(0.5);
    for (auto& v : x)
        v = static_cast<T>(std::ldexp(random_mantissa<double>(g), ex(g))) * (sign(g) ? T(1) : T(-1));
    return x;
}

/// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical Algorithms, 3.1).
inline double gamma_k(double k, double u) { return k * u / (1.0 - k * u); }

/// The bound docs/numerics.md states for a compensated prefix of m leaves (the tree's depth is at
/// most m): |r - S| <= u|S| + (1 + u) gamma_{2m} gamma_m (1 + gamma_m) sum|x|.
inline double compensated_bound(double S, double abs_sum, double m, double u) {
    return u * std::fabs(S) +
           (1 + u) * gamma_k(2 * m, u) * gamma_k(m, u) * (1 + gamma_k(m, u)) * abs_sum;
}

/// Per-prefix accuracy of `result` (a scan of x with init `init`, inclusive or exclusive) against
/// the exact prefix sums: the largest error relative to the bound (<= 1 passes), the largest
/// relative error, and the first index that breaks the bound (-1: none).
struct accuracy {
    double worst_ratio = 0;
    double worst_rel = 0;
    std::int64_t first_bad = -1;
    double bad_result = 0, bad_exact = 0, bad_bound = 0;
};

/// Per-prefix accuracy of a segmented scan: the exact sum restarts at every head (heads[i] != 0;
/// element 0 always starts a segment), the init (if any) folded in at each segment's start.
template <class T>
accuracy check_segmented_prefixes(const std::vector<T>& x, const std::vector<char>& heads,
                                  const std::vector<T>& result, bool exclusive, double init,
                                  double u, bool has_init) {
    accuracy a;
    exact_sum s;
    double abs_sum = 0;
    std::int64_t leaves = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i == 0 || heads[i]) {
            s = exact_sum{};
            abs_sum = 0;
            leaves = 0;
            if (has_init) {
                s.add(init);
                abs_sum = std::fabs(init);
                leaves = 1;
            }
        }
        if (!exclusive) {
            s.add(static_cast<double>(x[i]));
            abs_sum += std::fabs(static_cast<double>(x[i]));
            ++leaves;
        }
        const double r = static_cast<double>(result[i]);
        const double S = s.value();
        const double err = std::fabs(s.error_of(r));
        // +1 leaf: the depth bound counts the init; 1.0001: abs_sum's own rounding.
        const double bound = compensated_bound(S, abs_sum * 1.0001, double(leaves + 1), u);
        const double ratio = bound > 0 ? err / bound : (err == 0 ? 0 : 1e300);
        if (ratio > a.worst_ratio) a.worst_ratio = ratio;
        const double rel = S != 0 ? err / std::fabs(S) : (err == 0 ? 0 : 1e300);
        if (rel > a.worst_rel) a.worst_rel = rel;
        if (ratio > 1 && a.first_bad < 0) {
            a.first_bad = static_cast<std::int64_t>(i);
            a.bad_result = r;
            a.bad_exact = S;
            a.bad_bound = bound;
        }
        if (exclusive) {
            s.add(static_cast<double>(x[i]));
            abs_sum += std::fabs(static_cast<double>(x[i]));
            ++leaves;
        }
    }
    return a;
}

/// check_segmented_prefixes over one segment.
template <class T>
accuracy check_prefixes(const std::vector<T>& x, const std::vector<T>& result, bool exclusive,
                        double init, double u, bool has_init) {
    return check_segmented_prefixes(x, std::vector<char>(x.size(), 0), result, exclusive, init, u,
                                    has_init);
}

}  // namespace sweep_test

namespace sweep_test {

/// The head flags of keys: element i starts a segment when i == 0 or keys[i] != keys[i - 1].
inline std::vector<char> head_flags_of(const std::vector<int>& keys) {
    std::vector<char> flags(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) flags[i] = i == 0 || keys[i] != keys[i - 1];
    return flags;
}

/// Keys with runs of random length (1 .. max_run) (head_flags_of: the flags they imply).
inline std::vector<int> run_keys(std::size_t n, int max_run, std::mt19937_64& g) {
    std::vector<int> k(n);
    std::uniform_int_distribution<int> len(1, max_run);
    int key = 0, left = 0;
    for (auto& v : k) {
        if (left == 0) {
            ++key;
            left = len(g);
        }
        v = key;
        --left;
    }
    return k;
}

}  // namespace sweep_test
