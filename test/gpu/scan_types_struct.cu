// test/gpu/scan_types_struct.cu -- every scan signature on sweep::gpu against seq for a 16-byte
// and a 24-byte struct (the split tile-state layout), with user operators.
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;

namespace {
struct vec4_plus {
    __host__ __device__ vec4 operator()(const vec4& a, const vec4& b) const { return a + b; }
};
struct triple_plus {
    __host__ __device__ triple operator()(const triple& a, const triple& b) const { return a + b; }
};
}  // namespace

TEST_CASE("gpu scans: 16-byte struct", "[gpu][scan][types]") {
    check_all_signatures<vec4>(vec4_plus{}, twice{}, 21);
}
TEST_CASE("gpu scans: 24-byte struct", "[gpu][scan][types]") {
    check_all_signatures<triple>(triple_plus{}, twice{}, 22);
}
