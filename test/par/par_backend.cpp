// test/par/par_backend.cpp -- host tests of what only the par backend promises, beyond agreeing
// with seq (the shared tests check that): results independent of .threads(k) (floating-point
// scans bitwise, partition's documented order), partition's exact order (docs/decisions/0002),
// and an exception from an operator reaching the caller without a hang.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <sweep/partition.hpp>
#include <sweep/scan.hpp>

#include "catch.hpp"
#include "random.hpp"

namespace {

constexpr std::int64_t block = sweep::detail::tbb_backend::scan_block;

std::vector<std::int64_t> edge_sizes() {
    return {0, 1, 2, block - 1, block, block + 1, 3 * block + 7, 37 * block + 1};
}

// The documented order of sweep::partition(par): the i-th false in [0, k) swaps with the i-th
// true in [k, n).
template <class T, class Pred>
std::int64_t reference_partition(std::vector<T>& v, Pred pred) {
    const auto k = static_cast<std::int64_t>(std::count_if(v.begin(), v.end(), pred));
    std::int64_t j = k;
    for (std::int64_t i = 0; i < k; ++i) {
        if (pred(v[static_cast<std::size_t>(i)])) continue;
        while (!pred(v[static_cast<std::size_t>(j)])) ++j;
        std::swap(v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(j)]);
        ++j;
    }
    return k;
}

}  // namespace

TEST_CASE("par double scans are bitwise identical for every thread count", "[par]") {
    auto g = sweep_test::rng(201);
    for (std::int64_t n : edge_sizes()) {
        std::vector<double> in(static_cast<std::size_t>(n));
        for (auto& x : in) x = static_cast<double>(g() % 1000003) * 1e-3 - 400.0;
        std::vector<double> one(in.size()), two(in.size()), all(in.size()), seq(in.size());
        sweep::inclusive_scan(sweep::par.threads(1), in.begin(), in.end(), one.begin());
        sweep::inclusive_scan(sweep::par.threads(2), in.begin(), in.end(), two.begin());
        sweep::inclusive_scan(sweep::par, in.begin(), in.end(), all.begin());
        INFO("n = " << n);
        CHECK(one == two);
        CHECK(one == all);
        sweep::exclusive_scan(sweep::par.threads(1), in.begin(), in.end(), one.begin(), 0.25);
        sweep::exclusive_scan(sweep::par, in.begin(), in.end(), all.begin(), 0.25);
        CHECK(one == all);
        if (n <= block) {  // one block: exactly seq's association
            sweep::inclusive_scan(sweep::seq, in.begin(), in.end(), seq.begin());
            sweep::inclusive_scan(sweep::par, in.begin(), in.end(), all.begin());
            CHECK(seq == all);
        }
    }
}

TEST_CASE("par partition follows its documented order for every thread count", "[par]") {
    auto g = sweep_test::rng(202);
    for (std::int64_t n : edge_sizes()) {
        for (int kept_pct : {0, 3, 50, 97, 100}) {
            std::vector<std::int32_t> in(static_cast<std::size_t>(n));
            for (auto& x : in) x = static_cast<std::int32_t>(g() % 100);
            auto pred = [kept_pct](std::int32_t x) { return x < kept_pct; };
            auto expect = in;
            const std::int64_t k = reference_partition(expect, pred);
            for (int threads : {1, 2, 0}) {
                auto v = in;
                auto mid = sweep::partition(sweep::par.threads(threads), v.begin(), v.end(), pred);
                INFO("n = " << n << ", kept " << kept_pct << "%, threads " << threads);
                CHECK(mid - v.begin() == k);
                CHECK(v == expect);
            }
        }
    }
}

TEST_CASE("par scan: an exception from the operator reaches the caller", "[par]") {
    const std::int64_t n = 64 * block;
    std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1), out(in.size());
    std::atomic<std::int64_t> calls{0};
    auto throwing_plus = [&](std::int64_t a, std::int64_t b) {
        if (calls.fetch_add(1) == 20 * block) throw std::runtime_error("op failed");
        return a + b;
    };
    CHECK_THROWS_AS(sweep::inclusive_scan(sweep::par, in.begin(), in.end(), out.begin(),
                                          throwing_plus),
                    std::runtime_error);
}

#if defined(__linux__)
#include <sweep/backend/tbb/temporary.hpp>

TEST_CASE("par temporaries: a released mapping serves the next call of at most its size",
          "[par][memory]") {
    using sweep::detail::tbb_backend::raw_temporary;
    using sweep::detail::tbb_backend::release_spare_mappings;
    release_spare_mappings();
    const std::int64_t big = std::int64_t{3} << 20;  // 12 MiB of int32 (rounded up to 2 MiB pages)
    const std::int32_t* first = nullptr;
    {
        raw_temporary<std::int32_t> t(big);
        first = t.get();
        std::fill(t.get(), t.get() + big, 7);  // written before it is given back
    }
    {
        raw_temporary<std::int32_t> t(big / 2);  // fits: the spare, not a new mapping
        CHECK(t.get() == first);
        // Its contents are garbage or zeros (MADV_FREE): writable over the whole size asked for.
        std::fill(t.get(), t.get() + big / 2, 1);
        CHECK(t.get()[big / 2 - 1] == 1);
        raw_temporary<std::int32_t> u(big / 2);  // the spare is taken: a mapping of its own
        CHECK(u.get() != first);
        u.get()[0] = 2;
        CHECK(t.get()[0] == 1);
    }
    {
        raw_temporary<std::int32_t> t(4 * big);  // larger than both spares: mapped afresh
        CHECK(t.get() != first);
        t.get()[4 * big - 1] = 3;
        CHECK(t.get()[4 * big - 1] == 3);
    }
    release_spare_mappings();
    {
        // Spares held now: none (released). A new mapping may land anywhere, the old address
        // included, so only its use is checked.
        raw_temporary<std::int32_t> t(big);
        std::fill(t.get(), t.get() + big, 5);
        CHECK(std::count(t.get(), t.get() + big, 5) == big);
    }
    release_spare_mappings();
}
#endif
