// test/gpu/all_algorithms_host_compiled.cpp -- compiled by the host compiler, not nvcc: every
// algorithm of API.md called with sweep::gpu and with sweep::automatic on raw device pointers, for
// every built-in element type, runs on the kernels precompiled in the library and gives seq's
// results. Also: sweep::automatic on managed memory (host below automatic_managed_gpu_from, GPU
// from there), and a device pointer with an operator that has no precompiled kernel throws
// std::invalid_argument through sweep::automatic (it can run neither on the GPU from this file nor
// on the host).
//
// Radix sort: the GPU radix sort lands with its own issue. Its calls here are compiled when its
// precompiled kernels exist (<sweep/backend/cuda/radix_precompiled.hpp>); until then the test
// says so in its output and checks radix_sort through sweep::automatic on host data only.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <type_traits>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "random.hpp"
#include "size_cap.hpp"

#if defined(__CUDACC__)
#error "this test must be compiled by the host compiler"
#endif

#if defined(SWEEP_HAS_GPU_RADIX_SORT) && __has_include(<sweep/backend/cuda/radix_precompiled.hpp>)
#define SWEEP_TEST_GPU_RADIX 1
#else
#define SWEEP_TEST_GPU_RADIX 0
#endif

namespace {

template <class T>
struct dev {
    T* p = nullptr;
    explicit dev(std::size_t n) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) == cudaSuccess);
        // Defined bytes (0xA5): the downloads read whole buffers, also past what copy_if and the
        // partitions wrote (compute-sanitizer's initcheck reported those bytes uninitialized).
        REQUIRE(cudaMemset(p, 0xA5, (n ? n : 1) * sizeof(T)) == cudaSuccess);
    }
    explicit dev(const std::vector<T>& h) : dev(h.size()) {
        if (!h.empty())
            REQUIRE(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) ==
                    cudaSuccess);
    }
    dev(const dev&) = delete;
    dev& operator=(const dev&) = delete;
    ~dev() { cudaFree(p); }
};

template <class T>
std::vector<T> download(const T* p, std::size_t n) {
    std::vector<T> h(n);
    if (n) REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b, std::size_t k) {
    return k == 0 || std::memcmp(a.data(), b.data(), k * sizeof(T)) == 0;
}

template <class T>
std::vector<T> small_values(std::size_t n, std::mt19937_64& g) {
    std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -50 : 0, 50);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(g));
    return v;
}

/// Every algorithm on `policy` (sweep::gpu or sweep::automatic) over device copies of random
/// values of type T, against seq.
template <class T, class Policy>
void check_all(const Policy& policy, const char* policy_name, const char* type_name,
               std::uint64_t salt) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{4097}, std::size_t{250'001}}) {
        auto g = sweep_test::rng(salt + n);
        INFO("seed " << sweep_test::seed() << " salt " << salt << " policy " << policy_name
                     << " type " << type_name << " n " << n);
        const auto x = small_values<T>(n, g);
        std::vector<std::int32_t> keys(n);
        for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::int32_t>(i / 77);
        std::vector<std::int64_t> offs;
        for (std::size_t i = 0; i < n; i += 1 + g() % 200) offs.push_back(static_cast<std::int64_t>(i));
        offs.push_back(static_cast<std::int64_t>(n));
        std::vector<std::uint8_t> flags(n);
        for (auto& f : flags) f = g() % 50 == 0;

        dev<T> in(x), out(n), out2(n);
        dev<std::int32_t> dk(keys);
        dev<std::int64_t> d_off(offs);
        dev<std::uint8_t> df(flags);
        std::vector<T> want(n), want2(n);
        const auto ni = static_cast<std::ptrdiff_t>(n);
        const T init = static_cast<T>(3);

        // scans
        sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin());
        CHECK(sweep::inclusive_scan(policy, in.p, in.p + ni, out.p) == out.p + ni);
        CHECK(same_bits(download(out.p, n), want, n));
        sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), sweep::maximum<>{},
                              init);
        sweep::inclusive_scan(policy, in.p, in.p + ni, out.p, sweep::maximum<>{}, init);
        CHECK(same_bits(download(out.p, n), want, n));
        sweep::exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), init,
                              sweep::minimum<T>{});
        sweep::exclusive_scan(policy, in.p, in.p + ni, out.p, init, sweep::minimum<T>{});
        CHECK(same_bits(download(out.p, n), want, n));

        // stream compaction
        const auto pred = sweep::greater_than<T>{static_cast<T>(10)};
        const auto k = static_cast<std::size_t>(
            sweep::copy_if(sweep::seq, x.begin(), x.end(), want.begin(), pred) - want.begin());
        CHECK(sweep::copy_if(policy, in.p, in.p + ni, out.p, pred) ==
              out.p + static_cast<std::ptrdiff_t>(k));
        CHECK(same_bits(download(out.p, n), want, k));
        sweep::partition_copy(sweep::seq, x.begin(), x.end(), want.begin(), want2.begin(), pred);
        const auto [et, ef] = sweep::partition_copy(policy, in.p, in.p + ni, out.p, out2.p, pred);
        CHECK(et == out.p + static_cast<std::ptrdiff_t>(k));
        CHECK(ef == out2.p + static_cast<std::ptrdiff_t>(n - k));
        CHECK(same_bits(download(out.p, n), want, k));
        CHECK(same_bits(download(out2.p, n), want2, n - k));
        auto stable = x;
        sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);
        {
            dev<T> range(x);
            CHECK(sweep::stable_partition(policy, range.p, range.p + ni, pred) ==
                  range.p + static_cast<std::ptrdiff_t>(k));
            CHECK(same_bits(download(range.p, n), stable, n));
        }
        {
            dev<T> range(x);
            CHECK(sweep::partition(policy, range.p, range.p + ni, pred) ==
                  range.p + static_cast<std::ptrdiff_t>(k));
            const auto got = download(range.p, n);
            CHECK(std::all_of(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(k), pred));
            CHECK(std::none_of(got.begin() + static_cast<std::ptrdiff_t>(k), got.end(), pred));
            auto sorted_got = got;
            auto sorted_in = x;
            std::sort(sorted_got.begin(), sorted_got.end());
            std::sort(sorted_in.begin(), sorted_in.end());
            CHECK(same_bits(sorted_got, sorted_in, n));  // a permutation of the input
        }

        // segmented scans
        sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                     want.begin());
        sweep::inclusive_scan_by_key(policy, dk.p, dk.p + ni, in.p, out.p);
        CHECK(same_bits(download(out.p, n), want, n));
        sweep::exclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                     want.begin(), init, std::equal_to<>{}, sweep::maximum<>{});
        sweep::exclusive_scan_by_key(policy, dk.p, dk.p + ni, in.p, out.p, init,
                                     std::equal_to<>{}, sweep::maximum<>{});
        CHECK(same_bits(download(out.p, n), want, n));
        sweep::segmented_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::offsets(offs.begin(), offs.end()));
        sweep::segmented_inclusive_scan(policy, in.p, in.p + ni, out.p,
                                        sweep::offsets(d_off.p, d_off.p + offs.size()));
        CHECK(same_bits(download(out.p, n), want, n));
        sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::head_flags(flags.begin()), init,
                                        sweep::minimum<>{});
        sweep::segmented_exclusive_scan(policy, in.p, in.p + ni, out.p, sweep::head_flags(df.p),
                                        init, sweep::minimum<>{});
        CHECK(same_bits(download(out.p, n), want, n));

#if SWEEP_TEST_GPU_RADIX
        // radix sort (keys, and keys with 4-byte values)
        {
            auto sorted = x;
            sweep::radix_sort(sweep::seq, sorted.begin(), sorted.end());
            dev<T> kk(x);
            sweep::radix_sort(policy, kk.p, kk.p + ni);
            CHECK(same_bits(download(kk.p, n), sorted, n));
            std::vector<std::uint32_t> idx(n);
            for (std::size_t i = 0; i < n; ++i) idx[i] = static_cast<std::uint32_t>(i);
            auto sk = x;
            auto sv = idx;
            sweep::radix_sort_by_key(sweep::seq, sk.begin(), sk.end(), sv.begin(),
                                     sweep::descending);
            dev<T> kk2(x);
            dev<std::uint32_t> vv(idx);
            sweep::radix_sort_by_key(policy, kk2.p, kk2.p + ni, vv.p, sweep::descending);
            CHECK(same_bits(download(kk2.p, n), sk, n));
            CHECK(download(vv.p, n) == sv);
        }
#endif
    }
}

template <class T>
void check_type(const char* name, std::uint64_t salt) {
    check_all<T>(sweep::gpu, "sweep::gpu", name, salt);
    check_all<T>(sweep::automatic, "sweep::automatic", name, salt + 1);
}

}  // namespace

TEST_CASE("host-compiled: every algorithm on sweep::gpu and sweep::automatic, every built-in type",
          "[gpu][host]") {
    if (!SWEEP_TEST_GPU_RADIX)
        std::printf("note: GPU radix sort not built with precompiled kernels; its calls are not "
                    "tested here yet\n");
    check_type<std::int8_t>("int8", 5000);
    check_type<std::uint8_t>("uint8", 5010);
    check_type<std::int16_t>("int16", 5020);
    check_type<std::uint16_t>("uint16", 5030);
    check_type<std::int32_t>("int32", 5040);
    check_type<std::uint32_t>("uint32", 5050);
    check_type<std::int64_t>("int64", 5060);
    check_type<std::uint64_t>("uint64", 5070);
    check_type<float>("float", 5080);
    check_type<double>("double", 5090);
}

TEST_CASE("host-compiled: sweep::automatic on managed memory and what cannot run on the GPU",
          "[gpu][host][automatic]") {
    const std::int64_t g = sweep::detail::automatic_managed_gpu_from;
    for (const std::int64_t n : sweep_test::within_cap({std::int64_t{1000}, g + 1})) {
        INFO("n = " << n);
        int* m = nullptr;
        int* o = nullptr;
        REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&m), n * sizeof(int)) == cudaSuccess);
        REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&o), n * sizeof(int)) == cudaSuccess);
        for (std::int64_t i = 0; i < n; ++i) m[i] = static_cast<int>(i % 7) - 3;
        std::vector<int> want(static_cast<std::size_t>(n));
        sweep::inclusive_scan(sweep::seq, m, m + n, want.begin());
        sweep::inclusive_scan(sweep::automatic, m, m + n, o);
        CHECK(std::equal(want.begin(), want.end(), o));
        // A lambda operator: host only from this file, and managed memory is readable there.
        sweep::inclusive_scan(sweep::automatic, m, m + n, o, [](int a, int b) { return a + b; });
        CHECK(std::equal(want.begin(), want.end(), o));
        cudaFree(m);
        cudaFree(o);
    }
    // Device memory with a lambda: neither the GPU (not precompiled) nor the host (cannot read
    // it) can run it: std::invalid_argument, nothing written.
    dev<int> d(std::vector<int>(100, 1));
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::automatic, d.p, d.p + 100, d.p,
                                          [](int a, int b) { return a + b; }),
                    std::invalid_argument);
    CHECK(download(d.p, 100) == std::vector<int>(100, 1));
}
