// test/gpu/scan_host_compiled.cpp -- compiled by the host compiler, not nvcc: every scan form on
// sweep::gpu with raw device pointers reaches the kernels precompiled in the library, for every
// built-in element type and operator of API.md. Checked against seq.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include <sweep/scan.hpp>

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
    explicit dev(std::size_t n) { REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) == cudaSuccess); }
    ~dev() { cudaFree(p); }
};

template <class T>
std::vector<T> download(const T* p, std::size_t n) {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

template <class T, class Op>
void check_type_op(Op op, std::uint64_t salt) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{70'001},
                                 sweep_test::capped(2'000'003)}) {
        auto g = sweep_test::rng(salt + n);
        std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -3 : 0, 3);
        std::vector<T> h(n), want(n);
        for (auto& x : h) x = static_cast<T>(d(g));
        dev<T> in(n), out(n);
        REQUIRE(cudaMemcpy(in.p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
        const T init = static_cast<T>(2);
        INFO("n = " << n);

        CHECK(sweep::inclusive_scan(sweep::gpu, in.p, in.p + n, out.p, op) == out.p + n);
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op);
        CHECK(download(out.p, n) == want);

        sweep::inclusive_scan(sweep::gpu, static_cast<const T*>(in.p),
                              static_cast<const T*>(in.p) + n, out.p, op, init);
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), op, init);
        CHECK(download(out.p, n) == want);

        sweep::exclusive_scan(sweep::gpu, in.p, in.p + n, out.p, init, op);
        sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), init, op);
        CHECK(download(out.p, n) == want);
    }
}

template <class T>
void check_type(std::uint64_t salt) {
    check_type_op<T>(sweep::plus<>{}, salt);
    check_type_op<T>(sweep::plus<T>{}, salt + 1);
    check_type_op<T>(std::plus<>{}, salt + 2);
    check_type_op<T>(std::plus<T>{}, salt + 3);
    check_type_op<T>(sweep::minimum<>{}, salt + 4);
    check_type_op<T>(sweep::maximum<T>{}, salt + 5);
}

}  // namespace

TEST_CASE("host-compiled callers: precompiled scans on every built-in type", "[gpu][host]") {
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

TEST_CASE("host-compiled callers: the plain forms and streams", "[gpu][host]") {
    const std::int64_t n = sweep_test::capped(1 << 20);
    std::vector<int> h(n, 1), want(n);
    dev<int> in(n), out(n);
    REQUIRE(cudaMemcpy(in.p, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    cudaStream_t s;
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    sweep::inclusive_scan(sweep::gpu.on(s), in.p, in.p + n, out.p);
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    CHECK(download(out.p, n) == want);
    sweep::exclusive_scan(sweep::gpu.on(s), in.p, in.p + n, out.p, 5);
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), 5);
    CHECK(download(out.p, n) == want);
    cudaStreamDestroy(s);
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, h.data(), h.data() + n, out.p),
                    std::invalid_argument);
}
