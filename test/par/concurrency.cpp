// test/par/concurrency.cpp -- sweep::par called concurrently (issue 9): from several std::threads
// at once (each its own data, every algorithm in a loop, .threads(k) varied), and from inside
// oneTBB tasks (a parallel_for whose iterations each call par algorithms: nested parallelism in
// the same arena). Every result is checked against seq; the seed is printed.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "random.hpp"

namespace {

/// Every par algorithm once on fresh data of size n under `pol`, each compared with seq.
/// Returns the number of wrong results.
template <class P>
int check_all(const P& pol, std::int64_t n, std::uint64_t salt) {
    auto g = sweep_test::rng(salt);
    const auto N = static_cast<std::size_t>(n);
    std::vector<std::int64_t> h(N), keys(N);
    std::vector<std::uint8_t> flags(N);
    std::vector<std::int64_t> offs{0};
    for (std::size_t i = 0; i < N; ++i) {
        h[i] = static_cast<std::int64_t>(g() % 20001) - 10000;
        const bool head = i == 0 || g() % 300 == 0;
        keys[i] = i == 0 ? 0 : keys[i - 1] + (head ? 1 : 0);
        flags[i] = head;
        if (head && i > 0) offs.push_back(static_cast<std::int64_t>(i));
    }
    offs.push_back(n);
    const auto odd = [](std::int64_t x) { return (x & 1) != 0; };
    int wrong = 0;
    auto same = [&](const auto& a, const auto& b, const char* what) {
        if (a != b) {
            std::printf("FAIL %s, n = %lld, salt %llu, seed %llu\n", what, static_cast<long long>(n),
                        static_cast<unsigned long long>(salt),
                        static_cast<unsigned long long>(sweep_test::seed()));
            ++wrong;
        }
    };
    std::vector<std::int64_t> a(N), b(N), a2(N), b2(N);
    sweep::inclusive_scan(pol, h.begin(), h.end(), a.begin());
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), b.begin());
    same(a, b, "inclusive_scan");
    sweep::exclusive_scan(pol, h.begin(), h.end(), a.begin(), std::int64_t{5}, sweep::maximum<>{});
    sweep::exclusive_scan(sweep::seq, h.begin(), h.end(), b.begin(), std::int64_t{5}, sweep::maximum<>{});
    same(a, b, "exclusive_scan(max)");
    const auto ea = sweep::copy_if(pol, h.begin(), h.end(), a.begin(), odd) - a.begin();
    const auto eb = sweep::copy_if(sweep::seq, h.begin(), h.end(), b.begin(), odd) - b.begin();
    same(std::vector<std::int64_t>(a.begin(), a.begin() + ea), std::vector<std::int64_t>(b.begin(), b.begin() + eb),
         "copy_if");
    const auto [ta, fa] = sweep::partition_copy(pol, h.begin(), h.end(), a.begin(), a2.begin(), odd);
    const auto [tb, fb] = sweep::partition_copy(sweep::seq, h.begin(), h.end(), b.begin(), b2.begin(), odd);
    same(std::vector<std::int64_t>(a.begin(), ta), std::vector<std::int64_t>(b.begin(), tb), "partition_copy (true)");
    same(std::vector<std::int64_t>(a2.begin(), fa), std::vector<std::int64_t>(b2.begin(), fb), "partition_copy (false)");
    a = h;
    b = h;
    sweep::stable_partition(pol, a.begin(), a.end(), odd);
    sweep::stable_partition(sweep::seq, b.begin(), b.end(), odd);
    same(a, b, "stable_partition");
    a = h;
    const auto m = sweep::partition(pol, a.begin(), a.end(), odd) - a.begin();
    same(m, tb - b.begin(), "partition (position)");
    same(std::all_of(a.begin(), a.begin() + m, odd) && std::none_of(a.begin() + m, a.end(), odd), true,
         "partition (sides)");
    a = h;
    b = h;
    sweep::radix_sort(pol, a.begin(), a.end());
    sweep::radix_sort(sweep::seq, b.begin(), b.end());
    same(a, b, "radix_sort");
    sweep::inclusive_scan_by_key(pol, keys.begin(), keys.end(), h.begin(), a.begin());
    sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), h.begin(), b.begin());
    same(a, b, "inclusive_scan_by_key");
    sweep::segmented_exclusive_scan(pol, h.begin(), h.end(), a.begin(), sweep::offsets(offs.begin(), offs.end()),
                                    std::int64_t{2});
    sweep::segmented_exclusive_scan(sweep::seq, h.begin(), h.end(), b.begin(),
                                    sweep::offsets(offs.begin(), offs.end()), std::int64_t{2});
    same(a, b, "segmented_exclusive_scan(offsets)");
    sweep::segmented_inclusive_scan(pol, h.begin(), h.end(), a.begin(), sweep::head_flags(flags.begin()),
                                    std::plus<>{});
    sweep::segmented_inclusive_scan(sweep::seq, h.begin(), h.end(), b.begin(), sweep::head_flags(flags.begin()),
                                    std::plus<>{});
    same(a, b, "segmented_inclusive_scan(flags)");
    return wrong;
}

std::int64_t size_of(std::uint64_t salt) {
    auto g = sweep_test::rng(salt ^ 0xABCDEF);
    static const std::int64_t sizes[] = {1, 1000, 32767, 32769, 70001, 262145};
    return sizes[g() % 6];
}

}  // namespace

TEST_CASE("par concurrency: several std::threads calling every algorithm at once", "[par][concurrency]") {
    constexpr int threads = 6, rounds = 4;
    std::printf("par concurrency: seed %llu\n", static_cast<unsigned long long>(sweep_test::seed()));
    std::atomic<int> wrong{0}, errors{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            try {
                for (int r = 0; r < rounds; ++r) {
                    const std::uint64_t salt = 5000 + 100 * static_cast<std::uint64_t>(t) + static_cast<std::uint64_t>(r);
                    const std::int64_t n = size_of(salt);
                    wrong += (t % 3 == 0) ? check_all(sweep::par, n, salt)
                                          : check_all(sweep::par.threads(1 + t % 3), n, salt);
                }
            } catch (const std::exception& e) {
                std::printf("FAIL thread %d threw: %s\n", t, e.what());
                ++errors;
            }
        });
    }
    for (auto& th : pool) th.join();
    CHECK(wrong == 0);
    CHECK(errors == 0);
}

TEST_CASE("par concurrency: par calls from inside oneTBB tasks", "[par][concurrency]") {
    std::atomic<int> wrong{0}, errors{0};
    // Iterations of a parallel_for, each calling par algorithms (which run their own parallel
    // loops in the caller's arena, or in a capped one with .threads(k)).
    tbb::parallel_for(0, 12, [&](int i) {
        try {
            const std::uint64_t salt = 6000 + static_cast<std::uint64_t>(i);
            const std::int64_t n = size_of(salt);
            wrong += (i % 2) ? check_all(sweep::par, n, salt) : check_all(sweep::par.threads(2), n, salt);
        } catch (const std::exception& e) {
            std::printf("FAIL task %d threw: %s\n", i, e.what());
            ++errors;
        }
    });
    // And from a task_group's tasks.
    tbb::task_group tg;
    for (int i = 0; i < 4; ++i)
        tg.run([&, i] { wrong += check_all(sweep::par, 100003 + i, 6100 + static_cast<std::uint64_t>(i)); });
    tg.wait();
    CHECK(wrong == 0);
    CHECK(errors == 0);
}

namespace {
/// Throws on its `at`-th call (shared across copies), as an operator or a predicate.
struct throws_at {
    std::atomic<std::int64_t>* calls;
    std::int64_t at;
    std::int64_t operator()(std::int64_t a, std::int64_t b) const {
        if (calls->fetch_add(1) == at) throw std::runtime_error("user operator failed");
        return a + b;
    }
    bool operator()(std::int64_t a) const {
        if (calls->fetch_add(1) == at) throw std::runtime_error("user predicate failed");
        return (a & 1) != 0;
    }
};
}  // namespace

TEST_CASE("par: after user code throws, the next calls of every algorithm work", "[par][errors]") {
    const std::int64_t n = 300007;
    std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1), out(in.size()), keys(in.size(), 0);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::int64_t>(i / 1000);
    for (const std::int64_t at : {std::int64_t{0}, n / 3, n / 2}) {
        INFO("throws at call " << at);
        std::atomic<std::int64_t> calls{0};
        const throws_at f{&calls, at};
        auto again = [&] {
            calls = 0;
        };
        CHECK_THROWS_AS(sweep::inclusive_scan(sweep::par, in.begin(), in.end(), out.begin(), f),
                        std::runtime_error);
        again();
        CHECK_THROWS_AS(sweep::copy_if(sweep::par, in.begin(), in.end(), out.begin(), f), std::runtime_error);
        again();
        auto v = in;
        CHECK_THROWS_AS(sweep::stable_partition(sweep::par, v.begin(), v.end(), f), std::runtime_error);
        again();
        CHECK_THROWS_AS(sweep::inclusive_scan_by_key(sweep::par, keys.begin(), keys.end(), in.begin(),
                                                     out.begin(), std::equal_to<>{}, f),
                        std::runtime_error);
        CHECK(check_all(sweep::par, n, 7000 + static_cast<std::uint64_t>(at)) == 0);
    }
}
