// sweep/backend/cuda/dispatch/radix_sort.cuh -- GPU backend, host side of the radix sort: sizes
// and lays out the temporary storage, zeroes what must start at zero, launches. Enqueues only:
// the caller decides whether to wait. No algorithm logic here (kernels/radix_kernels.cuh).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <cuda_runtime.h>

#include <sweep/backend/cuda/kernels/radix_kernels.cuh>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/backend/cuda/tuning/radix_tuning.cuh>
#include <sweep/detail/checks.hpp>

namespace sweep::detail::cuda {

/// The temporary storage of one sort of n keys in `tiles` tiles:
///   [ tickets | histogram of every pass | look-back words ]   zeroed by one memset
///   [ bins | pass info | keys buffer | values buffer ]
template <class Tuning, class K, class V>
struct radix_temp_layout {
    static constexpr int passes = radix_pass_count<K>(Tuning::radix_bits);
    static constexpr std::size_t round(std::size_t b) { return (b + 255) / 256 * 256; }

    std::size_t tickets = 0, hist, states, zeroed, bins, info, keys, values, total;

    radix_temp_layout(std::int64_t n, std::int64_t tiles) {
        hist = round(sizeof(unsigned) * passes);
        states = hist + round(sizeof(std::uint64_t) * passes * Tuning::radix);
        zeroed = states + round(sizeof(std::uint64_t) * static_cast<std::size_t>(tiles) *
                                Tuning::radix);
        bins = zeroed;
        info = bins + round(sizeof(std::uint64_t) * passes * Tuning::radix);
        keys = info + round(sizeof(int) * (passes + 1));
        values = keys + round(sizeof(K) * static_cast<std::size_t>(n));
        total = values;
        if constexpr (radix_has_values_v<V>) total += round(sizeof(V) * static_cast<std::size_t>(n));
    }
};

/// Tests only (test/gpu/radix_variants_lean_other.cu): when positive, the histogram takes its
/// parts only where they fit in this many bytes, so that a device with more shared memory runs
/// the path of one with less. 0: the device's own limit. Atomic: a call on another thread may read
/// it while a test sets it (the cap is process-wide, not per device).
inline std::atomic<int> radix_hist_smem_cap_for_tests{0};

/// The histogram of every pass's digits into hist (passes x radix, zeroed), one read of the keys.
template <class Tuning, class K, bool Flip>
void launch_radix_histogram(const char* name, const K* keys, std::int64_t n,
                            unsigned long long* hist, radix_codec<K, Flip> codec, stream_t s) {
    const auto kernel = radix_histogram_kernel<Tuning, K, Flip>;
    constexpr int smem = Tuning::hist_smem_bytes(sizeof(K));
    if constexpr (smem > 0) {
        // The parts take up to 128 KB a block: more than sm_86 and sm_89 give one (99 KB). There
        // the histogram has one part.
        int limit = max_dynamic_smem(name);
        const int cap = radix_hist_smem_cap_for_tests.load(std::memory_order_relaxed);
        if (cap > 0 && cap < limit) limit = cap;
        if (smem > limit) {
            launch_radix_histogram<typename Tuning::one_part_histogram>(name, keys, n, hist, codec,
                                                                         s);
            return;
        }
        allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem, name);
    }
    const std::int64_t per_chunk = std::int64_t{Tuning::hist_threads} * Tuning::hist_items;
    const std::int64_t chunks = (n + per_chunk - 1) / per_chunk;
    const std::int64_t resident =
        resident_blocks(reinterpret_cast<const void*>(kernel), Tuning::hist_threads, name, smem);
    const std::int64_t grid = chunks < 2 * resident ? chunks : 2 * resident;
    const std::int64_t per_block = (chunks + grid - 1) / grid * per_chunk;
    kernel<<<static_cast<unsigned>(grid), Tuning::hist_threads, smem, s>>>(keys, n, per_block,
                                                                             hist, codec);
    check_launch(name);
}

/// run_radix_sort on keys stored as K (radix_stored_t) with `codec`, values moved as V
/// (radix_moved_value): the kernels every key type of K's size (and values of V's) share.
template <class Tuning, class K, class V, bool Flip>
void run_radix_sort_stored(const char* name, K* keys, V* values, std::int64_t n, stream_t s,
                           const temp_allocator& alloc, radix_codec<K, Flip> codec) {
    using smem = radix_smem<Tuning, K, V>;
    constexpr int passes = radix_pass_count<K>(Tuning::radix_bits);

    if (n <= Tuning::tile_items) {
        const auto kernel = radix_single_tile_kernel<Tuning, K, V, Flip>;
        allow_dynamic_smem(reinterpret_cast<const void*>(kernel), static_cast<int>(smem::bytes),
                           name);
        kernel<<<1, Tuning::threads, smem::bytes, s>>>(keys, values, static_cast<int>(n), codec);
        check_launch(name);
        return;
    }

    const std::int64_t tiles = (n + Tuning::tile_items - 1) / Tuning::tile_items;
    if (tiles > std::numeric_limits<int>::max())
        throw_invalid_argument(name, "input too large for one launch (more than 2^31 tiles)");
    const radix_temp_layout<Tuning, K, V> layout(n, tiles);
    temp_buffer temp(alloc, layout.total, s);  // std::bad_alloc before anything is enqueued
    auto* const base = static_cast<unsigned char*>(temp.get());
    memset_async(base, layout.zeroed, s, name);

    auto* const hist = reinterpret_cast<unsigned long long*>(base + layout.hist);
    auto* const bins = reinterpret_cast<std::uint64_t*>(base + layout.bins);
    auto* const info = reinterpret_cast<int*>(base + layout.info);
    K* const alt_keys = reinterpret_cast<K*>(base + layout.keys);
    V* alt_values = nullptr;
    if constexpr (radix_has_values_v<V>) alt_values = reinterpret_cast<V*>(base + layout.values);

    launch_radix_histogram<Tuning>(name, keys, n, hist, codec, s);
    radix_scan_bins_kernel<Tuning::radix, passes><<<1, Tuning::radix, 0, s>>>(hist, bins, info, n);
    check_launch(name);

    const radix_pass_params<K, V, Flip> p{{keys, alt_keys},
                                    {values, alt_values},
                                    codec,
                                    n,
                                    bins,
                                    info,
                                    reinterpret_cast<std::uint64_t*>(base + layout.states),
                                    reinterpret_cast<unsigned*>(base + layout.tickets)};
    const auto kernel = radix_onesweep_kernel<Tuning, K, V, Flip>;
    allow_dynamic_smem(reinterpret_cast<const void*>(kernel), static_cast<int>(smem::bytes), name);
    for (int pass = 0; pass < passes; ++pass) {
        kernel<<<static_cast<unsigned>(tiles), Tuning::threads, smem::bytes, s>>>(p, pass);
        check_launch(name);
    }

    const auto copy = radix_copy_back_kernel<K, V>;
    const std::int64_t resident = resident_blocks(reinterpret_cast<const void*>(copy), 256, name);
    const std::int64_t want = (n + 255) / 256;
    copy<<<static_cast<unsigned>(want < resident ? want : resident), 256, 0, s>>>(
        keys, alt_keys, values, alt_values, n, info, passes);
    check_launch(name);
}

/// Sorts keys[0, n) (and values alongside) in place, stable. Enqueued on `s`; the temporary is
/// given back stream-ordered when this returns. The keys are sorted as radix_stored_t<K> through
/// their codec and the values moved as radix_moved_value<V>: the same bytes, which the kernels
/// access through those types only.
template <class Tuning, bool Descending, class K, class V>
void run_radix_sort(const char* name, K* keys, V* values, std::int64_t n, stream_t s,
                    const temp_allocator& alloc) {
    if (n < 2) return;
    using S = radix_stored_t<K>;
    using W = typename radix_moved_value<V>::type;
    run_radix_sort_stored<Tuning>(name, reinterpret_cast<S*>(keys), reinterpret_cast<W*>(values),
                                  n, s, alloc, radix_codec_for<K, Descending>());
}

}  // namespace sweep::detail::cuda
