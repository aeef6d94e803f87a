// test/gpu/scan_large.cu -- 64-bit sizes: an int8 scan of more than 2^31 elements on sweep::gpu,
// against seq. Needs about 4.3 GB of device memory and 6.5 GB of host memory.
#include <cstdint>
#include <cstring>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu scans: int8 past 2^31 elements", "[gpu][scan][large]") {
    const std::int64_t n = (std::int64_t{1} << 31) + 4099;
    if (sweep_test::skip_if_capped(n, "int8 scans past 2^31")) return;
    auto g = sweep_test::rng(31);
    std::vector<std::int8_t> h(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < h.size(); i += 8) {
        const std::uint64_t r = g();
        std::memcpy(h.data() + i, &r, std::min<std::size_t>(8, h.size() - i));
    }
    device_vector<std::int8_t> in(h);
    device_vector<std::int8_t> out(h.size());
    std::vector<std::int8_t> want(h.size());

    auto* e = sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin());
    CHECK(e == out.end());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    CHECK(out.download() == want);

    out.poison();
    sweep::exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(), std::int8_t{3},
                          sweep::maximum<>{});
    sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), std::int8_t{3},
                          sweep::maximum<>{});
    CHECK(out.download() == want);
}
