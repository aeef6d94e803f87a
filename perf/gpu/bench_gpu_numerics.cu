// perf/gpu/bench_gpu_numerics.cu -- the numerics modes on sweep::gpu: inclusive float and double
// sums in the default mode, .deterministic(), .compensated() and both, next to CUB's
// InclusiveScan with a (sum, carry) pair operator (the anchor of shared/ANCHORS.md: input read
// through a transform iterator x -> (x, 0), output written through a transform output iterator
// (s, c) -> s + c), in one process. Then the compensated scan on the shared-memory path at
// several bulk geometries next to the register path it replaced ("before"), and, for the
// compensated double scan, the same with the split tile-state layout instead of the paired one
// ("split states") and the register-path tile geometries (the canonical one is fixed: it
// defines the deterministic bits; the default-mode one is free). The rows of geometries that
// are not the default are built with -DSWEEP_BUILD_TUNING=ON only.
//
// Method as bench_gpu_scan.cu: buffers allocated once, inputs generated on the device, 3 warm-ups
// then the median of 25 calls timed with CUDA events on one stream; bandwidth counts n values
// read and n written; "% copy" divides by cudaMemcpyAsync D2D of the same bytes.
// Also checks: the deterministic result has the same bits on two streams and in two runs.
//
// Usage: sweep_perf_gpu_numerics [log2 sizes, comma-separated = 24,28]
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "bench_common.cuh"
#include <sweep/scan.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using sweep_bench::ok;
using sweep_bench::timer;
using sweep_bench::mix;

template <class T>
__global__ void fill(T* p, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        const std::uint64_t r = mix(seed + i);
        p[i] = static_cast<T>(static_cast<double>(r >> 11) * 0x1p-53 - 0.5);
    }
}


// The CUB anchor's pair (Kahan-Babuska / TwoSum with carry), as a user would write it.
template <class T>
struct pair_t {
    T s, c;
};
template <class T>
struct to_pair {
    __host__ __device__ pair_t<T> operator()(T x) const { return {x, T(0)}; }
};
template <class T>
struct pair_plus {
    __host__ __device__ pair_t<T> operator()(const pair_t<T>& a, const pair_t<T>& b) const {
        const T s = a.s + b.s;
        const T bb = s - a.s;
        const T e = (a.s - (s - bb)) + (b.s - bb);
        return {s, (a.c + b.c) + e};
    }
};
template <class T>
struct round_pair {
    __host__ __device__ T operator()(const pair_t<T>& p) const { return p.s + p.c; }
};

template <class T>
bool same_bits(const T* a, const T* b, std::int64_t n) {
    std::vector<T> x(n), y(n);
    ok(cudaMemcpy(x.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    ok(cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    return std::memcmp(x.data(), y.data(), n * sizeof(T)) == 0;
}

template <class Tuning, class T>
double geometry_us(timer& t, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using C = sweep::detail::comp_sum<T>;
    using F = sweep::detail::to_comp<T, sweep::detail::identity>;
    cu::reg_array<C, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<Tuning, false, C, const T*, T*, sweep::detail::comp_plus<T>, F, void>(
            "bench", in, out, n, sweep::detail::comp_plus<T>{}, F{}, init, false, false, s, alloc);
    });
}

/// The compensated scan on the shared-memory path (scan_bulk_agent::run_tile_wide) at another
/// bulk geometry (threads, tile bytes of elements).
template <class BulkTuning, class T>
double bulk_us(timer& t, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using C = sweep::detail::comp_sum<T>;
    using F = sweep::detail::to_comp<T, sweep::detail::identity>;
    cu::reg_array<C, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<cu::default_scan_tuning<C>, false, C, const T*, T*,
                        sweep::detail::comp_plus<T>, F, BulkTuning>(
            "bench", in, out, n, sweep::detail::comp_plus<T>{}, F{}, init, false, false, s, alloc);
    });
}

/// The compensated double pair under another name, which the paired tile-state layout
/// (lookback::paired_state_v, opted in for comp_sum<double> only) does not take: the same scan
/// with the split layout (status word, then the value slot after a fence), for the comparison.
struct split_pair {
    double s, c;
    __host__ __device__ operator double() const {
        const double r = s + c;
        return r != r ? s : r;
    }
};
struct split_plus {
    __host__ __device__ split_pair operator()(const split_pair& a, const split_pair& b) const {
        const auto r = sweep::detail::comp_plus<double>{}(sweep::detail::comp_sum<double>{a.s, a.c},
                                                          sweep::detail::comp_sum<double>{b.s, b.c});
        return split_pair{r.s, r.c};
    }
};
struct to_split {
    __host__ __device__ split_pair operator()(double x) const { return split_pair{x, 0.0}; }
};

}  // namespace

namespace sweep::detail::cuda {
template <>
inline constexpr bool reorderable_op_v<split_plus> = true;  // the compensated sum, renamed
}  // namespace sweep::detail::cuda

namespace {

template <class BulkTuning>
double bulk_split_us(timer& t, const double* in, double* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    static_assert(std::is_same_v<cu::lookback::tile_state<split_pair>,
                                 cu::lookback::tile_state_split<split_pair>>);
    static_assert(cu::scan_bulk_agent<BulkTuning, split_pair, const double*, double*, split_plus,
                                      to_split>::wide);
    cu::reg_array<split_pair, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<cu::default_scan_tuning<sweep::detail::comp_sum<double>>, false, split_pair,
                        const double*, double*, split_plus, to_split, BulkTuning>(
            "bench", in, out, n, split_plus{}, to_split{}, init, false, false, s, alloc);
    });
}

/// Compensated + deterministic (the ordered register path over pairs) at another geometry: what a
/// different canonical geometry for the pair's size would cost (it would change the bits of
/// every deterministic scan with an accumulator of that size, on every policy alike).
template <class Tuning, class T>
double ordered_comp_us(timer& t, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using C = sweep::detail::comp_sum<T>;
    using F = sweep::detail::to_comp<T, sweep::detail::identity>;
    cu::reg_array<C, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<Tuning, true, C, const T*, T*, sweep::detail::comp_plus<T>, F, void>(
            "bench", in, out, n, sweep::detail::comp_plus<T>{}, F{}, init, false, false, s, alloc);
    });
}

/// The ordered (deterministic) register path at another geometry: what a different canonical
/// geometry would cost (the canonical one is a contract: choose it before it ships).
template <class Tuning, class T, bool Ordered = true>
double ordered_us(timer& t, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    cu::reg_array<T, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<Tuning, Ordered, T, const T*, T*, sweep::plus<T>, sweep::detail::identity,
                        void>("bench", in, out, n, sweep::plus<T>{}, sweep::detail::identity{},
                              init, false, false, s, alloc);
    });
}

/// The canonical geometry's register path (BulkTuning void) against its shared-memory path with
/// the same association (scan_bulk_blocked_agent: what .deterministic() runs on aligned data
/// since session 9), ordered or not (what the grouped chain costs there).
template <class T, bool Ordered, bool Bulk>
double canonical_path_us(timer& t, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using bulk = std::conditional_t<Bulk, cu::canonical_scan_bulk_tuning<T>, void>;
    cu::reg_array<T, 1> init;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    return t.median_us([&] {
        cu::launch_scan<cu::canonical_scan_tuning<T>, Ordered, T, const T*, T*, sweep::plus<T>,
                        sweep::detail::identity, bulk>("bench", in, out, n, sweep::plus<T>{},
                                                       sweep::detail::identity{}, init, false,
                                                       false, s, alloc);
    });
}

template <class T>
void bench(const char* name, int lg, cudaStream_t s, cudaStream_t s2) {
    const std::int64_t n = std::int64_t{1} << lg;
    T *in = nullptr, *out = nullptr, *out2 = nullptr;
    ok(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc in");
    ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc out");
    ok(cudaMalloc(&out2, n * sizeof(T)), "cudaMalloc out2");
    fill<<<1024, 256, 0, s>>>(in, n, 777);
    ok(cudaStreamSynchronize(s), "fill");
    timer t(s);
    const double bytes = 2.0 * n * sizeof(T);
    const double copy_us = t.median_us([&] {
        ok(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy");
    });

    // CUB with the pair operator.
    auto pin = thrust::make_transform_iterator(in, to_pair<T>{});
    auto pout = thrust::make_transform_output_iterator(out, round_pair<T>{});
    std::size_t cub_bytes = 0;
    cub::DeviceScan::InclusiveScan(nullptr, cub_bytes, pin, pout, pair_plus<T>{}, n, s);
    void* cub_temp = nullptr;
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    const double cub_us = t.median_us([&] {
        std::size_t b = cub_bytes;
        cub::DeviceScan::InclusiveScan(cub_temp, b, pin, pout, pair_plus<T>{}, n, s);
    });
    cudaFree(cub_temp);

    const auto p = sweep::gpu.on(s);
    const double def_us = t.median_us([&] { sweep::inclusive_scan(p, in, in + n, out); });
    const double det_us =
        t.median_us([&] { sweep::inclusive_scan(p.deterministic(), in, in + n, out); });
    const double comp_us =
        t.median_us([&] { sweep::inclusive_scan(p.compensated(), in, in + n, out); });
    const double both_us = t.median_us(
        [&] { sweep::inclusive_scan(p.compensated().deterministic(), in, in + n, out); });
    ok(cudaGetLastError(), "bench");

    // Determinism spot check: two streams at once, then a second run.
    sweep::inclusive_scan(sweep::gpu.on(s).deterministic(), in, in + n, out);
    sweep::inclusive_scan(sweep::gpu.on(s2).deterministic(), in, in + n, out2);
    ok(cudaStreamSynchronize(s), "sync");
    ok(cudaStreamSynchronize(s2), "sync");
    const bool same = same_bits(out, out2, n);

    auto row = [&](const char* mode, double us) {
        const double gbs = bytes / us * 1e-3;
        std::printf("| %-6s | 2^%-2d | %-26s | %9.1f | %7.0f | %5.1f%% | %6.3fx | %6.2fx |\n", name,
                    lg, mode, us, gbs, 100 * gbs / (bytes / copy_us * 1e-3), def_us / us,
                    cub_us / us);
    };
    row("memcpy", copy_us);
    row("cub pair-op InclusiveScan", cub_us);
    row("sweep default", def_us);
    row("sweep deterministic", det_us);
    row("sweep compensated", comp_us);
    row("sweep compensated+determ.", both_us);
    std::printf("|        |      | deterministic bits, 2 streams: %s |\n", same ? "same" : "DIFFER");

    {
        namespace cu = sweep::detail::cuda;
        std::printf("|        |      | deterministic (grouped look-back) paths and register-path geometries: |\n");
        // The canonical tuning (MinBlocks included), the same path without the ordering (what the
        // grouped chain costs), and other geometries (what another canonical geometry would give:
        // a contract change).
        row("  canonical, shared-memory path", canonical_path_us<T, true, true>(t, in, out, n, s));
        row("  same, UNORDERED", canonical_path_us<T, false, true>(t, in, out, n, s));
        row("  canonical, register path", canonical_path_us<T, true, false>(t, in, out, n, s));
#if SWEEP_PERF_TUNING
        if constexpr (sizeof(T) == 4) {
            row("  128 x 32 UNORDERED", ordered_us<cu::scan_tuning<128, 32, 1>, T, false>(t, in, out, n, s));
            row("  256 x 16", ordered_us<cu::scan_tuning<256, 16, 1>>(t, in, out, n, s));
            row("  64 x 32", ordered_us<cu::scan_tuning<64, 32, 1>>(t, in, out, n, s));
        } else {
            row("  128 x 16 UNORDERED", ordered_us<cu::scan_tuning<128, 16, 1>, T, false>(t, in, out, n, s));
            row("  128 x 16, no register cap", ordered_us<cu::scan_tuning<128, 16, 1>>(t, in, out, n, s));
            row("  256 x 8", ordered_us<cu::scan_tuning<256, 8, 1>>(t, in, out, n, s));
        }
#endif
    }
    {
        namespace cu = sweep::detail::cuda;
        std::printf("|        |      | compensated+deterministic (grouped look-back over pairs) geometries: |\n");
        row("  canonical", ordered_comp_us<cu::canonical_scan_tuning<sweep::detail::comp_sum<T>>>(t, in, out, n, s));
#if SWEEP_PERF_TUNING
        if constexpr (sizeof(T) == 4) {
            row("  128 x 16, no register cap", ordered_comp_us<cu::scan_tuning<128, 16, 1>>(t, in, out, n, s));
        } else {
            row("  128 x 8, min 6 blocks", ordered_comp_us<cu::scan_tuning<128, 8, 1, 1, 0, 6>>(t, in, out, n, s));
        }
#endif
    }
    {
        // The compensated default is the shared-memory path now (aligned pointers); the register
        // path it replaced is the "register path (before)" row.
        namespace cu = sweep::detail::cuda;
        // threads x tile bytes, vectors a lane a round in pass 2 (scan_bulk_tuning's LaneVecs).
        std::printf("|        |      | compensated, shared-memory path (threads x tile bytes, vectors a lane): |\n");
        row("  128 x 16 KB, 2 (default)",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 2>>(t, in, out, n, s));
#if SWEEP_PERF_TUNING
        row("  128 x 16 KB, 1",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 1>>(t, in, out, n, s));
        row("  128 x 16 KB, 4",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 4>>(t, in, out, n, s));
        row("  256 x 32 KB, 2",
            bulk_us<cu::scan_bulk_tuning<256, 32 * 1024, false, 0, 2>>(t, in, out, n, s));
        row("  128 x 32 KB, 2",
            bulk_us<cu::scan_bulk_tuning<128, 32 * 1024, false, 0, 2>>(t, in, out, n, s));
        row("  256 x 16 KB, 2",
            bulk_us<cu::scan_bulk_tuning<256, 16 * 1024, false, 0, 2>>(t, in, out, n, s));
        row("  128 x 8 KB, 2",
            bulk_us<cu::scan_bulk_tuning<128, 8 * 1024, false, 0, 2>>(t, in, out, n, s));
        row("  128 x 16 KB, 2, speculative",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, true, 0, 2>>(t, in, out, n, s));
        row("  128 x 16 KB, 2, Fast2Sum",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 2, true>>(t, in, out, n, s));
        row("  128 x 16 KB, 4, Fast2Sum",
            bulk_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 4, true>>(t, in, out, n, s));
        if constexpr (sizeof(T) == 8)
            row("  128 x 16 KB, 2, split states",
                bulk_split_us<cu::scan_bulk_tuning<128, 16 * 1024, false, 0, 2>>(t, in, out, n, s));
        // What aligned compensated calls ran before session 4 (the register path at its default
        // of then); misaligned ones now run the register path at 128 x 16 for both types.
        if constexpr (sizeof(T) == 4)
            row("  register path (before), 128 x 16",
                geometry_us<cu::scan_tuning<128, 16, 1>>(t, in, out, n, s));
        else
            row("  register path (before), 128 x 8",
                geometry_us<cu::scan_tuning<128, 8, 1>>(t, in, out, n, s));
#endif
    }
#if SWEEP_PERF_TUNING
    if constexpr (std::is_same_v<T, double>) {
        namespace cu = sweep::detail::cuda;
        std::printf("|        |      | compensated register-path geometries (threads x items): |\n");
        row("  256 x 4 (size table)", geometry_us<cu::scan_tuning<256, 4, 1>>(t, in, out, n, s));
        row("  128 x 4", geometry_us<cu::scan_tuning<128, 4, 1>>(t, in, out, n, s));
        row("  128 x 8 (canonical; default before)", geometry_us<cu::scan_tuning<128, 8, 1>>(t, in, out, n, s));
        row("  256 x 8", geometry_us<cu::scan_tuning<256, 8, 1>>(t, in, out, n, s));
        row("  128 x 16 (default, misaligned)", geometry_us<cu::scan_tuning<128, 16, 1>>(t, in, out, n, s));
        row("  64 x 16", geometry_us<cu::scan_tuning<64, 16, 1>>(t, in, out, n, s));
    }
#endif
    std::fflush(stdout);
    cudaFree(in);
    cudaFree(out);
    cudaFree(out2);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    {
        std::string arg = argc > 1 ? argv[1] : "24,28";
        for (std::size_t pos = 0; pos < arg.size();) {
            const std::size_t comma = arg.find(',', pos);
            sizes.push_back(std::atoi(arg.substr(pos, comma - pos).c_str()));
            pos = comma == std::string::npos ? arg.size() : comma + 1;
        }
    }
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20);
    std::printf("inclusive sums; times in us, median of 25; 'vs default' = sweep default time / "
                "this time; 'vs CUB pair' = CUB pair-op time / this time\n\n");
    std::printf("| type   | n    | mode                       | us        | GB/s    | %%copy  | vs default | vs CUB pair |\n");
    std::printf("|--------|------|----------------------------|-----------|---------|--------|---------|---------|\n");
    cudaStream_t s, s2;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    ok(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
    for (const int lg : sizes) {
        bench<float>("float", lg, s, s2);
        bench<double>("double", lg, s, s2);
    }
    return 0;
}
