// test/gpu/scan_semantics.cu -- sweep::gpu scans beyond the type matrix: non-commutative
// operators, in place, Thrust iterators, misaligned pointers, real-valued float sums, streams from
// several host threads, graph capture, user memory resources, and the errors API.md promises.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sweep/scan.hpp>

#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"
#include "scan_matrix.hpp"

using namespace sweep_gpu_test;

namespace {

template <class T, class Op>
void check_noncommutative(Op op, std::uint64_t salt) {
    for (const std::int64_t n : scan_edge_sizes<T>()) {
        auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n));
        const auto h = random_values<T>(static_cast<std::size_t>(n), g);
        device_vector<T> in(h), out(h.size());
        std::vector<T> want(h.size());
        const T init = sample_init<T>();
        INFO("n = " << n);

        sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(), op);
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op);
        CHECK(first_mismatch(out.download(), want) == -1);

        out.poison();
        sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(), op, init);
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op, init);
        CHECK(first_mismatch(out.download(), want) == -1);

        out.poison();
        sweep::exclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin(), init, op);
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, op);
        CHECK(first_mismatch(out.download(), want) == -1);
    }
}

}  // namespace

TEST_CASE("gpu scans: non-commutative operators", "[gpu][scan]") {
    SECTION("2x2 matrix product, 16 bytes (split tile state)") {
        check_noncommutative<mat2>(mat2_product{}, 100);
    }
    SECTION("affine maps, 8 bytes (128-bit tile state)") {
        check_noncommutative<affine>(affine_then{}, 200);
    }
}

TEST_CASE("gpu scans: in place", "[gpu][scan]") {
    auto g = sweep_test::rng(300);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{5000}, sweep_test::capped(std::int64_t{1} << 21)}) {
        INFO("n = " << n);
        {
            const auto h = random_values<std::int32_t>(n, g);
            device_vector<std::int32_t> d(h);
            std::vector<std::int32_t> want(h.size());
            sweep::inclusive_scan(sweep::gpu, d.begin(), d.end(), d.begin());
            sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
            CHECK(first_mismatch(d.download(), want) == -1);
        }
        {
            const auto h = random_values<mat2>(n, g);
            device_vector<mat2> d(h);
            std::vector<mat2> want(h.size());
            sweep::exclusive_scan(sweep::gpu, d.begin(), d.end(), d.begin(), mat2{1, 0, 0, 1},
                                  mat2_product{});
            sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), mat2{1, 0, 0, 1},
                                  mat2_product{});
            CHECK(first_mismatch(d.download(), want) == -1);
        }
        {
            const auto h = random_values<triple>(n, g);
            device_vector<triple> d(h);
            std::vector<triple> want(h.size());
            sweep::transform_inclusive_scan(sweep::gpu, d.begin(), d.end(), d.begin(),
                                            sweep::plus<>{}, twice{});
            sweep::transform_inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(),
                                            sweep::plus<>{}, twice{});
            CHECK(first_mismatch(d.download(), want) == -1);
        }
    }
}

TEST_CASE("gpu scans: misaligned pointers take the element-wise path", "[gpu][scan]") {
    auto g = sweep_test::rng(400);
    const std::int64_t n = sweep_test::capped(1 << 20);
    const auto h = random_values<std::int8_t>(n + 8, g);
    device_vector<std::int8_t> in(h), out(h.size());
    std::vector<std::int8_t> want(h.size());
    for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; b += 3) {
            INFO("input offset " << a << ", output offset " << b);
            out.poison();
            sweep::inclusive_scan(sweep::gpu, in.begin() + a, in.begin() + a + n, out.begin() + b);
            sweep::inclusive_scan(sweep::seq, h.begin() + a, h.begin() + a + n, want.begin() + b);
            const auto got = out.download();
            CHECK(std::equal(got.begin() + b, got.begin() + b + n, want.begin() + b));
        }
    }
}

TEST_CASE("gpu scans: Thrust iterators", "[gpu][scan][thrust]") {
    auto g = sweep_test::rng(500);
    const std::int64_t n = sweep_test::capped(777'777);
    const auto h = random_values<std::int32_t>(n, g);
    std::vector<std::int64_t> want(n);

    thrust::device_vector<std::int32_t> dv(h.begin(), h.end());
    thrust::device_vector<std::int64_t> dout(n);

    SECTION("device_vector iterators") {
        auto e = sweep::inclusive_scan(sweep::gpu, dv.begin(), dv.end(), dout.begin(),
                                       sweep::plus<>{}, std::int64_t{3});
        CHECK(e == dout.end());
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), sweep::plus<>{},
                              std::int64_t{3});
        std::vector<std::int64_t> got(n);
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(got == want);
    }
    SECTION("device_ptr") {
        auto first = dv.data();
        sweep::exclusive_scan(sweep::gpu, first, first + n, dout.data(), std::int64_t{-5});
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), std::int64_t{-5});
        std::vector<std::int64_t> got(n);
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(got == want);
    }
    SECTION("counting, constant and transform iterators") {
        thrust::counting_iterator<std::int64_t> c(10);
        sweep::inclusive_scan(sweep::gpu, c, c + n, dout.begin());
        std::vector<std::int64_t> got(n), iota(n);
        for (std::int64_t i = 0; i < n; ++i) iota[i] = 10 + i;
        sweep::inclusive_scan(sweep::seq, iota.begin(), iota.end(), want.begin());
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(got == want);

        thrust::constant_iterator<std::int64_t> k(3);
        sweep::exclusive_scan(sweep::gpu, k, k + n, dout.begin(), std::int64_t{1});
        thrust::copy(dout.begin(), dout.end(), got.begin());
        for (std::int64_t i = 0; i < n; ++i) want[i] = 1 + 3 * i;
        CHECK(got == want);

        auto t = thrust::make_transform_iterator(dv.begin(), twice{});
        sweep::inclusive_scan(sweep::gpu, t, t + n, dout.begin(), sweep::plus<>{},
                              std::int64_t{0});
        std::vector<std::int64_t> h2(n);
        for (std::int64_t i = 0; i < n; ++i) h2[i] = 2 * h[i];
        sweep::inclusive_scan(sweep::seq, h2.begin(), h2.end(), want.begin());
        thrust::copy(dout.begin(), dout.end(), got.begin());
        CHECK(got == want);
    }
}

TEST_CASE("gpu scans: real-valued float sums within rounding of seq", "[gpu][scan]") {
    auto g = sweep_test::rng(600);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    const std::int64_t n = sweep_test::capped(3'000'017);
    std::vector<float> h(n);
    for (auto& x : h) x = d(g);
    device_vector<float> in(h), out(h.size());
    std::vector<float> want(n);
    sweep::inclusive_scan(sweep::gpu, in.begin(), in.end(), out.begin());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    const auto got = out.download();
    // Both are within i * eps * sum|x| of the exact prefix (Higham, 4.2); allow that bound, with
    // eps = 2^-24, against the running sum of magnitudes.
    double mag = 0;
    std::int64_t bad = -1;
    for (std::int64_t i = 0; i < n && bad < 0; ++i) {
        mag += std::fabs(h[i]);
        const double tol = 2.0 * (std::log2(double(i) + 2) + 64) * 0x1p-24 * mag + 1e-6;
        if (std::fabs(double(got[i]) - double(want[i])) > tol) bad = i;
    }
    INFO("first index out of tolerance: " << bad);
    CHECK(bad == -1);
}

namespace {
/// A user resource on cudaMallocAsync that counts what it hands out.
struct counting_resource {
    std::atomic<long> live{0}, calls{0};
    void* allocate(std::size_t bytes, std::size_t, cudaStream_t s) {
        void* p = nullptr;
        if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) throw std::bad_alloc();
        ++live;
        ++calls;
        return p;
    }
    void deallocate(void* p, std::size_t, std::size_t, cudaStream_t s) {
        cudaFreeAsync(p, s);
        --live;
    }
};
struct failing_resource {
    void* allocate(std::size_t, std::size_t, cudaStream_t) { return nullptr; }
    void deallocate(void*, std::size_t, std::size_t, cudaStream_t) {}
};
}  // namespace

TEST_CASE("gpu scans: several host threads, each on its own stream", "[gpu][scan][streams]") {
    constexpr int threads = 4;
    std::vector<std::thread> pool;
    std::atomic<int> failures{0};
    counting_resource res;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([t, &failures, &res] {
            cudaStream_t s;
            cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
            auto g = sweep_test::rng(700 + t);
            for (int round = 0; round < 6; ++round) {
                const std::int64_t n = sweep_test::capped((std::int64_t{1} << 18) * (round + 1) + t);
                const auto h = random_values<std::int64_t>(n, g);
                device_vector<std::int64_t> in(h), a(n), b(n);
                // Enqueue two scans, the second reading the first's output, without a sync
                // between: the calls return once enqueued and run in stream order.
                sweep::inclusive_scan(sweep::gpu.on(s), in.begin(), in.end(), a.begin());
                if (round % 2) {
                    sweep::exclusive_scan(sweep::gpu.on(s).with(res), a.begin(), a.end(),
                                          b.begin(), std::int64_t{1}, sweep::maximum<>{});
                } else {
                    sweep::exclusive_scan(sweep::gpu.on(s), a.begin(), a.end(), b.begin(),
                                          std::int64_t{1}, sweep::maximum<>{});
                }
                cuda_ok(cudaStreamSynchronize(s), "sync");
                std::vector<std::int64_t> wa(n), wb(n);
                sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), wa.begin());
                sweep::exclusive_scan(sweep::seq, wa.begin(), wa.end(), wb.begin(),
                                      std::int64_t{1}, sweep::maximum<>{});
                if (a.download() != wa || b.download() != wb) ++failures;
            }
            cudaStreamDestroy(s);
        });
    }
    for (auto& th : pool) th.join();
    CHECK(failures == 0);
    CHECK(res.live == 0);
    CHECK(res.calls > 0);
}

TEST_CASE("gpu scans: two to four tiles, in one block and on the look-back kernel", "[gpu][scan]") {
    // With a user resource (no clean arena) two to four tiles run in one block that walks them
    // in turn, allocating nothing; with the default resource they take the look-back kernel on
    // the stream's arena (dispatch/scan.cuh). Both against seq, with a non-commutative operator.
    cudaStream_t s;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    counting_resource res;
    auto g = sweep_test::rng(870);
    auto run = [&](auto tag, auto op, std::int64_t tile) {
        using T = decltype(tag);
        const std::int64_t sb = tile * sweep::detail::cuda::single_block_max_tiles;
        for (const std::int64_t n : {tile + 1, 2 * tile, 3 * tile - 1, sb - 1, sb}) {
            const auto h = random_values<T>(static_cast<std::size_t>(n), g);
            device_vector<T> in(h), a(h.size()), b(h.size());
            const T init = sample_init<T>();
            sweep::exclusive_scan(sweep::gpu.on(s).with(res), in.begin(), in.end(), a.begin(), init, op);
            sweep::exclusive_scan(sweep::gpu.on(s), in.begin(), in.end(), b.begin(), init, op);
            cuda_ok(cudaStreamSynchronize(s), "sync");
            std::vector<T> want(h.size());
            sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, op);
            INFO("n = " << n << ", tile = " << tile << ", seed " << sweep_test::seed());
            CHECK(first_mismatch(a.download(), want) == -1);
            CHECK(first_mismatch(b.download(), want) == -1);
        }
    };
    run(std::int32_t{}, sweep::plus<>{}, tile_of<std::int32_t>());
    run(affine16{}, affine16_then{}, tile_of<affine16>());
    run(mat2{}, mat2_product{}, tile_of<mat2>());
    CHECK(res.calls == 0);  // the one-block path takes no temporary
    cudaStreamDestroy(s);
}

TEST_CASE("gpu scans: captured into a CUDA graph and replayed", "[gpu][scan][graph]") {
    // A replay repeats the same kernel arguments and the same temporary addresses: the tile
    // states must be reset by the graph itself (the memset node), not by luck.
    const std::int64_t n = sweep_test::capped((std::int64_t{1} << 20) + 3);
    auto g = sweep_test::rng(800);
    auto h = random_values<std::int32_t>(n, g);
    device_vector<std::int32_t> in(h), out(n);
    cudaStream_t s;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaGraph_t graph;
    cuda_ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
    sweep::inclusive_scan(sweep::gpu.on(s), in.begin(), in.end(), out.begin(), sweep::plus<>{},
                          std::int32_t{9});
    cuda_ok(cudaStreamEndCapture(s, &graph), "end capture");
    cudaGraphExec_t exec;
    cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    std::vector<std::int32_t> want(n);
    for (int replay = 0; replay < 3; ++replay) {
        h = random_values<std::int32_t>(n, g);
        in.upload(h);
        out.poison();
        cuda_ok(cudaGraphLaunch(exec, s), "launch");
        cuda_ok(cudaStreamSynchronize(s), "sync");
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), sweep::plus<>{},
                              std::int32_t{9});
        INFO("replay " << replay);
        CHECK(first_mismatch(out.download(), want) == -1);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
}

TEST_CASE("gpu scans: errors", "[gpu][scan][errors]") {
    std::vector<int> host(1000, 1);
    device_vector<int> dev(1000);
    SECTION("host memory is std::invalid_argument") {
        CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, host.data(), host.data() + 1000, dev.data()),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, dev.data(), dev.data() + 1000, host.data()),
                        std::invalid_argument);
        int* pinned = nullptr;
        cuda_ok(cudaMallocHost(&pinned, 1000 * sizeof(int)), "cudaMallocHost");
        CHECK_THROWS_AS(sweep::exclusive_scan(sweep::gpu, pinned, pinned + 1000, dev.data(), 0),
                        std::invalid_argument);
        cudaFreeHost(pinned);
    }
    SECTION("the message names the public algorithm, transform scans included") {
        auto message = [](auto&& call) -> std::string {
            try {
                call();
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "(no exception)";
        };
        const auto twice = [] __host__ __device__(int x) { return 2 * x; };
        const std::string a = message([&] {
            sweep::transform_inclusive_scan(sweep::gpu, host.data(), host.data() + 1000, dev.data(),
                                            sweep::plus<>{}, twice);
        });
        const std::string b = message([&] {
            sweep::transform_exclusive_scan(sweep::gpu, dev.data(), dev.data() + 1000, host.data(), 0,
                                            sweep::plus<>{}, twice);
        });
        const std::string c = message(
            [&] { sweep::exclusive_scan(sweep::gpu, host.data(), host.data() + 1000, dev.data(), 0); });
        INFO(a << " | " << b << " | " << c);
        CHECK(a.rfind("sweep::transform_inclusive_scan:", 0) == 0);
        CHECK(b.rfind("sweep::transform_exclusive_scan:", 0) == 0);
        CHECK(c.rfind("sweep::exclusive_scan:", 0) == 0);
    }
    SECTION("host container iterators are rejected at compile time") {
        STATIC_REQUIRE(sweep::detail::cuda::is_known_host_iterator_v<std::vector<int>::iterator>);
        STATIC_REQUIRE(
            sweep::detail::cuda::is_known_host_iterator_v<std::vector<int>::const_iterator>);
        STATIC_REQUIRE(!sweep::detail::cuda::is_known_host_iterator_v<int*>);
        STATIC_REQUIRE(!sweep::detail::cuda::is_known_host_iterator_v<
                       thrust::device_vector<int>::iterator>);
    }
    SECTION("no temporary memory is std::bad_alloc, before any output is written") {
        failing_resource none;
        // At least 8 tiles under any size cap: four or fewer run in one block with no temporary.
        const std::int64_t n = std::max<std::int64_t>(sweep_test::capped(1 << 22), 8 * 4096 + 1);
        device_vector<int> in(n), out(n);
        const auto before = out.download();
        CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu.with(none), in.begin(), in.end(), out.begin()),
                        std::bad_alloc);
        CHECK(out.download() == before);
    }
    SECTION("n = 0 touches nothing and returns d_first") {
        CHECK(sweep::inclusive_scan(sweep::gpu, host.data(), host.data(), host.data()) == host.data());
    }
}
