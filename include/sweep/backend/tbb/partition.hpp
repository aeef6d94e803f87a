// sweep/backend/tbb/partition.hpp -- par backend (oneTBB): partition, in place and unstable,
// without a temporary.
//
// k = the number of elements that satisfy pred. Exactly as many "misplaced" elements sit on each
// side of k: falses in [0, k) and trues in [k, n). The i-th misplaced false (in index order) is
// swapped with the i-th misplaced true; everything else stays where it is. So the result is one
// fixed function of the input (not of the thread count), elements never leave the range (a
// throwing pred leaves a permutation of the input), and the work is three parallel phases:
//   1. count the trues of each block (reads n);
//   2. for each work unit (a run of left blocks, hence a range of misplaced ranks), find where its
//      first misplaced true lies: a short read-only scan inside one right block;
//   3. each unit gathers misplaced indices on both sides into small tiles, branch-free, and swaps.
// Phases 2 and 3 are separate so that no unit reads an element another unit is swapping.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <sweep/backend/tbb/arena.hpp>
#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/compaction_bricks.hpp>

namespace sweep::detail::tbb_backend {

/// Elements per counting block (the same 32K as the other passes).
inline constexpr std::int64_t partition_block = std::int64_t{1} << 15;
/// Left blocks per swap unit: phase 2 reads on average half a block per unit, so 8 blocks keep
/// that extra read near 1/16 of the left side while 2^27 inputs still give ~500 units.
inline constexpr std::int64_t partition_unit_blocks = 8;
/// Indices gathered per tile in phase 3: 2 x 256 x 8 bytes of stack, in L1.
inline constexpr int partition_tile = 256;

template <class It, class Pred>
std::int64_t swap_partition(int max_threads, It first, std::int64_t n, Pred& pred) {
    const block_grid grid{n, partition_block};
    const std::int64_t nb = grid.count();
    std::vector<std::int64_t> trues(testing::temporary_size(static_cast<std::size_t>(nb)));
    // LM and RM, exclusive.
    std::vector<std::int64_t> left_rank(testing::temporary_size(static_cast<std::size_t>(nb) + 1));
    std::vector<std::int64_t> right_rank(testing::temporary_size(static_cast<std::size_t>(nb) + 1));
    std::int64_t k = 0;
    std::int64_t m = 0;
    in_arena(max_threads, [&](int) {
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, nb),
                          [&](const tbb::blocked_range<std::int64_t>& r) {
                              for (std::int64_t b = r.begin(); b != r.end(); ++b)
                                  trues[static_cast<std::size_t>(b)] =
                                      block_count(first, grid.begin(b), grid.end(b), pred);
                          });
    });
    for (std::int64_t c : trues) k += c;
    if (k == 0 || k == n) return k;

    // Misplaced counts per block; only the block holding index k needs a partial recount.
    const std::int64_t s = k / partition_block;
    const std::int64_t trues_before_k = s < nb ? block_count(first, grid.begin(s), k, pred) : 0;
    for (std::int64_t b = 0; b < nb; ++b) {
        const auto i = static_cast<std::size_t>(b);
        std::int64_t lm = 0, rm = 0;
        if (grid.end(b) <= k) lm = (grid.end(b) - grid.begin(b)) - trues[i];
        else if (grid.begin(b) >= k) rm = trues[i];
        else {
            lm = (k - grid.begin(b)) - trues_before_k;
            rm = trues[i] - trues_before_k;
        }
        left_rank[i + 1] = left_rank[i] + lm;
        right_rank[i + 1] = right_rank[i] + rm;
    }
    m = left_rank[static_cast<std::size_t>(nb)];
    if (m == 0) return k;

    const std::int64_t left_blocks = (k + partition_block - 1) / partition_block;
    const std::int64_t units = (left_blocks + partition_unit_blocks - 1) / partition_unit_blocks;
    auto unit_rank = [&](std::int64_t u) {
        return left_rank[static_cast<std::size_t>(std::min(u * partition_unit_blocks, nb))];
    };
    // right_start[u]: index of the misplaced true of rank unit_rank(u); n past the last.
    std::vector<std::int64_t> right_start(
        testing::temporary_size(static_cast<std::size_t>(units) + 1), n);

    in_arena(max_threads, [&](int) {
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, units), [&](const auto& r) {
            for (std::int64_t u = r.begin(); u != r.end(); ++u) {
                const std::int64_t r0 = unit_rank(u);
                if (r0 >= m) continue;
                // The right block q with right_rank[q] <= r0 < right_rank[q + 1].
                const auto q = static_cast<std::int64_t>(
                    std::upper_bound(right_rank.begin(), right_rank.end(), r0) -
                    right_rank.begin() - 1);
                std::int64_t skip = r0 - right_rank[static_cast<std::size_t>(q)];
                std::int64_t i = std::max(grid.begin(q), k);
                for (;; ++i) {
                    if (pred(first[i])) {
                        if (skip == 0) break;
                        --skip;
                    }
                }
                right_start[static_cast<std::size_t>(u)] = i;
            }
        });
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, units), [&](const auto& r) {
            std::int64_t lidx[partition_tile];
            std::int64_t ridx[partition_tile];
            for (std::int64_t u = r.begin(); u != r.end(); ++u) {
                std::int64_t remaining = unit_rank(u + 1) - unit_rank(u);
                std::int64_t i = u * partition_unit_blocks * partition_block;
                const std::int64_t i_end =
                    std::min(k, (u + 1) * partition_unit_blocks * partition_block);
                std::int64_t j = right_start[static_cast<std::size_t>(u)];
                const std::int64_t j_end = right_start[static_cast<std::size_t>(u) + 1];
                int hl = 0, nl = 0, hr = 0, nr = 0;
                while (remaining > 0) {
                    if (hl == nl) {
                        hl = nl = 0;
                        const std::int64_t e = std::min(i + partition_tile, i_end);
                        for (; i < e; ++i) {
                            lidx[nl] = i;
                            nl += !static_cast<bool>(pred(first[i]));
                        }
                    }
                    if (hr == nr) {
                        hr = nr = 0;
                        const std::int64_t e = std::min(j + partition_tile, j_end);
                        for (; j < e; ++j) {
                            ridx[nr] = j;
                            nr += static_cast<bool>(pred(first[j]));
                        }
                    }
                    const std::int64_t c = std::min<std::int64_t>(
                        remaining, std::min(nl - hl, nr - hr));
                    for (std::int64_t x = 0; x < c; ++x) {
                        using std::swap;
                        swap(first[lidx[hl + x]], first[ridx[hr + x]]);
                    }
                    hl += static_cast<int>(c);
                    hr += static_cast<int>(c);
                    remaining -= c;
                }
            }
        });
    });
    return k;
}

}  // namespace sweep::detail::tbb_backend
