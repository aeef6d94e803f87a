// test/gpu/segmented_large.cu -- 64-bit sizes: int8 keys and int8 values, more than 2^31
// elements, on sweep::gpu against seq (by key, and int64 offsets). Needs about 6.5 GB of device
// memory and 11 GB of host memory; kept apart from the other GPU tests for that reason.
#include <cstdint>
#include <cstring>
#include <vector>

#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "segments.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu segmented scans: int8 past 2^31 elements", "[gpu][segmented_scan][large]") {
    const std::int64_t n = (std::int64_t{1} << 31) + 4099;
    if (sweep_test::skip_if_capped(n, "int8 segmented scans past 2^31")) return;
    auto g = sweep_test::rng(32000);
    // Values: random bytes. Keys: runs of random length 1..2000 (so segments cross the 2^31
    // boundary and tile edges), as int8 segment ids mod 100.
    std::vector<std::int8_t> x(static_cast<std::size_t>(n)), keys(x.size());
    for (std::size_t i = 0; i < x.size(); i += 8) {
        const std::uint64_t r = g();
        std::memcpy(x.data() + i, &r, std::min<std::size_t>(8, x.size() - i));
    }
    std::vector<std::int64_t> offsets{0};
    {
        std::int64_t i = 0;
        int id = 0;
        while (i < n) {
            const std::int64_t end = std::min(n, i + 1 + static_cast<std::int64_t>(g() % 2000));
            for (; i < end; ++i) keys[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(id);
            id = (id + 1) % 100;
            offsets.push_back(end);
        }
    }
    std::vector<std::int8_t> want(x.size());
    device_vector<std::int8_t> dx(x), dk(keys), out(x.size());

    auto* e = sweep::inclusive_scan_by_key(sweep::gpu, dk.begin(), dk.end(), dx.begin(), out.begin());
    CHECK(e == out.end());
    sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(), want.begin());
    CHECK(first_difference(out.download(), want) == -1);

    device_vector<std::int64_t> doff(offsets);
    out.poison();
    sweep::segmented_exclusive_scan(sweep::gpu, dx.begin(), dx.end(), out.begin(),
                                    sweep::offsets(doff.begin(), doff.end()), std::int8_t{3},
                                    sweep::maximum<>{});
    sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                    sweep::offsets(offsets.begin(), offsets.end()),
                                    std::int8_t{3}, sweep::maximum<>{});
    CHECK(first_difference(out.download(), want) == -1);
}
