// test/gpu/per_thread_stream.cu -- compiled with nvcc --default-stream=per-thread (test/
// gpu_tests.cmake): calls without .on(s) launch on this thread's default stream, and must still
// wait for it before they return (API.md: synchronous, as in the standard library). The library's
// own host code (src/cuda) is compiled with the legacy default stream, where 0 names another
// stream: the calls pass it the stream they launched on (runtime.hpp launch_stream). Added in
// session 9 after a review found the mismatch (a copy_if could have read its count before the
// kernel wrote it); the check that proves each call finished: the per-thread stream is idle when
// the call returns, and the results are right.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/radix_sort.hpp>
#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "scan_matrix.hpp"

#if !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "test/gpu/per_thread_stream.cu must be compiled with --default-stream=per-thread"
#endif

using namespace sweep_gpu_test;

TEST_CASE("gpu calls without a stream are synchronous under per-thread default streams",
          "[gpu][stream]") {
    const std::int64_t n = std::max<std::int64_t>(sweep_test::capped(std::int64_t{1} << 24), 100003);
    auto g = sweep_test::rng(950);
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = static_cast<std::int32_t>(g() % 100000);
    device_vector<std::int32_t> in(h), out(h.size());
    INFO("n = " << n << ", seed " << sweep_test::seed());

    sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin());
    CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaSuccess);
    std::vector<std::int32_t> want(h.size());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    CHECK(first_mismatch(out.download(), want) == -1);

    auto small = [] __host__ __device__(std::int32_t x) { return x < 30000; };
    const std::int64_t kept =
        sweep::copy_if(sweep::gpu, in.begin(), in.end(), out.begin(), small) - out.begin();
    CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaSuccess);
    const auto expect_kept = std::count_if(h.begin(), h.end(), [](std::int32_t x) { return x < 30000; });
    CHECK(kept == expect_kept);

    std::vector<std::int64_t> offs{0};
    for (std::int64_t i = 1; i < n; ++i)
        if (g() % 100 == 0) offs.push_back(i);
    offs.push_back(n);
    device_vector<std::int64_t> d_offs(offs);
    sweep::segmented_inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(),
                                    sweep::offsets(d_offs.begin(), d_offs.end()));
    CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaSuccess);
    sweep::segmented_inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(),
                                    sweep::offsets(offs.begin(), offs.end()));
    CHECK(first_mismatch(out.download(), want) == -1);

    sweep::radix_sort(sweep::gpu, in.begin(), in.end());
    CHECK(cudaStreamQuery(cudaStreamPerThread) == cudaSuccess);
    std::sort(h.begin(), h.end());
    CHECK(first_mismatch(in.download(), h) == -1);
}
