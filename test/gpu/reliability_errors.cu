// test/gpu/reliability_errors.cu -- the GPU error contract under injected faults (issue 9):
//
// - out of memory: a resource (for .with()) that fails on its k-th allocation, for every k that a
//   call makes (counted first with a resource that never fails): std::bad_alloc, no output
//   written (outputs poisoned and compared byte for byte; in-place ranges unchanged), nothing
//   outstanding (the resource counts live allocations), and the next call, on the same stream,
//   right. Every algorithm of the GPU backend, at a one-block size and a many-tile size.
// - null device pointers with n > 0: std::invalid_argument (no launch, no crash), for input,
//   output, stencil, keys, offsets and flags.
#include <atomic>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {

/// cudaMallocAsync-backed; fails (returns null) on allocation number `fail_at` (1-based; 0:
/// never). Counts every allocation and the live ones.
struct fail_kth_resource {
    long fail_at = 0;
    long calls = 0;
    long live = 0;
    void* allocate(std::size_t bytes, std::size_t, cudaStream_t s) {
        ++calls;
        if (calls == fail_at) return nullptr;
        void* p = nullptr;
        if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) return nullptr;
        ++live;
        return p;
    }
    void deallocate(void* p, std::size_t, std::size_t, cudaStream_t s) {
        cudaFreeAsync(p, s);
        --live;
    }
};

struct odd {
    __host__ __device__ bool operator()(std::int32_t x) const { return (x & 1) != 0; }
};

/// The buffers of one call: a (input, or the in-place range), b (output), c (second output or
/// values), keys, flags, offsets. All compared byte for byte after a failed call.
struct buffers {
    device_vector<std::int32_t> a, b, c, keys;
    device_vector<std::uint8_t> flags;
    device_vector<std::int64_t> offs;
    std::int64_t n;
    buffers(const std::vector<std::int32_t>& h, const std::vector<std::int32_t>& k,
            const std::vector<std::uint8_t>& f, const std::vector<std::int64_t>& o)
        : a(h), b(h.size()), c(h.size()), keys(k), flags(f), offs(o),
          n(static_cast<std::int64_t>(h.size())) {}
    struct snapshot {
        std::vector<std::int32_t> a, b, c;
        bool operator==(const snapshot&) const = default;
    };
    snapshot take() const { return {a.download(), b.download(), c.download()}; }
};

/// Two results of the same call alike: byte for byte, except partition's range, which from 2^24
/// elements is unstable and not the same run to run (the exchange pass, docs/compaction.md): the
/// same elements, odd ones first.
bool same_result(const std::string& name, buffers::snapshot got, buffers::snapshot want) {
    if (name != "partition") return got == want;
    if (got.b != want.b || got.c != want.c || got.a.size() != want.a.size()) return false;
    const auto k = std::count_if(want.a.begin(), want.a.end(), odd{});
    for (std::size_t i = 0; i < got.a.size(); ++i)
        if (odd{}(got.a[i]) != (static_cast<std::ptrdiff_t>(i) < k)) return false;
    std::sort(got.a.begin(), got.a.end());
    std::sort(want.a.begin(), want.a.end());
    return got.a == want.a;
}

using call_t = std::function<void(const sweep::gpu_policy<0, fail_kth_resource>&, buffers&)>;

struct named_call {
    const char* name;
    call_t call;
};

std::vector<named_call> all_calls() {
    using P = const sweep::gpu_policy<0, fail_kth_resource>&;
    const std::int32_t init = 5;
    return {
        {"inclusive_scan", [](P p, buffers& x) { sweep::inclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin()); }},
        {"inclusive_scan(op, init)", [=](P p, buffers& x) {
             sweep::inclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin(), sweep::maximum<>{}, init); }},
        {"exclusive_scan", [=](P p, buffers& x) {
             sweep::exclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin(), init); }},
        {"inclusive_scan in place", [](P p, buffers& x) {
             sweep::inclusive_scan(p, x.a.begin(), x.a.end(), x.a.begin()); }},
        {"transform_exclusive_scan", [=](P p, buffers& x) {
             sweep::transform_exclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin(), init,
                                             sweep::plus<>{}, sweep::detail::identity{}); }},
        {"copy_if", [](P p, buffers& x) { sweep::copy_if(p, x.a.begin(), x.a.end(), x.b.begin(), odd{}); }},
        {"copy_if(stencil)", [](P p, buffers& x) {
             sweep::copy_if(p, x.a.begin(), x.a.end(), x.flags.begin(), x.b.begin(), sweep::nonzero<>{}); }},
        {"partition_copy", [](P p, buffers& x) {
             sweep::partition_copy(p, x.a.begin(), x.a.end(), x.b.begin(), x.c.begin(), odd{}); }},
        {"partition", [](P p, buffers& x) { sweep::partition(p, x.a.begin(), x.a.end(), odd{}); }},
        {"stable_partition", [](P p, buffers& x) { sweep::stable_partition(p, x.a.begin(), x.a.end(), odd{}); }},
        {"inclusive_scan_by_key", [](P p, buffers& x) {
             sweep::inclusive_scan_by_key(p, x.keys.begin(), x.keys.end(), x.a.begin(), x.b.begin()); }},
        {"exclusive_scan_by_key", [=](P p, buffers& x) {
             sweep::exclusive_scan_by_key(p, x.keys.begin(), x.keys.end(), x.a.begin(), x.b.begin(), init); }},
        {"segmented_inclusive_scan(offsets)", [](P p, buffers& x) {
             sweep::segmented_inclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin(),
                                             sweep::offsets(x.offs.begin(), x.offs.end())); }},
        {"segmented_exclusive_scan(flags)", [=](P p, buffers& x) {
             sweep::segmented_exclusive_scan(p, x.a.begin(), x.a.end(), x.b.begin(),
                                             sweep::head_flags(x.flags.begin()), init, sweep::plus<>{}); }},
#ifdef SWEEP_HAS_GPU_RADIX_SORT
        {"radix_sort", [](P p, buffers& x) { sweep::radix_sort(p, x.a.begin(), x.a.end()); }},
        {"radix_sort_by_key", [](P p, buffers& x) {
             sweep::radix_sort_by_key(p, x.a.begin(), x.a.end(), x.c.begin()); }},
#endif
    };
}

}  // namespace

TEST_CASE("gpu out of memory: the k-th allocation fails, for every k", "[gpu][errors][oom]") {
    std::int64_t injected = 0;
    for (const std::int64_t n : {std::int64_t{1000}, sweep_test::capped(3'000'017)}) {
        auto g = sweep_test::rng(9100 + static_cast<std::uint64_t>(n));
        std::vector<std::int32_t> h(static_cast<std::size_t>(n)), keys(h.size());
        std::vector<std::uint8_t> flags(h.size());
        std::vector<std::int64_t> offs{0};
        for (std::size_t i = 0; i < h.size(); ++i) {
            h[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
            const bool head = i == 0 || g() % 300 == 0;
            keys[i] = i == 0 ? 0 : keys[i - 1] + (head ? 1 : 0);
            flags[i] = head ? 1 : 0;
            if (head && i > 0) offs.push_back(static_cast<std::int64_t>(i));
        }
        offs.push_back(n);
        cudaStream_t s;
        cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
        for (const auto& nc : all_calls()) {
            INFO(nc.name << ", n = " << n);
            // The expectation, and the number of allocations the call makes.
            buffers want_b(h, keys, flags, offs);
            fail_kth_resource counter;
            nc.call(sweep::gpu.on(s).with(counter), want_b);
            cuda_ok(cudaStreamSynchronize(s), "sync");
            const auto want = want_b.take();
            const long allocations = counter.calls;
            CHECK(counter.live == 0);
            std::printf("%s, n = %lld: %ld temporary allocations\n", nc.name,
                        static_cast<long long>(n), allocations);
            for (long k = 1; k <= allocations; ++k) {
                INFO("allocation " << k << " of " << allocations << " fails");
                buffers x(h, keys, flags, offs);
                const auto before = x.take();
                fail_kth_resource r;
                r.fail_at = k;
                bool bad_alloc = false;
                try {
                    nc.call(sweep::gpu.on(s).with(r), x);
                } catch (const std::bad_alloc&) {
                    bad_alloc = true;
                } catch (const std::exception& e) {
                    FAIL("threw something else: " << e.what());
                }
                ++injected;
                cuda_ok(cudaStreamSynchronize(s), "sync");
                CHECK(bad_alloc);
                CHECK(r.live == 0);                // nothing leaked
                CHECK(x.take() == before);         // no output written, in-place range unchanged
                // The next call, same stream and buffers, works.
                fail_kth_resource ok;
                nc.call(sweep::gpu.on(s).with(ok), x);
                cuda_ok(cudaStreamSynchronize(s), "sync");
                CHECK(same_result(nc.name, x.take(), want));
                CHECK(ok.live == 0);
            }
        }
        cudaStreamDestroy(s);
    }
    std::printf("gpu out of memory: %lld allocation failures injected\n", static_cast<long long>(injected));
    CHECK(injected > 0);  // the large size must take temporaries, else this test proved nothing
}

TEST_CASE("gpu bad input: null device pointers with n > 0 are std::invalid_argument",
          "[gpu][errors]") {
    const std::int64_t n = 1000;
    device_vector<std::int32_t> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
    device_vector<std::uint8_t> f(static_cast<std::size_t>(n));
    device_vector<std::int64_t> o(2);
    const std::int32_t* nil = nullptr;
    std::int32_t* nilo = nullptr;
    const auto before = b.download();
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, nil, nil + n, b.begin()), std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, a.begin(), a.end(), nilo), std::invalid_argument);
    CHECK_THROWS_AS(sweep::exclusive_scan(sweep::gpu, a.begin(), a.end(), nilo, 0), std::invalid_argument);
    CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, nil, nil + n, b.begin(), odd{}), std::invalid_argument);
    CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, a.begin(), a.end(), nilo, odd{}), std::invalid_argument);
    CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, a.begin(), a.end(), static_cast<const std::uint8_t*>(nullptr),
                                   b.begin(), sweep::nonzero<>{}),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::partition_copy(sweep::gpu, a.begin(), a.end(), nilo, b.begin(), odd{}),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::partition(sweep::gpu, nilo, nilo + n, odd{}), std::invalid_argument);
    CHECK_THROWS_AS(sweep::stable_partition(sweep::gpu, nilo, nilo + n, odd{}), std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, nil, nil + n, a.begin(), b.begin()),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, a.begin(), a.end(), nil, b.begin()),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, a.begin(), a.end(), b.begin(),
                                                    sweep::head_flags(static_cast<const std::uint8_t*>(nullptr))),
                    std::invalid_argument);
    const std::int64_t* no = nullptr;
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, a.begin(), a.end(), b.begin(),
                                                    sweep::offsets(no, no + 2)),
                    std::invalid_argument);
    CHECK(b.download() == before);
    // The next call works.
    std::vector<std::int32_t> h(static_cast<std::size_t>(n), 1), want(h.size());
    a.upload(h);
    sweep::inclusive_scan(sweep::gpu, a.begin(), a.end(), b.begin());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    CHECK(b.download() == want);
}

TEST_CASE("gpu bad input: last < first, and a scan output overlapping its input",
          "[gpu][errors]") {
    const std::int64_t n = 1000;
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::int32_t>(i);
    device_vector<std::int32_t> a(h), b(static_cast<std::size_t>(n)), k(h);
    device_vector<std::uint8_t> f(static_cast<std::size_t>(n));
    const auto b0 = b.download();
    std::int32_t* p = a.data();
    // last < first, every family (compaction: test/gpu/compaction.cu).
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, p + 5, p, b.begin()), std::invalid_argument);
    CHECK_THROWS_AS(sweep::exclusive_scan(sweep::gpu, p + 5, p, b.begin(), 0), std::invalid_argument);
    CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::gpu, k.begin() + 5, k.begin(), a.begin(), b.begin()),
                    std::invalid_argument);
    CHECK_THROWS_AS(sweep::segmented_inclusive_scan(sweep::gpu, p + 5, p, b.begin(),
                                                    sweep::head_flags(f.begin())),
                    std::invalid_argument);
    // Overlap other than in place (docs/decisions/0004-aliasing-checks.md).
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::gpu, p, p + 500, p + 1), std::invalid_argument);
    CHECK_THROWS_AS(sweep::exclusive_scan(sweep::gpu, p + 1, p + 501, p, 0), std::invalid_argument);
    CHECK(a.download() == h);
    CHECK(b.download() == b0);
    // In place is fine.
    sweep::inclusive_scan(sweep::gpu, p, p + n, p);
    std::vector<std::int32_t> want(h.size());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    CHECK(a.download() == want);
}
