// test/gpu/numerics_host_compiled.cpp -- compiled by the host compiler, not nvcc: float and double
// sums on sweep::gpu.deterministic(), .compensated() and both reach the precompiled kernels
// (src/cuda/scan_numerics_*.cu) and give the bits of sweep::seq with the same modifiers
// (deterministic) or stay within the documented bound (compensated alone).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <vector>

#include <sweep/scan.hpp>

#include "catch.hpp"
#include "numerics.hpp"
#include "numerics_cases.hpp"
#include "random.hpp"

#if defined(__CUDACC__)
#error "this test must be compiled by the host compiler"
#endif

namespace {

template <class T>
struct dev {
    T* p = nullptr;
    explicit dev(std::size_t n) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) == cudaSuccess);
    }
    ~dev() { cudaFree(p); }
    std::vector<T> get(std::size_t n) const {
        std::vector<T> h(n);
        REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
        return h;
    }
};

template <class T>
void check(std::uint64_t salt) {
    using namespace sweep_test;
    for (const std::int64_t n : canonical_edges<sweep::detail::comp_sum<T>>({1'000'003})) {
        auto g = rng(salt + static_cast<std::uint64_t>(n));
        const auto h = ill_conditioned<T>(static_cast<std::size_t>(n), 1e6, g);
        dev<T> in(h.size()), out(h.size());
        REQUIRE(cudaMemcpy(in.p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) ==
                cudaSuccess);
        std::vector<T> want(h.size());
        const T* first = in.p;
        const T* last = in.p + n;
        INFO("n = " << n << ", seed " << sweep_test::seed());

        sweep::inclusive_scan(sweep::gpu.deterministic(), first, last, out.p);
        sweep::inclusive_scan(sweep::seq.deterministic(), h.begin(), h.end(), want.begin());
        CHECK(first_difference(out.get(h.size()), want) == -1);

        sweep::inclusive_scan(sweep::gpu.deterministic(), first, last, out.p, std::plus<>{}, T(3));
        sweep::inclusive_scan(sweep::seq.deterministic(), h.begin(), h.end(), want.begin(),
                              std::plus<>{}, T(3));
        CHECK(first_difference(out.get(h.size()), want) == -1);

        sweep::exclusive_scan(sweep::gpu.deterministic(), first, last, out.p, T(-1));
        sweep::exclusive_scan(sweep::seq.deterministic(), h.begin(), h.end(), want.begin(), T(-1));
        CHECK(first_difference(out.get(h.size()), want) == -1);

        sweep::inclusive_scan(sweep::gpu.compensated().deterministic(), first, last, out.p);
        sweep::inclusive_scan(sweep::seq.compensated().deterministic(), h.begin(), h.end(),
                              want.begin());
        CHECK(first_difference(out.get(h.size()), want) == -1);

        sweep::exclusive_scan(sweep::gpu.deterministic().compensated(), first, last, out.p, T(2));
        sweep::exclusive_scan(sweep::seq.deterministic().compensated(), h.begin(), h.end(),
                              want.begin(), T(2));
        CHECK(first_difference(out.get(h.size()), want) == -1);

        sweep::inclusive_scan(sweep::gpu.compensated(), first, last, out.p);
        const accuracy a = check_prefixes(h, out.get(h.size()), false, 0,
                                          sizeof(T) == 4 ? 0x1p-24 : 0x1p-53, false);
        INFO("gpu.compensated(): prefix " << a.first_bad << " = " << a.bad_result << ", exact "
                                          << a.bad_exact << ", bound " << a.bad_bound);
        CHECK(a.first_bad == -1);

        // Exclusive with init through the precompiled kernels (the shared-memory path above the
        // one-block size, as for nvcc-compiled callers).
        sweep::exclusive_scan(sweep::gpu.compensated(), first, last, out.p, T(2));
        const accuracy e = check_prefixes(h, out.get(h.size()), true, 2.0,
                                          sizeof(T) == 4 ? 0x1p-24 : 0x1p-53, true);
        INFO("gpu.compensated() exclusive, init 2: prefix " << e.first_bad << " = " << e.bad_result
                                                            << ", exact " << e.bad_exact
                                                            << ", bound " << e.bad_bound);
        CHECK(e.first_bad == -1);
    }
}

}  // namespace

TEST_CASE("host-compiled callers: deterministic and compensated float sums", "[gpu][host][numerics]") {
    check<float>(3100);
}

TEST_CASE("host-compiled callers: deterministic and compensated double sums", "[gpu][host][numerics]") {
    check<double>(3200);
}
