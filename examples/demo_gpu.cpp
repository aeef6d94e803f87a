// examples/demo_gpu.cpp -- the demo's GPU rows. Compiled by the host compiler: it calls sweep::gpu
// on raw device pointers through the kernels precompiled in the library (no nvcc needed here).
#include "demo_gpu.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <vector>

#include <sweep/sweep.hpp>

#if SWEEP_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace sweep_demo {

#if SWEEP_HAS_CUDA
namespace {

void ok_or_die(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "demo: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Median seconds of `runs` calls of f, timed with CUDA events on the default stream.
template <class F>
double median_gpu_seconds(int runs, F&& f) {
    cudaEvent_t a, b;
    ok_or_die(cudaEventCreate(&a), "cudaEventCreate");
    ok_or_die(cudaEventCreate(&b), "cudaEventCreate");
    std::vector<double> t;
    f();  // warm-up
    for (int r = 0; r < runs; ++r) {
        ok_or_die(cudaEventRecord(a), "cudaEventRecord");
        f();
        ok_or_die(cudaEventRecord(b), "cudaEventRecord");
        ok_or_die(cudaEventSynchronize(b), "cudaEventSynchronize");
        float ms = 0;
        ok_or_die(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
        t.push_back(ms * 1e-3);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace
#endif

void gpu_rows(const std::vector<std::int32_t>& in, const row_sink& sink) {
#if SWEEP_HAS_CUDA
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("gpu rows: skipped (no CUDA device)\n");
        return;
    }
    const std::size_t n = in.size(), bytes = n * sizeof(std::int32_t);
    std::int32_t *d_in = nullptr, *d_out = nullptr;
    ok_or_die(cudaMalloc(reinterpret_cast<void**>(&d_in), bytes), "cudaMalloc");
    ok_or_die(cudaMalloc(reinterpret_cast<void**>(&d_out), bytes), "cudaMalloc");
    ok_or_die(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");

    const double t_copy = median_gpu_seconds(9, [&] {
        ok_or_die(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    });
    const double copy_gbps = 2.0 * double(bytes) / t_copy / 1e9;
    std::printf("gpu: cudaMemcpy device-to-device %.0f GB/s (bytes read + written)\n", copy_gbps);

    std::vector<std::int32_t> ref(n), got(n);
    auto check = [&](auto&& oracle) {
        oracle(ref);
        ok_or_die(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        return got == ref;
    };

    double t = median_gpu_seconds(9, [&] { sweep::inclusive_scan(sweep::gpu, d_in, d_in + n, d_out); });
    sink("inclusive_scan int32", t, 2.0 * double(bytes), copy_gbps, check([&](auto& r) {
        sweep::inclusive_scan(sweep::seq, in.begin(), in.end(), r.begin());
    }));
    t = median_gpu_seconds(9, [&] { sweep::exclusive_scan(sweep::gpu, d_in, d_in + n, d_out, 7); });
    sink("exclusive_scan int32", t, 2.0 * double(bytes), copy_gbps, check([&](auto& r) {
        sweep::exclusive_scan(sweep::seq, in.begin(), in.end(), r.begin(), 7);
    }));
    t = median_gpu_seconds(9, [&] {
        sweep::inclusive_scan(sweep::gpu, d_in, d_in + n, d_out, sweep::maximum<>{});
    });
    sink("inclusive_scan max int32", t, 2.0 * double(bytes), copy_gbps, check([&](auto& r) {
        sweep::inclusive_scan(sweep::seq, in.begin(), in.end(), r.begin(), sweep::maximum<>{});
    }));

    cudaFree(d_in);
    cudaFree(d_out);
    std::printf("gpu rows: the scans; the other algorithms reach sweep::gpu with their issues\n");
#else
    (void)in;
    (void)sink;
    std::printf("gpu rows: skipped (sweep was built without the CUDA backend)\n");
#endif
}

}  // namespace sweep_demo
