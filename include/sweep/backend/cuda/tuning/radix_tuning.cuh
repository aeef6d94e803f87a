// sweep/backend/cuda/tuning/radix_tuning.cuh -- GPU backend: the shape of the radix sort's kernels.
//
// Every knob is a template parameter so that perf/gpu/bench_gpu_radix.cu can sweep them on the
// device (its tuning mode): digit width, threads per block and keys per thread of the Onesweep
// pass, and the shape of the histogram (upsweep) kernel. docs/radix_sort.md has the reasoning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sweep::detail::cuda {

template <int RadixBits, int Threads, int ItemsPerThread, int HistThreads = 256,
          int HistItems = 16>
struct radix_tuning {
    static_assert(RadixBits >= 5 && RadixBits <= 10, "digits of 5 to 10 bits");
    static_assert(Threads % 32 == 0 && Threads >= 64 && Threads <= 1024);
    static_assert(ItemsPerThread >= 1);
    static constexpr int radix_bits = RadixBits;
    static constexpr int radix = 1 << RadixBits;
    static constexpr int threads = Threads;
    static constexpr int items = ItemsPerThread;
    static constexpr int warps = Threads / 32;
    static constexpr std::int64_t tile_items = std::int64_t{Threads} * ItemsPerThread;
    static constexpr int hist_threads = HistThreads;
    static constexpr int hist_items = HistItems;
};

/// Defaults, by key and value size (a value size of 0: keys only). Starting points taken from
/// the Onesweep papers' and CUB's published sm_90 shapes (384 threads, 8-bit digits), to be
/// replaced by the device sweep of bench_gpu_radix --tune.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct default_radix_tuning_for {
    static constexpr int values = ValueBytes == 0 ? 0 : (ValueBytes <= 4 ? 1 : 2);
    static constexpr int items = KeyBytes <= 2
                                     ? (values == 0 ? 20 : 16)
                                     : KeyBytes == 4 ? (values == 0 ? 20 : (values == 1 ? 18 : 14))
                                                     : (values == 0 ? 20 : (values == 1 ? 16 : 14));
    // Values past 16 bytes: a tile's values stay within about 96 KB of shared memory (fewer
    // threads and keys per thread as they grow; radix_sort.hpp refuses values past 2 KB).
    static constexpr int big_threads = ValueBytes <= 384 ? 256 : (ValueBytes <= 768 ? 128 : 64);
    static constexpr std::size_t big_fit = 98304 / (big_threads * (ValueBytes ? ValueBytes : 1));
    static constexpr int big_items = big_fit < 1 ? 1 : (big_fit > 8 ? 8 : int(big_fit));
    static constexpr int threads = ValueBytes > 16 ? big_threads : 384;
    using type = radix_tuning<8, threads, (ValueBytes > 16 ? big_items : items)>;
};

template <class K, class V>
using default_radix_tuning =
    typename default_radix_tuning_for<sizeof(K), std::is_empty_v<V> ? 0 : sizeof(V)>::type;

}  // namespace sweep::detail::cuda
