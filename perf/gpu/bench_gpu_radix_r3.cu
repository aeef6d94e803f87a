// perf/gpu/bench_gpu_radix_r3.cu -- `sweep_perf_gpu_radix r3 [sizes]` (and `r3-low`): the rows
// of perf/notes-gpu.md R3 (session 4). Per case, the default (v31 since session 4, 384 x 16 or
// 12, 2 blocks/SM), CUB's DeviceRadixSort in the same process on the same input (the bar), the
// session-3 default v7 at the same shape, then the new variants and shapes; every row checked
// bitwise against the default's result. Short on purpose (a few
// rows per case) so that it fits a device run next to the tests.
#include "bench_gpu_radix_common.cuh"

namespace sweep_radix_bench {
namespace {

template <class K, class V, bool Pairs>
void cub_row(const char* name, buffers<K, V>& b, timer& t, cudaStream_t s, double base_us) {
    const std::int64_t n = b.n;
    bool check = false;
    const double us = cub_sort_us<K, V, Pairs>(b, t, s, [&] { b.reset(s); }, check);
    const int lg = 63 - __builtin_clzll(static_cast<unsigned long long>(n));
    std::printf("| %s | 2^%d | cub::DeviceRadixSort | - | %.1f | %.2f | %.3f %s |\n", name, lg, us,
                gkeys(n, us), base_us / us, check ? "" : "MISMATCH");
    std::fflush(stdout);
}

/// The default's time and result (into ref), CUB, then Rows... (radix_tuning types).
template <class K, class V, bool Pairs, class... Rows>
void r3_case(const char* name, int lg, bool low, cudaStream_t s) {
    using D = cu::default_radix_tuning<K, std::conditional_t<Pairs, V, cu::radix_no_values>>;
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, V> b(n, Pairs);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, low);
    if (Pairs) fill_values<V><<<1024, 256, 0, s>>>(b.vpristine, n);
    timer t(s);
    const double base = default_reference<K, V, Pairs>(b, t, n, s);
    tune_row<D, K, V, Pairs>(name, b, t, s, base);
    cub_row<K, V, Pairs>(name, b, t, s, base);
    (tune_row<Rows, K, V, Pairs>(name, b, t, s, base), ...);
}

template <int T, int I, int M, int V, int Bits = 8>
using shape = cu::radix_tuning<Bits, T, I, M, 256, 16, V>;
constexpr int v7 = cu::radix_all_variants;
constexpr int v15 = v7 | cu::radix_padded_tile;
constexpr int v23 = v7 | cu::radix_pred_ballot;
constexpr int v31 = cu::radix_lean_variants;

}  // namespace

void tune_r3(int lg, bool low, cudaStream_t s) {
    // Predictions per row: perf/notes-gpu.md R3.
    // shape<384, 16 or 12, 2, v7>: the session-3 default (v31 is the default since session 4).
    r3_case<std::uint32_t, std::uint32_t, false,  //
            shape<384, 16, 2, v7>, shape<256, 16, 3, v7>, shape<384, 16, 2, v15>,
            shape<384, 16, 2, v23>, shape<384, 16, 3, v31>, shape<256, 16, 4, v31>,
            shape<256, 16, 3, v31>, shape<384, 14, 3, v31>, shape<384, 20, 2, v31>,
            shape<384, 19, 3, v31>>(low ? "u32 keys (low entropy)" : "u32 keys", lg, low, s);
    r3_case<std::uint32_t, std::uint32_t, true,  //
            shape<384, 16, 2, v7>, shape<256, 16, 3, v7>, shape<384, 16, 3, v31>,
            shape<256, 16, 4, v31>>(low ? "u32+u32 pairs (low entropy)" : "u32+u32 pairs", lg,
                                    low, s);
    r3_case<std::uint64_t, std::uint32_t, false,  //
            shape<384, 12, 2, v7>, shape<384, 12, 3, v31>, shape<256, 12, 4, v31>,
            shape<256, 16, 2, v31, 10>>(low ? "u64 keys (low entropy)" : "u64 keys", lg, low, s);
    r3_case<float, std::uint32_t, false,  //
            shape<384, 16, 2, v7>, shape<384, 16, 3, v31>, shape<384, 19, 3, v31>,
            shape<256, 16, 4, v31>>(low ? "float keys (low entropy)" : "float keys", lg, low, s);
}

}  // namespace sweep_radix_bench
