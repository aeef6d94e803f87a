// test/automatic.cpp -- host tests: what sweep::automatic decides for host data, and that every
// algorithm gives the seq oracle's results through it.
//
// The decisions (detail/dispatch.hpp): iterator types classified at compile time (host container
// iterators -> host; raw pointers -> asked of CUDA at run time; neutral ones follow the others),
// then the size (n < automatic_seq_below -> seq, else par). Raw pointers to host memory stay on
// the host in every build: CPU-only (no query at all), and a CUDA build on a machine with or
// without a GPU (the query says "host"). Device and managed pointers, and Thrust device
// iterators, are tested on the GPU (test/gpu/automatic.cu).
//
// Compiled by the host compiler: in a CUDA build this also proves that sweep::automatic with a
// custom operator on raw pointers compiles from a host-compiled file (the GPU path is then not
// instantiated) and runs host data on the host.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "random.hpp"

namespace {

using sweep::detail::gpu_tag;
using sweep::detail::par_tag;
using sweep::detail::residence;
using sweep::detail::seq_tag;

// ---- compile-time classification ------------------------------------------------------------------
static_assert(sweep::detail::residence_v<std::vector<int>::iterator> == residence::host);
static_assert(sweep::detail::residence_v<std::vector<int>::const_iterator> == residence::host);
static_assert(sweep::detail::residence_v<int*> == residence::pointer);
static_assert(sweep::detail::residence_v<const double*> == residence::pointer);
static_assert(sweep::detail::residence_v<const int* const&> == residence::pointer);

template <class... Its>
constexpr residence where_of() {
    return decltype(sweep::detail::locate<false>("t", std::declval<const Its&>()...))::where;
}
// A host iterator wins over a raw pointer: the pointer is then the caller's host memory.
static_assert(where_of<int*, std::vector<int>::iterator>() == residence::host);
static_assert(where_of<std::vector<int>::iterator, int*>() == residence::host);
static_assert(where_of<const int*, int*>() == residence::pointer);

/// The backend sweep::automatic picks for a call over `its`, as invoke_backend reports it.
template <class... Its>
char backend_of(std::int64_t n, const Its&... its) {
    const auto where = sweep::detail::locate<false>("test", its...);
    return sweep::detail::invoke_backend(sweep::automatic, n, where, [](auto tag, const auto&) {
        if constexpr (std::is_same_v<decltype(tag), seq_tag>) return 's';
        else if constexpr (std::is_same_v<decltype(tag), par_tag>) return 'p';
        else return 'g';
    });
}

constexpr char par_or_seq = SWEEP_HAS_TBB ? 'p' : 's';

}  // namespace

TEST_CASE("automatic: the probe is the first raw pointer of the call", "[automatic]") {
    int a = 0, b = 0;
    std::vector<int> v(4);
    CHECK(sweep::detail::locate<false>("t", &a, &b).probe == &a);
    CHECK(sweep::detail::locate<false>("t", v.begin(), &b).probe == &b);
    CHECK(sweep::detail::locate<false>("t", v.begin(), v.end()).probe == nullptr);
}

TEST_CASE("automatic: host containers' iterators run on seq below the threshold, par above",
          "[automatic]") {
    const std::int64_t t = sweep::detail::automatic_seq_below;
    std::vector<int> v(1);
    CHECK(backend_of(0, v.begin()) == 's');
    CHECK(backend_of(1, v.begin()) == 's');
    CHECK(backend_of(t - 1, v.begin()) == 's');
    CHECK(backend_of(t, v.begin()) == par_or_seq);
    CHECK(backend_of(std::int64_t{1} << 40, v.begin(), v.begin()) == par_or_seq);
}

TEST_CASE("automatic: raw pointers to host memory run on the host, by size", "[automatic]") {
    // Heap (malloc'd, pageable) and stack memory: neither is device memory, with or without a GPU.
    const std::int64_t t = sweep::detail::automatic_seq_below;
    auto heap = std::make_unique<int[]>(16);
    int stack[4] = {};
    CHECK(backend_of(10, heap.get()) == 's');
    CHECK(backend_of(t, heap.get()) == par_or_seq);
    CHECK(backend_of(t, static_cast<const int*>(stack), heap.get()) == par_or_seq);
    CHECK(backend_of(t - 1, heap.get(), heap.get()) == 's');
#if SWEEP_HAS_CUDA
    CHECK(sweep::detail::cuda::memory_kind_of(heap.get()) ==
          sweep::detail::cuda::memory_kind::host);
    CHECK(sweep::detail::cuda::memory_kind_of(stack) == sweep::detail::cuda::memory_kind::host);
    CHECK(sweep::detail::cuda::memory_kind_of(nullptr) == sweep::detail::cuda::memory_kind::host);
#endif
}

TEST_CASE("automatic: .threads(k) reaches the par policy it picks", "[automatic]") {
    std::vector<int> v(1);
    const auto where = sweep::detail::locate<false>("test", v.begin());
    const int k = sweep::detail::invoke_backend(
        sweep::automatic.threads(3), sweep::detail::automatic_seq_below, where,
        [](auto, const auto& pol) {
            if constexpr (requires { pol.max_threads; }) return pol.max_threads;
            else return -1;
        });
    CHECK(k == (SWEEP_HAS_TBB ? 3 : -1));
}

// Every algorithm through sweep::automatic on raw host pointers and on vectors, at a size on each
// side of the seq/par threshold, against sweep::seq.
TEST_CASE("automatic: every algorithm on host pointers gives seq's results", "[automatic]") {
    const std::uint64_t salt = 801;
    INFO("seed " << sweep_test::seed() << " salt " << salt);
    auto gen = sweep_test::rng(salt);
    const std::int64_t t = sweep::detail::automatic_seq_below;
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, t - 1, t + 1, 3 * t + 7}) {
        INFO("n = " << n);
        std::vector<std::int32_t> x(static_cast<std::size_t>(n));
        std::uniform_int_distribution<std::int32_t> d(-1000, 1000);
        for (auto& e : x) e = d(gen);
        std::vector<std::int32_t> keys(x.size());
        for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::int32_t>(i / 37);
        std::vector<std::int32_t> want(x.size()), got(x.size());
        const std::int32_t* in = x.data();
        std::int32_t* out = got.data();

        // A lambda operator: not precompiled, so never a GPU candidate from this file.
        auto op = [](std::int32_t a, std::int32_t b) { return a + b; };
        sweep::inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), op);
        CHECK(sweep::inclusive_scan(sweep::automatic, in, in + n, out, op) == out + n);
        CHECK(got == want);
        sweep::exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), 5);
        sweep::exclusive_scan(sweep::automatic, in, in + n, out, 5);
        CHECK(got == want);
        sweep::exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(), 5,
                              sweep::maximum<>{});
        sweep::exclusive_scan(sweep::automatic.threads(2), x.begin(), x.end(), got.begin(), 5,
                              sweep::maximum<>{});
        CHECK(got == want);
        sweep::transform_inclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        std::plus<>{}, [](std::int32_t v) { return v * 2; });
        sweep::transform_inclusive_scan(sweep::automatic, in, in + n, out, std::plus<>{},
                                        [](std::int32_t v) { return v * 2; });
        CHECK(got == want);

        const auto pred = sweep::greater_than<std::int32_t>{0};
        auto e1 = sweep::copy_if(sweep::seq, x.begin(), x.end(), want.begin(), pred);
        auto e2 = sweep::copy_if(sweep::automatic, in, in + n, out, pred);
        REQUIRE(e2 - out == e1 - want.begin());
        CHECK(std::equal(out, e2, want.begin()));

        std::vector<std::int32_t> f1(x.size()), f2(x.size());
        auto p1 = sweep::partition_copy(sweep::seq, x.begin(), x.end(), want.begin(), f1.begin(),
                                        pred);
        auto p2 = sweep::partition_copy(sweep::automatic, in, in + n, out, f2.data(), pred);
        REQUIRE(p2.first - out == p1.first - want.begin());
        CHECK(std::equal(out, p2.first, want.begin()));
        CHECK(std::equal(f2.data(), p2.second, f1.begin()));

        want = x;
        got = x;
        auto s1 = sweep::stable_partition(sweep::seq, want.begin(), want.end(), pred);
        auto s2 = sweep::stable_partition(sweep::automatic, got.data(), got.data() + n, pred);
        CHECK(s2 - got.data() == s1 - want.begin());
        CHECK(got == want);
        got = x;
        auto q2 = sweep::partition(sweep::automatic, got.data(), got.data() + n, pred);
        CHECK(q2 - got.data() == s1 - want.begin());
        CHECK(std::all_of(got.data(), q2, pred));
        CHECK(std::none_of(q2, got.data() + n, pred));

        want = x;
        got = x;
        sweep::radix_sort(sweep::seq, want.begin(), want.end());
        sweep::radix_sort(sweep::automatic, got.data(), got.data() + n);
        CHECK(got == want);

        sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), x.begin(),
                                     want.begin());
        sweep::inclusive_scan_by_key(sweep::automatic, keys.data(), keys.data() + n, in, out);
        CHECK(got == want);
        std::vector<std::int64_t> offs;
        for (std::int64_t i = 0; i < n; i += 100) offs.push_back(i);
        offs.push_back(n);
        sweep::segmented_exclusive_scan(sweep::seq, x.begin(), x.end(), want.begin(),
                                        sweep::offsets(offs.begin(), offs.end()), 0);
        sweep::segmented_exclusive_scan(sweep::automatic, in, in + n, out,
                                        sweep::offsets(offs.data(), offs.data() + offs.size()),
                                        0);
        CHECK(got == want);
    }
}
