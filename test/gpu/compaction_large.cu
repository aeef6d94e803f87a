// test/gpu/compaction_large.cu -- 64-bit counts: int8 stream compaction of more than 2^31
// elements on sweep::gpu, with more than 2^31 kept (and, for partition_copy, more than 2^31
// rejected), against seq. Needs about 7 GB of device memory and 9 GB of host memory.
#include <cstdint>
#include <cstring>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/partition.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {
// 2^31 + 2^24 + 5 random bytes: about 1/256 of them are zero, so "!= 0" keeps about 2^31 + 8.3M
// (past 2^31) and "== 0" rejects as many.
constexpr std::int64_t large_n = (std::int64_t{1} << 31) + (std::int64_t{1} << 24) + 5;

std::vector<std::int8_t> random_bytes(std::int64_t n, std::uint64_t salt) {
    auto g = sweep_test::rng(salt);
    std::vector<std::int8_t> h(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < h.size(); i += 8) {
        const std::uint64_t r = g();
        std::memcpy(h.data() + i, &r, std::min<std::size_t>(8, h.size() - i));
    }
    return h;
}

bool equal_prefix(const std::vector<std::int8_t>& got, const std::vector<std::int8_t>& want,
                  std::int64_t k) {
    return std::memcmp(got.data(), want.data(), static_cast<std::size_t>(k)) == 0;
}
}  // namespace

TEST_CASE("gpu compaction: int8 past 2^31 elements, counts past 2^31", "[gpu][compaction][large]") {
    if (sweep_test::skip_if_capped(large_n, "int8 compaction past 2^31")) return;
    const auto h = random_bytes(large_n, 41);
    device_vector<std::int8_t> in(h);
    std::vector<std::int8_t> want(h.size()), want_f;
    const sweep::not_equal_to_value<std::int8_t> nonzero_byte{0};
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), nonzero_byte) -
                   want.begin();
    REQUIRE(k > (std::int64_t{1} << 31));

    SECTION("copy_if") {
        device_vector<std::int8_t> out(h.size());
        auto* e = sweep::copy_if(sweep::gpu, in.begin(), in.end(), out.begin(), nonzero_byte);
        CHECK(e - out.begin() == k);
        CHECK(equal_prefix(out.download(), want, k));
    }
    SECTION("partition_copy, more than 2^31 on either side") {
        device_vector<std::int8_t> a(h.size()), b(h.size());
        want_f.resize(h.size());
        sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(),
                              nonzero_byte);
        auto [et, ef] =
            sweep::partition_copy(sweep::gpu, in.begin(), in.end(), a.begin(), b.begin(), nonzero_byte);
        CHECK(et - a.begin() == k);
        CHECK(ef - b.begin() == large_n - k);
        CHECK(equal_prefix(a.download(), want, k));
        CHECK(equal_prefix(b.download(), want_f, large_n - k));

        // The other way round: more than 2^31 rejected.
        const sweep::equal_to_value<std::int8_t> zero_byte{0};
        auto [et2, ef2] =
            sweep::partition_copy(sweep::gpu, in.begin(), in.end(), a.begin(), b.begin(), zero_byte);
        CHECK(et2 - a.begin() == large_n - k);
        CHECK(ef2 - b.begin() == k);
        CHECK(equal_prefix(b.download(), want, k));
    }
    SECTION("stable_partition in place") {
        auto stable = h;
        sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), nonzero_byte);
        auto* m = sweep::stable_partition(sweep::gpu, in.begin(), in.end(), nonzero_byte);
        CHECK(m - in.begin() == k);
        CHECK(in.download() == stable);
    }
}
