// perf/gpu/bench_gpu_radix.cu -- GPU side of the perf suite: sweep::gpu radix_sort /
// radix_sort_by_key next to cub::DeviceRadixSort (keys, pairs) and thrust::sort /
// thrust::sort_by_key, in one process: u32 keys, u32 keys + u32 values, u64 keys, float keys;
// uniform random keys and low-entropy keys (each the AND of three random words: about 0.54
// bits of entropy per bit, as in CUB's benchmarks' entropy reduction); n = 2^24 and 2^28.
//
// Method (as the other GPU benches): device buffers allocated once, inputs generated on the
// device; before every call the pristine input is copied into the buffer being sorted, outside
// the timed interval; 3 warm-up calls, then the median of 25 calls, each timed alone with CUDA
// events on one stream. sweep sorts in place (its temporary comes from its stream-ordered pool,
// cached after the warm-up). CUB runs its DoubleBuffer form with its temporary storage
// allocated once (its best case: no copy back, no allocation); thrust::sort allocates through
// Thrust's allocator on each call, as users see it. "check" compares sweep's result with CUB's
// bitwise (keys and values: both sorts are stable).
//
// Usage: sweep_perf_gpu_radix [what = all] [log2 sizes = 24,28]
//   what: all | u32 | pairs | u64 | float | tune | tune-low
//   tune: sweep only, u32 keys, u32 pairs, u64 keys and float keys through several kernel shapes
//         (digit bits x threads x keys per thread, ranking variant: tuning/radix_tuning.cuh),
//         uniform keys; tune-low: the same over the low-entropy keys.
#include <cub/device/device_radix_sort.cuh>
#include <cub/util_type.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

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

namespace {

void ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

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

struct timer {
    cudaStream_t s;
    cudaEvent_t a, b;
    explicit timer(cudaStream_t st) : s(st) {
        ok(cudaEventCreate(&a), "event");
        ok(cudaEventCreate(&b), "event");
    }
    ~timer() {
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    template <class F, class S>
    double median_us(F&& f, S&& setup, int reps = 25) {
        for (int i = 0; i < 3; ++i) {
            setup();
            f();
        }
        ok(cudaStreamSynchronize(s), "warm-up");
        ok(cudaGetLastError(), "warm-up");
        std::vector<float> ms(reps);
        for (int i = 0; i < reps; ++i) {
            setup();
            ok(cudaEventRecord(a, s), "record");
            f();
            ok(cudaEventRecord(b, s), "record");
            ok(cudaEventSynchronize(b), "sync");
            ok(cudaEventElapsedTime(&ms[i], a, b), "elapsed");
        }
        std::sort(ms.begin(), ms.end());
        return 1000.0 * ms[reps / 2];
    }
};

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

template <class K, class V, bool Pairs>
void run_case(const char* name, int lg, bool low, cudaStream_t s) {
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, V> b(n, Pairs);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, low);
    if (Pairs) fill_values<V><<<1024, 256, 0, s>>>(b.vpristine, n);
    ok(cudaStreamSynchronize(s), "fill");
    timer t(s);
    const auto setup = [&] { b.reset(s); };

    const double sweep_us = t.median_us(
        [&] {
            if constexpr (Pairs)
                sweep::radix_sort_by_key(sweep::gpu.on(s), b.keys, b.keys + n, b.vals);
            else
                sweep::radix_sort(sweep::gpu.on(s), b.keys, b.keys + n);
        },
        setup);
    // sweep's result into ref / vref
    b.reset(s);
    if constexpr (Pairs) sweep::radix_sort_by_key(sweep::gpu.on(s), b.keys, b.keys + n, b.vals);
    else sweep::radix_sort(sweep::gpu.on(s), b.keys, b.keys + n);
    ok(cudaMemcpyAsync(b.ref, b.keys, n * sizeof(K), cudaMemcpyDeviceToDevice, s), "copy");
    if (Pairs) ok(cudaMemcpyAsync(b.vref, b.vals, n * sizeof(V), cudaMemcpyDeviceToDevice, s), "copy");

    // CUB, DoubleBuffer form, temporary allocated once.
    cub::DoubleBuffer<K> dk(b.keys, b.keys2);
    cub::DoubleBuffer<V> dv(b.vals, b.vals2);
    if constexpr (Pairs)
        cub::DeviceRadixSort::SortPairs(nullptr, b.cub_bytes, dk, dv, n, 0, int(8 * sizeof(K)), s);
    else
        cub::DeviceRadixSort::SortKeys(nullptr, b.cub_bytes, dk, n, 0, int(8 * sizeof(K)), s);
    ok(cudaMalloc(&b.cub_temp, b.cub_bytes), "cub temp");
    const double cub_us = t.median_us(
        [&] {
            dk = cub::DoubleBuffer<K>(b.keys, b.keys2);
            dv = cub::DoubleBuffer<V>(b.vals, b.vals2);
            if constexpr (Pairs)
                cub::DeviceRadixSort::SortPairs(b.cub_temp, b.cub_bytes, dk, dv, n, 0,
                                                int(8 * sizeof(K)), s);
            else
                cub::DeviceRadixSort::SortKeys(b.cub_temp, b.cub_bytes, dk, n, 0,
                                               int(8 * sizeof(K)), s);
        },
        setup);
    ok(cudaStreamSynchronize(s), "cub");
    bool check = same(dk.Current(), b.ref, n);
    if (Pairs) check = check && same(dv.Current(), b.vref, n);

    const double thrust_us = t.median_us(
        [&] {
            if constexpr (Pairs)
                thrust::sort_by_key(thrust::cuda::par.on(s), b.keys, b.keys + n, b.vals);
            else
                thrust::sort(thrust::cuda::par.on(s), b.keys, b.keys + n);
        },
        setup);
    ok(cudaStreamSynchronize(s), "thrust");
    ok(cudaGetLastError(), "bench");
    std::printf("| %s | %s | 2^%d | %.1f | %.2f | %.1f | %.2f | %.1f | %.2f | %.2fx | %.2fx | %s |\n",
                name, low ? "low entropy" : "uniform", lg, sweep_us, gkeys(n, sweep_us), cub_us,
                gkeys(n, cub_us), thrust_us, gkeys(n, thrust_us), cub_us / sweep_us,
                thrust_us / sweep_us, check ? "ok" : "MISMATCH");
    std::fflush(stdout);
}

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

template <class K, class V, bool Pairs>
void tune_case(const char* name, int lg, bool low, cudaStream_t s) {
    using D = cu::default_radix_tuning<K, std::conditional_t<Pairs, V, cu::radix_no_values>>;
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, V> b(n, Pairs);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, low);
    if (Pairs) fill_values<V><<<1024, 256, 0, s>>>(b.vpristine, n);
    timer t(s);
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
    tune_row<D, K, V, Pairs>(name, b, t, s, base);
    // threads x keys per thread x blocks per SM the registers are capped for (1: no cap).
    tune_row<cu::radix_tuning<8, 384, 20, 1>, K, V, Pairs>(name, b, t, s, base);  // CUB's shape
    tune_row<cu::radix_tuning<8, 384, 16, 1>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, 12, 2>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, 16, 2>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 256, 16, 3>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 256, 20, 2>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 256, 12, 4>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 512, 12, 2>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 512, 8, 3>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 640, 8, 2>, K, V, Pairs>(name, b, t, s, base);
    // Ranking variants (tuning/radix_tuning.cuh; perf/notes-gpu.md R2 predicts each):
    // v1 ballot match, v3 + early counts, v7 + unrolled full-tile scatter.
    constexpr int ipt = sizeof(K) <= 4 && (!Pairs || sizeof(V) <= 4) ? 16 : 12;
    tune_row<cu::radix_tuning<8, 384, ipt, 2, 256, 16, 1>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, ipt, 2, 256, 16, 3>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, ipt, 2, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, 20, 1, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);
    tune_row<cu::radix_tuning<8, 384, 23, 1, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);  // CUB sm90
    tune_row<cu::radix_tuning<8, 256, 16, 3, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);
    if constexpr (sizeof(K) == 8) {
        // 10-bit digits: 7 passes instead of 8 over 64-bit keys.
        tune_row<cu::radix_tuning<10, 256, 16, 2>, K, V, Pairs>(name, b, t, s, base);
        tune_row<cu::radix_tuning<10, 512, 12, 1>, K, V, Pairs>(name, b, t, s, base);
        tune_row<cu::radix_tuning<10, 256, 16, 2, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);
        tune_row<cu::radix_tuning<10, 512, 12, 1, 256, 16, 7>, K, V, Pairs>(name, b, t, s, base);
    }
}

std::vector<int> parse_sizes(const char* arg) {
    std::vector<int> v;
    std::stringstream ss(arg);
    std::string x;
    while (std::getline(ss, x, ',')) v.push_back(std::atoi(x.c_str()));
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "all";
    const std::vector<int> sizes = parse_sizes(argc > 2 ? argv[2] : "24,28");
    cudaStream_t s;
    ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaDeviceProp prop{};
    ok(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("radix sort on %s: sweep::gpu vs cub::DeviceRadixSort (DoubleBuffer, temp "
                "preallocated) vs thrust::sort; median of 25 calls, us\n",
                prop.name);
    const bool all = what == "all";
    if (what == "tune" || what == "tune-low") {
        // tune-low: the same rows over the low-entropy keys of the main table.
        const bool low = what == "tune-low";
        const char* u32 = low ? "u32 keys (low entropy)" : "u32 keys";
        const char* pairs = low ? "u32+u32 pairs (low entropy)" : "u32+u32 pairs";
        const char* u64 = low ? "u64 keys (low entropy)" : "u64 keys";
        const char* flt = low ? "float keys (low entropy)" : "float keys";
        header(true);
        for (const int lg : sizes) {
            tune_case<std::uint32_t, std::uint32_t, false>(u32, lg, low, s);
            tune_case<std::uint32_t, std::uint32_t, true>(pairs, lg, low, s);
            tune_case<std::uint64_t, std::uint32_t, false>(u64, lg, low, s);
            tune_case<float, std::uint32_t, false>(flt, lg, low, s);
        }
        return 0;
    }
    header(false);
    for (const int lg : sizes) {
        for (const bool low : {false, true}) {
            if (all || what == "u32") run_case<std::uint32_t, std::uint32_t, false>("u32 keys", lg, low, s);
            if (all || what == "pairs") run_case<std::uint32_t, std::uint32_t, true>("u32+u32 pairs", lg, low, s);
            if (all || what == "u64") run_case<std::uint64_t, std::uint32_t, false>("u64 keys", lg, low, s);
            if (all || what == "float") run_case<float, std::uint32_t, false>("float keys", lg, low, s);
        }
    }
    cudaStreamDestroy(s);
    return 0;
}
