// test/par/oom.cpp -- allocation failure in the par backend, at every allocation (issue 9).
//
// Built with SWEEP_FAULT_INJECTION=1 (test/par_tests.cmake), which turns
// sweep::detail::testing::host_temporary() -- called wherever the par backend takes a temporary --
// into a counter that throws std::bad_alloc at call number fail_at. For every algorithm, at a
// one-block size and a many-block size, the test counts the temporaries a call takes (K), then for
// every k in 1..K fails the k-th: std::bad_alloc reaches the caller, every buffer is as it was (no
// output written; in-place ranges unchanged), nothing leaks (operator new/delete counted), and the
// next call gives the right result.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <new>
#include <string>
#include <vector>

#include <sweep/sweep.hpp>

#include <tbb/task_arena.h>

#include "catch.hpp"

#if !SWEEP_FAULT_INJECTION
#error "test/par/oom.cpp needs SWEEP_FAULT_INJECTION=1"
#endif

// ---- allocation accounting (as test/errors.cpp) -----------------------------------------------
#include "counting_new.hpp"  // this file is its one includer in this program

using sweep_test::live_allocations;

namespace {

namespace fi = sweep::detail::testing;

struct bufs {
    std::vector<std::int64_t> a, b, c;
    std::vector<std::int32_t> keys;
    std::vector<std::uint8_t> flags;
    std::vector<std::int64_t> offs;
    std::vector<std::uint64_t> narrow;  // two values of bit 40, each over 8 random low bits
    friend bool operator==(const bufs&, const bufs&) = default;
};

using call_t = std::function<void(bufs&)>;

std::vector<std::pair<const char*, call_t>> all_calls() {
    const auto odd = [](std::int64_t x) { return (x & 1) != 0; };
    return {
        {"inclusive_scan", [](bufs& x) { sweep::inclusive_scan(sweep::par, x.a.begin(), x.a.end(), x.b.begin()); }},
        {"exclusive_scan in place", [](bufs& x) {
             sweep::exclusive_scan(sweep::par, x.a.begin(), x.a.end(), x.a.begin(), std::int64_t{3}); }},
        {"transform_inclusive_scan", [](bufs& x) {
             sweep::transform_inclusive_scan(sweep::par, x.a.begin(), x.a.end(), x.b.begin(), std::plus<>{},
                                             [](std::int64_t v) { return 2 * v; }); }},
        {"copy_if", [=](bufs& x) { sweep::copy_if(sweep::par, x.a.begin(), x.a.end(), x.b.begin(), odd); }},
        {"copy_if(stencil)", [](bufs& x) {
             sweep::copy_if(sweep::par, x.a.begin(), x.a.end(), x.flags.begin(), x.b.begin(), sweep::nonzero<>{}); }},
        {"partition_copy", [=](bufs& x) {
             sweep::partition_copy(sweep::par, x.a.begin(), x.a.end(), x.b.begin(), x.c.begin(), odd); }},
        {"partition", [=](bufs& x) { sweep::partition(sweep::par, x.a.begin(), x.a.end(), odd); }},
        {"stable_partition", [=](bufs& x) { sweep::stable_partition(sweep::par, x.a.begin(), x.a.end(), odd); }},
        {"radix_sort", [](bufs& x) { sweep::radix_sort(sweep::par, x.a.begin(), x.a.end()); }},
        // Two buckets past a worker's share, each sorted by counting in the parallel recursion,
        // after the first has been written to the range: no temporary may be taken there.
        {"radix_sort, narrow buckets", [](bufs& x) {
             sweep::radix_sort(sweep::par, x.narrow.begin(), x.narrow.end()); }},
        {"radix_sort_by_key descending", [](bufs& x) {
             sweep::radix_sort_by_key(sweep::par, x.a.begin(), x.a.end(), x.b.begin(), sweep::descending); }},
        {"inclusive_scan_by_key", [](bufs& x) {
             sweep::inclusive_scan_by_key(sweep::par, x.keys.begin(), x.keys.end(), x.a.begin(), x.b.begin()); }},
        {"exclusive_scan_by_key", [](bufs& x) {
             sweep::exclusive_scan_by_key(sweep::par, x.keys.begin(), x.keys.end(), x.a.begin(), x.b.begin(),
                                          std::int64_t{1}); }},
        {"segmented_inclusive_scan(offsets)", [](bufs& x) {
             sweep::segmented_inclusive_scan(sweep::par, x.a.begin(), x.a.end(), x.b.begin(),
                                             sweep::offsets(x.offs.begin(), x.offs.end())); }},
        {"segmented_exclusive_scan(flags)", [](bufs& x) {
             sweep::segmented_exclusive_scan(sweep::par, x.a.begin(), x.a.end(), x.b.begin(),
                                             sweep::head_flags(x.flags.begin()), std::int64_t{0},
                                             std::plus<>{}); }},
    };
}

bufs make_bufs(std::int64_t n, std::uint64_t seed) {
    std::mt19937_64 g(seed);
    bufs x;
    const auto N = static_cast<std::size_t>(n);
    x.a.resize(N);
    x.b.assign(N, -1);
    x.c.assign(N, -2);
    x.keys.resize(N);
    x.flags.resize(N);
    x.offs.push_back(0);
    x.narrow.resize(N);
    for (std::size_t i = 0; i < N; ++i) {
        x.narrow[i] = (i % 2 == 1 ? std::uint64_t{1} << 40 : 0) + g() % 256;
        x.a[i] = static_cast<std::int64_t>(g() % 100001) - 50000;
        const bool head = i == 0 || g() % 500 == 0;
        x.keys[i] = i == 0 ? 0 : x.keys[i - 1] + (head ? 1 : 0);
        x.flags[i] = head;
        if (head && i > 0) x.offs.push_back(static_cast<std::int64_t>(i));
    }
    x.offs.push_back(n);
    return x;
}

}  // namespace

TEST_CASE("par out of memory: the k-th host temporary fails, for every k", "[par][errors][oom]") {
    // Warm-up: oneTBB's workers and arenas live on by design, not a leak of the calls below.
    {
        auto w = make_bufs(300000, 1);
        for (auto& [name, call] : all_calls()) call(w);
    }
    long injected = 0;
    for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{300'007}}) {
        const bufs original = make_bufs(n, 77 + static_cast<std::uint64_t>(n));
        for (auto& [name, call] : all_calls()) {
            INFO(name << ", n = " << n);
            bufs want = original;
            fi::fail_at = 0;
            fi::host_temporaries = 0;
            const auto counted = sweep::detail::tbb_backend::radix::count_sorts_for_tests.load();
            call(want);
            const long temporaries = fi::host_temporaries.load();
            // The narrow buckets' case must reach the counting sorts in the recursion (on two
            // or more workers; one worker sorts serially), or it tests nothing new.
            if (std::string(name) == "radix_sort, narrow buckets" && n == 300'007 &&
                tbb::this_task_arena::max_concurrency() >= 2)
                CHECK(sweep::detail::tbb_backend::radix::count_sorts_for_tests.load() - counted == 2);
            std::printf("par %s, n = %lld: %ld host temporaries\n", name, static_cast<long long>(n),
                        temporaries);
            for (long k = 1; k <= temporaries; ++k) {
                INFO("temporary " << k << " of " << temporaries << " fails");
                bufs got = original;
                const std::int64_t live_before = live_allocations.load();
                fi::host_temporaries = 0;
                fi::fail_at = k;
                bool bad_alloc = false;
                try {
                    call(got);
                } catch (const std::bad_alloc&) {
                    bad_alloc = true;
                }
                fi::fail_at = 0;
                ++injected;
                CHECK(bad_alloc);
                CHECK(live_allocations.load() == live_before);  // nothing leaked
                CHECK(got == original);                         // nothing written
                call(got);                                      // the next call works
                CHECK(got == want);
            }
        }
    }
    std::printf("par out of memory: %ld allocation failures injected\n", injected);
    CHECK(injected > 0);
}
