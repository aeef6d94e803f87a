// sweep/backend/seq/segmented_scan.hpp -- seq backend: the reference segmented scans (the oracle).
//
// One left-to-right loop; the accumulator restarts at every segment head. Inputs at index i are
// read before out[i] is written, so the output may be the values range (in place).
#pragma once

#include <cstdint>
#include <utility>

#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/detail/segments.hpp>

namespace sweep::detail {

// Scans [lo, hi) as one segment.
template <bool Exclusive, class Acc, class In, class Out, class Op, class Init>
void seq_scan_segment(In first, std::int64_t lo, std::int64_t hi, Out d_first, Op& op,
                      const Init& init) {
    if (lo == hi) return;
    if constexpr (Exclusive) {
        Acc acc = init;
        for (std::int64_t i = lo; i < hi; ++i) {
            Acc next = op(acc, first[i]);
            d_first[i] = acc;
            acc = std::move(next);
        }
    } else {
        Acc acc = [&]() -> Acc {
            if constexpr (has_init_v<Init>) return op(init, first[lo]);
            else return first[lo];
        }();
        d_first[lo] = acc;
        for (std::int64_t i = lo + 1; i < hi; ++i) {
            acc = op(acc, first[i]);
            d_first[i] = acc;
        }
    }
}

template <bool Exclusive, class Acc, class P, class In, class Out, class Heads, class Op,
          class Init>
Out segmented_scan(seq_tag, const P&, const char*, In first, std::int64_t n, Out d_first,
                   const Heads& heads, Op op, Init init) {
    std::int64_t lo = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
        if (i == n || heads.is_head(i)) {
            seq_scan_segment<Exclusive, Acc>(first, lo, i, d_first, op, init);
            lo = i;
        }
    }
    return d_first + n;
}

template <bool Exclusive, class Acc, class P, class In, class Out, class OffIt, class Op,
          class Init>
Out segmented_scan(seq_tag, const P&, const char* name, In first, std::int64_t n, Out d_first,
                   const offset_segments<OffIt>& segs, Op op, Init init) {
    validate_offsets(name, segs.first, segs.last, n);
    const auto count = static_cast<std::int64_t>(segs.last - segs.first);
    for (std::int64_t j = 0; j + 1 < count; ++j)
        seq_scan_segment<Exclusive, Acc>(first, static_cast<std::int64_t>(segs.first[j]),
                                         static_cast<std::int64_t>(segs.first[j + 1]), d_first, op,
                                         init);
    return d_first + n;
}

}  // namespace sweep::detail
