// perf/gpu/bench_gpu_automatic.cu -- the measurement behind sweep::automatic's managed-memory
// threshold (detail::automatic_managed_gpu_from): from which size a scan over CUDA managed memory
// is cheaper on the GPU than on the host.
//
// A user's loop over managed memory: the host writes the input, sweep runs the scan, the host reads
// the result. For n = 2^10 .. 2^26 int32, each round trip (host writes every input page, the scan,
// the host reads the output's last element of every page) is timed on the wall clock, median of 9:
//   host  sweep::par (or seq below automatic_seq_below) on the managed pointers
//   gpu   sweep::gpu on the managed pointers (the pages migrate to the GPU and back on demand)
// The crossover is the smallest n from which gpu is faster at that n and every larger n measured.
// Also printed: gpu on managed memory the host does not touch between calls (the data stays on
// the GPU: the best case for the GPU) and gpu on plain device memory, for scale.
// Usage: sweep_perf_gpu_automatic [max_log2=26]. Output: a markdown table on stdout.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include <sweep/sweep.hpp>

namespace {

template <class F>
double median_us(F&& f, int reps = 9) {
    f();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto a = std::chrono::steady_clock::now();
        f();
        const auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
    return t[static_cast<std::size_t>(reps / 2)];
}

void ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::printf("%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 26;
    const std::int64_t max_n = std::int64_t{1} << max_log2;
    int* in = nullptr;
    int* out = nullptr;
    int* d_in = nullptr;
    int* d_out = nullptr;
    ok(cudaMallocManaged(&in, max_n * sizeof(int)), "cudaMallocManaged");
    ok(cudaMallocManaged(&out, max_n * sizeof(int)), "cudaMallocManaged");
    ok(cudaMalloc(&d_in, max_n * sizeof(int)), "cudaMalloc");
    ok(cudaMalloc(&d_out, max_n * sizeof(int)), "cudaMalloc");
    ok(cudaMemset(d_in, 1, max_n * sizeof(int)), "cudaMemset");
    constexpr std::int64_t page_ints = 4096 / sizeof(int);
    volatile long long sink = 0;

    auto host_writes = [&](std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) in[i] = static_cast<int>(i & 7);
    };
    auto host_reads = [&](std::int64_t n) {
        long long s = 0;
        for (std::int64_t i = page_ints - 1; i < n; i += page_ints) s += out[i];
        s += out[n - 1];
        sink = sink + s;
    };

    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("# sweep::automatic on managed memory: host vs GPU round trips (%s)\n\n", prop.name);
    std::printf("host writes the input, the scan runs, host reads the output; median of 9, us\n\n");
    std::printf("| n | host (seq/par) | gpu, managed | ratio host/gpu | gpu, managed, untouched | gpu, device memory |\n");
    std::printf("| --- | --- | --- | --- | --- | --- |\n");
    std::int64_t cross = -1;
    std::vector<std::pair<std::int64_t, bool>> wins;
    for (int l = 10; l <= max_log2; ++l) {
        const std::int64_t n = std::int64_t{1} << l;
        const auto host_policy = [&](auto&& f) {
            if (n < sweep::detail::automatic_seq_below) f(sweep::seq);
            else f(sweep::par);
        };
        const double host = median_us([&] {
            host_writes(n);
            host_policy([&](auto p) { sweep::inclusive_scan(p, in, in + n, out); });
            host_reads(n);
        });
        const double gpu = median_us([&] {
            host_writes(n);
            sweep::inclusive_scan(sweep::gpu, in, in + n, out);
            host_reads(n);
        });
        const double gpu_resident =
            median_us([&] { sweep::inclusive_scan(sweep::gpu, in, in + n, out); });
        const double device = median_us([&] { sweep::inclusive_scan(sweep::gpu, d_in, d_in + n, d_out); });
        std::printf("| 2^%d | %.1f | %.1f | %.2f | %.1f | %.1f |\n", l, host, gpu, host / gpu,
                    gpu_resident, device);
        wins.push_back({n, gpu < host});
    }
    for (std::size_t i = wins.size(); i-- > 0;) {
        if (wins[i].second) cross = wins[i].first;
        else break;
    }
    std::printf("\ncrossover (gpu faster from here on): %lld; automatic_managed_gpu_from = %lld now\n",
                static_cast<long long>(cross),
                static_cast<long long>(sweep::detail::automatic_managed_gpu_from));
    cudaFree(in);
    cudaFree(out);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
