// sweep/detail/canonical_segmented.hpp -- shared by every backend: deterministic inclusive
// by-key and head-flag scans as a plain scan over (value, head) pairs.
//
// With the segmented operator (Blelloch 1990, sec. 1.5)
//     (a, fa) . (b, fb) = fb ? (b, fb) : (a op b, fa)
// an inclusive segmented scan is a plain inclusive scan over pairs, so `.deterministic()` runs it
// through the plain scan's canonical tree (detail/canonical.hpp) on every backend: the same bits
// on seq, par and gpu. The input is an index (index_iterator) that seg_load turns into the pair
// (values[i], is_head(i)); the output takes the pair's value (seg_pair's conversion).
// Exclusive forms: the pairs (head ? init : x_{i-1}, head) (seg_load_exclusive). Explicit
// offsets: turned into head flags first, then the same (segmented_scan.hpp).
#pragma once

#include <cstdint>
#include <iterator>
#include <type_traits>

#include <sweep/detail/config.hpp>
#include <sweep/detail/segments.hpp>

namespace sweep::detail {

template <class Acc>
struct seg_pair {
    Acc v;
    unsigned char head;

    /// The output of the scan: the value (rounded, for compensated pairs).
    template <class U>
    SWEEP_HD constexpr operator U() const {
        return static_cast<U>(v);
    }
};

template <class Op, class Acc>
struct seg_op {
    mutable Op op;
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
    SWEEP_HD seg_pair<Acc> operator()(const seg_pair<Acc>& a, const seg_pair<Acc>& b) const {
        if (b.head) return b;
        return seg_pair<Acc>{static_cast<Acc>(op(a.v, b.v)), a.head};
    }
};

/// 0, 1, 2, ...: the input of the pair scan (random access; usable on host and device).
struct index_iterator {
    using value_type = std::int64_t;
    using difference_type = std::int64_t;
    using reference = std::int64_t;
    using pointer = void;
    using iterator_category = std::random_access_iterator_tag;
    std::int64_t i = 0;
    SWEEP_HD constexpr std::int64_t operator[](std::int64_t k) const { return i + k; }
    SWEEP_HD constexpr std::int64_t operator*() const { return i; }
    SWEEP_HD constexpr index_iterator operator+(std::int64_t k) const { return {i + k}; }
};

/// i -> (values[i] as Acc, whether i starts a segment).
template <class Acc, class ValIt, class Heads>
struct seg_load {
    ValIt values;
    Heads heads;
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
    SWEEP_HD seg_pair<Acc> operator()(std::int64_t i) const {
        return seg_pair<Acc>{static_cast<Acc>(values[i]),
                             static_cast<unsigned char>(heads.is_head(i) ? 1 : 0)};
    }
};

/// The exclusive forms: i -> (head ? init : values[i-1], head). Its inclusive pair scan is the
/// exclusive segmented scan (the init enters at each head). values[i-1] crosses into the previous
/// canonical tile at a tile's first element; with the output in place that element may already
/// hold an output, so those inputs are read before the scan (`boundary[t - 1]` = the input before
/// tile t) whenever `boundary` is given.
template <class Acc, class ValIt, class Heads, class BoundaryIt>
struct seg_load_exclusive {
    ValIt values;
    Heads heads;
    Acc init;
    BoundaryIt boundary;  // null: read values[i - 1] everywhere
    std::int64_t tile;
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
    SWEEP_HD seg_pair<Acc> operator()(std::int64_t i) const {
        if (heads.is_head(i)) return seg_pair<Acc>{init, 1};  // i == 0 is always a head
        if (boundary && i % tile == 0)
            return seg_pair<Acc>{static_cast<Acc>(boundary[i / tile - 1]), 0};
        return seg_pair<Acc>{static_cast<Acc>(values[i - 1]), 0};
    }
};

template <class Segs>
inline constexpr bool is_head_form_v = false;
template <class KeyIt, class KeyEq>
inline constexpr bool is_head_form_v<key_heads<KeyIt, KeyEq>> = true;
template <class FlagIt>
inline constexpr bool is_head_form_v<flag_heads<FlagIt>> = true;

/// The offsets form: with `.deterministic()` its offsets become head flags first (one byte an
/// element; segmented_scan.hpp), and the head-flag form's pair scan runs on them.
template <class Segs>
inline constexpr bool is_offsets_form_v = false;
template <class OffIt>
inline constexpr bool is_offsets_form_v<offset_segments<OffIt>> = true;

}  // namespace sweep::detail
