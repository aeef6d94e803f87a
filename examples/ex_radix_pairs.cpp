// examples/ex_radix_pairs.cpp -- radix sort of key-value pairs: keys in one range, values in
// another, both permuted together; stable, ascending or descending. On all CPU cores, and on the
// GPU once its radix sort is built in. docs/porting.md.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include <sweep/sweep.hpp>

#include "ex_gpu_util.hpp"

int main() {
    const std::size_t n = 1'000'000;
    std::vector<std::uint32_t> price(n);       // keys
    std::vector<std::uint32_t> order_id(n);    // values
    for (std::size_t i = 0; i < n; ++i) {
        price[i] = static_cast<std::uint32_t>((i * 2654435761u) % 100000);
        order_id[i] = static_cast<std::uint32_t>(i);
    }
    // The reference: std::stable_sort of pairs.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(n);
    for (std::size_t i = 0; i < n; ++i) pairs[i] = {price[i], order_id[i]};
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    auto matches = [&](const std::vector<std::uint32_t>& k, const std::vector<std::uint32_t>& v) {
        for (std::size_t i = 0; i < n; ++i)
            if (k[i] != pairs[i].first || v[i] != pairs[i].second) return false;
        return true;
    };

    auto k = price;
    auto v = order_id;
    sweep::radix_sort_by_key(sweep::par, k.begin(), k.end(), v.begin(), sweep::descending);
    bool ok = matches(k, v);
    std::printf("par: most expensive order %u at %u: %s\n", v[0], k[0], ok ? "ok" : "WRONG");

#if defined(SWEEP_HAS_GPU_RADIX_SORT)
    if (ex::have_gpu()) {
        ex::device_copy<std::uint32_t> dk(price), dv(order_id);
        sweep::radix_sort_by_key(sweep::gpu, dk.p, dk.p + n, dv.p, sweep::descending);
        const bool gpu_ok = matches(dk.to_host(), dv.to_host());
        std::printf("gpu: %s\n", gpu_ok ? "ok" : "WRONG");
        ok = ok && gpu_ok;
    } else {
        std::printf("no CUDA device: the GPU sort is skipped\n");
    }
#else
    std::printf("the GPU radix sort is not built in yet: GPU part skipped\n");
#endif
    return ok ? 0 : 1;
}
