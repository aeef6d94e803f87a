// perf/cpu/msd8_probe.cpp -- session 22 probe (built on request: --target sweep_perf_cpu_msd8_probe).
// Question: does a radix sort made only of 8-bit counting sorts beat sweep's par radix sort on the
// GPU machine's 16-core host? That is the shape of ParlayLib's integer_sort (the ANCHORS figure,
// 1.34 Gkeys/s for u32 at 2^27 there; described from its public source, not copied): a parallel
// count sort on the top 8 bits (blocks of about 128 KB each count their keys, then scatter with
// ordinary stores and a prefetch of the destination's next line), the same again inside each
// bucket while a bucket holds more than 2^17 keys, and a serial LSD sort with 8-bit digits below.
// For u32 at 2^27: 2^19-key buckets, then 2^11-key buckets (8 KiB, in L1), then two LSD passes.
// sweep's sort (survey, 12-bit MSD scatter with streaming stores, 2 x 10-bit LSD in L2) runs
// in the same process, alternated, on the same inputs.
// Usage: sweep_perf_cpu_msd8_probe [n = 2^27] [rounds = 7 (at least 1)] [base case = 2^17];
// prints median ms and Gkeys/s, and checks each probe result against std::sort.
#include <sweep/sweep.hpp>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "median_ms.hpp"

namespace {

constexpr int radix_bits = 8;
constexpr std::size_t buckets = std::size_t{1} << radix_bits;
std::size_t base_case = std::size_t{1} << 17;  // serial LSD below (ParlayLib's figure)
std::size_t par_split_from = std::size_t{1} << 20;  // blocks in parallel from this size

template <class U>
inline std::size_t digit(U k, int shift) {
    return static_cast<std::size_t>(k >> shift) & (buckets - 1);
}

/// Serial LSD over the low `bits` bits, data in a, b scratch; result in a if to_a else in b.
template <class U>
void seq_lsd(U* a, U* b, std::size_t n, int bits, bool to_a) {
    const int passes = (bits + radix_bits - 1) / radix_bits;
    std::uint32_t cnt[8][buckets] = {};
    for (std::size_t i = 0; i < n; ++i)
        for (int p = 0; p < passes; ++p) ++cnt[p][digit(a[i], p * radix_bits)];
    U* src = a;
    U* dst = b;
    for (int p = 0; p < passes; ++p) {
        std::uint32_t s = 0;
        for (std::size_t d = 0; d < buckets; ++d) {
            const std::uint32_t c = cnt[p][d];
            cnt[p][d] = s;
            s += c;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const U k = src[i];
            dst[cnt[p][digit(k, p * radix_bits)]++] = k;
        }
        std::swap(src, dst);
    }
    const bool in_a = src == a;
    if (in_a != to_a) std::copy(src, src + n, in_a ? b : a);
}

/// Count sort of src into dst by the digit at `shift`; start[0..256] gets the bucket bounds.
template <class U>
void split(const U* src, U* dst, std::size_t n, int shift, std::size_t* start) {
    if (n < par_split_from) {
        std::size_t cnt[buckets] = {};
        for (std::size_t i = 0; i < n; ++i) ++cnt[digit(src[i], shift)];
        std::size_t s = 0;
        for (std::size_t d = 0; d < buckets; ++d) {
            start[d] = s;
            s += cnt[d];
            cnt[d] = start[d];
        }
        start[buckets] = n;
        for (std::size_t i = 0; i < n; ++i) {
            const U k = src[i];
            U* p = dst + cnt[digit(k, shift)]++;
            __builtin_prefetch(p + 64 / sizeof(U), 1);
            *p = k;
        }
        return;
    }
    const std::size_t nb = 1 + n * sizeof(U) / (buckets * 500);
    const std::size_t bs = (n + nb - 1) / nb;
    std::vector<std::uint32_t> cnt(nb * buckets);
    tbb::parallel_for(std::size_t{0}, nb, [&](std::size_t b) {
        std::uint32_t* c = cnt.data() + b * buckets;
        const std::size_t lo = std::min(n, b * bs), hi = std::min(n, lo + bs);
        for (std::size_t i = lo; i < hi; ++i) ++c[digit(src[i], shift)];
    });
    std::vector<std::size_t> off(nb * buckets);
    std::size_t s = 0;
    for (std::size_t d = 0; d < buckets; ++d) {
        start[d] = s;
        for (std::size_t b = 0; b < nb; ++b) {
            off[b * buckets + d] = s;
            s += cnt[b * buckets + d];
        }
    }
    start[buckets] = n;
    tbb::parallel_for(std::size_t{0}, nb, [&](std::size_t b) {
        std::size_t* o = off.data() + b * buckets;
        const std::size_t lo = std::min(n, b * bs), hi = std::min(n, lo + bs);
        for (std::size_t i = lo; i < hi; ++i) {
            const U k = src[i];
            U* p = dst + o[digit(k, shift)]++;
            __builtin_prefetch(p + 64 / sizeof(U), 1);
            *p = k;
        }
    });
}

/// Sorts a[0,n) on its low `bits` bits with b as scratch; result in a if to_a else in b.
template <class U>
void sort_r(U* a, U* b, std::size_t n, int bits, bool to_a) {
    if (n < base_case || bits <= radix_bits) {
        seq_lsd(a, b, n, bits, to_a);
        return;
    }
    std::size_t start[buckets + 1];
    const int shift = bits - radix_bits;
    split(a, b, n, shift, start);
    tbb::parallel_for(std::size_t{0}, buckets, [&](std::size_t d) {
        const std::size_t lo = start[d], m = start[d + 1] - lo;
        if (m > 0) sort_r(b + lo, a + lo, m, shift, !to_a);
    }, tbb::simple_partitioner{});
}

using sweep_perf::median;

template <class U>
void run(std::size_t n, int rounds, const char* name) {
    std::vector<U> pristine(n), a(n), tmp(n), want;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
        std::mt19937_64 g(0x5eed + r.begin());
        for (std::size_t i = r.begin(); i != r.end(); ++i) pristine[i] = static_cast<U>(g());
    });
    auto reset = [&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
            std::copy(pristine.begin() + r.begin(), pristine.begin() + r.end(), a.begin() + r.begin());
        });
    };
    want = pristine;
    std::sort(want.begin(), want.end());
    std::vector<double> t_probe, t_sweep, t_top;
    bool ok = true;
    for (int r = -1; r < rounds; ++r) {  // round -1 warms pages and checks
        for (int which = 0; which < 3; ++which) {
            reset();
            const auto t0 = std::chrono::steady_clock::now();
            std::size_t start[buckets + 1];
            if (which == 0)
                sort_r(a.data(), tmp.data(), n, int(8 * sizeof(U)), true);
            else if (which == 1)
                sweep::radix_sort(sweep::par, a.begin(), a.end());
            else
                split(a.data(), tmp.data(), n, int(8 * sizeof(U)) - radix_bits, start);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (r < 0 && which < 2)
                ok = ok && a == want;
            else if (r >= 0)
                (which == 0 ? t_probe : which == 1 ? t_sweep : t_top).push_back(ms);
        }
    }
    const double p = median(t_probe), s = median(t_sweep);
    std::printf("%s n=%zu: msd8 probe %.1f ms (%.3f Gkeys/s) [%.1f..%.1f], sweep par %.1f ms (%.3f Gkeys/s) [%.1f..%.1f], probe/sweep speed %.2fx, probe's top split alone %.1f ms, check %s\n",
                name, n, p, double(n) / p / 1e6, *std::min_element(t_probe.begin(), t_probe.end()),
                *std::max_element(t_probe.begin(), t_probe.end()), s, double(n) / s / 1e6,
                *std::min_element(t_sweep.begin(), t_sweep.end()),
                *std::max_element(t_sweep.begin(), t_sweep.end()), s / p, median(t_top), ok ? "ok" : "MISMATCH");
    if (!ok) std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t{1} << 27;
    const int rounds = std::max(1, argc > 2 ? std::atoi(argv[2]) : 7);
    if (argc > 3) base_case = std::strtoull(argv[3], nullptr, 0);
    std::printf("base case %zu keys, parallel split from %zu keys\n", base_case, par_split_from);
    run<std::uint32_t>(n, rounds, "u32");
    run<std::uint64_t>(n, rounds, "u64");
}
