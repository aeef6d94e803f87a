// test/gpu/radix_variants_lean_other.cu -- the session-4 ranking variants of the GPU radix sort
// (see radix_variants_lean_32.cu): 64-bit, 16-bit and 8-bit keys. The padding key of a partial
// last tile is built per key family (all ordered bits set after the descending complement: a NaN
// for floats), so every family is checked in both directions.
#include <cstdint>

#include "catch.hpp"
#include "radix_variant_check.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {
constexpr int lean = cu::radix_lean_variants;  // 31
using lean_384x12x2 = cu::radix_tuning<8, 384, 12, 2, 256, 16, lean>;
using lean_256x12x4 = cu::radix_tuning<8, 256, 12, 4, 256, 16, lean>;
using lean_384x12x3 = cu::radix_tuning<8, 384, 12, 3, 256, 16, lean>;
using lean_384x16x2 = cu::radix_tuning<8, 384, 16, 2, 256, 16, lean>;
using lean_10bit = cu::radix_tuning<10, 256, 16, 2, 256, 16, lean>;
// Session 19: the look-back window and the histogram's counters in parts (16 for 8-byte keys,
// 32 for 2-byte keys).
using window_parts_384x12x3 =
    cu::radix_tuning<8, 384, 12, 3, 1024, 16,
                     lean | cu::radix_lookback_window | cu::radix_hist_parts>;
using lean_rank_384x12x3 =
    cu::radix_tuning<8, 384, 12, 3, 1024, 16,
                     lean | cu::radix_lookback_window | cu::radix_hist_parts |
                         cu::radix_lean_rank>;
}  // namespace

// Session 20: radix_lean_rank on 8- and 2-byte keys (not their default).
TEST_CASE("gpu radix variant 447 (384 x 12, 3/SM, lean rank): i64 keys; u16 keys, u32 values",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_384x12x3, false, std::int64_t>(3133);
    variant_matrix<lean_rank_384x12x3, true, std::uint16_t>(3134);
}

TEST_CASE("gpu radix variant 191 (384 x 12, 3/SM, window 4, histogram parts): i64 keys",
          "[gpu][radix][variant]") {
    variant_matrix<window_parts_384x12x3, false, std::int64_t>(3120);
}
TEST_CASE("gpu radix variant 191 (384 x 12, 3/SM, window 4, histogram parts): u16 keys",
          "[gpu][radix][variant]") {
    variant_matrix<window_parts_384x12x3, false, std::uint16_t>(3121);
}
// A device that cannot give a block the parts' shared memory (sm_86/89: 99 KB) sorts with a
// histogram of one part: the same path, forced here by capping the limit at 48 KB.
TEST_CASE("gpu radix variant 191, histogram without room for its parts: i64 keys, u16 keys",
          "[gpu][radix][variant]") {
    struct cap {
        cap() { cu::radix_hist_smem_cap_for_tests = 48 * 1024; }
        ~cap() { cu::radix_hist_smem_cap_for_tests = 0; }
    } const capped;
    static_assert(window_parts_384x12x3::hist_smem_bytes(8) > 48 * 1024);
    static_assert(window_parts_384x12x3::hist_smem_bytes(2) > 48 * 1024);
    variant_matrix<window_parts_384x12x3, false, std::int64_t>(3122);
    variant_matrix<window_parts_384x12x3, true, std::uint16_t>(3123);
}

TEST_CASE("gpu radix variant 31 (384 x 12): u64 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_384x12x2, false, std::uint64_t>(3111);
}
TEST_CASE("gpu radix variant 31 (384 x 12): double keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x12x2, true, double>(3112);
}
TEST_CASE("gpu radix variant 31 (384 x 12, 3/SM): u64 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x12x3, true, std::uint64_t>(3118);
}
TEST_CASE("gpu radix variant 31 (256 x 12, 4/SM): i64 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_256x12x4, false, std::int64_t>(3113);
}
TEST_CASE("gpu radix variant 31 (384 x 16): i16 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x2, true, std::int16_t>(3114);
}
TEST_CASE("gpu radix variant 31 (384 x 16): u8 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x2, false, std::uint8_t>(3115);
}
TEST_CASE("gpu radix variant 31 (384 x 16): i8 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x2, true, std::int8_t>(3116);
}
TEST_CASE("gpu radix variant 31 (10-bit digits, 256 x 16): u64 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_10bit, false, std::uint64_t>(3117);
}
