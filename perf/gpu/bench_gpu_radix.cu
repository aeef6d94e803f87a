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
//   what: all | u32 | pairs | u64 | float | tune | tune-low | r3 | r3-low | ab
//   tune: sweep only, u32 keys, u32 pairs, u64 keys and float keys through several kernel shapes
//         (digit bits x threads x keys per thread, ranking variant: tuning/radix_tuning.cuh),
//         uniform keys; tune-low: the same over the low-entropy keys.
//   r3:   the session-4 rows (perf/notes-gpu.md R3; bench_gpu_radix_r3.cu): the default, CUB
//         and the new variants/shapes per case, each checked against the default; r3-low: the
//         same over the low-entropy keys.
//   ab:   the default's ranking variants (with and without radix_lean_rank and each of its two
//         parts) in three alternated rounds, u32 and u64 keys, next to the library's call and CUB.
//   tune, tune-low, r3, r3-low and ab are built with -DSWEEP_BUILD_TUNING=ON only.
#include "bench_gpu_radix_common.cuh"

using namespace sweep_radix_bench;

namespace {

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
    bool check = false;
    const double cub_us = cub_sort_us<K, V, Pairs>(b, t, s, setup, check);

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

#if SWEEP_PERF_TUNING
template <class K, class V, bool Pairs>
void tune_case(const char* name, int lg, bool low, cudaStream_t s) {
    using D = cu::default_radix_tuning<K, std::conditional_t<Pairs, V, cu::radix_no_values>>;
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, V> b(n, Pairs);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, low);
    if (Pairs) fill_values<V><<<1024, 256, 0, s>>>(b.vpristine, n);
    timer t(s);
    const double base = default_reference<K, V, Pairs>(b, t, n, s);
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

/// `ab` (session 21): the ranking variants of radix_lean_rank timed in alternated rounds in this
/// uninstrumented TU (trace_radix's kernels carry its timing hooks, which moved its A/B of them
/// away from what the library's kernels do: perf/notes-gpu.md R7), next to the library's own call
/// and CUB. Each variant is checked against the default's result.
template <class K>
void ab_case(const char* name, int lg, cudaStream_t s) {
    using V = std::uint32_t;
    using D = cu::default_radix_tuning<K, cu::radix_no_values>;
    using T0 = typename D::ab_no_lean_rank;
    using T1 = typename D::ab_lean_rank;
    using T2 = typename D::ab_lean_counts_only;
    using T3 = typename D::ab_lean_ranking_only;
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, V> b(n, false);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, false);
    timer t(s);
    const double dbase = default_reference<K, V, false>(b, t, n, s);
    std::printf("\n%s, 2^%d (default v%d): library call, then v%d (no lean rank), v%d (lean "
                "rank), v%d (its counts only), v%d (its ranking only), CUB; us\n\n| round | "
                "library | v%d | v%d | v%d | v%d | CUB |\n|---|---|---|---|---|---|---|\n",
                name, lg, D::variant, T0::variant, T1::variant, T2::variant, T3::variant,
                T0::variant, T1::variant, T2::variant, T3::variant);
    for (int r = 0; r < 3; ++r) {
        const double lib = t.median_us(
            [&] { sweep::radix_sort(sweep::gpu.on(s), b.keys, b.keys + n); },
            [&] { b.reset(s); });
        const double a0 = time_shape<T0, K, V, false>(b, t, s);
        const double a1 = time_shape<T1, K, V, false>(b, t, s);
        const double a2 = time_shape<T2, K, V, false>(b, t, s);
        const double a3 = time_shape<T3, K, V, false>(b, t, s);
        bool unused = false;
        const double c = cub_sort_us<K, V, false>(b, t, s, [&] { b.reset(s); }, unused);
        ok(cudaFree(b.cub_temp), "cub temp");
        b.cub_temp = nullptr;
        std::printf("| %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", r, lib, a0, a1, a2, a3, c);
        std::fflush(stdout);
    }
    header(true);
    tune_row<T0, K, V, false>(name, b, t, s, dbase);
    tune_row<T1, K, V, false>(name, b, t, s, dbase);
    tune_row<T2, K, V, false>(name, b, t, s, dbase);
    tune_row<T3, K, V, false>(name, b, t, s, dbase);
}
#endif

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
#if !SWEEP_PERF_TUNING
    if (what == "r3" || what == "r3-low" || what == "tune" || what == "tune-low" || what == "ab")
        return sweep_bench::tuning_not_built(what.c_str());
#else
    if (what == "r3" || what == "r3-low") {
        header(true);
        for (const int lg : sizes) tune_r3(lg, what == "r3-low", s);
        return 0;
    }
    if (what == "ab") {
        for (const int lg : sizes) {
            ab_case<std::uint32_t>("u32 keys", lg, s);
            ab_case<std::uint64_t>("u64 keys", lg, s);
        }
        return 0;
    }
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
#endif
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
