// test/gpu/scan_types_float.cu -- every scan signature on sweep::gpu against seq for float and
// double. Inputs are small integers, so every association gives the same sums and the results
// are compared exactly; scan_semantics.cu compares real-valued sums with a tolerance.
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu scans: float", "[gpu][scan][types]") {
    check_all_signatures<float>(sweep::maximum<>{}, twice{}, 11);
}
TEST_CASE("gpu scans: double", "[gpu][scan][types]") {
    check_all_signatures<double>(sweep::plus<>{}, twice{}, 12);
}
