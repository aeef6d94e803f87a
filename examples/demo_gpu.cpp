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

    // copy_if and partition_copy: the elements above the input's first value.
    const sweep::greater_than<std::int32_t> pred{in[0]};
    std::vector<std::int32_t> ref_true, ref_false;
    for (const auto x : in) (pred(x) ? ref_true : ref_false).push_back(x);
    std::int32_t* d_out2 = nullptr;
    ok_or_die(cudaMalloc(reinterpret_cast<void**>(&d_out2), bytes), "cudaMalloc");
    auto device_prefix = [&](const std::int32_t* d, std::size_t k) {
        std::vector<std::int32_t> h(k);
        ok_or_die(cudaMemcpy(h.data(), d, k * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
        return h;
    };
    std::size_t kept = 0;
    t = median_gpu_seconds(9, [&] {
        kept = static_cast<std::size_t>(sweep::copy_if(sweep::gpu, d_in, d_in + n, d_out, pred) - d_out);
    });
    sink("copy_if int32", t, double(n + kept) * 4, copy_gbps,
         kept == ref_true.size() && device_prefix(d_out, kept) == ref_true);
    t = median_gpu_seconds(9, [&] {
        kept = static_cast<std::size_t>(
            sweep::partition_copy(sweep::gpu, d_in, d_in + n, d_out, d_out2, pred).first - d_out);
    });
    sink("partition_copy int32", t, 2.0 * double(bytes), copy_gbps,
         kept == ref_true.size() && device_prefix(d_out, kept) == ref_true &&
             device_prefix(d_out2, n - kept) == ref_false);

    // inclusive_scan_by_key over segments of 100 (keys i / 100).
    std::vector<std::int32_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::int32_t>(i / 100);
    ok_or_die(cudaMemcpy(d_out2, keys.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    t = median_gpu_seconds(9, [&] {
        sweep::inclusive_scan_by_key(sweep::gpu, d_out2, d_out2 + n, d_in, d_out);
    });
    sink("inclusive_scan_by_key int32", t, 3.0 * double(bytes), copy_gbps, check([&](auto& r) {
        sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), in.begin(), r.begin());
    }));

    // radix_sort of int32 keys, in place: each timed call sorts a fresh copy of the input, so the
    // row's time includes that device-to-device copy (and its bytes).
    t = median_gpu_seconds(5, [&] {
        ok_or_die(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
        sweep::radix_sort(sweep::gpu, d_out, d_out + n);
    });
    sink("copy + radix_sort int32", t, 2.0 * double(bytes) * 5, copy_gbps, check([&](auto& r) {
        r = in;
        sweep::radix_sort(sweep::seq, r.begin(), r.end());
    }));

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_out2);
    std::printf("gpu rows: precompiled kernels called from this host-compiled file; radix_sort's "
                "bytes count its copy and 4 passes of read + write\n");
#else
    (void)in;
    (void)sink;
    std::printf("gpu rows: skipped (sweep was built without the CUDA backend)\n");
#endif
}

}  // namespace sweep_demo
