// test/gpu/compaction.cu -- sweep::gpu stream compaction beyond the type matrix: the in-place
// partitions under the access pattern a one-pass in-place write would break (with a control that
// shows the pattern does break one), Thrust iterators (counting + stencil = indices, transform,
// zip, permutation, constant, discard), predicates with state, the comparison predicates of
// <sweep/functional.hpp>, misaligned pointers, streams from several host threads, memory
// resources, graph capture (an error: the calls must wait), and the errors API.md promises.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include <sweep/copy_if.hpp>
#include <sweep/errors.hpp>
#include <sweep/partition.hpp>

#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include "catch.hpp"
#include "compaction_matrix.hpp"
#include "gpu_support.hpp"
#include "random.hpp"

using namespace sweep_gpu_test;

namespace {

template <class T>
std::vector<T> to_host(const thrust::device_vector<T>& d) {
    std::vector<T> h(d.size());
    thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

std::vector<std::int32_t> random_ints(std::int64_t n, std::mt19937_64& g, int lo = -1000,
                                      int hi = 1000) {
    std::uniform_int_distribution<std::int32_t> d(lo, hi);
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = d(g);
    return h;
}

struct is_odd {
    __host__ __device__ bool operator()(std::int32_t x) const { return (x & 1) != 0; }
};

}  // namespace

// ---- in place ----------------------------------------------------------------------------------

TEST_CASE("gpu partitions in place: race-free where a one-pass in-place write is not",
          "[gpu][compaction][inplace]") {
    // Rejected first, kept after: the rejected elements of the first tiles belong half an array
    // further on, in tiles that have not been read yet when the first tiles finish (far more
    // tiles than fit on the GPU at once). An in-place pass that wrote them there directly would
    // corrupt those tiles' input; sweep's writes them to a temporary (docs/compaction.md).
    const std::int64_t n = std::min((std::int64_t{1} << 25) + 3, max_test_size());
    const std::int64_t half = n / 2;
    auto g = sweep_test::rng(1000);
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::int32_t> d(1, 1 << 30);
    for (std::int64_t i = 0; i < n; ++i) h[i] = i < half ? d(g) : -d(g);
    const sweep::less_than<std::int32_t> negative{0};
    auto want = h;
    const auto k = sweep::stable_partition(sweep::seq, want.begin(), want.end(), negative) -
                   want.begin();
    REQUIRE(k == n - half);

    SECTION("stable_partition is exact, partition a partition of the input") {
        device_vector<std::int32_t> a(h);
        CHECK(sweep::stable_partition(sweep::gpu, a.begin(), a.end(), negative) - a.begin() == k);
        CHECK(a.download() == want);
        a.upload(h);
        CHECK(sweep::partition(sweep::gpu, a.begin(), a.end(), negative) - a.begin() == k);
        CHECK(is_partition_of(a.download(), h, k, negative));
    }
    SECTION("control: the one-pass write into the input itself is caught by this check") {
        // partition_copy with both outputs inside its own input (a misuse: the ranges overlap)
        // is exactly the naive in-place pass. The buffer has room for any wrong count it makes.
        // With few tiles (SWEEP_TEST_MAX_N) all of them may be read before any writes: no race.
        if (sizes_capped()) {
            WARN("control skipped: SWEEP_TEST_MAX_N caps the size");
            return;
        }
        device_vector<std::int32_t> a(2 * static_cast<std::size_t>(n));
        a.upload(h);
        sweep::partition_copy(sweep::gpu, a.begin(), a.begin() + n, a.begin(), a.begin() + k,
                              negative);
        auto got = a.download();
        got.resize(static_cast<std::size_t>(n));
        CHECK_FALSE(got == want);
    }
}

TEST_CASE("gpu partitions in place: 99 % kept, each tile writing into the tiles just before it",
          "[gpu][compaction][inplace]") {
    // With 99 % kept, tile t's kept elements land about t/100 tiles back, in tiles that started
    // shortly before it: safe only because a tile learns where to write after every earlier tile
    // has published its count, which it does after reading its input (count_prefix.cuh).
    auto g = sweep_test::rng(1100);
    const std::int64_t n = std::min((std::int64_t{1} << 25) + 12345, max_test_size());
    for (int round = 0; round < 3; ++round) {
        const auto h = random_inputs<std::int32_t>(n, g);
        const keep_percent pred{99};
        auto want = h;
        const auto k = sweep::stable_partition(sweep::seq, want.begin(), want.end(), pred) -
                       want.begin();
        device_vector<std::int32_t> a(h);
        INFO("round " << round);
        CHECK(sweep::stable_partition(sweep::gpu, a.begin(), a.end(), pred) - a.begin() == k);
        CHECK(a.download() == want);
    }
}

TEST_CASE("gpu partitions in place: 1 % kept (mirrored pass), each tile writing into the tiles "
          "just after it",
          "[gpu][compaction][inplace]") {
    // With fewer than half kept (by a sample), the shared-memory path runs the pass mirrored:
    // tiles from the back, rejected elements in place at the range's end. With 99 % rejected,
    // tile t's rejected elements land about (tiles - t)/100 tiles further on, in tiles taken
    // shortly before it: safe only because a tile learns where to write after every tile taken
    // before it has published its count, which it does after reading its input. Also a mixed
    // pattern: the first 70 % rejected, the rest kept (rejected elements moving 0.3 n right).
    auto g = sweep_test::rng(1200);
    const std::int64_t n = std::min((std::int64_t{1} << 25) + 777, max_test_size());
    for (int round = 0; round < 4; ++round) {
        std::vector<std::int32_t> h;
        if (round < 3) {
            h = random_inputs<std::int32_t>(n, g);
        } else {
            std::uniform_int_distribution<std::int32_t> d(1, 1 << 30);
            h.resize(static_cast<std::size_t>(n));
            for (std::int64_t i = 0; i < n; ++i) h[i] = i < n / 10 * 7 ? d(g) : -d(g);
        }
        INFO("round " << round << (round < 3 ? " (1 % kept)" : " (70 % rejected, then kept)"));
        auto want = h;
        std::int64_t k = 0;
        device_vector<std::int32_t> a(h);
        if (round < 3) {
            const keep_percent pred{1};
            k = sweep::stable_partition(sweep::seq, want.begin(), want.end(), pred) - want.begin();
            CHECK(sweep::stable_partition(sweep::gpu, a.begin(), a.end(), pred) - a.begin() == k);
        } else {
            const sweep::less_than<std::int32_t> negative{0};
            k = sweep::stable_partition(sweep::seq, want.begin(), want.end(), negative) -
                want.begin();
            CHECK(sweep::partition(sweep::gpu, a.begin(), a.end(), negative) - a.begin() == k);
        }
        if (round < 3) CHECK(a.download() == want);
        else CHECK(is_partition_of(a.download(), h, k, sweep::less_than<std::int32_t>{0}));
    }
}

// ---- iterators -----------------------------------------------------------------------------------

TEST_CASE("gpu copy_if: a counting iterator with a stencil gives the indices of the matches",
          "[gpu][compaction][thrust]") {
    auto g = sweep_test::rng(1200);
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{3'000'017}}) {
        n = std::min(n, max_test_size());
        INFO("n = " << n);
        const auto h = random_ints(n, g);
        device_vector<std::int32_t> st(h);
        device_vector<std::int64_t> out(static_cast<std::size_t>(n));
        thrust::counting_iterator<std::int64_t> c(0);
        auto* e = sweep::copy_if(sweep::gpu, c, c + n, st.begin(), out.begin(), is_odd{});
        std::vector<std::int64_t> want;
        for (std::int64_t i = 0; i < n; ++i)
            if (h[i] & 1) want.push_back(i);
        REQUIRE(e - out.begin() == static_cast<std::int64_t>(want.size()));
        auto got = out.download();
        got.resize(want.size());
        CHECK(got == want);

        // Counting from 5 in 32 bits, stencil of bool.
        std::vector<std::uint8_t> hb(h.size());
        for (std::size_t i = 0; i < h.size(); ++i) hb[i] = h[i] > 0;
        thrust::device_vector<bool> flags(hb.begin(), hb.end());
        thrust::device_vector<std::int32_t> idx(n);
        thrust::counting_iterator<std::int32_t> c5(5);
        auto e2 = sweep::copy_if(sweep::gpu, c5, c5 + n, flags.begin(), idx.begin(), sweep::nonzero<>{});
        std::vector<std::int32_t> want2;
        for (std::int64_t i = 0; i < n; ++i)
            if (hb[i]) want2.push_back(static_cast<std::int32_t>(5 + i));
        REQUIRE(e2 - idx.begin() == static_cast<std::int64_t>(want2.size()));
        auto got2 = to_host(idx);
        got2.resize(want2.size());
        CHECK(got2 == want2);
    }
}

namespace {
struct twice_int {
    __host__ __device__ std::int32_t operator()(std::int32_t x) const { return 2 * x + 1; }
};
struct first_positive {
    __host__ __device__ bool operator()(const thrust::tuple<std::int32_t, float>& t) const {
        return thrust::get<0>(t) > 0;
    }
};
}  // namespace

TEST_CASE("gpu compaction: Thrust iterators", "[gpu][compaction][thrust]") {
    auto g = sweep_test::rng(1300);
    const std::int64_t n = std::min(std::int64_t{777'777}, max_test_size());
    const auto h = random_ints(n, g);
    const keep_percent pred{37};
    std::vector<std::int32_t> want(h.size()), want_f(h.size());
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    want.resize(static_cast<std::size_t>(k));
    thrust::device_vector<std::int32_t> dv(h.begin(), h.end()), out(n), out2(n);

    SECTION("device_vector iterators") {
        auto e = sweep::copy_if(sweep::gpu, dv.begin(), dv.end(), out.begin(), pred);
        CHECK(e == out.begin() + k);
        auto got = to_host(out);
        got.resize(static_cast<std::size_t>(k));
        CHECK(got == want);

        auto m = sweep::stable_partition(sweep::gpu, dv.begin(), dv.end(), pred);
        CHECK(m == dv.begin() + k);
        auto stable = h;
        sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);
        CHECK(to_host(dv) == stable);
    }
    SECTION("device_ptr, and discard_iterator for the rejected part") {
        auto [et, ef] = sweep::partition_copy(sweep::gpu, dv.data(), dv.data() + n, out.data(),
                                              thrust::make_discard_iterator(), pred);
        CHECK(et == out.data() + k);
        CHECK(ef - thrust::make_discard_iterator() == n - k);
        auto got = to_host(out);
        got.resize(static_cast<std::size_t>(k));
        CHECK(got == want);
    }
    SECTION("transform and permutation iterators as input") {
        auto t = thrust::make_transform_iterator(dv.begin(), twice_int{});
        auto e = sweep::copy_if(sweep::gpu, t, t + n, out.begin(), is_odd{});
        CHECK(e == out.begin() + n);  // 2x + 1 is always odd
        std::vector<std::int32_t> tw(h.size());
        for (std::size_t i = 0; i < h.size(); ++i) tw[i] = 2 * h[i] + 1;
        CHECK(to_host(out) == tw);

        std::vector<std::int32_t> rev(h.size());
        std::iota(rev.rbegin(), rev.rend(), 0);
        thrust::device_vector<std::int32_t> drev(rev.begin(), rev.end());
        auto pm = thrust::make_permutation_iterator(dv.begin(), drev.begin());
        auto e2 = sweep::copy_if(sweep::gpu, pm, pm + n, out.begin(), pred);
        std::vector<std::int32_t> hr(h.rbegin(), h.rend()), want_r(h.size());
        const auto kr = sweep::copy_if(sweep::seq, hr.begin(), hr.end(), want_r.begin(), pred) -
                        want_r.begin();
        REQUIRE(e2 - out.begin() == kr);
        auto got = to_host(out);
        got.resize(static_cast<std::size_t>(kr));
        want_r.resize(static_cast<std::size_t>(kr));
        CHECK(got == want_r);
    }
    SECTION("constant iterator: all or nothing") {
        thrust::constant_iterator<std::int32_t> c(7);
        CHECK(sweep::copy_if(sweep::gpu, c, c + n, out.begin(), sweep::greater_than{5}) ==
              out.begin() + n);
        CHECK(to_host(out) == std::vector<std::int32_t>(static_cast<std::size_t>(n), 7));
        CHECK(sweep::copy_if(sweep::gpu, c, c + n, out2.begin(), sweep::greater_than{8}) ==
              out2.begin());
    }
    SECTION("zip iterators: copy_if, partition_copy, and partition in place") {
        std::vector<float> hf(h.size());
        for (std::size_t i = 0; i < h.size(); ++i) hf[i] = static_cast<float>(i) * 0.5f;
        thrust::device_vector<float> df(hf.begin(), hf.end()), of(n), of2(n);
        auto zin = thrust::make_zip_iterator(thrust::make_tuple(dv.begin(), df.begin()));
        auto zout = thrust::make_zip_iterator(thrust::make_tuple(out.begin(), of.begin()));
        auto zout2 = thrust::make_zip_iterator(thrust::make_tuple(out2.begin(), of2.begin()));
        std::vector<std::size_t> kept_i, rejected_i;
        for (std::size_t i = 0; i < h.size(); ++i) (h[i] > 0 ? kept_i : rejected_i).push_back(i);
        const auto kz = static_cast<std::int64_t>(kept_i.size());
        auto check_part = [&](const thrust::device_vector<std::int32_t>& a,
                              const thrust::device_vector<float>& b,
                              const std::vector<std::size_t>& idx, std::size_t at) {
            const auto ha = to_host(a);
            const auto hb = to_host(b);
            bool ok = true;
            for (std::size_t j = 0; j < idx.size() && ok; ++j)
                ok = ha[at + j] == h[idx[j]] && hb[at + j] == hf[idx[j]];
            return ok;
        };

        auto e = sweep::copy_if(sweep::gpu, zin, zin + n, zout, first_positive{});
        CHECK(e - zout == kz);
        CHECK(check_part(out, of, kept_i, 0));

        auto [et, ef] = sweep::partition_copy(sweep::gpu, zin, zin + n, zout, zout2, first_positive{});
        CHECK(et - zout == kz);
        CHECK(ef - zout2 == n - kz);
        CHECK(check_part(out, of, kept_i, 0));
        CHECK(check_part(out2, of2, rejected_i, 0));

        // In place through a zip iterator: the copy-back runs as a kernel (not cudaMemcpy).
        auto m = sweep::stable_partition(sweep::gpu, zin, zin + n, first_positive{});
        CHECK(m - zin == kz);
        CHECK(check_part(dv, df, kept_i, 0));
        CHECK(check_part(dv, df, rejected_i, static_cast<std::size_t>(kz)));
    }
}

// ---- predicates ----------------------------------------------------------------------------------

namespace {
/// A predicate with state in device memory: keeps x when table[x & mask] is non-zero.
struct in_table {
    const std::uint8_t* table;
    std::int32_t mask;
    __device__ bool operator()(std::int32_t x) const { return table[x & mask] != 0; }
};
/// A predicate whose operator() is not const (its state changes per call; the result does not
/// depend on it).
struct counting_pred {
    int calls = 0;
    __host__ __device__ bool operator()(std::int32_t x) {
        ++calls;
        return x % 3 == 0;
    }
};
}  // namespace

TEST_CASE("gpu compaction: predicates with state", "[gpu][compaction][predicates]") {
    auto g = sweep_test::rng(1400);
    const std::int64_t n = std::min(std::int64_t{1'000'003}, max_test_size());
    const auto h = random_ints(n, g, 0, 1 << 20);
    device_vector<std::int32_t> in(h), out(h.size()), out2(h.size());
    std::vector<std::int32_t> want(h.size()), got;

    auto run = [&](const char* what, auto gpu_pred, auto host_pred) {
        INFO(what);
        out.poison();
        auto* e = sweep::copy_if(sweep::gpu, in.begin(), in.end(), out.begin(), gpu_pred);
        const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), host_pred) -
                       want.begin();
        REQUIRE(e - out.begin() == k);
        got = out.download();
        CHECK(std::equal(want.begin(), want.begin() + k, got.begin()));

        const auto [et, ef] = sweep::partition_copy(sweep::gpu, in.begin(), in.end(), out.begin(),
                                                    out2.begin(), gpu_pred);
        CHECK(et - out.begin() == k);
        CHECK(ef - out2.begin() == n - k);
        got = out.download();
        CHECK(std::equal(want.begin(), want.begin() + k, got.begin()));
    };

    std::vector<std::uint8_t> table(4096);
    for (auto& t : table) t = static_cast<std::uint8_t>(g() % 3 == 0);
    device_vector<std::uint8_t> dtable(table);
    run("device table", in_table{dtable.data(), 4095},
        [&](std::int32_t x) { return table[static_cast<std::size_t>(x & 4095)] != 0; });

    const std::int32_t t = 5;
    run("__device__ lambda capturing a value", [t] __device__(std::int32_t x) { return x % 7 == t; },
        [t](std::int32_t x) { return x % 7 == t; });
    run("__host__ __device__ lambda", [t] __host__ __device__(std::int32_t x) { return x % 11 < t; },
        [t](std::int32_t x) { return x % 11 < t; });
    run("non-const operator()", counting_pred{}, counting_pred{});
}

namespace {
template <class T, class Pred>
void check_builtin_predicate(const std::vector<T>& h, Pred pred, const char* what) {
    INFO(what);
    const auto n = static_cast<std::int64_t>(h.size());
    device_vector<T> in(h), out(h.size()), out2(h.size()), range(h);
    std::vector<T> want(h.size()), want_f(h.size());
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    sweep::partition_copy(sweep::seq, h.begin(), h.end(), want.begin(), want_f.begin(), pred);
    CHECK(sweep::copy_if(sweep::gpu, in.begin(), in.end(), out.begin(), pred) - out.begin() == k);
    CHECK(same_bits(out.download().data(), want.data(), static_cast<std::size_t>(k)));
    const auto [et, ef] =
        sweep::partition_copy(sweep::gpu, in.begin(), in.end(), out.begin(), out2.begin(), pred);
    CHECK(et - out.begin() == k);
    CHECK(ef - out2.begin() == n - k);
    CHECK(same_bits(out2.download().data(), want_f.data(), static_cast<std::size_t>(n - k)));
    CHECK(sweep::stable_partition(sweep::gpu, range.begin(), range.end(), pred) - range.begin() == k);
    auto stable = h;
    sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);
    CHECK(same_bits(range.download().data(), stable.data(), stable.size()));
}
}  // namespace

TEST_CASE("gpu compaction: the comparison predicates of <sweep/functional.hpp>",
          "[gpu][compaction][predicates]") {
    auto g = sweep_test::rng(1500);
    const std::int64_t n = std::min(std::int64_t{300'007}, max_test_size());
    const auto hi = random_ints(n, g, -50, 50);
    std::vector<float> hf(hi.begin(), hi.end());
    for (auto& x : hf) x *= 0.25f;
    check_builtin_predicate(hi, sweep::greater_than{3}, "greater_than<int>");
    check_builtin_predicate(hi, sweep::greater_or_equal{3}, "greater_or_equal<int>");
    check_builtin_predicate(hi, sweep::less_than{-7}, "less_than<int>");
    check_builtin_predicate(hi, sweep::less_or_equal{-7}, "less_or_equal<int>");
    check_builtin_predicate(hi, sweep::equal_to_value{0}, "equal_to_value<int>");
    check_builtin_predicate(hi, sweep::not_equal_to_value{0}, "not_equal_to_value<int>");
    check_builtin_predicate(hi, sweep::nonzero<>{}, "nonzero<>");
    check_builtin_predicate(hf, sweep::greater_than{0.5f}, "greater_than<float>");
    check_builtin_predicate(hf, sweep::less_or_equal{-1.25f}, "less_or_equal<float>");
    check_builtin_predicate(hf, sweep::equal_to_value{0.0f}, "equal_to_value<float>");
    check_builtin_predicate(hf, sweep::nonzero<float>{}, "nonzero<float>");
    // Compared as C++ compares: greater_than<int>{2} keeps 2.25 (2.25 > 2.0).
    check_builtin_predicate(hf, sweep::greater_than<int>{2}, "greater_than<int> on floats");
}

// ---- layouts -----------------------------------------------------------------------------------

TEST_CASE("gpu compaction: misaligned 1- and 2-byte ranges take the element-wise path",
          "[gpu][compaction]") {
    auto g = sweep_test::rng(1600);
    const std::int64_t n = std::min(std::int64_t{(1 << 20) + 5}, max_test_size());
    const auto h8 = random_inputs<std::int8_t>(n + 8, g);
    const auto h16 = random_inputs<std::int16_t>(n + 8, g);
    device_vector<std::int8_t> in8(h8), out8(h8.size());
    device_vector<std::int16_t> in16(h16), out16(h16.size());
    const keep_percent pred{50};
    for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; b += 3) {
            INFO("input offset " << a << ", output offset " << b);
            std::vector<std::int8_t> w8(h8.size());
            const auto k8 = sweep::copy_if(sweep::seq, h8.begin() + a, h8.begin() + a + n,
                                           w8.begin(), pred) - w8.begin();
            CHECK(sweep::copy_if(sweep::gpu, in8.begin() + a, in8.begin() + a + n,
                                 out8.begin() + b, pred) - (out8.begin() + b) == k8);
            CHECK(same_bits(out8.download().data() + b, w8.data(), static_cast<std::size_t>(k8)));

            std::vector<std::int16_t> w16(h16.size());
            const auto k16 = sweep::copy_if(sweep::seq, h16.begin() + a, h16.begin() + a + n,
                                            w16.begin(), pred) - w16.begin();
            CHECK(sweep::copy_if(sweep::gpu, in16.begin() + a, in16.begin() + a + n,
                                 out16.begin() + b, pred) - (out16.begin() + b) == k16);
            CHECK(same_bits(out16.download().data() + b, w16.data(), static_cast<std::size_t>(k16)));
        }
        // In place at a misaligned start: the copy-back goes to an odd address too.
        device_vector<std::int8_t> r8(h8);
        auto s8 = h8;
        sweep::stable_partition(sweep::seq, s8.begin() + a, s8.begin() + a + n, pred);
        sweep::stable_partition(sweep::gpu, r8.begin() + a, r8.begin() + a + n, pred);
        CHECK(r8.download() == s8);
    }
}

// ---- streams, resources, errors ---------------------------------------------------------------

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
}  // namespace

TEST_CASE("gpu compaction: several host threads, each on its own stream",
          "[gpu][compaction][streams]") {
    constexpr int threads = 4;
    std::vector<std::thread> pool;
    std::atomic<int> failures{0};
    counting_resource res;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([t, &failures, &res] {
            cudaStream_t s;
            cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
            auto g = sweep_test::rng(1700 + t);
            for (int round = 0; round < 6; ++round) {
                const std::int64_t n =
                    std::min((std::int64_t{1} << 18) * (round + 1) + 97 * t, max_test_size());
                const auto h = random_inputs<std::int64_t>(n, g);
                const keep_percent pred{static_cast<unsigned>(10 + 15 * round)};
                device_vector<std::int64_t> in(h), a(h.size()), b(h.size()), r(h);
                std::vector<std::int64_t> wa(h.size()), wb(h.size());
                const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), wa.begin(), pred) -
                               wa.begin();
                sweep::partition_copy(sweep::seq, h.begin(), h.end(), wa.begin(), wb.begin(), pred);
                auto stable = h;
                sweep::stable_partition(sweep::seq, stable.begin(), stable.end(), pred);

                // The calls return with their work done (the result is the count): no sync here.
                bool ok = sweep::copy_if(sweep::gpu.on(s), in.begin(), in.end(), a.begin(), pred) -
                              a.begin() == k;
                auto ha = a.download();
                ok = ok && std::equal(wa.begin(), wa.begin() + k, ha.begin());
                const auto [et, ef] = sweep::partition_copy(sweep::gpu.on(s).with(res), in.begin(),
                                                            in.end(), a.begin(), b.begin(), pred);
                ok = ok && et - a.begin() == k && ef - b.begin() == n - k;
                ha = a.download();
                const auto hb = b.download();
                ok = ok && std::equal(wa.begin(), wa.begin() + k, ha.begin()) &&
                     std::equal(wb.begin(), wb.begin() + (n - k), hb.begin());
                ok = ok && sweep::stable_partition(sweep::gpu.on(s).with(res), r.begin(), r.end(),
                                                   pred) - r.begin() == k;
                ok = ok && r.download() == stable;
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

TEST_CASE("gpu compaction: errors", "[gpu][compaction][errors]") {
    std::vector<int> host(1000, 1);
    device_vector<int> dev(1000), dev2(1000);
    const sweep::greater_than<int> pred{0};
    SECTION("host memory is std::invalid_argument") {
        CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, host.data(), host.data() + 1000, dev.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, dev.data(), dev.data() + 1000, host.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, dev.data(), dev.data() + 1000, host.data(),
                                       dev2.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::partition_copy(sweep::gpu, dev.data(), dev.data() + 1000,
                                              host.data(), dev2.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::partition_copy(sweep::gpu, dev.data(), dev.data() + 1000,
                                              dev2.data(), host.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::partition(sweep::gpu, host.data(), host.data() + 1000, pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::stable_partition(sweep::gpu, host.data(), host.data() + 1000, pred),
                        std::invalid_argument);
        CHECK(host == std::vector<int>(1000, 1));
    }
    SECTION("last < first is std::invalid_argument") {
        CHECK_THROWS_AS(sweep::copy_if(sweep::gpu, dev.data() + 1, dev.data(), dev2.data(), pred),
                        std::invalid_argument);
        CHECK_THROWS_AS(sweep::stable_partition(sweep::gpu, dev.data() + 1, dev.data(), pred),
                        std::invalid_argument);
    }
    SECTION("no temporary memory is std::bad_alloc, before any output is written") {
        failing_resource none;
        auto g = sweep_test::rng(1800);
        const std::int64_t n = std::min(std::int64_t{1} << 22, max_test_size());
        const auto h = random_inputs<int>(n, g);
        device_vector<int> in(h), out(h.size()), out2(h.size());
        const auto before = out.download();
        CHECK_THROWS_AS(sweep::copy_if(sweep::gpu.with(none), in.begin(), in.end(), out.begin(), pred),
                        std::bad_alloc);
        CHECK_THROWS_AS(sweep::partition_copy(sweep::gpu.with(none), in.begin(), in.end(),
                                              out.begin(), out2.begin(), pred),
                        std::bad_alloc);
        CHECK(out.download() == before);
        // Small inputs (one block) need no temporary when the count has its mapped slot
        // (docs/compaction.md): they either succeed or throw before writing.
        try {
            auto* e = sweep::copy_if(sweep::gpu.with(none), in.begin(), in.begin() + 5,
                                     out.begin(), pred);
            std::vector<int> want(5);
            const auto k = sweep::copy_if(sweep::seq, h.begin(), h.begin() + 5, want.begin(), pred) -
                           want.begin();
            CHECK(e - out.begin() == k);
            CHECK(std::equal(want.begin(), want.begin() + k, out.download().begin()));
            out.upload(before);
        } catch (const std::bad_alloc&) {
            CHECK(out.download() == before);
        }
        // In place: the range is unchanged.
        CHECK_THROWS_AS(sweep::stable_partition(sweep::gpu.with(none), in.begin(), in.end(), pred),
                        std::bad_alloc);
        CHECK_THROWS_AS(sweep::partition(sweep::gpu.with(none), in.begin(), in.end(), pred),
                        std::bad_alloc);
        CHECK(in.download() == h);
    }
    SECTION("n = 0 touches nothing and returns the first iterators") {
        CHECK(sweep::copy_if(sweep::gpu, host.data(), host.data(), host.data(), pred) == host.data());
        const auto [t, f] = sweep::partition_copy(sweep::gpu, host.data(), host.data(), host.data(),
                                                  host.data() + 1, pred);
        CHECK(t == host.data());
        CHECK(f == host.data() + 1);
        CHECK(sweep::partition(sweep::gpu, host.data(), host.data(), pred) == host.data());
        CHECK(sweep::stable_partition(sweep::gpu, host.data(), host.data(), pred) == host.data());
    }
}

TEST_CASE("gpu compaction: a call inside a CUDA graph capture is a cuda_error, not a hang",
          "[gpu][compaction][graph]") {
    // The call must wait for its count, which a capture cannot do (docs/compaction.md).
    const std::int64_t n = std::min(std::int64_t{1} << 20, max_test_size());
    auto g = sweep_test::rng(1900);
    const auto h = random_inputs<int>(n, g);
    device_vector<int> in(h), out(h.size());
    const sweep::greater_than<int> pred{0};
    cudaStream_t s;
    cuda_ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    sweep::copy_if(sweep::gpu.on(s), in.begin(), in.end(), out.begin(), pred);  // warm (per-thread slot)
    cuda_ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
    CHECK_THROWS_AS(sweep::copy_if(sweep::gpu.on(s), in.begin(), in.end(), out.begin(), pred),
                    sweep::cuda_error);
    cudaGraph_t graph = nullptr;
    (void)cudaStreamEndCapture(s, &graph);  // invalidated: an error is expected here
    if (graph != nullptr) cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    // The stream works as before.
    std::vector<int> want(h.size());
    const auto k = sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), pred) - want.begin();
    CHECK(sweep::copy_if(sweep::gpu.on(s), in.begin(), in.end(), out.begin(), pred) - out.begin() == k);
    cudaStreamDestroy(s);
}
