// test/gpu/radix_variants_lean_32.cu -- the session-4 ranking variants of the GPU radix sort
// (tuning/radix_tuning.cuh: radix_padded_tile, radix_pred_ballot; perf/notes-gpu.md R3) and the
// shapes the tune run measures them at (3 and 4 blocks per SM), 32-bit keys: the same contract as
// the default (bitwise equal to seq, stable, both directions, every input pattern at the tile
// edges of each shape), so that the device run that times them also proves them correct. The
// padded tile matters at the sizes with a partial last tile (t + 1, 2t - 1, 2t + 1, 37t + 11).
#include <cstdint>

#include "catch.hpp"
#include "radix_variant_check.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {
constexpr int lean = cu::radix_lean_variants;  // 31
using lean_384x16x2 = cu::radix_tuning<8, 384, 16, 2, 256, 16, lean>;
using lean_384x16x3 = cu::radix_tuning<8, 384, 16, 3, 256, 16, lean>;
using lean_256x16x4 = cu::radix_tuning<8, 256, 16, 4, 256, 16, lean>;
using lean_384x19x3 = cu::radix_tuning<8, 384, 19, 3, 256, 16, lean>;  // CUB's u32 shape
using padded_only = cu::radix_tuning<8, 384, 16, 2, 256, 16,
                                     cu::radix_all_variants | cu::radix_padded_tile>;  // 15
using pred_only = cu::radix_tuning<8, 384, 16, 2, 256, 16,
                                   cu::radix_all_variants | cu::radix_pred_ballot>;  // 23
// Session 19: the look-back window (4 words a step) on the u32 shape, and with the histogram's
// counters in parts (1024 histogram threads).
using window_384x19x3 =
    cu::radix_tuning<8, 384, 19, 3, 256, 16, lean | cu::radix_lookback_window>;
using window_parts_384x19x3 =
    cu::radix_tuning<8, 384, 19, 3, 1024, 16,
                     lean | cu::radix_lookback_window | cu::radix_hist_parts>;
// Session 20: + radix_lean_rank (the default of 4-byte keys alone: 447), and with values.
using lean_rank_384x19x3 =
    cu::radix_tuning<8, 384, 19, 3, 1024, 16,
                     lean | cu::radix_lookback_window | cu::radix_hist_parts |
                         cu::radix_lean_rank>;
using lean_rank_pairs_384x16x3 =
    cu::radix_tuning<8, 384, 16, 3, 1024, 16,
                     lean | cu::radix_hist_parts | cu::radix_lean_rank>;
// radix_lean_rank without the padded tile (partial tiles take the bounded ranking, whose lanes past
// the end are not ok): on v7 (263, what SWEEP_RADIX_DEFAULT_VARIANT=7 gives 4-byte keys alone)
// and on early counts alone (258: __match_any_sync), at 2 blocks an SM (digits kept, not fresh).
using lean_rank_v7_384x16x2 =
    cu::radix_tuning<8, 384, 16, 2, 256, 16, cu::radix_all_variants | cu::radix_lean_rank>;
using lean_rank_match_384x16x2 =
    cu::radix_tuning<8, 384, 16, 2, 256, 16, cu::radix_early_counts | cu::radix_lean_rank>;
// The best row of the session-3 tune run (not in the variant tests before).
using v7_256x16x3 = cu::radix_tuning<8, 256, 16, 3, 256, 16, cu::radix_all_variants>;
}  // namespace

TEST_CASE("gpu radix variant 31 (384 x 16, 2/SM): u32 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x2, false, std::uint32_t>(3101);
}
TEST_CASE("gpu radix variant 31 (384 x 16, 2/SM): u32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x2, true, std::uint32_t>(3102);
}
TEST_CASE("gpu radix variant 31 (384 x 16, 3/SM): u32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_384x16x3, true, std::uint32_t>(3103);
}
TEST_CASE("gpu radix variant 31 (384 x 19, 3/SM): u32 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_384x19x3, false, std::uint32_t>(3109);
}
TEST_CASE("gpu radix variant 31 (256 x 16, 4/SM): float keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<lean_256x16x4, true, float>(3104);
}
TEST_CASE("gpu radix variant 31 (256 x 16, 4/SM): i32 keys", "[gpu][radix][variant]") {
    variant_matrix<lean_256x16x4, false, std::int32_t>(3105);
}
TEST_CASE("gpu radix variant 15 (384 x 16): float keys", "[gpu][radix][variant]") {
    variant_matrix<padded_only, false, float>(3106);
}
TEST_CASE("gpu radix variant 23 (384 x 16): i32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<pred_only, true, std::int32_t>(3107);
}
TEST_CASE("gpu radix variant 7 (256 x 16, 3/SM): u32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<v7_256x16x3, true, std::uint32_t>(3108);
}
TEST_CASE("gpu radix variant 63 (384 x 19, 3/SM, look-back window): u32 keys",
          "[gpu][radix][variant]") {
    variant_matrix<window_384x19x3, false, std::uint32_t>(3110);
}
TEST_CASE("gpu radix variant 191 (384 x 19, 3/SM, window 4, histogram parts): u32 keys",
          "[gpu][radix][variant]") {
    variant_matrix<window_parts_384x19x3, false, std::uint32_t>(3112);
}
TEST_CASE("gpu radix variant 447 (384 x 19, 3/SM, window, parts, lean rank): u32 keys",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_384x19x3, false, std::uint32_t>(3130);
}
TEST_CASE("gpu radix variant 447 (384 x 19, 3/SM, window, parts, lean rank): float keys",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_384x19x3, false, float>(3131);
}
TEST_CASE("gpu radix variant 415 (384 x 16, 3/SM, parts, lean rank): i32 keys, u32 values",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_pairs_384x16x3, true, std::int32_t>(3132);
}
TEST_CASE("gpu radix variant 263 (384 x 16, 2/SM, v7 + lean rank): u32 keys; i32 + u32 pairs",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_v7_384x16x2, false, std::uint32_t>(3135);
    variant_matrix<lean_rank_v7_384x16x2, true, std::int32_t>(3136);
}
TEST_CASE("gpu radix variant 258 (384 x 16, 2/SM, early counts + lean rank): float keys",
          "[gpu][radix][variant]") {
    variant_matrix<lean_rank_match_384x16x2, false, float>(3137);
}
