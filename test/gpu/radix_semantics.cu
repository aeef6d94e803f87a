// test/gpu/radix_semantics.cu -- sweep::gpu radix sorts beyond the type matrix: stability
// spelled out, Thrust device_vector iterators and device_ptr, managed memory, streams
// (asynchronous with .on(s), several host threads), memory resources (every byte given back),
// misaligned ranges, the errors API.md promises (host memory, last < first, no temporary
// memory: std::bad_alloc before anything is written), and repeated concurrent sorts checked in
// O(n) (look-back races).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>

#include <sweep/errors.hpp>
#include <sweep/radix_sort.hpp>

#include "catch.hpp"
#include "radix_matrix.hpp"

using namespace sweep_gpu_test;

namespace {
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

std::vector<std::uint32_t> iota_values(std::int64_t n) {
    std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i);
    return v;
}
}  // namespace

TEST_CASE("gpu radix_sort_by_key: stability spelled out", "[gpu][radix][semantics]") {
    // Keys 0..9 repeated: the values of equal keys must come out in input order, both ways.
    const std::int64_t n = std::min<std::int64_t>(300'007, radix_max_n());
    std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<std::int32_t>((i * 7) % 10) - 5;
    for (const bool desc : {false, true}) {
        INFO((desc ? "descending" : "ascending") << ", n " << n);
        device_vector<std::int32_t> dk(keys);
        device_vector<std::uint32_t> dv(iota_values(n));
        if (desc) sweep::radix_sort_by_key(sweep::gpu, dk.begin(), dk.end(), dv.begin(), sweep::descending);
        else sweep::radix_sort_by_key(sweep::gpu, dk.begin(), dk.end(), dv.begin());
        const auto k = dk.download();
        const auto v = dv.download();
        std::int64_t bad = -1;
        for (std::int64_t i = 1; i < n && bad < 0; ++i) {
            const bool order_ok = desc ? k[i - 1] >= k[i] : k[i - 1] <= k[i];
            const bool stable_ok = k[i - 1] != k[i] || v[i - 1] < v[i];
            const bool value_ok = keys[v[i]] == k[i];
            if (!order_ok || !stable_ok || !value_ok) bad = i;
        }
        INFO("first bad index " << bad);
        CHECK(bad < 0);
    }
}

TEST_CASE("gpu radix_sort: Thrust iterators, device_ptr, managed memory", "[gpu][radix][semantics]") {
    auto g = sweep_test::rng(501);
    const std::int64_t n = std::min<std::int64_t>(200'003, radix_max_n());
    const auto h = make_keys<std::int64_t>(pattern::uniform, n, g);
    auto want = h;
    sweep::radix_sort(sweep::seq, want.begin(), want.end());
    {
        thrust::device_vector<std::int64_t> d(h.begin(), h.end());
        sweep::radix_sort(sweep::gpu, d.begin(), d.end());
        std::vector<std::int64_t> got(h.size());
        thrust::copy(d.begin(), d.end(), got.begin());
        CHECK(got == want);
    }
    {
        device_vector<std::int64_t> d(h);
        thrust::device_ptr<std::int64_t> p(d.data());
        sweep::radix_sort(sweep::gpu, p, p + n);
        CHECK(d.download() == want);
    }
    {
        std::int64_t* m = nullptr;
        cuda_ok(cudaMallocManaged(&m, static_cast<std::size_t>(n) * sizeof(std::int64_t)), "managed");
        std::copy(h.begin(), h.end(), m);
        sweep::radix_sort(sweep::gpu, m, m + n);
        CHECK(std::equal(want.begin(), want.end(), m));
        cudaFree(m);
    }
    {
        // thrust::device_vector keys with thrust::device_vector values.
        thrust::device_vector<std::int64_t> dk(h.begin(), h.end());
        const auto iv = iota_values(n);
        thrust::device_vector<std::uint32_t> dv(iv.begin(), iv.end());
        sweep::radix_sort_by_key(sweep::gpu, dk.begin(), dk.end(), dv.begin(), sweep::descending);
        std::vector<std::int64_t> got(h.size());
        thrust::copy(dk.begin(), dk.end(), got.begin());
        auto want_d = h;
        sweep::radix_sort(sweep::seq, want_d.begin(), want_d.end(), sweep::descending);
        CHECK(got == want_d);
    }
}

TEST_CASE("gpu radix_sort: a sub-range, misaligned, leaves its neighbours alone",
          "[gpu][radix][semantics]") {
    auto g = sweep_test::rng(502);
    const std::int64_t n = std::min<std::int64_t>(100'000, radix_max_n());
    for (const std::int64_t off : {std::int64_t{1}, std::int64_t{3}}) {
        const auto h = make_keys<std::uint16_t>(pattern::uniform, n, g);
        device_vector<std::uint16_t> d(h);
        const std::int64_t len = n - 2 * off;
        sweep::radix_sort(sweep::gpu, d.begin() + off, d.begin() + off + len);
        auto want = h;
        sweep::radix_sort(sweep::seq, want.begin() + off, want.begin() + off + len);
        CHECK(d.download() == want);
    }
}

TEST_CASE("gpu radix_sort: .on(stream) is asynchronous and ordered on the stream; several host "
          "threads", "[gpu][radix][streams]") {
    constexpr int threads = 4;
    std::vector<std::thread> pool;
    std::atomic<int> failures{0};
    counting_resource res;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([t, &failures, &res] {
            cudaStream_t s;
            cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
            auto g = sweep_test::rng(510 + t);
            for (int round = 0; round < 4; ++round) {
                const std::int64_t n =
                    std::min((std::int64_t{1} << 18) * (round + 1) + 97 * t, radix_max_n());
                const auto h = make_keys<float>(pattern::edges, n, g);
                const auto iv = iota_values(n);
                device_vector<float> k(h);
                device_vector<std::uint32_t> v(iv);
                auto wk = h;
                auto wv = iv;
                sweep::radix_sort_by_key(sweep::seq, wk.begin(), wk.end(), wv.begin());
                // Two sorts back to back on the stream, no wait between: the second sorts the
                // first's result descending, with a resource.
                sweep::radix_sort_by_key(sweep::gpu.on(s), k.begin(), k.end(), v.begin());
                cuda_ok(cudaStreamSynchronize(s), "sync");
                bool ok = std::memcmp(k.download().data(), wk.data(), wk.size() * 4) == 0 &&
                          v.download() == wv;
                sweep::radix_sort_by_key(sweep::seq, wk.begin(), wk.end(), wv.begin(),
                                         sweep::descending);
                sweep::radix_sort_by_key(sweep::gpu.on(s), k.begin(), k.end(), v.begin());
                sweep::radix_sort_by_key(sweep::gpu.on(s).with(res), k.begin(), k.end(),
                                         v.begin(), sweep::descending);
                cuda_ok(cudaStreamSynchronize(s), "sync");
                ok = ok && std::memcmp(k.download().data(), wk.data(), wk.size() * 4) == 0 &&
                     v.download() == wv;
                if (!ok) ++failures;
            }
            cudaStreamDestroy(s);
        });
    }
    for (auto& th : pool) th.join();
    CHECK(failures == 0);
    CHECK(res.live == 0);
    CHECK(res.calls > 0);
}

TEST_CASE("gpu radix_sort: errors", "[gpu][radix][errors]") {
    std::vector<std::uint32_t> host(10000, 1);
    device_vector<std::uint32_t> dev(10000);
    SECTION("host memory is std::invalid_argument") {
        CHECK_THROWS_AS(sweep::radix_sort(sweep::gpu, host.data(), host.data() + 10000),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::radix_sort_by_key(sweep::gpu, host.data(), host.data() + 10000,
                                                 dev.data()),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::radix_sort_by_key(sweep::gpu, dev.data(), dev.data() + 10000,
                                                 host.data()),
                        std::invalid_argument);
        CHECK(host == std::vector<std::uint32_t>(10000, 1));
    }
    SECTION("last < first is std::invalid_argument") {
        CHECK_THROWS_AS(sweep::radix_sort(sweep::gpu, dev.data() + 1, dev.data()),
                        std::invalid_argument);
    }
    SECTION("no temporary memory is std::bad_alloc, before anything is written") {
        failing_resource none;
        auto g = sweep_test::rng(520);
        const std::int64_t n = std::min<std::int64_t>(1 << 20, radix_max_n());
        const auto h = make_keys<std::uint32_t>(pattern::uniform, n, g);
        device_vector<std::uint32_t> k(h), v(h);
        if (n > radix_tile_of<std::uint32_t>()) {
            CHECK_THROWS_AS(sweep::radix_sort(sweep::gpu.with(none), k.begin(), k.end()),
                            std::bad_alloc);
            CHECK_THROWS_AS(sweep::radix_sort_by_key(sweep::gpu.with(none), k.begin(), k.end(),
                                                     v.begin()),
                            std::bad_alloc);
        }
        CHECK(k.download() == h);
        CHECK(v.download() == h);
        // One tile is sorted in one block, with no temporary at all.
        sweep::radix_sort(sweep::gpu.with(none), k.begin(), k.begin() + 1000);
        auto want = h;
        sweep::radix_sort(sweep::seq, want.begin(), want.begin() + 1000);
        CHECK(k.download() == want);
    }
    SECTION("n = 0 touches nothing") {
        sweep::radix_sort(sweep::gpu, host.data(), host.data());
        sweep::radix_sort_by_key(sweep::gpu, host.data(), host.data(), host.data());
        CHECK(host == std::vector<std::uint32_t>(10000, 1));
    }
}

TEST_CASE("gpu radix_sort_by_key: repeated sorts, two streams at once (look-back races)",
          "[gpu][radix][stress]") {
    // Many tiles and many rounds, two sorts in flight on two streams so that the tiles of each
    // are scheduled unevenly. Checked in O(n) without a host sort: the values are the input
    // indices, so order, stability and "every key is the one at its value's index" (hence a
    // permutation) show together.
    const std::int64_t n = std::min<std::int64_t>((std::int64_t{1} << 22) + 12345, radix_max_n());
    cudaStream_t s[2];
    for (auto& x : s) cuda_ok(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking), "stream");
    auto g = sweep_test::rng(530);
    const auto iv = iota_values(n);
    for (int round = 0; round < 12; ++round) {
        const pattern p = round % 3 == 0 ? pattern::few : pattern::uniform;
        std::vector<std::uint32_t> h[2] = {make_keys<std::uint32_t>(p, n, g),
                                           make_keys<std::uint32_t>(pattern::low_entropy, n, g)};
        device_vector<std::uint32_t> k0(h[0]), k1(h[1]), v0(iv), v1(iv);
        const bool desc = round % 2 == 1;
        if (desc) {
            sweep::radix_sort_by_key(sweep::gpu.on(s[0]), k0.begin(), k0.end(), v0.begin(), sweep::descending);
            sweep::radix_sort_by_key(sweep::gpu.on(s[1]), k1.begin(), k1.end(), v1.begin(), sweep::descending);
        } else {
            sweep::radix_sort_by_key(sweep::gpu.on(s[0]), k0.begin(), k0.end(), v0.begin());
            sweep::radix_sort_by_key(sweep::gpu.on(s[1]), k1.begin(), k1.end(), v1.begin());
        }
        for (auto& x : s) cuda_ok(cudaStreamSynchronize(x), "sync");
        const std::vector<std::uint32_t> k[2] = {k0.download(), k1.download()};
        const std::vector<std::uint32_t> v[2] = {v0.download(), v1.download()};
        for (int which = 0; which < 2; ++which) {
            std::int64_t bad = -1;
            for (std::int64_t i = 0; i < n && bad < 0; ++i) {
                const std::uint32_t a = i > 0 ? k[which][i - 1] : 0, b = k[which][i];
                const bool value_ok = v[which][i] < n && h[which][v[which][i]] == b;
                const bool order_ok = i == 0 || (desc ? a > b : a < b) ||
                                      (a == b && v[which][i - 1] < v[which][i]);
                if (!value_ok || !order_ok) bad = i;
            }
            INFO("round " << round << ", stream " << which << (desc ? ", descending" : "")
                          << ", n " << n << ", seed " << sweep_test::seed()
                          << ", first bad index " << bad);
            CHECK(bad < 0);
        }
    }
    for (auto& x : s) cudaStreamDestroy(x);
}
