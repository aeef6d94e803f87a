// sweep/backend/cuda/tuning/segmented_tuning.cuh -- GPU backend, tuning: the tile geometry of the
// segmented scans.
//
// Plain constexpr data chosen by the accumulator's size, like tuning/scan_tuning.cuh (whose
// scan_tuning struct it reuses). A segmented tile holds, besides the values, the heads' source
// (keys or flags) while it derives the head bits, so it is given half the items of the plain scan
// for 4- and 8-byte values (the same 8 KB of values a tile, about the same registers a thread as
// the plain scan's 16 KB tile). NOT YET MEASURED: first guesses, to be swept on the H200
// (perf/gpu/bench_gpu_segmented.cu) like the plain scan's were.
#pragma once

#include <cstddef>

#include <sweep/backend/cuda/tuning/scan_tuning.cuh>

namespace sweep::detail::cuda {

template <std::size_t Size>
struct segmented_tuning_for {
    using type = scan_tuning<256, (Size <= 16 ? 4 : 2), 1>;  // as the plain scan
};
// Items a thread: at most 64 (the head bits of a thread live in one 64-bit mask).
template <> struct segmented_tuning_for<1> { using type = scan_tuning<128, 32, 1>; };
template <> struct segmented_tuning_for<2> { using type = scan_tuning<128, 32, 1>; };
template <> struct segmented_tuning_for<4> { using type = scan_tuning<128, 16, 1>; };
template <> struct segmented_tuning_for<8> { using type = scan_tuning<128, 8, 1>; };

template <class Acc>
using default_segmented_tuning = typename segmented_tuning_for<sizeof(Acc)>::type;

}  // namespace sweep::detail::cuda
