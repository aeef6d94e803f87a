#include <sweep/sweep.hpp>
#include <numeric>
#include <vector>
#include <execution>
#include "catch.hpp"

TEST_CASE("smoke: every family compiles and runs on seq and par") {
    std::vector<int> a(1000), b(1000), c(1000);
    std::iota(a.begin(), a.end(), 1);
    sweep::inclusive_scan(sweep::seq, a.begin(), a.end(), b.begin());
    std::inclusive_scan(a.begin(), a.end(), c.begin());
    CHECK(b == c);
    sweep::exclusive_scan(std::execution::par, a.begin(), a.end(), b.begin(), 5);
    std::exclusive_scan(a.begin(), a.end(), c.begin(), 5);
    CHECK(b == c);
    auto e = sweep::copy_if(sweep::par, a.begin(), a.end(), b.begin(), [](int x) { return x % 3 == 0; });
    CHECK(e - b.begin() == 333);
    auto m = sweep::partition(sweep::seq, a.begin(), a.end(), [](int x) { return x % 2 == 0; });
    CHECK(m - a.begin() == 500);
    sweep::radix_sort(sweep::par, a.begin(), a.end());
    CHECK(std::is_sorted(a.begin(), a.end()));
    sweep::inclusive_scan_by_key(sweep::seq, a.begin(), a.end(), a.begin(), b.begin());
    std::vector<int> offs{0, 10, 10, 1000};
    sweep::segmented_inclusive_scan(sweep::seq, a.begin(), a.end(), b.begin(), sweep::offsets(offs.begin(), offs.end()));
    CHECK(b[10] == a[10]);
}
