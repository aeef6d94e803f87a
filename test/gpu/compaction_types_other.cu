// test/gpu/compaction_types_other.cu -- copy_if (plain, stencil), partition_copy,
// stable_partition and partition on sweep::gpu against seq for float, double, a 16-byte and a
// 24-byte struct: sizes at the tile edges, selectivities 0/1/50/99/100 % and random runs.
#include "compaction_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu compaction: float and double", "[gpu][compaction][types]") {
    check_compaction_matrix<float>(21);
    check_compaction_matrix<double>(22);
}
TEST_CASE("gpu compaction: 16-byte struct", "[gpu][compaction][types]") {
    check_compaction_matrix<vec4>(23);
}
TEST_CASE("gpu compaction: 24-byte struct", "[gpu][compaction][types]") {
    check_compaction_matrix<triple>(24);
}
