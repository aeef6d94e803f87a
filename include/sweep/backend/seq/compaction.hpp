// sweep/backend/seq/compaction.hpp -- seq backend: the reference stream compaction (the oracle).
//
// Plain left-to-right loops. Every algorithm here is stable, partition included, so the oracle's
// output is one well-defined function of the input.
#pragma once

#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>

namespace sweep::detail {

template <class P, class In, class Stencil, class Out, class Pred>
Out copy_if(seq_tag, const P&, In first, std::int64_t n, Stencil stencil, Out d_first,
            Pred pred) {
    for (std::int64_t i = 0; i < n; ++i) {
        if (pred(stencil[i])) {
            *d_first = first[i];
            ++d_first;
        }
    }
    return d_first;
}

template <class P, class In, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> partition_copy(seq_tag, const P&, In first, std::int64_t n,
                                            OutTrue d_true, OutFalse d_false, Pred pred) {
    for (std::int64_t i = 0; i < n; ++i) {
        if (pred(first[i])) {
            *d_true = first[i];
            ++d_true;
        } else {
            *d_false = first[i];
            ++d_false;
        }
    }
    return {d_true, d_false};
}

/// Returns the number of elements that satisfy pred. The rejected elements wait in a buffer
/// reserved up front, so std::bad_alloc comes before anything is moved.
template <class P, class It, class Pred>
std::int64_t stable_partition(seq_tag, const P&, It first, std::int64_t n, Pred pred) {
    std::vector<value_t<It>> rejected;
    rejected.reserve(static_cast<std::size_t>(n));
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        if (pred(first[i])) {
            if (kept != i) first[kept] = std::move(first[i]);
            ++kept;
        } else {
            rejected.push_back(std::move(first[i]));
        }
    }
    for (std::size_t j = 0; j < rejected.size(); ++j)
        first[kept + static_cast<std::int64_t>(j)] = std::move(rejected[j]);
    return kept;
}

template <class P, class It, class Pred>
std::int64_t partition(seq_tag t, const P& p, It first, std::int64_t n, Pred pred) {
    return stable_partition(t, p, first, n, pred);
}

}  // namespace sweep::detail
