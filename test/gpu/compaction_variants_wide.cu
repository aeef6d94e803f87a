// test/gpu/compaction_variants_wide.cu -- the bulk compaction path's tile geometries that are not
// the default (the two-stage kernel: support/compaction_variants.hpp) against seq, 4- and 8-byte
// values. The 1- and 2-byte values: compaction_variants_narrow.cu (split for compile time).
#include "compaction_variants.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu compaction variants: int32", "[gpu][compaction][variants]") {
    check_all_variants<std::int32_t>(203);
}

TEST_CASE("gpu compaction variants: int64", "[gpu][compaction][variants]") {
    check_all_variants<std::uint64_t>(204);
}
