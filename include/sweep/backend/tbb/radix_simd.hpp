// sweep/backend/tbb/radix_simd.hpp -- par backend (oneTBB): AVX-512 versions of the radix sort's
// two in-cache bricks for 4-byte ordered bits without values (radix_bricks.hpp: count_digits and
// scatter_digit between bits sides), compiled once in the library (src/tbb/radix_simd.cpp, with
// the target attribute) and chosen at run time: the CPU must have AVX-512 F, CD and VPOPCNTDQ
// (Ice Lake and later Xeons, AMD Zen 4 and later). They were measured faster on an Emerald Rapids
// Xeon only (docs/radix_sort.md, session 22), so by default they run on Sapphire and Emerald Rapids
// cores (Intel family 6, models 143 and 207) and not elsewhere: gathers and scatters are slower on
// Zen 4 and on Ice Lake with the GDS microcode. Both give the scalar bricks' result exactly (a
// stable counting sort has one answer), so the choice never shows in a result.
// SWEEP_NO_RADIX_SIMD=1 when building the library leaves the vector bricks out.
//
// The method (Polychroniou, Raghavan and Ross, "Rethinking SIMD vectorization for in-memory
// databases", SIGMOD 2015): 16 keys at a time, their digits, VPCONFLICTD to count the lanes before
// each lane with the same digit, a gather of those digits' counters or offsets, a scatter of the
// keys to their places, and a scatter of the advanced counters (where lanes repeat a digit, the
// highest lane is written last and holds the total).
//
// A third brick is the parallel pass's survey of 4-byte keys (radix_sort.hpp: OR, AND,
// sortedness and the top digit's histogram of a chunk, keys read through the caller's codec).
//
// SWEEP_RADIX_AVX512 in the environment, read once: a bit mask of the bricks that take the vector
// path, 1 the counts, 2 the scatter, 4 the survey; 0 turns all off, 7 all on (any CPU with the
// instructions); for A/B runs on one binary. Unset or any other value: the default above.
#pragma once

#include <cstdint>

namespace sweep::detail::tbb_backend::radix::simd {

/// Which bricks take the AVX-512 path: bit 0 the counts, bit 1 the scatter, bit 2 the survey; 0
/// when the CPU lacks the instructions or the library was built without them.
unsigned mode() noexcept;

/// The mode a process starts with: SWEEP_RADIX_AVX512 when it holds 0-7, else 7 on the measured
/// CPUs (above) and 0 elsewhere; 0 without the instructions.
unsigned default_mode() noexcept;

/// Tests: the mode from now on, as if SWEEP_RADIX_AVX512 said so (still 0 without the CPU's
/// support); returns the previous one. Process-wide.
unsigned set_mode_for_tests(unsigned m) noexcept;

/// Tests: how often each vector brick has run since the first set_mode_for_tests (so that a test
/// can tell the vector path from a silent fall back to the scalar one); nothing is counted before.
struct brick_calls {
    std::uint64_t count, scatter, survey;
};
brick_calls calls_for_tests() noexcept;

/// Whether this CPU and build can take the AVX-512 path at all.
bool available() noexcept;

/// counts[j * stride + ((k[i] >> shift[j]) & mask[j])] += 1 for every i < n and j < digits
/// (stride * digits < 2^31; more than 8 digits take the scalar loop).
void count_u32(const std::uint32_t* k, std::int64_t n, int digits, const int* shift,
               const std::uint32_t* mask, std::int64_t stride, std::uint32_t* counts) noexcept;

/// The stable scatter: dst[off[x]++] = src[i], x = (src[i] >> shift) & mask, i < n, in order;
/// every position < 2^31.
void scatter_u32(const std::uint32_t* src, std::int64_t n, int shift, std::uint32_t mask,
                 std::uint32_t* dst, std::uint32_t* off) noexcept;

/// What a survey of one range found, accumulated over calls.
struct survey_acc32 {
    std::uint32_t or_all;
    std::uint32_t and_all;
    bool sorted;
};

/// The survey of words w[0, n): each key's ordered bits are u = enc(w) ^ flip, enc the identity,
/// or to_ordered of a float when is_float (radix_traits.hpp). acc.or_all |= u, acc.and_all &= u;
/// when check_sorted, acc.sorted becomes false unless prev <= u[0] <= u[1] <= ...; and
/// counts[(u >> shift) & mask] += 1.
void survey_u32(const void* w, std::int64_t n, bool is_float, std::uint32_t flip, int shift,
                std::uint32_t mask, bool check_sorted, std::uint32_t prev, std::uint32_t* counts,
                survey_acc32& acc) noexcept;

}  // namespace sweep::detail::tbb_backend::radix::simd
