// sweep/backend/tbb/compaction_bricks.hpp -- par backend (oneTBB): the serial leaf loops of
// stream compaction: count one block's kept elements, and copy them out (stable).
//
// The copy is branch-free for small trivially copyable types: each element is stored into a
// tile buffer on the stack and the write cursor advances by pred (0 or 1), then the tile's kept
// prefix is copied out. A 50%-kept random predicate otherwise costs one mispredicted branch every
// other element (~15 cycles), several times the memory time of the element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

namespace sweep::detail::tbb_backend {

/// Elements of a branch-free tile: 512 * 16 bytes = 8 KiB of stack per buffer, in L1.
inline constexpr std::int64_t compaction_tile = 512;

template <class T>
inline constexpr bool branch_free_v = std::is_trivially_copyable_v<T> &&
                                      std::is_default_constructible_v<T> && sizeof(T) <= 16;

/// Number of i in [lo, hi) with pred(stencil[i]).
template <class Stencil, class Pred>
std::int64_t block_count(Stencil stencil, std::int64_t lo, std::int64_t hi, Pred& pred) {
    std::int64_t c = 0;
    for (std::int64_t i = lo; i < hi; ++i) c += pred(stencil[i]) ? 1 : 0;
    return c;
}

/// Copies first[i] for i in [lo, hi) with pred(stencil[i]) to d_true in order, the others to
/// d_false (when WithFalse); returns both ends.
template <bool WithFalse, class In, class Stencil, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> block_split(In first, Stencil stencil, std::int64_t lo,
                                         std::int64_t hi, OutTrue d_true, OutFalse d_false,
                                         Pred& pred) {
    using T = typename std::iterator_traits<In>::value_type;
    if constexpr (branch_free_v<T>) {
        T yes[compaction_tile];
        [[maybe_unused]] T no[WithFalse ? compaction_tile : 1];
        for (std::int64_t t = lo; t < hi; t += compaction_tile) {
            const std::int64_t m = std::min(compaction_tile, hi - t);
            std::int64_t ky = 0;
            [[maybe_unused]] std::int64_t kn = 0;
            for (std::int64_t j = 0; j < m; ++j) {
                const T v = first[t + j];
                const bool keep = static_cast<bool>(pred(stencil[t + j]));
                yes[ky] = v;
                ky += keep;
                if constexpr (WithFalse) {
                    no[kn] = v;
                    kn += !keep;
                }
            }
            d_true = std::copy(yes, yes + ky, d_true);
            if constexpr (WithFalse) d_false = std::copy(no, no + kn, d_false);
        }
    } else {
        for (std::int64_t i = lo; i < hi; ++i) {
            if (pred(stencil[i])) {
                *d_true = first[i];
                ++d_true;
            } else if constexpr (WithFalse) {
                *d_false = first[i];
                ++d_false;
            }
        }
    }
    return {d_true, d_false};
}

}  // namespace sweep::detail::tbb_backend
