// test/errors.cpp -- host tests: the error contract of API.md ("Errors"), one test per promise.
//
// - last < first -> std::invalid_argument, for every algorithm and overload, output untouched;
// - invalid offsets (o[0] != 0, decreasing, o[k] != n, empty with n > 0) -> invalid_argument,
//   output untouched, under seq, par and automatic (at a size where automatic picks par);
// - an exception thrown by a user operator, transform, predicate or key_eq (a custom type and
//   std::bad_alloc) propagates out of every host policy, and the call frees what it allocated:
//   this file replaces the global operator new/delete to count live allocations around the call.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "policies.hpp"

// ---- allocation accounting: support/counting_new.hpp (this file is its one includer here) ----

#include "counting_new.hpp"

using sweep_test::fail_above;
using sweep_test::live_allocations;

namespace {

using sweep_test::for_each_host_policy;

// ---- last < first -----------------------------------------------------------------------------

// Calls every algorithm of the API with last = first - 3 (pointers into a live buffer, so that
// an implementation that did read would read valid memory and the test would see wrong output,
// not a crash) and requires invalid_argument with every buffer unchanged.
template <class P>
void check_reversed_ranges(const P& pol) {
    std::vector<int> in(16, 1), out(16, 7), out2(16, 7), keys(16, 2), offs{0, 16};
    std::vector<std::uint8_t> flags(16, 0);
    const int* f = in.data() + 5;
    const int* l = in.data() + 2;
    int* d = out.data();
    int* d2 = out2.data();
    int* k = keys.data() + 5;
    int* kl = keys.data() + 2;
    const auto segs = sweep::offsets(offs.begin(), offs.end());
    const auto heads = sweep::head_flags(flags.begin());
    const auto pred = [](int x) { return x > 0; };
    const auto sq = [](int x) { return x * x; };
    int mut[16] = {3, 1, 2};
    auto expect_throw = [&](auto&& call, const char* what) {
        INFO(what);
        CHECK_THROWS_AS(call(), std::invalid_argument);
    };
    expect_throw([&] { sweep::inclusive_scan(pol, f, l, d); }, "inclusive_scan");
    expect_throw([&] { sweep::inclusive_scan(pol, f, l, d, std::plus<>{}); }, "inclusive_scan op");
    expect_throw([&] { sweep::inclusive_scan(pol, f, l, d, std::plus<>{}, 1); }, "inclusive_scan init");
    expect_throw([&] { sweep::exclusive_scan(pol, f, l, d, 0); }, "exclusive_scan");
    expect_throw([&] { sweep::exclusive_scan(pol, f, l, d, 0, std::plus<>{}); }, "exclusive_scan op");
    expect_throw([&] { sweep::transform_inclusive_scan(pol, f, l, d, std::plus<>{}, sq); },
                 "transform_inclusive_scan");
    expect_throw([&] { sweep::transform_inclusive_scan(pol, f, l, d, std::plus<>{}, sq, 0); },
                 "transform_inclusive_scan init");
    expect_throw([&] { sweep::transform_exclusive_scan(pol, f, l, d, 0, std::plus<>{}, sq); },
                 "transform_exclusive_scan");
    expect_throw([&] { sweep::copy_if(pol, f, l, d, pred); }, "copy_if");
    expect_throw([&] { sweep::copy_if(pol, f, l, keys.data(), d, pred); }, "copy_if stencil");
    expect_throw([&] { sweep::partition(pol, mut + 5, mut + 2, pred); }, "partition");
    expect_throw([&] { sweep::stable_partition(pol, mut + 5, mut + 2, pred); }, "stable_partition");
    expect_throw([&] { sweep::partition_copy(pol, f, l, d, d2, pred); }, "partition_copy");
    expect_throw([&] { sweep::radix_sort(pol, mut + 5, mut + 2); }, "radix_sort");
    expect_throw([&] { sweep::radix_sort(pol, mut + 5, mut + 2, sweep::descending); },
                 "radix_sort descending");
    expect_throw([&] { sweep::radix_sort_by_key(pol, mut + 5, mut + 2, d); }, "radix_sort_by_key");
    expect_throw([&] { sweep::radix_sort_by_key(pol, mut + 5, mut + 2, d, sweep::descending); },
                 "radix_sort_by_key descending");
    expect_throw([&] { sweep::inclusive_scan_by_key(pol, k, kl, f, d); }, "inclusive_scan_by_key");
    expect_throw([&] { sweep::inclusive_scan_by_key(pol, k, kl, f, d, std::equal_to<>{}); },
                 "inclusive_scan_by_key key_eq");
    expect_throw(
        [&] { sweep::inclusive_scan_by_key(pol, k, kl, f, d, std::equal_to<>{}, std::plus<>{}); },
        "inclusive_scan_by_key op");
    expect_throw([&] { sweep::exclusive_scan_by_key(pol, k, kl, f, d); }, "exclusive_scan_by_key");
    expect_throw([&] { sweep::exclusive_scan_by_key(pol, k, kl, f, d, 0); },
                 "exclusive_scan_by_key init");
    expect_throw([&] { sweep::exclusive_scan_by_key(pol, k, kl, f, d, 0, std::equal_to<>{}); },
                 "exclusive_scan_by_key key_eq");
    expect_throw(
        [&] {
            sweep::exclusive_scan_by_key(pol, k, kl, f, d, 0, std::equal_to<>{}, std::plus<>{});
        },
        "exclusive_scan_by_key op");
    expect_throw([&] { sweep::segmented_inclusive_scan(pol, f, l, d, segs); },
                 "segmented_inclusive_scan offsets");
    expect_throw([&] { sweep::segmented_inclusive_scan(pol, f, l, d, heads, std::plus<>{}); },
                 "segmented_inclusive_scan flags op");
    expect_throw([&] { sweep::segmented_exclusive_scan(pol, f, l, d, segs, 0); },
                 "segmented_exclusive_scan offsets");
    expect_throw([&] { sweep::segmented_exclusive_scan(pol, f, l, d, heads, 0, std::plus<>{}); },
                 "segmented_exclusive_scan flags op");
    CHECK(out == std::vector<int>(16, 7));
    CHECK(out2 == std::vector<int>(16, 7));
    CHECK(in == std::vector<int>(16, 1));
    CHECK(keys == std::vector<int>(16, 2));
    CHECK((mut[0] == 3 && mut[1] == 1 && mut[2] == 2));
}

// ---- temporary memory that cannot be had ------------------------------------------------------

// Runs call(bufs) once normally (the expectation) and once on fresh copies with every operator
// new request above 256 bytes failing. API.md: either the call needs no such memory and gives
// the expected result, or it throws std::bad_alloc before writing any output, so every buffer is
// as it was. `must_throw`: the backend is known to take temporaries through operator new (seq:
// std::vector), so the failure path itself is exercised.
template <class Bufs, class Call>
void check_allocation_failure(const Bufs& original, Call call, bool must_throw, const char* what) {
    INFO(what);
    Bufs want = original;
    call(want);
    Bufs got = original;
    bool threw_bad_alloc = false, threw_other = false;
    fail_above = 256;
    try {
        call(got);
    } catch (const std::bad_alloc&) {
        threw_bad_alloc = true;
    } catch (...) {
        threw_other = true;
    }
    fail_above = ~std::size_t{0};
    CHECK(!threw_other);
    if (must_throw) CHECK(threw_bad_alloc);
    if (threw_bad_alloc) CHECK(got == original);
    else CHECK(got == want);
}

// The buffers one call may touch: input/keys, output/values, second output.
struct bufs {
    std::vector<std::int64_t> a, b, c;
    friend bool operator==(const bufs&, const bufs&) = default;
};

template <class P>
void check_allocation_failures(const P& pol, std::int64_t n, bool seq_backend) {
    using buf = std::vector<std::int64_t>;
    bufs orig{buf(static_cast<std::size_t>(n)), buf(static_cast<std::size_t>(n), -1),
              buf(static_cast<std::size_t>(n), -2)};
    for (std::int64_t i = 0; i < n; ++i) orig.a[i] = (i * 7919) % 1001 - 500;
    const auto odd = [](std::int64_t x) { return (x & 1) != 0; };
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::stable_partition(pol, x.a.begin(), x.a.end(), odd);
    }, seq_backend, "stable_partition");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::partition(pol, x.a.begin(), x.a.end(), odd);
    }, seq_backend, "partition");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::radix_sort(pol, x.a.begin(), x.a.end());
    }, seq_backend, "radix_sort");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::radix_sort_by_key(pol, x.a.begin(), x.a.end(), x.b.begin(), sweep::descending);
    }, seq_backend, "radix_sort_by_key descending");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::inclusive_scan(pol, x.a.begin(), x.a.end(), x.b.begin());
    }, false, "inclusive_scan");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::copy_if(pol, x.a.begin(), x.a.end(), x.b.begin(), odd);
    }, false, "copy_if");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::partition_copy(pol, x.a.begin(), x.a.end(), x.b.begin(), x.c.begin(), odd);
    }, false, "partition_copy");
    const std::vector<std::int64_t> offs{0, n / 2, n};
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::segmented_exclusive_scan(pol, x.a.begin(), x.a.end(), x.b.begin(),
                                        sweep::offsets(offs.begin(), offs.end()), std::int64_t{0});
    }, false, "segmented_exclusive_scan");
    check_allocation_failure(orig, [&](bufs& x) {
        sweep::inclusive_scan_by_key(pol, x.c.begin(), x.c.end(), x.a.begin(), x.b.begin());
    }, false, "inclusive_scan_by_key");
}

// ---- user code that throws ---------------------------------------------------------------------

struct boom {};

// Throws E on its `after`-th call (counted across all copies, hence the shared counter).
template <class E>
struct thrower {
    std::atomic<std::int64_t>* calls;
    std::int64_t after;
    void tick() const {
        if (calls->fetch_add(1, std::memory_order_relaxed) + 1 == after) throw E();
    }
};

template <class E>
struct throwing_plus : thrower<E> {
    std::int64_t operator()(std::int64_t a, std::int64_t b) const { this->tick(); return a + b; }
};
template <class E>
struct throwing_pred : thrower<E> {
    bool operator()(std::int64_t x) const { this->tick(); return (x & 1) != 0; }
};
template <class E>
struct throwing_transform : thrower<E> {
    std::int64_t operator()(std::int64_t x) const { this->tick(); return x * 3; }
};
template <class E>
struct throwing_eq : thrower<E> {
    bool operator()(std::int64_t a, std::int64_t b) const { this->tick(); return a / 8 == b / 8; }
};

// Runs call() expecting E, and checks that the live allocation count is the same before and
// after (nothing the call allocated survives the exception).
template <class E, class Call>
void expect_propagates_without_leak(Call call, const char* what) {
    bool caught = false;
    const std::int64_t before = live_allocations.load();
    try {
        call();
    } catch (const E&) {
        caught = true;
    } catch (...) {
    }
    const std::int64_t after = live_allocations.load();
    INFO(what);
    CHECK(caught);
    CHECK(after == before);
}

template <class E, class P>
void check_user_exceptions(const P& pol, std::int64_t n) {
    std::vector<std::int64_t> in(static_cast<std::size_t>(n)), out(in.size()), out2(in.size());
    for (std::int64_t i = 0; i < n; ++i) in[i] = i * 7 % 1000;
    std::vector<std::int64_t> offs{0, n / 3, n};
    std::vector<std::uint8_t> flags(in.size());
    for (std::int64_t i = 0; i < n; i += 100) flags[i] = 1;
    std::atomic<std::int64_t> calls{0};
    const std::int64_t after = n / 2 + 1;  // mid-way: other workers are busy
    auto fresh = [&](auto t) {
        calls = 0;
        t.calls = &calls;
        t.after = after;
        return t;
    };
    std::vector<std::int64_t> work;
    const auto in_before = in;
    expect_propagates_without_leak<E>([&] {
        sweep::inclusive_scan(pol, in.begin(), in.end(), out.begin(), fresh(throwing_plus<E>{}));
    }, "inclusive_scan op");
    expect_propagates_without_leak<E>([&] {
        sweep::exclusive_scan(pol, in.begin(), in.end(), out.begin(), std::int64_t{0},
                              fresh(throwing_plus<E>{}));
    }, "exclusive_scan op");
    expect_propagates_without_leak<E>([&] {
        sweep::transform_inclusive_scan(pol, in.begin(), in.end(), out.begin(), std::plus<>{},
                                        fresh(throwing_transform<E>{}));
    }, "transform_inclusive_scan unary_op");
    expect_propagates_without_leak<E>([&] {
        sweep::copy_if(pol, in.begin(), in.end(), out.begin(), fresh(throwing_pred<E>{}));
    }, "copy_if pred");
    expect_propagates_without_leak<E>([&] {
        sweep::partition_copy(pol, in.begin(), in.end(), out.begin(), out2.begin(),
                              fresh(throwing_pred<E>{}));
    }, "partition_copy pred");
    work = in;
    expect_propagates_without_leak<E>([&] {
        sweep::stable_partition(pol, work.begin(), work.end(), fresh(throwing_pred<E>{}));
    }, "stable_partition pred");
    work = in;
    expect_propagates_without_leak<E>([&] {
        sweep::partition(pol, work.begin(), work.end(), fresh(throwing_pred<E>{}));
    }, "partition pred");
    expect_propagates_without_leak<E>([&] {
        sweep::inclusive_scan_by_key(pol, in.begin(), in.end(), in.begin(), out.begin(),
                                     fresh(throwing_eq<E>{}));
    }, "inclusive_scan_by_key key_eq");
    expect_propagates_without_leak<E>([&] {
        sweep::segmented_exclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                        sweep::offsets(offs.begin(), offs.end()), std::int64_t{0},
                                        fresh(throwing_plus<E>{}));
    }, "segmented_exclusive_scan op");
    expect_propagates_without_leak<E>([&] {
        sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), out.begin(),
                                        sweep::head_flags(flags.begin()),
                                        fresh(throwing_plus<E>{}));
    }, "segmented_inclusive_scan op");
    // API.md: a call that throws leaves its input ranges unchanged (all but the partitions above
    // read `in` only).
    CHECK(in == in_before);
}

}  // namespace

TEST_CASE("errors: last < first throws invalid_argument for every algorithm, output untouched",
          "[errors]") {
    for_each_host_policy([&](const char* name, const auto& pol) {
        INFO("policy " << name);
        check_reversed_ranges(pol);
    });
}

TEST_CASE("errors: invalid offsets throw invalid_argument, output untouched", "[errors]") {
    // 40000 > 2^15 (detail::automatic_seq_below), so sweep::automatic reaches par here too.
    for (const std::int64_t n : {10, 40000}) {
        const std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1);
        const std::vector<std::vector<std::int64_t>> bad{
            {1, 5, n},           // does not start at 0
            {0, 6, 4, n},        // decreasing
            {0, 5, n - 1},       // ends before n
            {0, 5, n + 1},       // ends past n
            {},                  // empty, but n > 0
            {0, n, 2},           // decreasing at the end, last != n
            {-1, 5, n},          // negative first
        };
        for_each_host_policy([&](const char* name, const auto& pol) {
            for (std::size_t b = 0; b < bad.size(); ++b) {
                INFO("policy " << name << ", n = " << n << ", bad offsets #" << b);
                std::vector<std::int64_t> out(in.size(), -3);
                const auto segs = sweep::offsets(bad[b].begin(), bad[b].end());
                CHECK_THROWS_AS(
                    sweep::segmented_inclusive_scan(pol, in.begin(), in.end(), out.begin(), segs),
                    std::invalid_argument);
                CHECK_THROWS_AS(sweep::segmented_exclusive_scan(pol, in.begin(), in.end(),
                                                                out.begin(), segs, std::int64_t{0},
                                                                std::plus<>{}),
                                std::invalid_argument);
                CHECK(std::all_of(out.begin(), out.end(), [](std::int64_t x) { return x == -3; }));
                // In place: the values themselves must survive too.
                auto vals = in;
                CHECK_THROWS_AS(
                    sweep::segmented_inclusive_scan(pol, vals.begin(), vals.end(), vals.begin(), segs),
                    std::invalid_argument);
                CHECK(vals == in);
            }
        });
    }
}

TEST_CASE("errors: temporary memory that cannot be had -> bad_alloc before any output is written",
          "[errors]") {
    for (const std::int64_t n : {1000, 40000}) {
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name << ", n = " << n);
            using B = sweep::detail::backend_t<decltype(pol)>;
            const bool seq_backend =
                std::is_same_v<B, sweep::detail::seq_tag> ||
                (std::is_same_v<B, sweep::detail::automatic_tag> &&
                 n < sweep::detail::automatic_seq_below);
            check_allocation_failures(pol, n, seq_backend);
        });
    }
}

TEST_CASE("errors: a scan output that overlaps its input other than in place is invalid_argument",
          "[errors]") {
    // docs/decisions/0004-aliasing-checks.md: raw pointers are checked, before any work.
    for_each_host_policy([&](const char* name, const auto& pol) {
        INFO("policy " << name);
        std::vector<int> v(100);
        for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = i;
        const auto orig = v;
        int* p = v.data();
        CHECK_THROWS_AS(sweep::inclusive_scan(pol, p, p + 50, p + 1), std::invalid_argument);
        CHECK_THROWS_AS(sweep::inclusive_scan(pol, p + 10, p + 60, p), std::invalid_argument);
        CHECK_THROWS_AS(sweep::exclusive_scan(pol, p, p + 50, p + 49, 0), std::invalid_argument);
        CHECK_THROWS_AS(sweep::transform_inclusive_scan(pol, p + 1, p + 51, p, std::plus<>{},
                                                        [](int x) { return x; }),
                        std::invalid_argument);
        CHECK(v == orig);
        // Allowed: in place, adjacent ranges, n = 0.
        sweep::inclusive_scan(pol, p, p + 50, p + 50);
        sweep::inclusive_scan(pol, p + 50, p + 100, p);
        sweep::inclusive_scan(pol, p, p, p + 1);
        sweep::inclusive_scan(pol, p, p + 100, p);
        CHECK(v[99] != orig[99]);
    });
}

TEST_CASE("errors: the message names the algorithm", "[errors]") {
    std::vector<int> v(4), o{1, 4};
    try {
        sweep::inclusive_scan(sweep::seq, v.end(), v.begin(), v.begin());
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("sweep::inclusive_scan") != std::string::npos);
    }
    try {
        sweep::segmented_exclusive_scan(sweep::par, v.begin(), v.end(), v.begin(),
                                        sweep::offsets(o.begin(), o.end()), 0);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("sweep::segmented_exclusive_scan") != std::string::npos);
    }
}

TEMPLATE_TEST_CASE("errors: an exception from user code propagates, nothing leaks", "[errors]",
                   boom, std::bad_alloc) {
    // The accounting itself works (else the leak checks below would prove nothing).
    {
        const std::int64_t before = live_allocations.load();
        auto* p = new std::vector<int>(10);
        CHECK(live_allocations.load() == before + 2);
        delete p;
        CHECK(live_allocations.load() == before);
    }
    // Warm-up: the first par call starts oneTBB's workers and allocates its arena; those live
    // on by design and must not count as a leak of the calls below.
    for_each_host_policy([&](const char*, const auto& pol) {
        std::vector<std::int64_t> a(100000, 1), b(a.size());
        sweep::inclusive_scan(pol, a.begin(), a.end(), b.begin());
        sweep::copy_if(pol, a.begin(), a.end(), b.begin(), [](std::int64_t) { return true; });
    });
    for (const std::int64_t n : {100, 40000, 1'000'000}) {
        for_each_host_policy([&](const char* name, const auto& pol) {
            INFO("policy " << name << ", n = " << n);
            check_user_exceptions<TestType>(pol, n);
        });
    }
}
