// perf/gpu/trace_radix.cu -- where the time of the GPU radix sort's Onesweep passes goes (session
// 19, issue 5): the library's kernels (kernels/radix_kernels.cuh), compiled here with its trace
// points defined, so that every block stamps its phases with the global timer.
//
//   sweep_perf_gpu_trace_radix [log2 n = 28] [keys = u32 | u64] [low = 0 | 1]
//                              [shapes | probe | ab | ncu]
//
// `shapes`: instead of the rows below, the default variant at other kernel shapes, timed only.
// `probe` (session 20): CUB over 8, 16, 24, ... bits (one pass more each: the differences are
// CUB's time per pass), the default traced, the pass with no look-back at all (the
// SWEEP_RADIX_TRACE_BARE hook of kernels/radix_kernels.cuh: its result is not sorted, and its
// check reports the mismatch), and three more shapes.
// `ab` (session 20; session 21 adds each of its two parts alone): one traced sort each of the
// default without and with radix_lean_rank. Their times come from `sweep_perf_gpu_radix ab`:
// kernels with trace points are not the library's (session 21).
// `ncu`: three sorts of the default and nothing else (CUB's run first), to profile one pass, e.g.
//   ncu --clock-control none -k regex:radix_onesweep --launch-skip 5 -c 1 ... 26 u32 0 ncu
// (perf/sass/ncu_regions.py sums its source page between barriers). The trace points are
// compiled in there too: a few % of the pass.
//
// First, the histogram kernel alone (median of 15) at several shapes, with parts and without.
// Then rows: the default shape and ranking variant of the key type (since session 19 with the
// look-back window, radix_lookback_window: 4 words a step, and the histogram kernel's counters in
// parts, radix_hist_parts, 1024 threads), then without the parts, then without either. Each: the
// median of 15 sorts (events; the trace points cost a few instructions and one barrier a block),
// against cub::DeviceRadixSort::SortKeys
// and a device memcpy of the keys in the same process, and the result checked against CUB's; then
// one traced sort: per pass, its span (first block's entry to last block's end) and per-tile
// percentiles (us) of
//   ticket  entry -> ticket known (barrier)    count  -> warp histograms done (barrier)
//   rank    -> places in the tile (barrier)    local  -> keys in shared memory (thread 0)
//   wait    -> every digit's prefix (barrier)  store  -> scatter issued (barrier)
//   life    entry -> end
// with the mean number of blocks alive per SM and the mean look-back words read per digit. The
// rest of the sort's time (memset, histogram, bins, copy back) is the sort's time less the spans.
// SWEEP_BUILD_TUNING only.
#include "bench_common.cuh"

#include <cstdint>

namespace trace_radix {
struct tile_rec {
    unsigned long long t[7];
    unsigned smid, loads;
};
__device__ tile_rec* g_rec = nullptr;  // null: not recording
__device__ long long g_tiles = 0;
__shared__ unsigned long long s_entry;
__shared__ unsigned s_loads;
__shared__ tile_rec* s_rec;

__device__ __forceinline__ unsigned smid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ void point(int pt, int pass, long long tile) {
    if (threadIdx.x != 0) return;
    const unsigned long long now = sweep_bench::globaltimer_ns();
    if (pt == 0) {
        s_entry = now;
        s_loads = 0;
        s_rec = nullptr;
        return;
    }
    if (pt == 1 && g_rec != nullptr) {
        s_rec = g_rec + pass * g_tiles + tile;
        s_rec->t[0] = s_entry;
        s_rec->smid = smid();
    }
    if (s_rec != nullptr) s_rec->t[pt] = now;
}

__device__ __forceinline__ void end() {
    __syncthreads();
    if (threadIdx.x == 0 && s_rec != nullptr) {
        s_rec->t[6] = sweep_bench::globaltimer_ns();
        s_rec->loads = s_loads;
    }
}
}  // namespace trace_radix

#define SWEEP_RADIX_TRACE_POINT(pt, pass, tile) trace_radix::point(pt, pass, tile)
#define SWEEP_RADIX_TRACE_WALK(loads) atomicAdd(&trace_radix::s_loads, static_cast<unsigned>(loads))
#define SWEEP_RADIX_TRACE_END() trace_radix::end()
// The probe's bare row (no look-back; results not sorted) is marked by 15 histogram keys a thread.
#define SWEEP_RADIX_TRACE_BARE(Tuning) (Tuning::hist_items == 15)

#include "bench_gpu_radix_common.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace sweep_radix_bench;

namespace trace_radix {  // named: the bench harness's anonymous namespace is used above

template <class Tuning, class K>
void sort(buffers<K, K>& b, cudaStream_t s) {
    const auto alloc = cu::make_temp_allocator<sweep::default_resource>(nullptr);
    cu::run_radix_sort<Tuning, false>("radix_sort", b.keys,
                                      static_cast<cu::radix_no_values*>(nullptr), b.n, s, alloc);
}

/// The histogram kernel alone, launched as the sort launches it (median of 15).
template <class Tuning, class K>
double histogram_us(buffers<K, K>& b, timer& t, cudaStream_t s) {
    constexpr int passes = cu::radix_pass_count<K>(Tuning::radix_bits);
    unsigned long long* hist = nullptr;
    const std::size_t bytes = sizeof(unsigned long long) * passes * Tuning::radix;
    ok(cudaMalloc(&hist, bytes), "malloc");
    const double us = t.median_us(
        [&] {
            cu::launch_radix_histogram<Tuning>("radix_sort", b.pristine, b.n, hist,
                                               cu::radix_codec<K, false>{0}, s);
        },
        [&] { ok(cudaMemsetAsync(hist, 0, bytes, s), "memset"); }, 15);
    // Every pass's counts add up to n.
    std::vector<unsigned long long> h(static_cast<std::size_t>(passes * Tuning::radix));
    ok(cudaMemcpy(h.data(), hist, bytes, cudaMemcpyDeviceToHost), "D2H");
    for (int p = 0; p < passes; ++p) {
        unsigned long long sum = 0;
        for (int d = 0; d < Tuning::radix; ++d)
            sum += h[static_cast<std::size_t>(p * Tuning::radix + d)];
        if (sum != static_cast<unsigned long long>(b.n))
            std::printf("histogram: pass %d sums to %llu, not n\n", p, sum);
    }
    cudaFree(hist);
    return us;
}

double pct(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * double(v.size() - 1))];
}

template <class Tuning, class K>
void row(const char* name, buffers<K, K>& b, timer& t, cudaStream_t s, double cub_us,
         double copy_us, int sms) {
    const std::int64_t n = b.n;
    const double us = t.median_us([&] { sort<Tuning>(b, s); }, [&] { b.reset(s); }, 15);
    b.reset(s);
    sort<Tuning>(b, s);
    ok(cudaStreamSynchronize(s), "sort");
    const bool check = same(b.keys, b.ref, n);
    std::printf("\n### %s: %d x %d x %d, %d blocks/SM, v%d\n\n", name, Tuning::radix_bits,
                Tuning::threads, Tuning::items, Tuning::min_blocks, Tuning::variant);
    std::printf("sort %.1f us (%.2f Gkeys/s), CUB %.1f us: %.3fx CUB; memcpy of the keys %.1f us; "
                "check %s\n\n",
                us, gkeys(n, us), cub_us, cub_us / us, copy_us, check ? "ok" : "MISMATCH");

    // One traced sort.
    constexpr int passes = cu::radix_pass_count<K>(Tuning::radix_bits);
    const long long tiles = (n + Tuning::tile_items - 1) / Tuning::tile_items;
    trace_radix::tile_rec* rec = nullptr;
    const std::size_t bytes = sizeof(trace_radix::tile_rec) * passes * tiles;
    ok(cudaMalloc(&rec, bytes), "malloc rec");
    ok(cudaMemset(rec, 0, bytes), "memset rec");
    ok(cudaMemcpyToSymbol(trace_radix::g_rec, &rec, sizeof(rec)), "symbol");
    ok(cudaMemcpyToSymbol(trace_radix::g_tiles, &tiles, sizeof(tiles)), "symbol");
    b.reset(s);
    cudaEvent_t e0, e1;
    ok(cudaEventCreate(&e0), "event");
    ok(cudaEventCreate(&e1), "event");
    ok(cudaEventRecord(e0, s), "record");
    sort<Tuning>(b, s);
    ok(cudaEventRecord(e1, s), "record");
    ok(cudaStreamSynchronize(s), "traced sort");
    float traced_ms = 0;
    ok(cudaEventElapsedTime(&traced_ms, e0, e1), "elapsed");
    trace_radix::tile_rec* none = nullptr;
    ok(cudaMemcpyToSymbol(trace_radix::g_rec, &none, sizeof(none)), "symbol");
    std::vector<trace_radix::tile_rec> h(static_cast<std::size_t>(passes * tiles));
    ok(cudaMemcpy(h.data(), rec, bytes, cudaMemcpyDeviceToHost), "D2H rec");
    cudaFree(rec);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);

    std::printf("traced sort %.1f us; per pass (us; p50 / p90 per tile):\n\n", 1000.0 * traced_ms);
    std::printf("| pass | span | ticket | count | rank | local | wait | store | life | blocks "
                "alive/SM | words/digit |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    double spans = 0;
    for (int p = 0; p < passes; ++p) {
        std::vector<double> ph[7];
        unsigned long long first = ~0ull, last = 0;
        double life_sum = 0, loads = 0;
        long long seen = 0;
        for (long long i = 0; i < tiles; ++i) {
            const auto& r = h[static_cast<std::size_t>(p * tiles + i)];
            if (r.t[6] == 0) continue;  // a skipped pass, or not recorded
            ++seen;
            first = std::min(first, r.t[0]);
            last = std::max(last, r.t[6]);
            for (int k = 1; k < 7; ++k) ph[k - 1].push_back(1e-3 * double(r.t[k] - r.t[k - 1]));
            ph[6].push_back(1e-3 * double(r.t[6] - r.t[0]));
            life_sum += 1e-3 * double(r.t[6] - r.t[0]);
            loads += r.loads;
        }
        if (seen == 0) {
            std::printf("| %d | skipped | | | | | | | | | |\n", p);
            continue;
        }
        const double span = 1e-3 * double(last - first);
        spans += span;
        std::printf("| %d | %.1f |", p, span);
        for (int k = 0; k < 7; ++k) std::printf(" %.2f / %.2f |", pct(ph[k], 0.5), pct(ph[k], 0.9));
        std::printf(" %.2f | %.2f |\n", life_sum / (span * sms),
                    loads / (double(seen - 1) * Tuning::radix));
    }
    std::printf("\npasses %.1f us of %.1f; the rest (memset, histogram, bins, copy back) %.1f us\n",
                spans, 1000.0 * traced_ms, 1000.0 * traced_ms - spans);
    std::fflush(stdout);
}

/// What a run does besides the setup (argv[4]): the trace rows, or one of the other modes.
enum class trace_mode { rows, shapes, probe, ab, profile };

template <class K>
void run(int lg, bool low, trace_mode mode) {
    cudaStream_t s;
    ok(cudaStreamCreate(&s), "stream");
    int dev = 0, sms = 0;
    ok(cudaGetDevice(&dev), "device");
    ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attr");
    const std::int64_t n = std::int64_t{1} << lg;
    buffers<K, K> b(n, false);
    fill_keys<K><<<1024, 256, 0, s>>>(b.pristine, n, 0x1234 + lg, low);
    ok(cudaStreamSynchronize(s), "fill");
    timer t(s);
    // The reference: CUB's result.
    bool unused = false;
    const double cub_us = cub_sort_us<K, K, false>(b, t, s, [&] { b.reset(s); }, unused);
    {
        cub::DoubleBuffer<K> dk(b.keys, b.keys2);
        b.reset(s);
        cub::DeviceRadixSort::SortKeys(b.cub_temp, b.cub_bytes, dk, n, 0, int(8 * sizeof(K)), s);
        ok(cudaMemcpyAsync(b.ref, dk.Current(), n * sizeof(K), cudaMemcpyDeviceToDevice, s), "ref");
        ok(cudaStreamSynchronize(s), "ref");
    }
    const double copy_us = t.median_us([&] {
        ok(cudaMemcpyAsync(b.keys2, b.pristine, n * sizeof(K), cudaMemcpyDeviceToDevice, s),
           "copy");
    });
    std::printf("## %s keys, 2^%d, %s\n", sizeof(K) == 4 ? "u32" : "u64", lg,
                low ? "low entropy" : "uniform");
    // The default (session 19: look-back window and histogram parts), and without them.
    using D = cu::default_radix_tuning<K, cu::radix_no_values>;
    using no_parts = cu::radix_tuning<D::radix_bits, D::threads, D::items, D::min_blocks, 256, 16,
                                      D::variant & ~cu::radix_hist_parts>;
    using neither = cu::radix_tuning<D::radix_bits, D::threads, D::items, D::min_blocks, 256, 16,
                                     D::variant & ~(cu::radix_hist_parts |
                                                    cu::radix_lookback_window |
                                                    cu::radix_lean_rank)>;
    // The default variant at another kernel shape, timed only (median of 15), checked against
    // CUB: one row of the `shapes` and `probe` tables.
    const auto shape_row = [&]<int Threads, int Items, int Blocks>() {
        using S = cu::radix_tuning<D::radix_bits, Threads, Items, Blocks, D::hist_threads,
                                   D::hist_items, D::variant>;
        const double us = t.median_us([&] { sort<S>(b, s); }, [&] { b.reset(s); }, 15);
        b.reset(s);
        sort<S>(b, s);
        ok(cudaStreamSynchronize(s), "sort");
        std::printf("| %d x %d, %d | %.1f | %.3f | %s |\n", Threads, Items, Blocks, us,
                    cub_us / us, same(b.keys, b.ref, n) ? "ok" : "MISMATCH");
        std::fflush(stdout);
    };
    if (mode == trace_mode::profile) {
        // Under ncu: three sorts of the default (CUB's ran above), nothing else.
        for (int i = 0; i < 3; ++i) {
            b.reset(s);
            sort<D>(b, s);
        }
        ok(cudaStreamSynchronize(s), "sort");
        std::printf("check %s\n", same(b.keys, b.ref, n) ? "ok" : "MISMATCH");
        ok(cudaStreamDestroy(s), "stream");
        return;
    }
    if (mode == trace_mode::ab) {
        // Where the time of the default without radix_lean_rank, with it, and with each of its two
        // parts alone goes: one traced sort of each. Not their times: these kernels carry the
        // trace points (session 21: this tool's A/B favoured a variant the bench measured 3-5 %
        // slower); `sweep_perf_gpu_radix ab` times them without.
        using A = typename D::ab_no_lean_rank;
        using L = typename D::ab_lean_rank;
        using R = typename D::ab_lean_ranking_only;
        using C = typename D::ab_lean_counts_only;
        row<A, K>("default without lean rank", b, t, s, cub_us, copy_us, sms);
        row<L, K>("default with lean rank", b, t, s, cub_us, copy_us, sms);
        row<R, K>("lean ranking only", b, t, s, cub_us, copy_us, sms);
        row<C, K>("lean counts only", b, t, s, cub_us, copy_us, sms);
        ok(cudaStreamDestroy(s), "stream");
        return;
    }
    if (mode == trace_mode::probe) {
        // CUB over fewer bits: one pass (and one histogram digit) per 8 bits, so the differences
        // are CUB's time per pass.
        std::printf("| CUB bits | us |\n|---|---|\n");
        for (int bits = 8; bits <= int(8 * sizeof(K)); bits += 8) {
            const double us = t.median_us(
                [&] {
                    cub::DoubleBuffer<K> dk(b.keys, b.keys2);
                    ok(cub::DeviceRadixSort::SortKeys(b.cub_temp, b.cub_bytes, dk, n, 0, bits, s),
                       "cub");
                },
                [&] { b.reset(s); }, 15);
            std::printf("| [0, %d) | %.1f |\n", bits, us);
        }
        std::printf("\n");
        // The pass without any look-back (marked by 15 histogram keys a thread): its time is the
        // pass with no wait on earlier tiles. Not sorted, so not checked.
        using bare = cu::radix_tuning<D::radix_bits, D::threads, D::items, D::min_blocks,
                                      D::hist_threads, 15, D::variant>;
        row<D, K>("default", b, t, s, cub_us, copy_us, sms);
        // The made-up offsets stay inside the keys only for uniform keys and enough tiles (about
        // 28.5 keys a digit a tile against the 27 the offset advances): 2^22 and up.
        if (!low && lg >= 22)
            row<bare, K>("bare: no look-back (NOT sorted; the check must fail)", b, t, s, cub_us,
                         copy_us, sms);
        else
            std::printf("\n(no bare row: it needs uniform keys and n >= 2^22)\n");
        std::printf("\n| threads x keys, blocks/SM | us | vs CUB | check |\n|---|---|---|---|\n");
        shape_row.template operator()<384, 18, 3>();
        shape_row.template operator()<384, 20, 3>();
        shape_row.template operator()<384, 21, 3>();
        ok(cudaStreamDestroy(s), "stream");
        return;
    }
    if (mode == trace_mode::shapes) {
        std::printf("| threads x keys, blocks/SM | us | vs CUB | check |\n|---|---|---|---|\n");
        shape_row.template operator()<D::threads, D::items, D::min_blocks>();
        shape_row.template operator()<384, 16, 3>();
        shape_row.template operator()<256, 16, 4>();
        shape_row.template operator()<256, 19, 4>();
        shape_row.template operator()<512, 14, 2>();
        shape_row.template operator()<384, 23, 2>();
        ok(cudaStreamDestroy(s), "stream");
        return;
    }
    std::printf("histogram kernel alone, one read of the keys (half the memcpy) %.1f us:\n\n"
                "| threads x keys | parts | us |\n|---|---|---|\n",
                copy_us / 2);
    const auto hist_row = [&]<int Threads, int Items>() {
        using H = cu::radix_tuning<D::radix_bits, D::threads, D::items, D::min_blocks, Threads,
                                   Items, D::variant>;
        std::printf("| %d x %d | %d | %.1f |\n", Threads, Items, H::hist_parts(sizeof(K)),
                    histogram_us<H>(b, t, s));
    };
    hist_row.template operator()<1024, 16>();
    hist_row.template operator()<1024, 8>();
    hist_row.template operator()<512, 16>();
    hist_row.template operator()<256, 16>();
    std::printf("| 256 x 16 | 1 | %.1f |\n\n", histogram_us<neither>(b, t, s));
    row<D, K>("default", b, t, s, cub_us, copy_us, sms);
    row<no_parts, K>("default without histogram parts", b, t, s, cub_us, copy_us, sms);
    row<neither, K>("without look-back window and parts (session 18's default)", b, t, s, cub_us,
                    copy_us, sms);
    ok(cudaStreamDestroy(s), "stream");
}

}  // namespace trace_radix

int main(int argc, char** argv) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
    const bool u64 = argc > 2 && std::strcmp(argv[2], "u64") == 0;
    const bool low = argc > 3 && std::atoi(argv[3]) != 0;
    using trace_radix::trace_mode;
    trace_mode mode = trace_mode::rows;
    if (argc > 4) {
        const std::string m = argv[4];
        mode = m == "shapes" ? trace_mode::shapes
             : m == "probe"  ? trace_mode::probe
             : m == "ab"     ? trace_mode::ab
             : m == "ncu"    ? trace_mode::profile
                             : trace_mode::rows;
    }
    if (u64) trace_radix::run<std::uint64_t>(lg, low, mode);
    else trace_radix::run<std::uint32_t>(lg, low, mode);
    return 0;
}
