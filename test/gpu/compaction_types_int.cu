// test/gpu/compaction_types_int.cu -- copy_if (plain, stencil), partition_copy, stable_partition
// and partition on sweep::gpu against seq for every integer width, signed and unsigned: sizes at
// the tile edges, selectivities 0/1/50/99/100 % and random runs.
#include <cstdint>

#include "compaction_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu compaction: int8 and uint8", "[gpu][compaction][types]") {
    check_compaction_matrix<std::int8_t>(11);
    check_compaction_matrix<std::uint8_t>(12);
}
TEST_CASE("gpu compaction: int16 and uint16", "[gpu][compaction][types]") {
    check_compaction_matrix<std::int16_t>(13);
    check_compaction_matrix<std::uint16_t>(14);
}
TEST_CASE("gpu compaction: int32 and uint32", "[gpu][compaction][types]") {
    check_compaction_matrix<std::int32_t>(15);
    check_compaction_matrix<std::uint32_t>(16);
}
TEST_CASE("gpu compaction: int64 and uint64", "[gpu][compaction][types]") {
    check_compaction_matrix<std::int64_t>(17);
    check_compaction_matrix<std::uint64_t>(18);
}
