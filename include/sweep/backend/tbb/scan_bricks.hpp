// sweep/backend/tbb/scan_bricks.hpp -- par backend (oneTBB): the serial leaf loops of the scan
// (the "bricks", as oneDPL calls them): one block's reduce and one block's scan with a carry-in.
//
// Association inside a block is fixed and documented (docs/decisions/0002-par-scan.md):
//  - scan (second pass): left to right from the carry, ((c op x0) op x1) ..., as seq.
//  - reduce (first pass): left to right, except for plus over arithmetic types on contiguous
//    input, where 8 interleaved lanes (lane j adds x[j], x[j+8], ...) are combined as
//    ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)). That is exact for integers and a fixed, thread-count
//    independent order for floating point; it lets the compiler vectorize the loop and breaks the
//    add-latency chain (4 cycles per double otherwise).
//  - compensated sums (.compensated()) over contiguous float/double without a transform: both
//    passes in SIMD lanes instead (comp_scan_simd.hpp), where the compiler supports it: the
//    reduce as vertical (sum, carry) vectors, the scan over eight rows of the block when the
//    output is contiguous and of the same type too.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

#include <sweep/backend/tbb/comp_scan_simd.hpp>
#include <sweep/detail/compensated.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail::tbb_backend {

template <class Op, class Acc>
inline constexpr bool is_plus_v =
    std::is_same_v<Op, sweep::plus<>> || std::is_same_v<Op, sweep::plus<Acc>> ||
    std::is_same_v<Op, std::plus<>> || std::is_same_v<Op, std::plus<Acc>>;

/// Lanes of the vectorized reduce: 8 accumulators fill two 256-bit or four 128-bit registers of
/// doubles and hide a 4-cycle add latency on every current x86 core.
inline constexpr int reduce_lanes = 8;

/// True when the block reduce may use the lanes: plus over an arithmetic type, no transform, and
/// contiguous input of exactly that type.
template <class Acc, class In, class Op, class F>
inline constexpr bool lane_reduce_v =
    std::is_arithmetic_v<Acc> && is_plus_v<Op, Acc> && std::is_same_v<F, identity> &&
    std::contiguous_iterator<In> && std::is_same_v<std::iter_value_t<In>, Acc>;

/// True for a compensated sum (.compensated(): detail/compensated.hpp) over contiguous input of
/// its own type without a user transform: the reduce then runs in SIMD lanes (comp_simd::reduce),
/// or, where SWEEP_COMP_SIMD is 0, the same 8 scalar lanes as above, each a (sum, carry) pair.
template <class Acc, class In, class Op, class F>
inline constexpr bool comp_lane_reduce_v = false;
template <class T, class In, class F>
inline constexpr bool comp_lane_reduce_v<comp_sum<T>, In, comp_plus<T>, F> =
    std::is_same_v<F, to_comp<T, identity>> && std::contiguous_iterator<In> &&
    std::is_same_v<std::iter_value_t<In>, T>;

/// op-reduction of f(first[lo..hi)), hi > lo.
template <class Acc, class In, class Op, class F>
Acc block_reduce(In first, std::int64_t lo, std::int64_t hi, Op& op, F& f) {
    if constexpr (comp_lane_reduce_v<Acc, In, Op, F>) {
        using T = decltype(Acc::s);
#if SWEEP_COMP_SIMD
        // Vertical SIMD pairs (comp_scan_simd.hpp): the compiler leaves the scalar lanes below
        // unvectorized (GCC 12: scalar addss/subss only).
        return comp_simd::reduce(std::to_address(first) + lo, hi - lo);
#endif
        if (hi - lo >= 2 * reduce_lanes) {
            const T* x = std::to_address(first) + lo;
            const std::int64_t len = hi - lo;
            T s[reduce_lanes], c[reduce_lanes];
            for (int j = 0; j < reduce_lanes; ++j) {
                s[j] = x[j];
                c[j] = T(0);
            }
            std::int64_t i = reduce_lanes;
            for (; i + reduce_lanes <= len; i += reduce_lanes) {
                for (int j = 0; j < reduce_lanes; ++j) {  // TwoSum(s_j, x), carry += error
                    const T v = x[i + j];
                    const T t = s[j] + v;
                    const T bb = t - s[j];
                    c[j] += (s[j] - (t - bb)) + (v - bb);
                    s[j] = t;
                }
            }
            Acc lane[reduce_lanes];
            for (int j = 0; j < reduce_lanes; ++j) lane[j] = Acc{s[j], c[j]};
            Acc acc = op(op(op(lane[0], lane[1]), op(lane[2], lane[3])),
                         op(op(lane[4], lane[5]), op(lane[6], lane[7])));
            for (; i < len; ++i) acc = op(acc, Acc{x[i], T(0)});
            return acc;
        }
    }
    if constexpr (lane_reduce_v<Acc, In, Op, F>) {
        if (hi - lo >= 2 * reduce_lanes) {
            const Acc* x = std::to_address(first) + lo;
            const std::int64_t len = hi - lo;
            Acc lane[reduce_lanes];
            for (int j = 0; j < reduce_lanes; ++j) lane[j] = x[j];
            std::int64_t i = reduce_lanes;
            for (; i + reduce_lanes <= len; i += reduce_lanes)
                for (int j = 0; j < reduce_lanes; ++j) lane[j] += x[i + j];
            Acc acc = ((lane[0] + lane[1]) + (lane[2] + lane[3])) +
                      ((lane[4] + lane[5]) + (lane[6] + lane[7]));
            for (; i < len; ++i) acc += x[i];
            return acc;
        }
    }
    Acc acc = f(first[lo]);
    for (std::int64_t i = lo + 1; i < hi; ++i) acc = op(std::move(acc), f(first[i]));
    return acc;
}

/// True for a compensated sum from contiguous T into contiguous T without a user transform: the
/// scan pass then runs in SIMD lanes (comp_scan_simd.hpp).
template <class Acc, class In, class Out, class Op, class F>
inline constexpr bool comp_simd_scan_v = false;
template <class T, class In, class Out, class F>
inline constexpr bool comp_simd_scan_v<comp_sum<T>, In, Out, comp_plus<T>, F> =
    comp_lane_reduce_v<comp_sum<T>, In, comp_plus<T>, F> && std::contiguous_iterator<Out> &&
    std::is_same_v<std::iter_value_t<Out>, T>;

/// Scans f(first[lo..hi)) into d_first[lo..hi). carry: the carry-in, or null (inclusive scan of
/// the first block without init). Reads x_i before writing out_i, so in place is fine.
template <bool Exclusive, class Acc, class In, class Out, class Op, class F>
void block_scan(In first, std::int64_t lo, std::int64_t hi, Out d_first, Op& op, F& f,
                const Acc* carry) {
#if SWEEP_COMP_SIMD
    if constexpr (comp_simd_scan_v<Acc, In, Out, Op, F>) {
        if (comp_simd::block_scan<Exclusive>(std::to_address(first) + lo,
                                             std::to_address(d_first) + lo, hi - lo, carry))
            return;
    }
#endif
    if constexpr (Exclusive) {
        Acc acc = *carry;
        for (std::int64_t i = lo; i < hi; ++i) {
            Acc next = op(acc, f(first[i]));
            d_first[i] = acc;
            acc = std::move(next);
        }
    } else {
        Acc acc = carry ? op(*carry, f(first[lo])) : Acc(f(first[lo]));
        d_first[lo] = acc;
        for (std::int64_t i = lo + 1; i < hi; ++i) {
            acc = op(acc, f(first[i]));
            d_first[i] = acc;
        }
    }
}

}  // namespace sweep::detail::tbb_backend
