// test/gpu/radix_variants_32.cu -- the ranking variants of the GPU radix sort that are not the
// default yet (tuning/radix_tuning.cuh: ballot match, early counts, unrolled scatter), 32-bit
// keys: the same contract as the default (bitwise equal to seq, stable), so that the device run
// that measures them (bench_gpu_radix tune) also proves them correct.
#include <cstdint>

#include "catch.hpp"
#include "radix_variant_check.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {
using all7 = cu::radix_tuning<8, 384, 16, 2, 256, 16, cu::radix_all_variants>;
using early = cu::radix_tuning<8, 384, 16, 2, 256, 16,
                               cu::radix_ballot_match | cu::radix_early_counts>;
using cub_shape = cu::radix_tuning<8, 384, 23, 1, 256, 16, cu::radix_all_variants>;
}  // namespace

TEST_CASE("gpu radix variant 7 (384 x 16): u32 keys", "[gpu][radix][variant]") {
    variant_matrix<all7, false, std::uint32_t>(701);
}
TEST_CASE("gpu radix variant 7 (384 x 16): u32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<all7, true, std::uint32_t>(702);
}
TEST_CASE("gpu radix variant 7 (384 x 16): float keys", "[gpu][radix][variant]") {
    variant_matrix<all7, false, float>(703);
}
TEST_CASE("gpu radix variant 3 (384 x 16): i32 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<early, true, std::int32_t>(704);
}
TEST_CASE("gpu radix variant 7 (384 x 23, CUB's shape): u32 keys", "[gpu][radix][variant]") {
    variant_matrix<cub_shape, false, std::uint32_t>(705);
}
