// test/gpu/radix_pairs.cu -- sweep::gpu radix_sort_by_key: keys with values of 2 to 100 bytes
// (the values record each key's input index, so stability shows bitwise), ascending and
// descending, every input pattern at the tile edges (of the pair's tuning), against seq.
#include <cstdint>
#include <random>

#include "catch.hpp"
#include "radix_matrix.hpp"

using namespace sweep_gpu_test;

namespace {
/// 12 bytes, 4-aligned: an index plus a checksum of it.
struct rec12 {
    std::uint32_t index, a, b;
    static rec12 from_index(std::int64_t i, std::mt19937_64& g) {
        return rec12{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(g()),
                     static_cast<std::uint32_t>(i * 2654435761u)};
    }
};
/// 24 bytes, 8-aligned.
struct rec24 {
    std::int64_t index;
    double x;
    std::uint64_t y;
    static rec24 from_index(std::int64_t i, std::mt19937_64& g) {
        return rec24{i, static_cast<double>(g() >> 11), g()};
    }
};
/// 100 bytes: a smaller tile (tuning/radix_tuning.cuh keeps a tile's values near 96 KB).
struct rec100 {
    std::uint32_t w[25];
    static rec100 from_index(std::int64_t i, std::mt19937_64& g) {
        rec100 r;
        for (auto& x : r.w) x = static_cast<std::uint32_t>(g());
        r.w[0] = static_cast<std::uint32_t>(i);
        return r;
    }
};
/// 2 bytes.
struct rec2 {
    std::uint8_t lo, hi;
    static rec2 from_index(std::int64_t i, std::mt19937_64&) {
        return rec2{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8)};
    }
};
}  // namespace

TEST_CASE("gpu radix_sort_by_key: u32 keys, u32 values", "[gpu][radix][pairs]") {
    radix_matrix<std::uint32_t, std::uint32_t>(301);
}
TEST_CASE("gpu radix_sort_by_key: u64 keys, u64 values", "[gpu][radix][pairs]") {
    radix_matrix<std::uint64_t, std::uint64_t>(302);
}
TEST_CASE("gpu radix_sort_by_key: float keys, u32 values", "[gpu][radix][pairs]") {
    radix_matrix<float, std::uint32_t>(303);
}
TEST_CASE("gpu radix_sort_by_key: double keys, i64 values", "[gpu][radix][pairs]") {
    radix_matrix<double, std::int64_t>(304);
}
TEST_CASE("gpu radix_sort_by_key: i8 keys, u32 values", "[gpu][radix][pairs]") {
    radix_matrix<std::int8_t, std::uint32_t>(305);
}
TEST_CASE("gpu radix_sort_by_key: i16 keys, 12-byte values", "[gpu][radix][pairs]") {
    radix_matrix<std::int16_t, rec12>(306);
}
TEST_CASE("gpu radix_sort_by_key: i32 keys, 24-byte values", "[gpu][radix][pairs]") {
    radix_matrix<std::int32_t, rec24>(307);
}
TEST_CASE("gpu radix_sort_by_key: u8 keys, 2-byte values", "[gpu][radix][pairs]") {
    radix_matrix<std::uint8_t, rec2>(308);
}
TEST_CASE("gpu radix_sort_by_key: u32 keys, 100-byte values", "[gpu][radix][pairs]") {
    radix_matrix<std::uint32_t, rec100>(309);
}
