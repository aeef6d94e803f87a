// sweep/backend/tbb/comp_scan_simd.hpp -- par backend (oneTBB): both passes of a compensated sum
// scan (.compensated(), detail/compensated.hpp) over contiguous float or double, in SIMD lanes:
// the first pass (reduce) as vertical (sum, carry) vectors, the second (scan) as below. The scan
// pass needs the output contiguous and of the input's type too; otherwise it stays scalar.
//
// The scalar pass (scan_bricks.hpp, block_scan) runs one (sum, carry) chain: about eleven
// floating-point operations an element (TwoSum, the carry, the rounding and its NaN test), all
// scalar, which made `par.compensated()` on float 0.48x of the default scan on the 16-core host
// (docs/numerics.md). Here a block is cut into eight sub-blocks ("rows") of equal length L and a
// short tail; lane j of an 8-lane vector runs row j's chain:
//
//  1. the rows' compensated reductions (rows 0..6), vertical SIMD over the block, which the
//     chained pass's first read has just brought into cache;
//  2. the lanes' carry-ins, chained left to right from the block's carry-in:
//     lane 0 = carry, lane j = lane j-1 (+) R(j-1), with (+) the compensated combine;
//  3. per step, K consecutive elements of each row are loaded (8 rows x K: 8 x 8 floats or
//     8 x 4 doubles), transposed in registers so that vector k holds element k of every row, K
//     TwoSum steps update the lanes' pairs, the rounded prefixes are transposed back and stored;
//  4. the tail continues on one scalar chain from lane 7's final pair (the prefix through the
//     end of row 7).
//
// The association differs from the scalar pass (rows are reduced before they are scanned) but is
// fixed by the block's length alone, as before: the result never depends on the thread count or
// on timing, and the error bound of docs/numerics.md holds (the tree depth only shrinks).
// `.deterministic()` never comes here (it takes the canonical tree).
//
// Rows are L = 64/sizeof(T) * q elements apart with q odd: eight rows of a 32K-element block
// would otherwise all start at the same offset modulo 4 KiB and fight over one L1 set.
//
// Written with GCC/Clang vector extensions (no intrinsics), so the same source compiles to SSE2
// on the x86-64 baseline and to AVX2 in a copy built with the target attribute, chosen at run
// time (the two copies give the same bits: the same operations in the same order, no products to
// contract). GCC 12 or later (for __builtin_shufflevector), Clang, and nvcc's host pass over
// either; other compilers keep the scalar pass. Every translation unit of one program must agree
// (a TU built with SWEEP_NO_COMP_SIMD=1, or by an older GCC, would give the scan templates a
// second definition): SWEEP_NO_COMP_SIMD=1 is meant for A/B builds of a whole program.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/detail/compensated.hpp>

// 32-bit x86 is left out unless its floating-point math is SSE2 (x87's excess precision would make
// the vector copy differ from the scalar code, and TwoSum inexact).
#if defined(SWEEP_NO_COMP_SIMD) && SWEEP_NO_COMP_SIMD != 0
#define SWEEP_COMP_SIMD 0
#elif !defined(__NVCOMPILER) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)) && \
    (!defined(__i386__) || defined(__SSE2_MATH__))
#define SWEEP_COMP_SIMD 1
#else
#define SWEEP_COMP_SIMD 0
#endif

#if SWEEP_COMP_SIMD

#if defined(__x86_64__)
#define SWEEP_COMP_SIMD_AVX2 1
#else
#define SWEEP_COMP_SIMD_AVX2 0
#endif

#define SWEEP_SIMD_INLINE __attribute__((always_inline)) inline

namespace sweep::detail::tbb_backend::comp_simd {

/// A native vector is 32 bytes (one AVX register, two SSE registers): K elements of one row per
/// step. An 8-lane vector (one lane a row) is P natives: one for float, two for double (rows 0-3
/// and 4-7). Every helper passes vectors by reference: by value, a 32-byte vector in a function
/// compiled without AVX changes the ABI (GCC's -Wpsabi note).
template <class T>
struct traits;

template <>
struct traits<float> {
    typedef float native __attribute__((vector_size(32)));
    typedef std::int32_t mask __attribute__((vector_size(32)));
    static constexpr int K = 8;
    static constexpr int P = 1;
};

template <>
struct traits<double> {
    typedef double native __attribute__((vector_size(32)));
    typedef std::int64_t mask __attribute__((vector_size(32)));
    static constexpr int K = 4;
    static constexpr int P = 2;
};

template <class T>
struct lanes {
    typename traits<T>::native v[traits<T>::P];
};

template <class T>
SWEEP_SIMD_INLINE void load(typename traits<T>::native& v, const T* p) {
    std::memcpy(&v, p, sizeof v);
}
template <class T>
SWEEP_SIMD_INLINE void store(T* p, const typename traits<T>::native& v) {
    std::memcpy(p, &v, sizeof v);
}

/// (s, c) <- (s, c) (+) (x, 0): TwoSum(s, x) = t + e exactly, the carry gains e.
template <class V>
SWEEP_SIMD_INLINE void two_sum_step(V& s, V& c, const V& x) {
    const V t = s + x;
    const V bb = t - s;
    const V e = (s - (t - bb)) + (x - bb);
    c = c + e;
    s = t;
}

/// (s1, c1) <- (s1, c1) (+) (s2, c2), lane by lane (detail::comp_plus).
template <class V>
SWEEP_SIMD_INLINE void combine(V& s1, V& c1, const V& s2, const V& c2) {
    const V t = s1 + s2;
    const V bb = t - s1;
    const V e = (s1 - (t - bb)) + (s2 - bb);
    c1 = c1 + (c2 + e);
    s1 = t;
}

/// The pair rounded to T exactly as comp_sum's conversion: s + c, or s where s + c is NaN (an
/// infinite s carries a NaN c: TwoSum of an infinite sum).
template <class T>
SWEEP_SIMD_INLINE void round_to(typename traits<T>::native& out, const typename traits<T>::native& s,
                                const typename traits<T>::native& c) {
    using native = typename traits<T>::native;
    const native r = s + c;
    out = (r == r) ? r : s;
}

/// 8 rows x 8 floats <-> 8 columns (an involution: the same shuffles transpose back).
SWEEP_SIMD_INLINE void transpose(traits<float>::native (&r)[8], lanes<float> (&col)[8]) {
    using V = traits<float>::native;
    const V t0 = __builtin_shufflevector(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
    const V t1 = __builtin_shufflevector(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
    const V t2 = __builtin_shufflevector(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
    const V t3 = __builtin_shufflevector(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
    const V t4 = __builtin_shufflevector(r[4], r[5], 0, 8, 1, 9, 4, 12, 5, 13);
    const V t5 = __builtin_shufflevector(r[4], r[5], 2, 10, 3, 11, 6, 14, 7, 15);
    const V t6 = __builtin_shufflevector(r[6], r[7], 0, 8, 1, 9, 4, 12, 5, 13);
    const V t7 = __builtin_shufflevector(r[6], r[7], 2, 10, 3, 11, 6, 14, 7, 15);
    const V u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    const V u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    const V u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    const V u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    const V u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    const V u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    const V u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    const V u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    col[0].v[0] = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
    col[4].v[0] = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
    col[1].v[0] = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
    col[5].v[0] = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
    col[2].v[0] = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
    col[6].v[0] = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
    col[3].v[0] = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
    col[7].v[0] = __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
}
SWEEP_SIMD_INLINE void transpose_back(lanes<float> (&col)[8], traits<float>::native (&r)[8]) {
    traits<float>::native c[8];
    for (int k = 0; k < 8; ++k) c[k] = col[k].v[0];
    lanes<float> rows[8];
    transpose(c, rows);
    for (int j = 0; j < 8; ++j) r[j] = rows[j].v[0];
}

/// 4 rows x 4 doubles <-> 4 columns (an involution).
SWEEP_SIMD_INLINE void transpose4(const traits<double>::native& r0, const traits<double>::native& r1,
                                  const traits<double>::native& r2, const traits<double>::native& r3,
                                  traits<double>::native& c0, traits<double>::native& c1,
                                  traits<double>::native& c2, traits<double>::native& c3) {
    using V = traits<double>::native;
    const V t0 = __builtin_shufflevector(r0, r1, 0, 4, 2, 6);
    const V t1 = __builtin_shufflevector(r0, r1, 1, 5, 3, 7);
    const V t2 = __builtin_shufflevector(r2, r3, 0, 4, 2, 6);
    const V t3 = __builtin_shufflevector(r2, r3, 1, 5, 3, 7);
    c0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    c2 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    c1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    c3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}
/// 8 rows x 4 doubles <-> 4 columns of 8 lanes (rows 0-3 in v[0], rows 4-7 in v[1]).
SWEEP_SIMD_INLINE void transpose(traits<double>::native (&r)[8], lanes<double> (&col)[4]) {
    for (int h = 0; h < 2; ++h)
        transpose4(r[4 * h], r[4 * h + 1], r[4 * h + 2], r[4 * h + 3], col[0].v[h], col[1].v[h],
                   col[2].v[h], col[3].v[h]);
}
SWEEP_SIMD_INLINE void transpose_back(lanes<double> (&col)[4], traits<double>::native (&r)[8]) {
    for (int h = 0; h < 2; ++h)
        transpose4(col[0].v[h], col[1].v[h], col[2].v[h], col[3].v[h], r[4 * h], r[4 * h + 1],
                   r[4 * h + 2], r[4 * h + 3]);
}

/// Compensated reduction of x[0, len), len a positive multiple of 2K: two vertical (sum, carry)
/// accumulators, combined lane by lane, then the K lanes left to right.
template <class T>
SWEEP_SIMD_INLINE comp_sum<T> row_reduce(const T* x, std::int64_t len) {
    using V = typename traits<T>::native;
    constexpr int K = traits<T>::K;
    V s0, s1, x0, x1;
    load(s0, x);
    load(s1, x + K);
    V c0 = V{}, c1 = V{};
    for (std::int64_t i = 2 * K; i < len; i += 2 * K) {
        load(x0, x + i);
        load(x1, x + i + K);
        two_sum_step(s0, c0, x0);
        two_sum_step(s1, c1, x1);
    }
    combine(s0, c0, s1, c1);
    comp_plus<T> op;
    comp_sum<T> acc{s0[0], c0[0]};
    for (int k = 1; k < K; ++k) acc = op(acc, comp_sum<T>{s0[k], c0[k]});
    return acc;
}

/// The length of each of the eight rows of a block of len elements: an odd number of 64-byte
/// lines, as long as fits (0: too short for rows).
template <class T>
inline std::int64_t rows_len(std::int64_t len) {
    constexpr std::int64_t line = 64 / static_cast<std::int64_t>(sizeof(T));
    std::int64_t q = len / 8 / line;
    if (q % 2 == 0) --q;
    return q > 0 ? q * line : 0;
}

/// The block scan proper: x, y the block (y may equal x), len elements, carry the carry-in pair.
/// Requires rows_len<T>(len) > 0.
template <bool Exclusive, class T>
SWEEP_SIMD_INLINE void block_scan_impl(const T* x, T* y, std::int64_t len, comp_sum<T> carry) {
    using V = typename traits<T>::native;
    constexpr int K = traits<T>::K;
    constexpr int P = traits<T>::P;
    constexpr int W = 8 / P;  // lanes per native
    const std::int64_t L = rows_len<T>(len);
    comp_plus<T> op;

    // 1-2. The rows' reductions and the lanes' carry-ins.
    lanes<T> s{}, c{};
    {
        comp_sum<T> in = carry;
        for (int j = 0; j < 8; ++j) {
            s.v[j / W][j % W] = in.s;
            c.v[j / W][j % W] = in.c;
            if (j < 7) in = op(in, row_reduce(x + j * L, L));
        }
    }

    // 3. The rows, K elements of each a step.
    for (std::int64_t i = 0; i < L; i += K) {
        V r[8];
        for (int j = 0; j < 8; ++j) load(r[j], x + j * L + i);
        lanes<T> col[K];
        transpose(r, col);
        for (int k = 0; k < K; ++k) {
            for (int p = 0; p < P; ++p) {
                if constexpr (Exclusive) {
                    V out;
                    round_to<T>(out, s.v[p], c.v[p]);
                    two_sum_step(s.v[p], c.v[p], col[k].v[p]);
                    col[k].v[p] = out;
                } else {
                    two_sum_step(s.v[p], c.v[p], col[k].v[p]);
                    round_to<T>(col[k].v[p], s.v[p], c.v[p]);
                }
            }
        }
        transpose_back(col, r);
        for (int j = 0; j < 8; ++j) store(y + j * L + i, r[j]);
    }

    // 4. The tail, from lane 7's pair.
    comp_sum<T> acc{s.v[P - 1][W - 1], c.v[P - 1][W - 1]};
    for (std::int64_t i = 8 * L; i < len; ++i) {
        if constexpr (Exclusive) {
            const comp_sum<T> next = op(acc, comp_sum<T>{x[i], T(0)});
            y[i] = static_cast<T>(acc);
            acc = next;
        } else {
            acc = op(acc, comp_sum<T>{x[i], T(0)});
            y[i] = static_cast<T>(acc);
        }
    }
}

template <bool Exclusive, class T>
__attribute__((noinline)) void block_scan_generic(const T* x, T* y, std::int64_t len,
                                                  comp_sum<T> carry) {
    block_scan_impl<Exclusive>(x, y, len, carry);
}

#if SWEEP_COMP_SIMD_AVX2
template <bool Exclusive, class T>
__attribute__((noinline, target("avx2"))) void block_scan_avx2(const T* x, T* y,
                                                               std::int64_t len,
                                                               comp_sum<T> carry) {
    block_scan_impl<Exclusive>(x, y, len, carry);
}

inline bool has_avx2() noexcept {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}
#endif

/// The first pass: the compensated reduction of x[0, len), len > 0 (row_reduce over the longest
/// multiple of 2K, the rest added left to right; the chained pass reduces only whole 32K blocks,
/// test_par_comp_simd every length).
template <class T>
SWEEP_SIMD_INLINE comp_sum<T> reduce_impl(const T* x, std::int64_t len) {
    constexpr std::int64_t step = 2 * traits<T>::K;
    const std::int64_t body = len / step * step;
    comp_plus<T> op;
    std::int64_t i = 0;
    comp_sum<T> acc;
    if (body > 0) {
        acc = row_reduce(x, body);
        i = body;
    } else {
        acc = comp_sum<T>{x[0], T(0)};
        i = 1;
    }
    for (; i < len; ++i) acc = op(acc, comp_sum<T>{x[i], T(0)});
    return acc;
}

template <class T>
__attribute__((noinline)) comp_sum<T> reduce_generic(const T* x, std::int64_t len) {
    return reduce_impl(x, len);
}

#if SWEEP_COMP_SIMD_AVX2
template <class T>
__attribute__((noinline, target("avx2"))) comp_sum<T> reduce_avx2(const T* x, std::int64_t len) {
    return reduce_impl(x, len);
}
#endif

template <class T>
comp_sum<T> reduce(const T* x, std::int64_t len) {
#if SWEEP_COMP_SIMD_AVX2
    if (has_avx2()) return reduce_avx2(x, len);
#endif
    return reduce_generic(x, len);
}

/// Scans the compensated sums of x[0, len) into y[0, len) from the carry-in (null: an inclusive
/// scan of the first block without init). Returns false, doing nothing, where the block is too
/// short for the rows (the caller then runs the scalar pass).
template <bool Exclusive, class T>
bool block_scan(const T* x, T* y, std::int64_t len, const comp_sum<T>* carry) {
    if constexpr (!Exclusive) {
        if (carry == nullptr) {
            // The first element alone, as the scalar pass makes it: (x0, 0) rounded.
            if (rows_len<T>(len - 1) == 0) return false;
            const comp_sum<T> first{x[0], T(0)};
            y[0] = static_cast<T>(first);
            return block_scan<Exclusive, T>(x + 1, y + 1, len - 1, &first);
        }
    }
    // Only an inclusive scan of the first block without init comes without a carry-in (an
    // exclusive scan's init is its carry); anything else is left to the scalar pass.
    if (carry == nullptr || rows_len<T>(len) == 0) return false;
#if SWEEP_COMP_SIMD_AVX2
    if (has_avx2()) {
        block_scan_avx2<Exclusive, T>(x, y, len, *carry);
        return true;
    }
#endif
    block_scan_generic<Exclusive, T>(x, y, len, *carry);
    return true;
}

}  // namespace sweep::detail::tbb_backend::comp_simd

#undef SWEEP_SIMD_INLINE

#endif  // SWEEP_COMP_SIMD
