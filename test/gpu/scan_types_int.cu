// test/gpu/scan_types_int.cu -- every scan signature on sweep::gpu against seq, integer types
// of 8 to 64 bits, at sizes around the tile edges.
#include <cstdint>

#include "scan_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu scans: int8_t", "[gpu][scan][types]") {
    check_all_signatures<std::int8_t>(sweep::maximum<>{}, twice{}, 1);
}
TEST_CASE("gpu scans: uint8_t", "[gpu][scan][types]") {
    check_all_signatures<std::uint8_t>(sweep::minimum<>{}, twice{}, 2);
}
TEST_CASE("gpu scans: int16_t", "[gpu][scan][types]") {
    check_all_signatures<std::int16_t>(sweep::maximum<>{}, twice{}, 3);
}
TEST_CASE("gpu scans: int32_t", "[gpu][scan][types]") {
    check_all_signatures<std::int32_t>(sweep::maximum<>{}, twice{}, 4);
}
TEST_CASE("gpu scans: uint32_t", "[gpu][scan][types]") {
    check_all_signatures<std::uint32_t>(sweep::plus<>{}, twice{}, 5);
}
TEST_CASE("gpu scans: int64_t", "[gpu][scan][types]") {
    check_all_signatures<std::int64_t>(sweep::minimum<>{}, twice{}, 6);
}
