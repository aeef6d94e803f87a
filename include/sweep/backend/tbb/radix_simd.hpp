// sweep/backend/tbb/radix_simd.hpp -- par backend (oneTBB): AVX-512 versions of the radix sort's
// two in-cache bricks for 4-byte ordered bits without values (radix_bricks.hpp: count_digits and
// scatter_digit between bits sides), compiled once in the library (src/tbb/radix_simd.cpp, with
// the target attribute) and chosen at run time: the CPU must have AVX-512 F, CD and VPOPCNTDQ
// (Ice Lake and later Xeons, AMD Zen 4 and later). Both give the scalar bricks' result exactly
// (a stable counting sort has one answer), so the choice never shows in a result.
//
// The method (Polychroniou, Raghavan and Ross, "Rethinking SIMD vectorization for in-memory
// databases", SIGMOD 2015): 16 keys at a time, their digits, VPCONFLICTD to count the lanes before
// each lane with the same digit, a gather of those digits' counters or offsets, a scatter of the
// keys to their places, and a scatter of the advanced counters (where lanes repeat a digit, the
// highest lane is written last and holds the total).
//
// SWEEP_RADIX_AVX512 in the environment, read once: 0 turns both off, 1 the counts only, 2 the
// scatter only, 3 (the default) both; for A/B runs on one binary.
#pragma once

#include <cstdint>

namespace sweep::detail::tbb_backend::radix::simd {

/// Which bricks take the AVX-512 path: bit 0 the counts, bit 1 the scatter; 0 when the CPU lacks
/// the instructions or the library was built without them.
unsigned mode() noexcept;

/// Tests: the mode from now on, as if SWEEP_RADIX_AVX512 said so (still 0 without the CPU's
/// support); returns the previous one. Process-wide.
unsigned set_mode_for_tests(unsigned m) noexcept;

/// Whether this CPU and build can take the AVX-512 path at all.
bool available() noexcept;

/// counts[j * stride + ((k[i] >> shift[j]) & mask[j])] += 1 for every i < n and j < digits
/// (digits <= 8, stride * digits < 2^31).
void count_u32(const std::uint32_t* k, std::int64_t n, int digits, const int* shift,
               const std::uint32_t* mask, std::int64_t stride, std::uint32_t* counts) noexcept;

/// The stable scatter: dst[off[x]++] = src[i], x = (src[i] >> shift) & mask, i < n, in order;
/// every position < 2^31.
void scatter_u32(const std::uint32_t* src, std::int64_t n, int shift, std::uint32_t mask,
                 std::uint32_t* dst, std::uint32_t* off) noexcept;

}  // namespace sweep::detail::tbb_backend::radix::simd
