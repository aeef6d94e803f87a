// test/gpu/thrust_iterators.cu -- GPU tests: Thrust containers and fancy iterators through every
// GPU algorithm, with sweep::gpu, thrust::device and sweep::automatic, against seq on the same
// values on the host:
//   inputs    thrust::device_vector iterators, device_ptr, counting_iterator, constant_iterator,
//             transform_iterator, permutation_iterator, zip_iterator (through a transform)
//   outputs   device_vector iterators, device_ptr; discard_iterator where the result is a count
//             (copy_if: how many kept; partition_copy: one of the two sides dropped)
//   segments  keys as a transform of a counting iterator (i / 37), CSR offsets as a transform of
//             a counting iterator (j * 100, clamped), head flags as a transform
// Radix sort: device_vector iterators and device_ptr, once the GPU radix sort is built in.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "random.hpp"
#include "size_cap.hpp"

namespace {

struct times3 {
    __host__ __device__ int operator()(int x) const { return 3 * x - 7; }
};
struct div37 {
    __host__ __device__ int operator()(int i) const { return i / 37; }
};
struct is_mult37 {
    __host__ __device__ int operator()(int i) const { return i % 37 == 0 ? 1 : 0; }
};
struct csr_offset {  // offsets 0, 100, 200, ... capped at n: segment j is [100 j, 100 j + 100)
    int n;
    __host__ __device__ long long operator()(int j) const {
        const long long o = 100LL * j;
        return o < n ? o : n;
    }
};
struct zip_sum {
    template <class Tuple>
    __host__ __device__ int operator()(const Tuple& t) const {
        return thrust::get<0>(t) + thrust::get<1>(t);
    }
};

template <class T>
std::vector<T> to_host(const thrust::device_vector<T>& d, std::size_t count) {
    thrust::host_vector<T> h(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(count));
    return std::vector<T>(h.begin(), h.end());
}

template <class T>
std::vector<T> prefix(const std::vector<T>& v, std::size_t count) {
    return std::vector<T>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(count));
}

/// Every algorithm with Thrust iterators on `policy` (sweep::gpu, thrust::device, automatic).
template <class Policy>
void check_all(const Policy& policy, const char* policy_name, std::uint64_t salt) {
    for (const int n :
         {1, 2047, 2048, 2049, 9000, static_cast<int>(sweep_test::capped(300'007))}) {
        auto g = sweep_test::rng(salt + static_cast<std::uint64_t>(n));
        INFO("seed " << sweep_test::seed() << " salt " << salt << " policy " << policy_name
                     << " n " << n);
        const auto un = static_cast<std::size_t>(n);
        std::vector<int> hx(un);
        for (auto& v : hx) v = static_cast<int>(g() % 201) - 100;
        std::vector<int> hperm(un);
        std::iota(hperm.begin(), hperm.end(), 0);
        std::shuffle(hperm.begin(), hperm.end(), g);
        thrust::device_vector<int> dx(hx.begin(), hx.end()), dperm(hperm.begin(), hperm.end());
        thrust::device_vector<int> dout(un), dout2(un);
        std::vector<int> want(un), want2(un);

        const auto count0 = thrust::counting_iterator<int>(0);
        const auto hcount0 = thrust::counting_iterator<int>(0);  // the same on the host
        const auto tx = thrust::make_transform_iterator(dx.begin(), times3{});
        const auto htx = thrust::make_transform_iterator(hx.begin(), times3{});
        const auto px = thrust::make_permutation_iterator(dx.begin(), dperm.begin());
        std::vector<int> hpx(un);
        for (std::size_t i = 0; i < un; ++i) hpx[i] = hx[static_cast<std::size_t>(hperm[i])];
        const auto zx = thrust::make_transform_iterator(
            thrust::make_zip_iterator(thrust::make_tuple(dx.begin(), count0)), zip_sum{});
        std::vector<int> hzx(un);
        for (std::size_t i = 0; i < un; ++i) hzx[i] = hx[i] + static_cast<int>(i);

        // ---- scans ----------------------------------------------------------------------------
        sweep::inclusive_scan(sweep::seq, hx.begin(), hx.end(), want.begin());
        CHECK(sweep::inclusive_scan(policy, dx.begin(), dx.end(), dout.begin()) == dout.end());
        CHECK(to_host(dout, un) == want);
        // device_ptr in and out
        const thrust::device_ptr<int> pin = dx.data();
        const thrust::device_ptr<int> pout = dout.data();
        sweep::exclusive_scan(sweep::seq, hx.begin(), hx.end(), want.begin(), 5);
        CHECK(sweep::exclusive_scan(policy, pin, pin + n, pout, 5) == pout + n);
        CHECK(to_host(dout, un) == want);
        // counting
        sweep::inclusive_scan(sweep::seq, hcount0, hcount0 + n, want.begin());
        sweep::inclusive_scan(policy, count0, count0 + n, dout.begin());
        CHECK(to_host(dout, un) == want);
        // constant
        const auto c7 = thrust::make_constant_iterator(7);
        sweep::exclusive_scan(sweep::seq, c7, c7 + n, want.begin(), 1, sweep::maximum<>{});
        sweep::exclusive_scan(policy, c7, c7 + n, dout.begin(), 1, sweep::maximum<>{});
        CHECK(to_host(dout, un) == want);
        // transform, and transform_inclusive_scan over a device_vector
        sweep::inclusive_scan(sweep::seq, htx, htx + n, want.begin());
        sweep::inclusive_scan(policy, tx, tx + n, dout.begin());
        CHECK(to_host(dout, un) == want);
        sweep::transform_exclusive_scan(sweep::seq, hx.begin(), hx.end(), want.begin(), 0,
                                        sweep::plus<>{}, times3{});
        sweep::transform_exclusive_scan(policy, dx.begin(), dx.end(), dout.begin(), 0,
                                        sweep::plus<>{}, times3{});
        CHECK(to_host(dout, un) == want);
        // permutation, zip (through a transform)
        sweep::inclusive_scan(sweep::seq, hpx.begin(), hpx.end(), want.begin(),
                              sweep::minimum<>{});
        sweep::inclusive_scan(policy, px, px + n, dout.begin(), sweep::minimum<>{});
        CHECK(to_host(dout, un) == want);
        sweep::inclusive_scan(sweep::seq, hzx.begin(), hzx.end(), want.begin());
        sweep::inclusive_scan(policy, zx, zx + n, dout.begin());
        CHECK(to_host(dout, un) == want);
        // in place on a device_vector
        {
            thrust::device_vector<int> io = dx;
            sweep::inclusive_scan(sweep::seq, hx.begin(), hx.end(), want.begin());
            sweep::inclusive_scan(policy, io.begin(), io.end(), io.begin());
            CHECK(to_host(io, un) == want);
        }

        // ---- stream compaction ----------------------------------------------------------------
        const auto pos = sweep::greater_than<int>{0};
        auto k = static_cast<std::size_t>(
            sweep::copy_if(sweep::seq, hx.begin(), hx.end(), want.begin(), pos) - want.begin());
        CHECK(sweep::copy_if(policy, dx.begin(), dx.end(), dout.begin(), pos) - dout.begin() ==
              static_cast<std::ptrdiff_t>(k));
        CHECK(to_host(dout, k) == prefix(want, k));
        // discard_iterator: only the count
        const auto dcount = sweep::copy_if(policy, dx.begin(), dx.end(),
                                           thrust::make_discard_iterator(), pos);
        CHECK(dcount - thrust::make_discard_iterator() == static_cast<std::ptrdiff_t>(k));
        // counting input with a transform stencil; permutation input
        k = static_cast<std::size_t>(sweep::copy_if(sweep::seq, hcount0, hcount0 + n, htx,
                                                    want.begin(), pos) -
                                     want.begin());
        CHECK(sweep::copy_if(policy, count0, count0 + n, tx, dout.begin(), pos) - dout.begin() ==
              static_cast<std::ptrdiff_t>(k));
        CHECK(to_host(dout, k) == prefix(want, k));
        k = static_cast<std::size_t>(
            sweep::copy_if(sweep::seq, hpx.begin(), hpx.end(), want.begin(), pos) - want.begin());
        CHECK(sweep::copy_if(policy, px, px + n, dout.begin(), pos) - dout.begin() ==
              static_cast<std::ptrdiff_t>(k));
        CHECK(to_host(dout, k) == prefix(want, k));
        // partition_copy with the rejected side discarded, and with both kept (transform input)
        k = static_cast<std::size_t>(sweep::partition_copy(sweep::seq, hx.begin(), hx.end(),
                                                           want.begin(), want2.begin(), pos)
                                         .first -
                                     want.begin());
        {
            const auto [t, f] = sweep::partition_copy(policy, dx.begin(), dx.end(), dout.begin(),
                                                      thrust::make_discard_iterator(), pos);
            CHECK(t - dout.begin() == static_cast<std::ptrdiff_t>(k));
            CHECK(f - thrust::make_discard_iterator() == static_cast<std::ptrdiff_t>(un - k));
            CHECK(to_host(dout, k) == prefix(want, k));
        }
        k = static_cast<std::size_t>(sweep::partition_copy(sweep::seq, htx, htx + n,
                                                           want.begin(), want2.begin(), pos)
                                         .first -
                                     want.begin());
        {
            const auto [t, f] =
                sweep::partition_copy(policy, tx, tx + n, dout.begin(), dout2.begin(), pos);
            CHECK(t - dout.begin() == static_cast<std::ptrdiff_t>(k));
            CHECK(f - dout2.begin() == static_cast<std::ptrdiff_t>(un - k));
            CHECK(to_host(dout, k) == prefix(want, k));
            CHECK(to_host(dout2, un - k) == prefix(want2, un - k));
        }
        // in place on device_vector iterators
        {
            auto hs = hx;
            const auto hk = sweep::stable_partition(sweep::seq, hs.begin(), hs.end(), pos) -
                            hs.begin();
            thrust::device_vector<int> ds = dx;
            CHECK(sweep::stable_partition(policy, ds.begin(), ds.end(), pos) - ds.begin() == hk);
            CHECK(to_host(ds, un) == hs);
            thrust::device_vector<int> dp = dx;
            CHECK(sweep::partition(policy, dp.begin(), dp.end(), pos) - dp.begin() == hk);
            const auto got = to_host(dp, un);
            CHECK(std::all_of(got.begin(), got.begin() + hk, pos));
            CHECK(std::none_of(got.begin() + hk, got.end(), pos));
            auto sorted_got = got;
            auto sorted_in = hx;
            std::sort(sorted_got.begin(), sorted_got.end());
            std::sort(sorted_in.begin(), sorted_in.end());
            CHECK(sorted_got == sorted_in);  // a permutation of the input
        }

        // ---- segmented scans ------------------------------------------------------------------
        const auto keys = thrust::make_transform_iterator(count0, div37{});
        const auto hkeys = thrust::make_transform_iterator(hcount0, div37{});
        sweep::inclusive_scan_by_key(sweep::seq, hkeys, hkeys + n, hx.begin(), want.begin());
        sweep::inclusive_scan_by_key(policy, keys, keys + n, dx.begin(), dout.begin());
        CHECK(to_host(dout, un) == want);
        sweep::exclusive_scan_by_key(sweep::seq, hkeys, hkeys + n, htx, want.begin(), 2);
        sweep::exclusive_scan_by_key(policy, keys, keys + n, tx, dout.begin(), 2);
        CHECK(to_host(dout, un) == want);
        const int segs = (n + 99) / 100;
        const auto offs = thrust::make_transform_iterator(count0, csr_offset{n});
        const auto hoffs = thrust::make_transform_iterator(hcount0, csr_offset{n});
        sweep::segmented_inclusive_scan(sweep::seq, hpx.begin(), hpx.end(), want.begin(),
                                        sweep::offsets(hoffs, hoffs + segs + 1));
        sweep::segmented_inclusive_scan(policy, px, px + n, dout.begin(),
                                        sweep::offsets(offs, offs + segs + 1));
        CHECK(to_host(dout, un) == want);
        const auto flags = thrust::make_transform_iterator(count0, is_mult37{});
        const auto hflags = thrust::make_transform_iterator(hcount0, is_mult37{});
        sweep::segmented_exclusive_scan(sweep::seq, hcount0, hcount0 + n, want.begin(),
                                        sweep::head_flags(hflags), 0);
        sweep::segmented_exclusive_scan(policy, count0, count0 + n, dout.begin(),
                                        sweep::head_flags(flags), 0);
        CHECK(to_host(dout, un) == want);

#if defined(SWEEP_HAS_GPU_RADIX_SORT)
        // ---- radix sort -----------------------------------------------------------------------
        {
            auto hs = hx;
            sweep::radix_sort(sweep::seq, hs.begin(), hs.end());
            thrust::device_vector<int> ds = dx;
            sweep::radix_sort(policy, ds.begin(), ds.end());
            CHECK(to_host(ds, un) == hs);
            auto hk2 = hx;
            auto hv2 = hperm;
            sweep::radix_sort_by_key(sweep::seq, hk2.begin(), hk2.end(), hv2.begin());
            thrust::device_vector<int> dk2 = dx, dv2 = dperm;
            sweep::radix_sort_by_key(policy, dk2.data(), dk2.data() + n, dv2.data());
            CHECK(to_host(dk2, un) == hk2);
            CHECK(to_host(dv2, un) == hv2);
        }
#endif
    }
}

}  // namespace

TEST_CASE("Thrust iterators through every GPU algorithm: sweep::gpu", "[gpu][thrust]") {
    check_all(sweep::gpu, "sweep::gpu", 6000);
}

TEST_CASE("Thrust iterators through every GPU algorithm: thrust::device", "[gpu][thrust]") {
    check_all(thrust::device, "thrust::device", 6100);
}

TEST_CASE("Thrust iterators through every GPU algorithm: sweep::automatic", "[gpu][thrust]") {
    // Device iterators decide at compile time; a counting iterator into a device_vector too.
    check_all(sweep::automatic, "sweep::automatic", 6200);
}

TEST_CASE("Thrust iterators: thrust::cuda::par.on(s) honours the stream", "[gpu][thrust]") {
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    const int n = static_cast<int>(sweep_test::capped(1 << 20));
    thrust::device_vector<int> dx(n, 1), dout(n);
    sweep::inclusive_scan(thrust::cuda::par.on(s), dx.begin(), dx.end(), dout.begin());
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    std::vector<int> want(static_cast<std::size_t>(n));
    std::iota(want.begin(), want.end(), 1);
    CHECK(to_host(dout, want.size()) == want);
    cudaStreamDestroy(s);
}
