// test/gpu/large_sizes.cu -- past 2^32 elements (issue 9): one int8 inclusive scan of 2^32 + 1000
// elements on sweep::gpu (about 8.6 GB of device memory: in and out), checked in full. The input
// x[i] = i mod 251 has a closed-form prefix (the sum mod 256), so the check streams the output back
// in chunks instead of keeping an 4 GB oracle on the host. Skipped, saying so, where the device has
// not the memory or SWEEP_TEST_MAX_N caps the sizes. (Past 2^31 for every GPU algorithm:
// test/gpu/scan_large.cu, compaction_large.cu, segmented_large.cu.)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"

using namespace sweep_gpu_test;

TEST_CASE("gpu scans: int8 past 2^32 elements", "[gpu][scan][large]") {
    const std::int64_t n = (std::int64_t{1} << 32) + 1000;
    if (std::getenv("SWEEP_TEST_MAX_N") != nullptr) {
        std::printf("SKIPPED (SWEEP_TEST_MAX_N is set): int8 scan past 2^32\n");
        return;
    }
    std::size_t free_b = 0, total_b = 0;
    cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    const auto need = static_cast<std::size_t>(2 * n + (std::int64_t{1} << 30));
    if (free_b < need) {
        std::printf("SKIPPED (%zu bytes free, %zu needed): int8 scan past 2^32\n", free_b, need);
        WARN("skipped: not enough device memory");
        return;
    }
    std::int8_t *in = nullptr, *out = nullptr;
    cuda_ok(cudaMalloc(&in, static_cast<std::size_t>(n)), "cudaMalloc");
    cuda_ok(cudaMalloc(&out, static_cast<std::size_t>(n)), "cudaMalloc");
    const std::size_t chunk = std::size_t{251} << 20;  // a multiple of 251: one pattern serves all
    std::vector<std::int8_t> buf(chunk);
    for (std::size_t i = 0; i < chunk; ++i) buf[i] = static_cast<std::int8_t>(i % 251);
    for (std::int64_t o = 0; o < n; o += static_cast<std::int64_t>(chunk))
        cuda_ok(cudaMemcpy(in + o, buf.data(),
                           static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(chunk), n - o)),
                           cudaMemcpyHostToDevice),
                "H2D");
    cuda_ok(cudaMemset(out, 0xA5, static_cast<std::size_t>(n)), "memset");
    std::int8_t* e = sweep::inclusive_scan(sweep::gpu, static_cast<const std::int8_t*>(in),
                                           static_cast<const std::int8_t*>(in) + n, out,
                                           sweep::plus<std::int8_t>{});
    CHECK(e == out + n);
    std::int64_t bad = -1;
    std::uint8_t acc = 0;
    for (std::int64_t o = 0; o < n && bad < 0; o += static_cast<std::int64_t>(chunk)) {
        const auto len = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(chunk), n - o));
        cuda_ok(cudaMemcpy(buf.data(), out + o, len, cudaMemcpyDeviceToHost), "D2H");
        for (std::size_t i = 0; i < len; ++i) {
            acc = static_cast<std::uint8_t>(acc + static_cast<std::uint8_t>(i % 251));
            if (static_cast<std::uint8_t>(buf[i]) != acc) {
                bad = o + static_cast<std::int64_t>(i);
                break;
            }
        }
    }
    std::printf("int8 scan of %lld elements (2^32 + 1000): first mismatch %lld\n",
                static_cast<long long>(n), static_cast<long long>(bad));
    CHECK(bad == -1);
    cudaFree(in);
    cudaFree(out);
}
