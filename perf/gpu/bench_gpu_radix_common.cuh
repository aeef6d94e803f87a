// perf/gpu/bench_gpu_radix_common.cuh -- the harness of sweep_perf_gpu_radix shared by its
// translation units (bench_gpu_radix.cu: the main table and the shape sweep; bench_gpu_radix_r3.cu:
// the session-4 rows of perf/notes-gpu.md R3, in their own file so that the build compiles the two
// sets of kernels in parallel). See bench_gpu_radix.cu for the method.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/util_type.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include "bench_common.cuh"
#include <sweep/radix_sort.hpp>
#include <sweep/backend/cuda/dispatch/radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace cu = sweep::detail::cuda;

namespace sweep_radix_bench {
namespace {  // each translation unit its own copy (kernels included)


using sweep_bench::ok;
using sweep_bench::timer;

__host__ __device__ std::uint64_t mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Keys from random bits: uniform, or the AND of three words (low entropy). Float keys from
/// random bits would include NaNs; they are drawn as uniform floats in [-1, 1) scaled by a
/// random power of two instead, so that the sort is what users sort.
template <class K>
__global__ void fill_keys(K* p, std::int64_t n, std::uint64_t seed, bool low_entropy) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        std::uint64_t b = mix(seed + 3 * i);
        if (low_entropy) b &= mix(seed + 3 * i + 1) & mix(seed + 3 * i + 2);
        if constexpr (std::is_same_v<K, float>) {
            const float u = static_cast<float>(static_cast<std::int32_t>(b)) * 0x1p-31f;
            p[i] = ldexpf(u, static_cast<int>((b >> 32) % 64) - 32);
        } else {
            p[i] = static_cast<K>(b);
        }
    }
}

template <class V>
__global__ void fill_values(V* p, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::int64_t{gridDim.x} * blockDim.x)
        p[i] = static_cast<V>(i);
}


template <class T>
std::vector<T> host(const T* p, std::int64_t n) {
    std::vector<T> h(static_cast<std::size_t>(n));
    ok(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
    return h;
}

template <class T>
bool same(const T* a, const T* b, std::int64_t n) {
    const auto x = host(a, n);
    const auto y = host(b, n);
    return std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// The buffers of one case: pristine keys/values, the buffers sorted, CUB's second buffers.
template <class K, class V>
struct buffers {
    std::int64_t n;
    K *pristine, *keys, *keys2, *ref;
    V *vpristine = nullptr, *vals = nullptr, *vals2 = nullptr, *vref = nullptr;
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
    buffers(std::int64_t n_, bool pairs) : n(n_) {
        const std::size_t kb = n * sizeof(K), vb = n * sizeof(V);
        ok(cudaMalloc(&pristine, kb), "malloc");
        ok(cudaMalloc(&keys, kb), "malloc");
        ok(cudaMalloc(&keys2, kb), "malloc");
        ok(cudaMalloc(&ref, kb), "malloc");
        if (pairs) {
            ok(cudaMalloc(&vpristine, vb), "malloc");
            ok(cudaMalloc(&vals, vb), "malloc");
            ok(cudaMalloc(&vals2, vb), "malloc");
            ok(cudaMalloc(&vref, vb), "malloc");
        }
    }
    ~buffers() {
        cudaFree(pristine);
        cudaFree(keys);
        cudaFree(keys2);
        cudaFree(ref);
        cudaFree(vpristine);
        cudaFree(vals);
        cudaFree(vals2);
        cudaFree(vref);
        cudaFree(cub_temp);
    }
    void reset(cudaStream_t s) {
        ok(cudaMemcpyAsync(keys, pristine, n * sizeof(K), cudaMemcpyDeviceToDevice, s), "reset");
        if (vals)
            ok(cudaMemcpyAsync(vals, vpristine, n * sizeof(V), cudaMemcpyDeviceToDevice, s),
               "reset");
    }
};

void header(bool tune) {
    if (tune) {
        std::printf("\n| case | n | bits x threads x items, blocks/SM cap, variant | tile | sweep us | Gkeys/s | vs default |\n");
        std::printf("|------|---|-----------------------------------------------|------|----------|---------|------------|\n");
    } else {
        std::printf("\n| case | keys | n | sweep us | Gkeys/s | cub us | Gkeys/s | thrust us | Gkeys/s | vs CUB | vs thrust | check |\n");
        std::printf("|------|------|---|----------|---------|--------|---------|-----------|---------|--------|-----------|-------|\n");
    }
}

double gkeys(std::int64_t n, double us) { return double(n) / us * 1e-3; }

// ---- tuning mode ---------------------------------------------------------------------------------

template <class Tuning, class K, class V, bool Pairs>
double time_shape(buffers<K, V>& b, timer& t, cudaStream_t s) {
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    const std::int64_t n = b.n;
    return t.median_us(
        [&] {
            if constexpr (Pairs)
                cu::run_radix_sort<Tuning, false>("radix_sort", b.keys, b.vals, n, s, alloc);
            else
                cu::run_radix_sort<Tuning, false>("radix_sort", b.keys,
                                                  static_cast<cu::radix_no_values*>(nullptr), n,
                                                  s, alloc);
        },
        [&] { b.reset(s); });
}

/// The default shape's time on b's input, and its result left in b.ref / b.vref (what every
/// tune row is checked against). The caller filled b.pristine (and b.vpristine).
template <class K, class V, bool Pairs>
double default_reference(buffers<K, V>& b, timer& t, std::int64_t n, cudaStream_t s) {
    using D = cu::default_radix_tuning<K, std::conditional_t<Pairs, V, cu::radix_no_values>>;
    const double base = time_shape<D, K, V, Pairs>(b, t, s);
    b.reset(s);
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    if constexpr (Pairs)
        cu::run_radix_sort<D, false>("radix_sort", b.keys, b.vals, n, s, alloc);
    else
        cu::run_radix_sort<D, false>("radix_sort", b.keys,
                                     static_cast<cu::radix_no_values*>(nullptr), n, s, alloc);
    ok(cudaMemcpyAsync(b.ref, b.keys, n * sizeof(K), cudaMemcpyDeviceToDevice, s), "copy");
    if (Pairs) ok(cudaMemcpyAsync(b.vref, b.vals, n * sizeof(V), cudaMemcpyDeviceToDevice, s), "copy");
    ok(cudaStreamSynchronize(s), "ref");
    return base;
}

template <class Tuning, class K, class V, bool Pairs>
void tune_row(const char* name, buffers<K, V>& b, timer& t, cudaStream_t s, double base_us) {
    const double us = time_shape<Tuning, K, V, Pairs>(b, t, s);
    // Correctness of this shape: against the default shape's result in ref.
    b.reset(s);
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    if constexpr (Pairs)
        cu::run_radix_sort<Tuning, false>("radix_sort", b.keys, b.vals, b.n, s, alloc);
    else
        cu::run_radix_sort<Tuning, false>("radix_sort", b.keys,
                                          static_cast<cu::radix_no_values*>(nullptr), b.n, s,
                                          alloc);
    ok(cudaStreamSynchronize(s), "tune");
    bool check = same(b.keys, b.ref, b.n);
    if (Pairs) check = check && same(b.vals, b.vref, b.n);
    const int lg = 63 - __builtin_clzll(static_cast<unsigned long long>(b.n));
    std::printf("| %s | 2^%d | %d x %d x %d, %d, v%d | %lld | %.1f | %.2f | %.3f %s |\n", name, lg,
                Tuning::radix_bits, Tuning::threads, Tuning::items, Tuning::min_blocks,
                Tuning::variant,
                static_cast<long long>(Tuning::tile_items), us, gkeys(b.n, us), base_us / us,
                check ? "" : "MISMATCH");
    std::fflush(stdout);
}

/// CUB's DeviceRadixSort on b (DoubleBuffer form, its temporary allocated once into b.cub_temp:
/// its best case), `setup` before each timed call. Returns the median time; `check` says whether
/// CUB's result equals b.ref (and b.vref for pairs).
template <class K, class V, bool Pairs, class Setup>
double cub_sort_us(buffers<K, V>& b, timer& t, cudaStream_t s, Setup setup, bool& check) {
    const std::int64_t n = b.n;
    constexpr int bits = int(8 * sizeof(K));
    cub::DoubleBuffer<K> dk(b.keys, b.keys2);
    cub::DoubleBuffer<V> dv(b.vals, b.vals2);
    if constexpr (Pairs)
        cub::DeviceRadixSort::SortPairs(nullptr, b.cub_bytes, dk, dv, n, 0, bits, s);
    else
        cub::DeviceRadixSort::SortKeys(nullptr, b.cub_bytes, dk, n, 0, bits, s);
    ok(cudaMalloc(&b.cub_temp, b.cub_bytes), "cub temp");
    const double us = t.median_us(
        [&] {
            dk = cub::DoubleBuffer<K>(b.keys, b.keys2);
            dv = cub::DoubleBuffer<V>(b.vals, b.vals2);
            if constexpr (Pairs)
                cub::DeviceRadixSort::SortPairs(b.cub_temp, b.cub_bytes, dk, dv, n, 0, bits, s);
            else
                cub::DeviceRadixSort::SortKeys(b.cub_temp, b.cub_bytes, dk, n, 0, bits, s);
        },
        setup);
    ok(cudaStreamSynchronize(s), "cub");
    check = same(dk.Current(), b.ref, n);
    if (Pairs) check = check && same(dv.Current(), b.vref, n);
    return us;
}

}  // namespace

/// The session-4 rows (bench_gpu_radix_r3.cu): u32 keys, u32 pairs, u64 keys, float keys at 2^lg.
void tune_r3(int lg, bool low, cudaStream_t s);

}  // namespace sweep_radix_bench
