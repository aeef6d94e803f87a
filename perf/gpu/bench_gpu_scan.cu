// perf/gpu/bench_gpu_scan.cu -- GPU side of the perf suite: inclusive scans on sweep::gpu next to
// cub::DeviceScan and thrust::inclusive_scan, in one process, for int8/16/32/64, float, double and
// a 16-byte struct with a custom operator, n = 2^10 .. 2^30.
//
// Method (as shared/ANCHORS.md): device buffers allocated once per type, inputs random and never
// all zero, generated on the device; 3 warm-up calls, then the median of 25 calls, each timed
// alone with CUDA events on one stream. Bandwidth counts n values read plus n written; "% copy"
// divides it by cudaMemcpyAsync device-to-device of the same bytes, measured in this process.
// CUB's temporary storage is allocated once (its best case); sweep takes its own from its pool.
//
// Usage: sweep_perf_gpu_scan [max_log2 = 30] [min_log2 = 10] [types]
//        sweep_perf_gpu_scan ab [log2 list = 24,28] [types] [rounds = 11]  (alternating A/B rounds)
//        sweep_perf_gpu_scan latency [min_log2 = 10] [max_log2 = 20]  (small inputs: host and GPU time)
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include "bench_common.cuh"
#include <sweep/scan.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using sweep_bench::ok;
using sweep_bench::timer;

/// The 16-byte custom type: four 32-bit lanes with a lane-wise wrapping sum (CUB has no special
/// path for it: its tile status then goes through separate arrays).
struct vec4 {
    std::uint32_t v[4];
};
struct vec4_plus {
    __host__ __device__ vec4 operator()(const vec4& a, const vec4& b) const {
        return vec4{{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
    }
};

using sweep_bench::mix;

template <class T>
__global__ void fill(T* p, std::int64_t n, std::uint64_t seed) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        const std::uint64_t r = mix(seed + i);
        if constexpr (std::is_same_v<T, vec4>) {
            p[i] = vec4{{std::uint32_t(r), std::uint32_t(r >> 32), std::uint32_t(r >> 7), 1u}};
        } else if constexpr (std::is_floating_point_v<T>) {
            p[i] = static_cast<T>(static_cast<double>(r >> 11) * 0x1p-53 + 0.25);
        } else {
            p[i] = static_cast<T>((r % 100) + 1);
        }
    }
}


template <class T>
bool same_bits(const T* a, const T* b, std::int64_t n) {
    std::vector<T> x(n), y(n);
    ok(cudaMemcpy(x.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    ok(cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    return std::memcmp(x.data(), y.data(), n * sizeof(T)) == 0;
}

template <class T>
void bench_type(const char* name, int lo, int hi, cudaStream_t s, std::FILE* csv) {
    const std::int64_t nmax = std::int64_t{1} << hi;
    T *in = nullptr, *out = nullptr, *ref = nullptr;
    ok(cudaMalloc(&in, nmax * sizeof(T)), "cudaMalloc in");
    ok(cudaMalloc(&out, nmax * sizeof(T)), "cudaMalloc out");
    ok(cudaMalloc(&ref, nmax * sizeof(T)), "cudaMalloc ref");
    fill<<<1024, 256, 0, s>>>(in, nmax, 12345);
    ok(cudaStreamSynchronize(s), "fill");
    timer t(s);

    // CUB temporary storage, sized once for the largest n.
    std::size_t cub_bytes = 0;
    if constexpr (std::is_same_v<T, vec4>)
        cub::DeviceScan::InclusiveScan(nullptr, cub_bytes, in, out, vec4_plus{}, nmax, s);
    else
        cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, nmax, s);
    void* cub_temp = nullptr;
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");

    for (int lg = lo; lg <= hi; lg += 2) {
        const std::int64_t n = std::int64_t{1} << lg;
        const double bytes = 2.0 * n * sizeof(T);
        const double copy_us = t.median_us([&] {
            ok(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy");
        });
        const double cub_us = t.median_us([&] {
            std::size_t b = cub_bytes;
            if constexpr (std::is_same_v<T, vec4>)
                cub::DeviceScan::InclusiveScan(cub_temp, b, in, ref, vec4_plus{}, n, s);
            else
                cub::DeviceScan::InclusiveSum(cub_temp, b, in, ref, n, s);
        });
        const double sweep_us = t.median_us([&] {
            if constexpr (std::is_same_v<T, vec4>)
                sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out, vec4_plus{});
            else
                sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out);
        });
        const double thrust_us = t.median_us([&] {
            if constexpr (std::is_same_v<T, vec4>)
                thrust::inclusive_scan(thrust::cuda::par.on(s), in, in + n, out, vec4_plus{});
            else
                thrust::inclusive_scan(thrust::cuda::par.on(s), in, in + n, out);
        });
        ok(cudaGetLastError(), "bench");
        // sweep's result against CUB's (bitwise: integer sums; floats may associate differently).
        if constexpr (std::is_same_v<T, vec4>) {
            sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out, vec4_plus{});
        } else {
            sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out);
        }
        ok(cudaStreamSynchronize(s), "check");
        const char* check = std::is_floating_point_v<T> ? "n/a" : (same_bits(out, ref, n) ? "ok" : "MISMATCH");

        const double copy_gbs = bytes / copy_us * 1e-3;
        const double sweep_gbs = bytes / sweep_us * 1e-3;
        const double cub_gbs = bytes / cub_us * 1e-3;
        const double thrust_gbs = bytes / thrust_us * 1e-3;
        std::printf("| %-6s | 2^%-2d | %9.1f | %9.1f | %7.0f | %5.1f%% | %9.1f | %5.1f%% | %9.1f | %5.1f%% | %5.2fx | %s |\n",
                    name, lg, copy_us, sweep_us, sweep_gbs, 100 * sweep_gbs / copy_gbs, cub_us,
                    100 * cub_gbs / copy_gbs, thrust_us, 100 * thrust_gbs / copy_gbs,
                    cub_us / sweep_us, check);
        std::fflush(stdout);
        if (csv)
            std::fprintf(csv, "%s,%d,%.3f,%.3f,%.3f,%.3f\n", name, lg, copy_us, sweep_us, cub_us,
                         thrust_us);
    }
    cudaFree(cub_temp);
    cudaFree(in);
    cudaFree(out);
    cudaFree(ref);
}

/// A/B mode: sweep and CUB timed in alternating rounds (order swapped each round), so that clock
/// or thermal drift during the run falls on both alike. Prints every round's ratio and the median
/// over rounds, with the spread, for one size.
template <class T>
void bench_ab(const char* name, int lg, int rounds, cudaStream_t s) {
    const std::int64_t n = std::int64_t{1} << lg;
    T *in = nullptr, *out = nullptr, *ref = nullptr;
    ok(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc in");
    ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc out");
    ok(cudaMalloc(&ref, n * sizeof(T)), "cudaMalloc ref");
    fill<<<1024, 256, 0, s>>>(in, n, 777);
    ok(cudaGetLastError(), "fill");
    std::size_t cub_bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, ref, n, s);
    void* cub_temp = nullptr;
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    timer t(s);
    auto run_sweep = [&] { sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out); };
    auto run_cub = [&] {
        std::size_t b = cub_bytes;
        cub::DeviceScan::InclusiveSum(cub_temp, b, in, ref, n, s);
    };
    std::vector<double> ratios, sw, cb;
    for (int r = 0; r < rounds; ++r) {
        double a, b;
        if (r % 2 == 0) {
            a = t.median_us(run_sweep);
            b = t.median_us(run_cub);
        } else {
            b = t.median_us(run_cub);
            a = t.median_us(run_sweep);
        }
        sw.push_back(a);
        cb.push_back(b);
        ratios.push_back(b / a);
    }
    ok(cudaStreamSynchronize(s), "ab");
    const bool exact = !std::is_floating_point_v<T>;
    const char* check = exact ? (same_bits(out, ref, n) ? "ok" : "MISMATCH") : "n/a";
    auto med = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("| %-6s | 2^%-2d | %2d | %9.1f | %9.1f | %6.3fx | %6.3fx | %6.3fx | %s |\n", name, lg,
                rounds, med(sw), med(cb), med(ratios),
                *std::min_element(ratios.begin(), ratios.end()),
                *std::max_element(ratios.begin(), ratios.end()), check);
    std::fflush(stdout);
    cudaFree(cub_temp);
    cudaFree(in);
    cudaFree(out);
    cudaFree(ref);
}

}  // namespace

int ab_main(int argc, char** argv) {
    // ab [log2 list = 24,28] [types = int32,float,int64,double] [rounds = 11]
    const std::string sizes = argc > 2 ? argv[2] : "24,28";
    const std::string types = argc > 3 ? argv[3] : "int32,float,int64,double";
    const int rounds = argc > 4 ? std::atoi(argv[4]) : 11;
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s; inclusive sum, sweep vs CUB in alternating rounds of 25 calls each "
                "(3 warm-ups per round); us = median over rounds of each round's median; "
                "vs CUB = median, min and max of the rounds' CUB/sweep ratios\n\n", prop.name);
    std::printf("| type   | n    | rounds | sweep us | cub us | vs CUB | min | max | check |\n");
    std::printf("|--------|------|----|-----------|-----------|---------|---------|---------|-------|\n");
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    std::size_t pos = 0;
    while (pos <= sizes.size()) {
        const std::size_t comma = sizes.find(',', pos);
        const int lg = std::atoi(sizes.substr(pos, comma - pos).c_str());
        if (types.find("int32") != std::string::npos) bench_ab<std::int32_t>("int32", lg, rounds, s);
        if (types.find("float") != std::string::npos) bench_ab<float>("float", lg, rounds, s);
        if (types.find("int64") != std::string::npos) bench_ab<std::int64_t>("int64", lg, rounds, s);
        if (types.find("double") != std::string::npos) bench_ab<double>("double", lg, rounds, s);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    cudaStreamDestroy(s);
    return 0;
}

/// Small inputs: where the time of a call goes. Per int32 size, for sweep and CUB: the event-timed
/// call (as the table), the host's time inside the call (wall clock around the call alone, the
/// GPU idle), and the time per call of 200 calls issued back to back on one stream (what a
/// program issuing many small scans sees). sweep's register path alone (no shared-memory tiles)
/// is a third row. Usage: sweep_perf_gpu_scan latency [min_log2 = 10] [max_log2 = 20]
int latency_main(int argc, char** argv) {
    const int lo = argc > 2 ? std::atoi(argv[2]) : 10;
    const int hi = argc > 3 ? std::atoi(argv[3]) : 20;
    namespace cu = sweep::detail::cuda;
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    const std::int64_t nmax = std::int64_t{1} << hi;
    std::int32_t *in = nullptr, *out = nullptr;
    ok(cudaMalloc(&in, nmax * sizeof(std::int32_t)), "cudaMalloc");
    ok(cudaMalloc(&out, nmax * sizeof(std::int32_t)), "cudaMalloc");
    fill<<<1024, 256, 0, s>>>(in, nmax, 7);
    std::size_t cub_bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, nmax, s);
    void* cub_temp = nullptr;
    ok(cudaMalloc(&cub_temp, cub_bytes), "cudaMalloc cub");
    ok(cudaStreamSynchronize(s), "fill");
    timer t(s);
    using clock = std::chrono::steady_clock;
    auto us_since = [](clock::time_point a) {
        return std::chrono::duration<double, std::micro>(clock::now() - a).count();
    };
    std::printf("int32 inclusive sum; us per call: 'events' = timed alone with CUDA events (median of 25), "
                "'host' = wall clock inside the call, GPU idle (median of 25), 'stream' = 200 calls back "
                "to back, then one synchronize, per call\n\n");
    std::printf("| n | code | events us | host us | stream us |\n|---|---|---|---|---|\n");
    for (int lg = lo; lg <= hi; lg += 2) {
        const std::int64_t n = std::int64_t{1} << lg;
        auto row = [&](const char* code, auto&& f) {
            const double ev = t.median_us(f);
            std::vector<double> host(25);
            for (auto& h : host) {
                ok(cudaStreamSynchronize(s), "sync");
                const auto a = clock::now();
                f();
                h = us_since(a);
            }
            ok(cudaStreamSynchronize(s), "sync");
            std::sort(host.begin(), host.end());
            const auto a = clock::now();
            for (int i = 0; i < 200; ++i) f();
            ok(cudaStreamSynchronize(s), "sync");
            const double st = us_since(a) / 200;
            ok(cudaGetLastError(), code);
            std::printf("| 2^%d | %s | %.1f | %.1f | %.1f |\n", lg, code, ev, host[12], st);
        };
        row("sweep", [&] { sweep::inclusive_scan(sweep::gpu.on(s), in, in + n, out); });
        row("sweep, register path", [&] {
            cu::reg_array<std::int32_t, 1> init;
            cu::launch_scan<cu::default_scan_tuning<std::int32_t>, false, std::int32_t,
                            const std::int32_t*, std::int32_t*, sweep::plus<std::int32_t>,
                            sweep::detail::identity, void>(
                "bench", in, out, n, sweep::plus<std::int32_t>{}, sweep::detail::identity{}, init,
                false, false, s, cu::make_temp_allocator<sweep::default_resource>(nullptr));
        });
        row("cub", [&] {
            std::size_t b = cub_bytes;
            cub::DeviceScan::InclusiveSum(cub_temp, b, in, out, n, s);
        });
    }
    cudaFree(cub_temp);
    cudaFree(in);
    cudaFree(out);
    cudaStreamDestroy(s);
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "ab") == 0) return ab_main(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "latency") == 0) return latency_main(argc, argv);
    const int hi = argc > 1 ? std::atoi(argv[1]) : 30;
    const int lo = argc > 2 ? std::atoi(argv[2]) : 10;
    const char* only = argc > 3 ? argv[3] : nullptr;
    std::FILE* csv = std::getenv("SWEEP_PERF_CSV") ? std::fopen(std::getenv("SWEEP_PERF_CSV"), "w") : nullptr;
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20);
    std::printf("inclusive sum (16-byte struct: custom operator); times in us, median of 25\n\n");
    std::printf("| type   | n    | memcpy us | sweep us  | GB/s    | %%copy  | cub us    | %%copy  | thrust us | %%copy  | vs CUB | check |\n");
    std::printf("|--------|------|-----------|-----------|---------|--------|-----------|--------|-----------|--------|--------|-------|\n");
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    auto want = [&](const char* n) { return only == nullptr || std::strstr(only, n) != nullptr; };
    if (want("int8")) bench_type<std::int8_t>("int8", lo, hi, s, csv);
    if (want("int16")) bench_type<std::int16_t>("int16", lo, hi, s, csv);
    if (want("int32")) bench_type<std::int32_t>("int32", lo, hi, s, csv);
    if (want("int64")) bench_type<std::int64_t>("int64", lo, hi, s, csv);
    if (want("float")) bench_type<float>("float", lo, hi, s, csv);
    if (want("double")) bench_type<double>("double", lo, hi, s, csv);
    if (want("vec16")) bench_type<vec4>("vec16", lo, hi, s, csv);
    cudaStreamDestroy(s);
    if (csv) std::fclose(csv);
    return 0;
}
