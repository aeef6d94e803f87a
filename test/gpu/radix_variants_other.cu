// test/gpu/radix_variants_other.cu -- the ranking variants of the GPU radix sort that are not
// the default yet (see radix_variants_32.cu): 64-bit, 16-bit and 8-bit keys.
#include <cstdint>

#include "catch.hpp"
#include "radix_variant_check.hpp"

using namespace sweep_gpu_test;
namespace cu = sweep::detail::cuda;

namespace {
using all7_12 = cu::radix_tuning<8, 384, 12, 2, 256, 16, cu::radix_all_variants>;
using all7_16 = cu::radix_tuning<8, 384, 16, 2, 256, 16, cu::radix_all_variants>;
using ballot_only = cu::radix_tuning<8, 384, 16, 2, 256, 16, cu::radix_ballot_match>;
}  // namespace

TEST_CASE("gpu radix variant 7 (384 x 12): u64 keys", "[gpu][radix][variant]") {
    variant_matrix<all7_12, false, std::uint64_t>(711);
}
TEST_CASE("gpu radix variant 7 (384 x 12): double keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<all7_12, true, double>(712);
}
TEST_CASE("gpu radix variant 7 (384 x 16): i16 keys, u32 values", "[gpu][radix][variant]") {
    variant_matrix<all7_16, true, std::int16_t>(713);
}
TEST_CASE("gpu radix variant 1 (384 x 16): u8 keys", "[gpu][radix][variant]") {
    variant_matrix<ballot_only, false, std::uint8_t>(714);
}
