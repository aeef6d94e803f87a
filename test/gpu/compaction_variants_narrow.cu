// test/gpu/compaction_variants_narrow.cu -- the bulk compaction path's tile geometries that are not
// the default (the two-stage kernel: support/compaction_variants.hpp) against seq, 1- and 2-byte
// values. The 4- and 8-byte values: compaction_variants_wide.cu (split for compile time).
#include "compaction_variants.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu compaction variants: int8", "[gpu][compaction][variants]") {
    check_all_variants<std::int8_t>(201);
}

TEST_CASE("gpu compaction variants: int16", "[gpu][compaction][variants]") {
    check_all_variants<std::uint16_t>(202);
}
