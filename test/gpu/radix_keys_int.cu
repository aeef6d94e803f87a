// test/gpu/radix_keys_int.cu -- sweep::gpu radix_sort of integer keys (8 to 64 bits, signed and
// unsigned), ascending and descending, every input pattern at the tile edges, against seq.
#include <cstdint>

#include "catch.hpp"
#include "radix_matrix.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu radix_sort: u32 keys", "[gpu][radix][keys]") { radix_matrix<std::uint32_t>(101); }
TEST_CASE("gpu radix_sort: i32 keys", "[gpu][radix][keys]") { radix_matrix<std::int32_t>(102); }
TEST_CASE("gpu radix_sort: u8 keys", "[gpu][radix][keys]") { radix_matrix<std::uint8_t>(103); }
TEST_CASE("gpu radix_sort: i8 keys", "[gpu][radix][keys]") { radix_matrix<std::int8_t>(104); }
TEST_CASE("gpu radix_sort: u16 keys", "[gpu][radix][keys]") { radix_matrix<std::uint16_t>(105); }
TEST_CASE("gpu radix_sort: i16 keys", "[gpu][radix][keys]") { radix_matrix<std::int16_t>(106); }
TEST_CASE("gpu radix_sort: u64 keys", "[gpu][radix][keys]") { radix_matrix<std::uint64_t>(107); }
TEST_CASE("gpu radix_sort: i64 keys", "[gpu][radix][keys]") { radix_matrix<std::int64_t>(108); }
