// perf/gpu/bench_gpu_segmented.cu -- GPU segmented scans: sweep::gpu next to
// cub::DeviceScan::InclusiveSumByKey / ExclusiveSumByKey and thrust::inclusive_scan_by_key, in one
// process.
//
// Workloads: keys/values int32/int32 and int8/int8, n = 2^24 and 2^28 (or the sizes given),
// segments of mean length 1 (every element a head), 100, 1e4 and 1e6 (random heads: element i is a
// head with probability 1/L, from a hash of i), and a skewed mix (90% of the segments 1-3 long,
// 9.5% 50-500, 0.5% 1e5-1e6). Sum scans, by key (keys = segment ids; int8 keys: ids mod 100, so
// neighbouring segments still differ), and sweep's offsets form (int32 offsets) beside it.
//
// Method (as bench_gpu_scan.cu and shared/ANCHORS.md): device buffers allocated once, inputs
// generated on the device (values in 1..100, never zero; keys and offsets derived from the heads
// with Thrust), 3 warm-up calls, then the median of 25 calls, each timed alone with CUDA events on
// one stream. Bytes: keys + values + output for by key; offsets (k + 1) + values + output for the
// offsets form. "% copy" divides the bandwidth by cudaMemcpyAsync device-to-device of the values'
// size, measured in this process. CUB's temporary storage is allocated once (its best case); sweep
// takes its own from its pool. The offsets form validates its offsets on the device and waits for
// its stream before it returns (invalid offsets must throw), so its time includes that round
// trip. "check": sweep's output against CUB's, bitwise.
//
// Usage: sweep_perf_gpu_segmented [log2 sizes, comma separated = 24,28] [types = int32,int8]
//                                 [distributions = len1,len100,len1e4,len1e6,skewed]
//        sweep_perf_gpu_segmented tune [log2 size = 28]
//   tune: the by-key scan and the offsets form with several tile geometries (threads x items,
//   with and without the look-behind) for int32/int32 and int8/int8 at mean segments 100, 1e4,
//   1e6 and the skewed mix, against CUB: the evidence for tuning/segmented_tuning.cuh. Built
//   with -DSWEEP_BUILD_TUNING=ON only.
// After the table: the bars of issue 6 (by key vs CUB, offsets form vs by key), met or not.
#include <cub/device/device_scan.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>

#include "bench_common.cuh"
#include <sweep/segmented_scan.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using sweep_bench::ok;
using sweep_bench::timer;
using sweep_bench::mix;

template <class T>
__global__ void fill_values(T* p, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        p[i] = static_cast<T>(mix(seed + i) % 100 + 1);
}

/// head[i] = 1 with probability 1/mean (element 0 always).
__global__ void random_heads(int* head, std::int64_t n, std::int64_t mean, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        head[i] = i == 0 || mix(seed + i) % static_cast<std::uint64_t>(mean) == 0;
}

__global__ void scatter_heads(int* head, const std::int32_t* starts, std::int64_t k) {
    for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < k;
         j += std::int64_t{gridDim.x} * blockDim.x)
        head[starts[j]] = 1;
}

/// keys = segment id (inclusive count of heads - 1), as K: int32 as is, int8 mod 100.
template <class K>
__global__ void ids_to_keys(const int* ids, K* keys, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        const int id = ids[i] - 1;
        keys[i] = sizeof(K) == 1 ? static_cast<K>(id % 100) : static_cast<K>(id);
    }
}


template <class T>
bool same_bits(const T* a, const T* b, std::int64_t n) {
    std::vector<T> x(n), y(n);
    ok(cudaMemcpy(x.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    ok(cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    return std::memcmp(x.data(), y.data(), n * sizeof(T)) == 0;
}

struct nonzero {
    __host__ __device__ bool operator()(int h) const { return h != 0; }
};

struct distribution {
    const char* name;
    std::int64_t mean;  // 0: skewed
};

/// Device heads for `d` over n elements (int 0/1), then segment ids, keys and offsets.
struct segmentation {
    int* head = nullptr;
    int* ids = nullptr;
    std::int32_t* offsets = nullptr;
    std::int64_t segments = 0;
};

void make_segmentation(const distribution& d, std::int64_t n, cudaStream_t s, segmentation& g) {
    const auto pol = thrust::cuda::par.on(s);
    if (d.mean > 0) {
        random_heads<<<2048, 256, 0, s>>>(g.head, n, d.mean, 0x5e9 + d.mean);
    } else {
        std::mt19937_64 r(0x5eed);
        std::vector<std::int32_t> starts;
        for (std::int64_t i = 0; i < n;) {
            starts.push_back(static_cast<std::int32_t>(i));
            const auto c = r() % 1000;
            if (c < 900) i += 1 + static_cast<std::int64_t>(r() % 3);
            else if (c < 995) i += 50 + static_cast<std::int64_t>(r() % 451);
            else i += 100000 + static_cast<std::int64_t>(r() % 900001);
        }
        ok(cudaMemsetAsync(g.head, 0, n * sizeof(int), s), "memset");
        ok(cudaMemcpyAsync(g.offsets, starts.data(), starts.size() * 4, cudaMemcpyHostToDevice, s),
           "H2D");
        scatter_heads<<<2048, 256, 0, s>>>(g.head, g.offsets, static_cast<std::int64_t>(starts.size()));
        ok(cudaStreamSynchronize(s), "scatter");
    }
    thrust::inclusive_scan(pol, g.head, g.head + n, g.ids);
    auto end = thrust::copy_if(pol, thrust::counting_iterator<std::int32_t>(0),
                               thrust::counting_iterator<std::int32_t>(static_cast<std::int32_t>(n)),
                               g.head, g.offsets, nonzero{});
    g.segments = end - g.offsets;
    const auto last = static_cast<std::int32_t>(n);
    ok(cudaMemcpyAsync(g.offsets + g.segments, &last, 4, cudaMemcpyHostToDevice, s), "H2D");
    ok(cudaStreamSynchronize(s), "segmentation");
}

/// One inclusive row, kept for the bars' summary at the end.
struct result {
    std::string type, dist;
    int log2n;
    double vs_cub, pct_copy, off_per_key;
    bool ok;
};
std::vector<result> results;

template <class T>
void bench(const char* tname, std::int64_t n, const std::vector<distribution>& dists,
           cudaStream_t s) {
    T *keys = nullptr, *vals = nullptr, *out = nullptr, *ref = nullptr;
    segmentation g;
    ok(cudaMalloc(&keys, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&vals, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&ref, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&g.head, n * sizeof(int)), "cudaMalloc");
    ok(cudaMalloc(&g.ids, n * sizeof(int)), "cudaMalloc");
    ok(cudaMalloc(&g.offsets, (n + 1) * sizeof(std::int32_t)), "cudaMalloc");
    fill_values<<<2048, 256, 0, s>>>(vals, n, 12345);
    timer t(s);

    std::size_t inc_bytes = 0, exc_bytes = 0;
    cub::DeviceScan::InclusiveSumByKey(nullptr, inc_bytes, keys, vals, ref, static_cast<int>(n),
                                       ::cuda::std::equal_to<>(), s);
    cub::DeviceScan::ExclusiveSumByKey(nullptr, exc_bytes, keys, vals, ref, static_cast<int>(n),
                                       ::cuda::std::equal_to<>(), s);
    void* cub_temp = nullptr;
    const std::size_t cub_bytes = std::max(inc_bytes, exc_bytes);
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");

    const double copy_us = t.median_us([&] {
        ok(cudaMemcpyAsync(out, vals, n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy");
    });
    const double copy_gbs = 2.0 * n * sizeof(T) / copy_us * 1e-3;

    for (const auto& d : dists) {
        make_segmentation(d, n, s, g);
        ids_to_keys<<<2048, 256, 0, s>>>(g.ids, keys, n);
        ok(cudaStreamSynchronize(s), "keys");
        const double by_key_bytes = 3.0 * n * sizeof(T);
        const double offsets_bytes = 2.0 * n * sizeof(T) + 4.0 * (g.segments + 1);
        auto pct = [&](double bytes, double us) { return 100.0 * bytes / us * 1e-3 / copy_gbs; };

        // inclusive
        const double cub_us = t.median_us([&] {
            std::size_t b = cub_bytes;
            cub::DeviceScan::InclusiveSumByKey(cub_temp, b, keys, vals, ref, static_cast<int>(n),
                                               ::cuda::std::equal_to<>(), s);
        });
        const double thrust_us = t.median_us([&] {
            thrust::inclusive_scan_by_key(thrust::cuda::par.on(s), keys, keys + n, vals, out);
        });
        const double sweep_us = t.median_us([&] {
            sweep::inclusive_scan_by_key(sweep::gpu.on(s), keys, keys + n, vals, out);
        });
        ok(cudaStreamSynchronize(s), "sync");
        const bool key_ok = same_bits(out, ref, n);
        const double off_us = t.median_us([&] {
            sweep::segmented_inclusive_scan(sweep::gpu.on(s), vals, vals + n, out,
                                            sweep::offsets(g.offsets, g.offsets + g.segments + 1));
        });
        ok(cudaStreamSynchronize(s), "sync");
        const bool off_ok = same_bits(out, ref, n);
        std::printf("| %-5s | 2^%-2d | incl | %-7s | %10lld | %8.1f | %8.1f | %5.1f%% | %8.1f | "
                    "%5.1f%% | %8.1f | %5.1f%% | %5.2fx | %8.1f | %5.1f%% | %5.2f | %s |\n",
                    tname, static_cast<int>(std::log2(static_cast<double>(n))), d.name,
                    static_cast<long long>(g.segments), copy_us, sweep_us,
                    pct(by_key_bytes, sweep_us), cub_us, pct(by_key_bytes, cub_us), thrust_us,
                    pct(by_key_bytes, thrust_us), cub_us / sweep_us, off_us,
                    pct(offsets_bytes, off_us), off_us / sweep_us,
                    key_ok && off_ok ? "ok" : (key_ok ? "MISMATCH offsets" : "MISMATCH by key"));
        std::fflush(stdout);
        results.push_back({tname, d.name, static_cast<int>(std::log2(static_cast<double>(n))),
                           cub_us / sweep_us, pct(by_key_bytes, sweep_us), off_us / sweep_us,
                           key_ok && off_ok});

        // exclusive (init 0, as ExclusiveSumByKey)
        const double cub_ex_us = t.median_us([&] {
            std::size_t b = cub_bytes;
            cub::DeviceScan::ExclusiveSumByKey(cub_temp, b, keys, vals, ref, static_cast<int>(n),
                                               ::cuda::std::equal_to<>(), s);
        });
        const double sweep_ex_us = t.median_us([&] {
            sweep::exclusive_scan_by_key(sweep::gpu.on(s), keys, keys + n, vals, out);
        });
        ok(cudaStreamSynchronize(s), "sync");
        const bool ex_ok = same_bits(out, ref, n);
        std::printf("| %-5s | 2^%-2d | excl | %-7s | %10lld | %8.1f | %8.1f | %5.1f%% | %8.1f | "
                    "%5.1f%% |          |        | %5.2fx |          |        |       | %s |\n",
                    tname, static_cast<int>(std::log2(static_cast<double>(n))), d.name,
                    static_cast<long long>(g.segments), copy_us, sweep_ex_us,
                    pct(by_key_bytes, sweep_ex_us), cub_ex_us, pct(by_key_bytes, cub_ex_us),
                    cub_ex_us / sweep_ex_us, ex_ok ? "ok" : "MISMATCH");
        std::fflush(stdout);
    }
    cudaFree(cub_temp);
    cudaFree(keys);
    cudaFree(vals);
    cudaFree(out);
    cudaFree(ref);
    cudaFree(g.head);
    cudaFree(g.ids);
    cudaFree(g.offsets);
}

// ---- tile geometries (tune) ------------------------------------------------------------------

template <class Tn, class T>
double geometry_us(timer& t, const T* keys, const T* vals, T* out, std::int64_t n,
                   cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using segs = sweep::detail::key_heads<const T*, ::cuda::std::equal_to<>>;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    cu::reg_array<T, 1> init;
    return t.median_us([&] {
        cu::launch_segmented_scan<Tn, false, T>("tune", vals, out, n, sweep::plus<>{},
                                                segs{keys, {}}, init, false, false, true, s,
                                                alloc);
    });
}

/// The offsets form (int32 offsets) with the same geometry.
template <class Tn, class T>
double geometry_offsets_us(timer& t, const std::int32_t* o, std::int64_t count, const T* vals,
                           T* out, std::int64_t n, cudaStream_t s) {
    namespace cu = sweep::detail::cuda;
    using segs = sweep::detail::offset_segments<const std::int32_t*>;
    const cu::temp_allocator alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    cu::reg_array<T, 1> init;
    return t.median_us([&] {
        cu::launch_segmented_scan<Tn, false, T>("tune", vals, out, n, sweep::plus<>{},
                                                segs{o, o + count}, init, false, false, false, s,
                                                alloc);
    });
}

template <class T, class... Tunings>
void tune(const char* tname, std::int64_t n, cudaStream_t s) {
    T *keys = nullptr, *vals = nullptr, *out = nullptr, *ref = nullptr;
    segmentation g;
    ok(cudaMalloc(&keys, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&vals, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&ref, n * sizeof(T)), "cudaMalloc");
    ok(cudaMalloc(&g.head, n * sizeof(int)), "cudaMalloc");
    ok(cudaMalloc(&g.ids, n * sizeof(int)), "cudaMalloc");
    ok(cudaMalloc(&g.offsets, (n + 1) * sizeof(std::int32_t)), "cudaMalloc");
    fill_values<<<2048, 256, 0, s>>>(vals, n, 12345);
    timer t(s);
    std::size_t cub_bytes = 0;
    cub::DeviceScan::InclusiveSumByKey(nullptr, cub_bytes, keys, vals, ref, static_cast<int>(n),
                                       ::cuda::std::equal_to<>(), s);
    void* cub_temp = nullptr;
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    const double copy_us = t.median_us([&] {
        ok(cudaMemcpyAsync(out, vals, n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy");
    });
    const double copy_gbs = 2.0 * n * sizeof(T) / copy_us * 1e-3;
    for (const distribution d : {distribution{"len100", 100}, distribution{"len1e4", 10000},
                                 distribution{"len1e6", 1000000}, distribution{"skewed", 0}}) {
        make_segmentation(d, n, s, g);
        ids_to_keys<<<2048, 256, 0, s>>>(g.ids, keys, n);
        const double cub_us = t.median_us([&] {
            std::size_t b = cub_bytes;
            cub::DeviceScan::InclusiveSumByKey(cub_temp, b, keys, vals, ref, static_cast<int>(n),
                                               ::cuda::std::equal_to<>(), s);
        });
        const double bytes = 3.0 * n * sizeof(T);
        auto row = [&](int threads, int items, int min_blocks, int behind, double us,
                       auto offsets_us) {
            ok(cudaStreamSynchronize(s), "sync");
            const bool key_ok = same_bits(out, ref, n);
            const double off_us = offsets_us();  // after the by-key check: it reuses `out`
            ok(cudaStreamSynchronize(s), "sync");
            const bool off_ok = same_bits(out, ref, n);
            std::printf("| %-5s | %-7s | %3d x %-2d, %d | %4d | %8.1f | %5.1f%% | %8.1f | %5.1f%% "
                        "| %5.2fx | %8.1f | %5.2f | %s |\n",
                        tname, d.name, threads, items, min_blocks, behind, us, 100.0 * bytes / us * 1e-3 / copy_gbs,
                        cub_us, 100.0 * bytes / cub_us * 1e-3 / copy_gbs, cub_us / us, off_us,
                        off_us / us,
                        key_ok && off_ok ? "ok" : (key_ok ? "MISMATCH offsets" : "MISMATCH"));
            std::fflush(stdout);
        };
        (row(Tunings::threads, Tunings::items, Tunings::min_blocks,
             sweep::detail::cuda::look_behind_of<Tunings>,
             geometry_us<Tunings>(t, keys, vals, out, n, s),
             [&] {
                 return geometry_offsets_us<Tunings>(t, g.offsets, g.segments + 1, vals, out, n,
                                                     s);
             }),
         ...);
    }
    cudaFree(cub_temp);
    cudaFree(keys);
    cudaFree(vals);
    cudaFree(out);
    cudaFree(ref);
    cudaFree(g.head);
    cudaFree(g.ids);
    cudaFree(g.offsets);
}

std::vector<std::string> split(const char* s) {
    std::vector<std::string> v;
    std::string cur;
    for (; *s; ++s) {
        if (*s == ',') {
            v.push_back(cur);
            cur.clear();
        } else {
            cur += *s;
        }
    }
    if (!cur.empty()) v.push_back(cur);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "tune") == 0) {
#if !SWEEP_PERF_TUNING
        return sweep_bench::tuning_not_built("tune");
#else
        namespace cu = sweep::detail::cuda;
        const std::int64_t n = std::int64_t{1} << (argc > 2 ? std::atoi(argv[2]) : 28);
        cudaStream_t s;
        ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
        std::printf("by-key inclusive sum, n = %lld: tile geometries (threads x items)\n\n",
                    static_cast<long long>(n));
        std::printf("| k/v   | segs    | threads x items, min blocks | look-behind | sweep us | %%copy  | cub us   | "
                    "%%copy  | vs CUB | offsets  | off/key | check |\n");
        std::printf("|-------|---------|----------|------|----------|--------|----------|--------|"
                    "--------|----------|-------|-------|\n");
        tune<std::int32_t, cu::scan_tuning<128, 8, 1>, cu::scan_tuning<128, 16, 1>,
             cu::scan_tuning<128, 32, 1>, cu::scan_tuning<256, 8, 1>, cu::scan_tuning<256, 16, 1>,
             cu::segmented_look_behind_tuning<128, 16, 128, 9>,
             cu::segmented_look_behind_tuning<128, 16, 256, 9>,
             cu::segmented_look_behind_tuning<128, 16, 256>>("int32", n, s);
        tune<std::int8_t, cu::scan_tuning<128, 16, 1>, cu::scan_tuning<128, 32, 1>,
             cu::scan_tuning<128, 64, 1>, cu::scan_tuning<256, 32, 1>,
             cu::segmented_look_behind_tuning<128, 32, 256, 7>,
             cu::segmented_look_behind_tuning<128, 64, 256, 5>>("int8", n, s);
        cudaStreamDestroy(s);
        return 0;
#endif
    }
    const auto sizes = split(argc > 1 ? argv[1] : "24,28");
    const auto types = split(argc > 2 ? argv[2] : "int32,int8");
    const auto names = split(argc > 3 ? argv[3] : "len1,len100,len1e4,len1e6,skewed");
    const std::vector<distribution> all = {
        {"len1", 1}, {"len100", 100}, {"len1e4", 10000}, {"len1e6", 1000000}, {"skewed", 0}};
    std::vector<distribution> dists;
    for (const auto& d : all)
        if (std::find(names.begin(), names.end(), d.name) != names.end()) dists.push_back(d);

    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20);
    std::printf("segmented sum scans; times in us, median of 25; %%copy = GB/s over cudaMemcpy "
                "D2D GB/s; vs CUB = CUB time / sweep time; offsets/key = offsets-form time / "
                "by-key time\n\n");
    std::printf("| k/v   | n    | scan | segs    | count      | memcpy   | sweep    | %%copy  | "
                "cub      | %%copy  | thrust   | %%copy  | vs CUB | offsets  | %%copy  | off/key | "
                "check |\n");
    std::printf("|-------|------|------|---------|------------|----------|----------|--------|"
                "----------|--------|----------|--------|--------|----------|--------|-------|"
                "-------|\n");
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    for (const auto& lg : sizes) {
        const std::int64_t n = std::int64_t{1} << std::atoi(lg.c_str());
        for (const auto& ty : types) {
            if (ty == "int32") bench<std::int32_t>("int32", n, dists, s);
            else if (ty == "int8") bench<std::int8_t>("int8", n, dists, s);
        }
    }
    cudaStreamDestroy(s);

    // The bars of issue 6 over the inclusive rows above (exclusive rows: see the table).
    std::printf("\nbars (issue 6), inclusive rows:\n\n| bar | row | value | verdict |\n"
                "|-----|-----|-------|---------|\n");
    for (const auto& r : results) {
        const std::string row = r.type + " 2^" + std::to_string(r.log2n) + " " + r.dist;
        const bool short_or_mid = r.dist == "len100" || r.dist == "len1e4";
        if (r.type == "int32" && short_or_mid)
            std::printf("| by key int32 >= 1.0x CUB (goal 88%% copy) | %s | %.2fx, %.1f%% | %s |\n",
                        row.c_str(), r.vs_cub, r.pct_copy, r.vs_cub >= 1.0 ? "met" : "NOT MET");
        if (r.type == "int8" && r.log2n == 28)
            std::printf("| by key int8 >= 1.5x CUB (goal 75%% copy) | %s | %.2fx, %.1f%% | %s |\n",
                        row.c_str(), r.vs_cub, r.pct_copy, r.vs_cub >= 1.5 ? "met" : "NOT MET");
        std::printf("| offsets within 10%% of by key | %s | %.2f | %s |\n", row.c_str(),
                    r.off_per_key, r.off_per_key <= 1.10 ? "met" : "NOT MET");
        if (!r.ok) std::printf("| output equals CUB's | %s | MISMATCH | FAILED |\n", row.c_str());
    }
    return 0;
}
