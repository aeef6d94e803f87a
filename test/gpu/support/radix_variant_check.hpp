// test/gpu/support/radix_variant_check.hpp -- runs the GPU radix sort with a given tuning (a
// ranking variant of tuning/radix_tuning.cuh that is not the default yet) through the internal
// launch API, and checks it bitwise against sweep::seq, with index values so that stability
// shows. Sizes at the edges of that tuning's tile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sweep/backend/cuda/dispatch/radix_sort.cuh>
#include <sweep/radix_sort.hpp>

#include "radix_matrix.hpp"

namespace sweep_gpu_test {

template <class Tuning>
std::string tuning_name() {
    return std::to_string(Tuning::radix_bits) + " bits x " + std::to_string(Tuning::threads) +
           " threads x " + std::to_string(Tuning::items) + " items, variant " +
           std::to_string(Tuning::variant);
}

/// One sort with Tuning, keys only (WithValues false) or with u32 index values.
template <class Tuning, bool Descending, bool WithValues, class K>
void check_variant_once(const std::vector<K>& keys, const std::string& what) {
    namespace cu = sweep::detail::cuda;
    const std::int64_t n = static_cast<std::int64_t>(keys.size());
    INFO(what << ", tuning " << tuning_name<Tuning>() << ", key " << key_name<K>()
              << (Descending ? ", descending" : ", ascending")
              << (WithValues ? ", u32 index values" : ", keys only") << ", n " << n
              << ", seed " << sweep_test::seed());
    std::vector<K> want_k = keys;
    std::vector<std::uint32_t> want_v(keys.size());
    for (std::int64_t i = 0; i < n; ++i) want_v[i] = static_cast<std::uint32_t>(i);
    const std::vector<std::uint32_t> values = want_v;
    if constexpr (Descending)
        sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin(),
                                 sweep::descending);
    else
        sweep::radix_sort_by_key(sweep::seq, want_k.begin(), want_k.end(), want_v.begin());

    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    device_vector<K> dk(keys);
    device_vector<std::uint32_t> dv(values);
    if constexpr (WithValues)
        cu::run_radix_sort<Tuning, Descending>("radix_sort_by_key", dk.data(), dv.data(), n,
                                               cudaStreamLegacy, alloc);
    else
        cu::run_radix_sort<Tuning, Descending>("radix_sort", dk.data(),
                                               static_cast<cu::radix_no_values*>(nullptr), n,
                                               cudaStreamLegacy, alloc);
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the variant's sort");
    const std::string dkeys = first_difference(dk.download(), want_k);
    INFO("keys: " << (dkeys.empty() ? "equal" : dkeys));
    CHECK(dkeys.empty());
    if constexpr (WithValues) {
        const std::string dvals = first_difference(dv.download(), want_v);
        INFO("values (input indices: stability): " << (dvals.empty() ? "equal" : dvals));
        CHECK(dvals.empty());
    }
}

/// Every pattern at the sizes around Tuning's tile (single-block sort below it, Onesweep past
/// it, a partial last tile), both directions.
template <class Tuning, bool WithValues, class K>
void variant_matrix(std::uint64_t salt) {
    auto g = sweep_test::rng(salt);
    const std::int64_t t = Tuning::tile_items;
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{33},
                                 std::int64_t{1000}, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1,
                                 37 * t + 11, std::int64_t{3'000'017}}) {
        if (n > radix_max_n()) continue;
        for (const pattern p : all_patterns) {
            if (n > 100'000 && p != pattern::uniform && p != pattern::edges &&
                p != pattern::few && p != pattern::low_entropy)
                continue;
            const std::vector<K> keys = make_keys<K>(p, n, g);
            check_variant_once<Tuning, false, WithValues>(keys, pattern_name(p));
            check_variant_once<Tuning, true, WithValues>(keys, pattern_name(p));
        }
    }
}

}  // namespace sweep_gpu_test
