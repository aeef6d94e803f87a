// test/gpu/compaction_host_compiled.cpp -- compiled by the host compiler, not nvcc: copy_if (plain
// and with a stencil of every built-in type), partition_copy, partition and stable_partition on
// sweep::gpu with raw device pointers reach the kernels precompiled in the library, for every
// built-in element type and every comparison predicate of <sweep/functional.hpp>. Checked
// against seq.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/partition.hpp>

#include "catch.hpp"
#include "random.hpp"
#include "size_cap.hpp"

#if defined(__CUDACC__)
#error "this test must be compiled by the host compiler"
#endif

namespace {

template <class T>
struct dev {
    T* p = nullptr;
    explicit dev(std::size_t n) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) == cudaSuccess);
        // Defined bytes (0xA5) past what an algorithm writes: the downloads read whole buffers
        // (compute-sanitizer's initcheck reported them uninitialized), and fill() below checks
        // that nothing past the returned end was written.
        REQUIRE(cudaMemset(p, 0xA5, (n ? n : 1) * sizeof(T)) == cudaSuccess);
    }
    dev(const std::vector<T>& h) : dev(h.size()) {
        REQUIRE(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    }
    ~dev() { cudaFree(p); }
};

template <class T>
std::vector<T> download(const T* p, std::size_t n) {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

template <class T>
bool same_prefix(const std::vector<T>& a, const std::vector<T>& b, std::int64_t k) {
    return k == 0 || std::memcmp(a.data(), b.data(), static_cast<std::size_t>(k) * sizeof(T)) == 0;
}

/// Whether elements [k, a.size()) still hold dev's fill (0xA5 bytes): nothing written there.
template <class T>
bool untouched_after(const std::vector<T>& a, std::int64_t k) {
    const auto* b = reinterpret_cast<const unsigned char*>(a.data());
    for (std::size_t i = static_cast<std::size_t>(k) * sizeof(T); i < a.size() * sizeof(T); ++i)
        if (b[i] != 0xA5) return false;
    return true;
}

/// Small values, so that every comparison keeps a fair share.
template <class T>
std::vector<T> small_values(std::int64_t n, std::mt19937_64& g) {
    std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -4 : 0, 4);
    std::vector<T> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = static_cast<T>(d(g));
    return h;
}

template <class T, class Pred>
void check_plain(const std::vector<T>& h, Pred pred) {
    const auto n = static_cast<std::int64_t>(h.size());
    dev<T> in(h), out(h.size()), out2(h.size()), range(h);
    std::vector<T> want(h.size()), want_f(h.size());
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(), pred);

    CHECK(sweep::copy_if(sweep::gpu, in.p, in.p + n, out.p, pred) == out.p + k);
    CHECK(same_prefix(download(out.p, h.size()), want, k));
    CHECK(untouched_after(download(out.p, h.size()), k));
    const T* cin = in.p;
    CHECK(sweep::copy_if(sweep::gpu, cin, cin + n, out.p, pred) == out.p + k);

    const auto [et, ef] = sweep::partition_copy(sweep::gpu, in.p, in.p + n, out.p, out2.p, pred);
    CHECK(et == out.p + k);
    CHECK(ef == out2.p + (n - k));
    CHECK(same_prefix(download(out.p, h.size()), want, k));
    CHECK(same_prefix(download(out2.p, h.size()), want_f, n - k));

    auto stable = h;
    sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);
    CHECK(sweep::stable_partition(sweep::gpu, range.p, range.p + n, pred) == range.p + k);
    CHECK(download(range.p, h.size()) == stable);
    REQUIRE(cudaMemcpy(range.p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    // partition is unstable from 2^24 elements (the exchange pass): the kept ones first, the
    // rejected after, and a permutation of the input.
    CHECK(sweep::partition(sweep::gpu, range.p, range.p + n, pred) == range.p + k);
    auto got = download(range.p, h.size());
    CHECK(std::all_of(got.begin(), got.begin() + k, pred));
    CHECK(std::none_of(got.begin() + k, got.end(), pred));
    auto sorted_in = h;
    std::sort(got.begin(), got.end());
    std::sort(sorted_in.begin(), sorted_in.end());
    CHECK(got == sorted_in);
}

template <class T>
void check_type(std::uint64_t salt) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{70'001},
                                 sweep_test::capped(2'000'003)}) {
        INFO("n = " << n);
        auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n));
        const auto h = small_values<T>(n, g);
        const T v = static_cast<T>(1);
        check_plain(h, sweep::greater_than<T>{v});
        check_plain(h, sweep::greater_or_equal<T>{v});
        check_plain(h, sweep::less_than<T>{v});
        check_plain(h, sweep::less_or_equal<T>{v});
        check_plain(h, sweep::equal_to_value<T>{v});
        check_plain(h, sweep::not_equal_to_value<T>{v});
        check_plain(h, sweep::nonzero<>{});
        check_plain(h, sweep::nonzero<T>{});
    }
}

/// copy_if of T values with a stencil of S and a predicate on S.
template <class T, class S>
void check_stencil(std::uint64_t salt) {
    const std::int64_t n = sweep_test::capped(300'007);
    auto g = sweep_test::rng(salt);
    const auto h = small_values<T>(n, g);
    const auto hs = small_values<S>(n, g);
    dev<T> in(h), out(h.size());
    dev<S> st(hs);
    std::vector<T> want(h.size());
    auto one = [&](auto pred) {
        const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), hs.begin(), want.begin(), pred) -
                       want.begin();
        CHECK(sweep::copy_if(sweep::gpu, in.p, in.p + n, st.p, out.p, pred) == out.p + k);
        CHECK(same_prefix(download(out.p, h.size()), want, k));
    };
    one(sweep::nonzero<>{});
    one(sweep::greater_than<S>{static_cast<S>(0)});
    one(sweep::less_or_equal<S>{static_cast<S>(2)});
}

template <class T>
void check_stencils(std::uint64_t salt) {
    check_stencil<T, std::int8_t>(salt + 1);
    check_stencil<T, std::uint8_t>(salt + 2);
    check_stencil<T, std::int16_t>(salt + 3);
    check_stencil<T, std::uint16_t>(salt + 4);
    check_stencil<T, std::int32_t>(salt + 5);
    check_stencil<T, std::uint32_t>(salt + 6);
    check_stencil<T, std::int64_t>(salt + 7);
    check_stencil<T, std::uint64_t>(salt + 8);
    check_stencil<T, float>(salt + 9);
    check_stencil<T, double>(salt + 10);
}

}  // namespace

TEST_CASE("host-compiled callers: precompiled compaction on every built-in type",
          "[gpu][host][compaction]") {
    check_type<std::int8_t>(10);
    check_type<std::uint8_t>(20);
    check_type<std::int16_t>(30);
    check_type<std::uint16_t>(40);
    check_type<std::int32_t>(50);
    check_type<std::uint32_t>(60);
    check_type<std::int64_t>(70);
    check_type<std::uint64_t>(80);
    check_type<float>(90);
    check_type<double>(100);
}

TEST_CASE("host-compiled callers: precompiled copy_if with a stencil of every built-in type",
          "[gpu][host][compaction]") {
    // One value type per size class (the kernels move values by size), plus float and double.
    check_stencils<std::int8_t>(200);
    check_stencils<std::uint16_t>(300);
    check_stencils<std::int32_t>(400);
    check_stencils<float>(500);
    check_stencils<std::int64_t>(600);
    check_stencils<double>(700);
}

TEST_CASE("host-compiled callers: compaction on a stream, and errors", "[gpu][host][compaction]") {
    const std::int64_t n = sweep_test::capped(1 << 20);
    std::vector<int> h(static_cast<std::size_t>(n)), want(h.size());
    for (std::int64_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = static_cast<int>(i % 10);
    dev<int> in(h), out(h.size());
    cudaStream_t s;
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    const sweep::greater_than<int> pred{6};
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    CHECK(sweep::copy_if(sweep::gpu.on(s), in.p, in.p + n, out.p, pred) == out.p + k);
    CHECK(same_prefix(download(out.p, h.size()), want, k));
    cudaStreamDestroy(s);
    CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, h.data(), h.data() + n, out.p, pred),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::stable_partition(sweep::gpu, h.data(), h.data() + n, pred),
                    std::invalid_argument);
}
