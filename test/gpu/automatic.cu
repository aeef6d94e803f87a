// test/gpu/automatic.cu -- GPU tests: what sweep::automatic decides for device-side data, and that
// the calls it sends to the GPU give the seq oracle's results.
//
//   cudaMalloc'd pointers                 -> gpu, whatever the size
//   cudaMallocManaged pointers            -> host (seq/par) below automatic_managed_gpu_from,
//                                            gpu from there on
//   cudaMallocHost (pinned host) pointers -> host, by size
//   thrust::device_vector iterators, device_ptr, fancy iterators over them -> gpu (compile time)
//   thrust::host_vector iterators         -> host
//   counting iterator in, device pointer out -> gpu (the counting iterator follows the pointer)
// and .on(s) / .with(r) of sweep::automatic reach the gpu policy it picks.
#include <cuda_runtime.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

namespace {

using sweep::detail::gpu_tag;
using sweep::detail::par_tag;
using sweep::detail::residence;
using sweep::detail::seq_tag;
using sweep_gpu_test::cuda_ok;

struct twice {
    __host__ __device__ int operator()(int x) const { return 2 * x; }
};

// ---- compile-time classification of Thrust iterators ------------------------------------------
static_assert(sweep::detail::residence_v<thrust::device_vector<int>::iterator> ==
              residence::device);
static_assert(sweep::detail::residence_v<thrust::device_ptr<int>> == residence::device);
static_assert(sweep::detail::residence_v<thrust::host_vector<int>::iterator> == residence::host);
static_assert(sweep::detail::residence_v<thrust::counting_iterator<int>> == residence::neutral);
static_assert(sweep::detail::residence_v<thrust::constant_iterator<int>> == residence::neutral);
static_assert(sweep::detail::residence_v<thrust::discard_iterator<>> == residence::neutral);
static_assert(sweep::detail::residence_v<
                  thrust::transform_iterator<twice, thrust::device_vector<int>::iterator>> ==
              residence::device);
static_assert(sweep::detail::residence_v<thrust::zip_iterator<thrust::tuple<
                  thrust::counting_iterator<int>, thrust::device_vector<int>::iterator>>> ==
              residence::device);
static_assert(sweep::detail::residence_v<int*> == residence::pointer);

/// The backend sweep::automatic (or `policy`) picks for a call of n elements over `its`.
template <class Policy, class... Its>
char backend_of(const Policy& policy, std::int64_t n, const Its&... its) {
    const auto where = sweep::detail::locate<true>("test", its...);
    return sweep::detail::invoke_backend(policy, n, where, [](auto tag, const auto&) {
        if constexpr (std::is_same_v<decltype(tag), seq_tag>) return 's';
        else if constexpr (std::is_same_v<decltype(tag), par_tag>) return 'p';
        else return 'g';
    });
}

constexpr char par_or_seq = SWEEP_HAS_TBB ? 'p' : 's';

}  // namespace

TEST_CASE("automatic/gpu: device pointers run on the GPU at every size", "[automatic][gpu]") {
    sweep_gpu_test::device_vector<int> d(8);
    const std::int64_t t = sweep::detail::automatic_seq_below;
    CHECK(backend_of(sweep::automatic, 1, d.data()) == 'g');
    CHECK(backend_of(sweep::automatic, 5, static_cast<const int*>(d.data()), d.data()) == 'g');
    CHECK(backend_of(sweep::automatic, t + 1, d.data()) == 'g');
    CHECK(backend_of(sweep::automatic, std::int64_t{1} << 33, d.data()) == 'g');
    // An offset into the allocation is still device memory.
    CHECK(backend_of(sweep::automatic, 3, d.data() + 5) == 'g');
    CHECK(sweep::detail::cuda::memory_kind_of(d.data()) == sweep::detail::cuda::memory_kind::device);
    // n == 0 still goes where the data is (an offsets range of an empty input is read there).
    CHECK(backend_of(sweep::automatic, 0, d.data()) == 'g');
}

TEST_CASE("automatic/gpu: managed memory runs on the host below the threshold, GPU above",
          "[automatic][gpu]") {
    const std::int64_t g = sweep::detail::automatic_managed_gpu_from;
    const std::int64_t s = sweep::detail::automatic_seq_below;
    sweep_gpu_test::managed_buffer<int> m(16);
    CHECK(sweep::detail::cuda::memory_kind_of(m.p) == sweep::detail::cuda::memory_kind::managed);
    CHECK(backend_of(sweep::automatic, 10, m.p) == 's');
    if (s < g) CHECK(backend_of(sweep::automatic, s, m.p) == par_or_seq);
    CHECK(backend_of(sweep::automatic, g - 1, m.p) == (g - 1 < s ? 's' : par_or_seq));
    CHECK(backend_of(sweep::automatic, g, m.p) == 'g');
}

TEST_CASE("automatic/gpu: pinned host memory runs on the host", "[automatic][gpu]") {
    sweep_gpu_test::pinned_buffer<int> h(16);
    CHECK(sweep::detail::cuda::memory_kind_of(h.p) == sweep::detail::cuda::memory_kind::host);
    CHECK(backend_of(sweep::automatic, 10, h.p) == 's');
    CHECK(backend_of(sweep::automatic, sweep::detail::automatic_seq_below, h.p) == par_or_seq);
    CHECK(backend_of(sweep::automatic, sweep::detail::automatic_managed_gpu_from, h.p) ==
          par_or_seq);
}

TEST_CASE("automatic/gpu: Thrust iterators decide at compile time", "[automatic][gpu]") {
    thrust::device_vector<int> dv(4);
    thrust::host_vector<int> hv(4);
    CHECK(backend_of(sweep::automatic, 1, dv.begin()) == 'g');
    CHECK(backend_of(sweep::automatic, 1, thrust::device_pointer_cast(dv.data().get())) == 'g');
    CHECK(backend_of(sweep::automatic, 1, thrust::make_transform_iterator(dv.begin(), twice{})) ==
          'g');
    CHECK(backend_of(sweep::automatic, 1, hv.begin()) == 's');
    CHECK(backend_of(sweep::automatic, sweep::detail::automatic_seq_below, hv.begin()) ==
          par_or_seq);
    // A counting iterator follows the device pointer it is written to.
    sweep_gpu_test::device_vector<int> d(8);
    CHECK(backend_of(sweep::automatic, 5, thrust::counting_iterator<int>(0), d.data()) == 'g');
    // Only neutral iterators: host.
    CHECK(backend_of(sweep::automatic, 5, thrust::counting_iterator<int>(0),
                     thrust::discard_iterator<>()) == 's');
}

TEST_CASE("automatic/gpu: .on(s) and .with(r) reach the gpu policy", "[automatic][gpu]") {
    cudaStream_t s = nullptr;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    struct resource {
        void* allocate(std::size_t bytes, std::size_t, cudaStream_t st) {
            void* p = nullptr;
            cuda_ok(cudaMallocAsync(&p, bytes, st), "cudaMallocAsync");
            ++calls;
            return p;
        }
        void deallocate(void* p, std::size_t, std::size_t, cudaStream_t st) {
            cudaFreeAsync(p, st);
        }
        int calls = 0;
    } r;
    sweep_gpu_test::device_vector<int> d(8);
    const auto where = sweep::detail::locate<true>("test", d.data());
    const bool ok = sweep::detail::invoke_backend(
        sweep::automatic.on(s).with(r), 8, where, [&](auto tag, const auto& pol) {
            if constexpr (std::is_same_v<decltype(tag), gpu_tag>)
                return pol.has_stream && pol.stream == s && pol.resource == &r;
            else return false;
        });
    CHECK(ok);

    // And a real call: a scan large enough for the look-back path takes its temporaries from r.
    const std::int64_t n = sweep_test::capped(1 << 20);
    std::vector<int> h(n, 1);
    sweep_gpu_test::device_vector<int> in(h), out(n);
    sweep::inclusive_scan(sweep::automatic.on(s).with(r), in.data(), in.data() + n, out.data());
    cuda_ok(cudaStreamSynchronize(s), "sync");
    CHECK(r.calls >= 1);
    const auto got = out.download();
    std::vector<int> want(n);
    std::iota(want.begin(), want.end(), 1);
    CHECK(got == want);
    cudaStreamDestroy(s);
}

TEST_CASE("automatic/gpu: results on device, managed and Thrust data match seq",
          "[automatic][gpu]") {
    const std::uint64_t salt = 811;
    INFO("seed " << sweep_test::seed() << " salt " << salt);
    auto gen = sweep_test::rng(salt);
    std::uniform_int_distribution<int> d(-100, 100);
    const std::int64_t g = sweep::detail::automatic_managed_gpu_from;
    for (const std::int64_t n : sweep_test::within_cap({std::int64_t{1}, std::int64_t{1000}, g - 3, g + 5})) {
        INFO("n = " << n);
        std::vector<int> h(static_cast<std::size_t>(n));
        for (auto& x : h) x = d(gen);
        std::vector<int> want(h.size());
        sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());

        // Device memory.
        sweep_gpu_test::device_vector<int> in(h), out(h.size());
        sweep::inclusive_scan(sweep::automatic, in.data(), in.data() + n, out.data());
        CHECK(out.download() == want);

        // Managed memory, written by the host: whichever side runs, the host reads the result.
        sweep_gpu_test::managed_buffer<int> mi(h.size()), mo(h.size());
        std::copy(h.begin(), h.end(), mi.p);
        sweep::inclusive_scan(sweep::automatic, mi.p, mi.p + n, mo.p);
        CHECK(std::vector<int>(mo.p, mo.p + n) == want);

        // Thrust containers.
        thrust::device_vector<int> dv(h.begin(), h.end()), dout(h.size());
        sweep::inclusive_scan(sweep::automatic, dv.begin(), dv.end(), dout.begin());
        thrust::host_vector<int> back = dout;
        CHECK(std::vector<int>(back.begin(), back.end()) == want);

        // copy_if on device pointers through automatic.
        std::vector<int> kept(h.size());
        const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), kept.begin(),
                                      sweep::greater_than<int>{0}) -
                       kept.begin();
        sweep_gpu_test::device_vector<int> cout_(h.size());
        const auto e = sweep::copy_if(sweep::automatic, in.data(), in.data() + n, cout_.data(),
                                      sweep::greater_than<int>{0});
        REQUIRE(e - cout_.data() == k);
        const auto got = cout_.download();
        CHECK(std::equal(got.begin(), got.begin() + k, kept.begin()));
    }
}
