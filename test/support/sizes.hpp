// test/support/sizes.hpp -- host tests: the input sizes, chosen at block edges.
//
// The par backend works in fixed blocks of 2^15 elements (backend/tbb: scan_block,
// compaction_block, partition_block) and assigns partition work in units of 8 blocks (2^18), in
// tiles of 256/512 elements; sweep::automatic switches from seq to par at 2^15
// (detail::automatic_seq_below). The sizes cover every power of two +-1 from 2^10 to 2^20 (one
// block +-1, a unit +-1, 32 blocks), a ragged 3 blocks +-1 and 9 blocks + 1, and a few million
// (~92 blocks: many per worker, ragged last block). Kept as a list, not derived from the backend's
// constants, so a change of block size shows up here as a review item, not silently.
#pragma once

#include <cstdint>
#include <vector>

namespace sweep_test {

/// The largest size any host test uses (generators.hpp keeps sums exact up to it).
inline constexpr std::int64_t max_size = 3'500'001;

/// Empty, tiny, and just around small powers of two.
inline std::vector<std::int64_t> small_sizes() {
    return {0, 1, 2, 3, 7, 31, 32, 33, 255, 256, 257};
}

/// Every power of two +-1 from 2^10 to 2^20, and ragged multiples of the 2^15 block.
inline std::vector<std::int64_t> block_edge_sizes() {
    std::vector<std::int64_t> s;
    for (int e = 10; e <= 20; ++e) {
        const std::int64_t p = std::int64_t{1} << e;
        s.insert(s.end(), {p - 1, p, p + 1});
    }
    s.insert(s.end(), {3 * 32768 - 1, 3 * 32768 + 1, 9 * 32768 + 1});
    return s;
}

/// A few million, not a power of two: many blocks per worker, a ragged last block.
inline std::vector<std::int64_t> large_sizes() { return {3'000'017, max_size}; }

/// The full list: small + block edges + large. For the one main type of each algorithm.
inline std::vector<std::int64_t> all_sizes() {
    auto s = small_sizes();
    for (auto x : block_edge_sizes()) s.push_back(x);
    for (auto x : large_sizes()) s.push_back(x);
    return s;
}

/// A short representative list for the type-family cross products: empty, tiny, around 2^10,
/// past the automatic threshold, and one ragged size of many blocks.
inline std::vector<std::int64_t> family_sizes() {
    return {0, 1, 2, 33, 1023, 1024, 1025, 65537, 262143};
}

}  // namespace sweep_test
