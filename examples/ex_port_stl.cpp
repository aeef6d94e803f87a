// examples/ex_port_stl.cpp -- porting an STL program to sweep: the same calls, `std::` -> `sweep::`,
// the policy kept (std::execution::par runs on sweep::par, all cores). docs/porting.md walks
// through it. Each sweep result is checked against the standard library's.
//
// The program: a sparse matrix in CSR form (row offsets + values). It computes
//   1. the running total of all values                          (inclusive_scan)
//   2. per-row running totals                                   (segmented_inclusive_scan, offsets)
//   3. the values above a threshold, in order                   (copy_if)
//   4. the rows' values grouped: big first, order kept          (stable_partition)
//   5. the values sorted by a key, carrying their position      (radix_sort_by_key)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <execution>
#include <numeric>
#include <random>
#include <vector>

#include <sweep/sweep.hpp>

int main() {
    std::mt19937 rng(42);
    // CSR offsets of 1000 rows of 0..200 entries.
    std::vector<std::int64_t> offsets{0};
    for (int r = 0; r < 1000; ++r) offsets.push_back(offsets.back() + static_cast<std::int64_t>(rng() % 201));
    const auto n = static_cast<std::size_t>(offsets.back());
    std::vector<int> values(n);
    for (auto& v : values) v = static_cast<int>(rng() % 100);
    bool ok = true;
    auto expect = [&](bool c, const char* what) {
        std::printf("%-28s %s\n", what, c ? "same as std" : "DIFFERENT");
        ok = ok && c;
    };

    // 1. std::inclusive_scan(std::execution::par, ...) -> sweep::inclusive_scan(std::execution::par, ...)
    std::vector<long> total(n), total_std(n);
    sweep::inclusive_scan(std::execution::par, values.begin(), values.end(), total.begin(),
                          std::plus<>{}, 0L);
    std::inclusive_scan(std::execution::par, values.begin(), values.end(), total_std.begin(),
                        std::plus<>{}, 0L);
    expect(total == total_std, "inclusive_scan");

    // 2. per-row totals: the STL has no segmented scan; a loop over rows is the usual code.
    std::vector<int> row_total(n), row_total_std(n);
    sweep::segmented_inclusive_scan(std::execution::par, values.begin(), values.end(),
                                    row_total.begin(), sweep::offsets(offsets.begin(), offsets.end()));
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r)
        std::inclusive_scan(values.begin() + offsets[r], values.begin() + offsets[r + 1],
                            row_total_std.begin() + offsets[r]);
    expect(row_total == row_total_std, "segmented_inclusive_scan");

    // 3. std::copy_if -> sweep::copy_if
    auto big = [](int v) { return v >= 90; };
    std::vector<int> kept(n), kept_std(n);
    kept.resize(static_cast<std::size_t>(
        sweep::copy_if(std::execution::par, values.begin(), values.end(), kept.begin(), big) - kept.begin()));
    kept_std.resize(static_cast<std::size_t>(
        std::copy_if(values.begin(), values.end(), kept_std.begin(), big) - kept_std.begin()));
    expect(kept == kept_std, "copy_if");

    // 4. std::stable_partition -> sweep::stable_partition (in place)
    std::vector<int> part = values, part_std = values;
    const auto mid = sweep::stable_partition(std::execution::par, part.begin(), part.end(), big);
    const auto mid_std = std::stable_partition(part_std.begin(), part_std.end(), big);
    expect(part == part_std && mid - part.begin() == mid_std - part_std.begin(), "stable_partition");

    // 5. std::stable_sort of (key, position) pairs -> sweep::radix_sort_by_key
    std::vector<std::uint32_t> keys(n);
    std::vector<std::int64_t> pos(n);
    for (std::size_t i = 0; i < n; ++i) {
        keys[i] = static_cast<std::uint32_t>(values[i]) * 2654435761u;
        pos[i] = static_cast<std::int64_t>(i);
    }
    std::vector<std::pair<std::uint32_t, std::int64_t>> pairs(n);
    for (std::size_t i = 0; i < n; ++i) pairs[i] = {keys[i], pos[i]};
    sweep::radix_sort_by_key(std::execution::par, keys.begin(), keys.end(), pos.begin());
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) same = same && keys[i] == pairs[i].first && pos[i] == pairs[i].second;
    expect(same, "radix_sort_by_key");

    std::printf("%zu values in %zu rows: %s\n", n, offsets.size() - 1, ok ? "all match" : "MISMATCH");
    return ok ? 0 : 1;
}
