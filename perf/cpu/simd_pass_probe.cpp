// perf/cpu/simd_pass_probe.cpp -- session 21 probe (not built by CMake; needs AVX-512F/CD and
// VPOPCNTDQ, e.g. the GPU machine's host; the development VM has AVX2 only):
//   g++ -O3 -std=c++20 -march=native perf/cpu/simd_pass_probe.cpp -ltbb -o /tmp/simd_probe
//   /tmp/simd_probe [threads = 16]
// Question: is one LSD counting-sort pass of the CPU radix sort's leaves (u32 keys, 2^16 a leaf,
// in L2, an 11-bit then a 10-bit digit) cheaper when vectorized with AVX-512 (Polychroniou,
// Raghavan and Ross, "Rethinking SIMD vectorization for in-memory databases", SIGMOD 2015):
// 16 keys at a time, their digits, VPCONFLICTD for the lanes with the same digit before each
// lane (the pass stays stable), a gather of the digits' offsets, a scatter of the keys, and a
// scatter of the advanced offsets (for repeated indices the highest lane is written last, so
// each digit keeps its last lane's value). The histogram is vectorized the same way.
// Prints ns a key per thread for each method (median of 9 rounds over all leaves), one thread and
// all threads at once (each its own leaves), and checks every vector result against the scalar
// one.
#include <immintrin.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using U = std::uint32_t;
constexpr int leaf = 1 << 16;

/// Scalar: counts of one digit.
void count_scalar(const U* k, int n, int shift, U mask, U* cnt) {
    std::fill(cnt, cnt + mask + 1, 0u);
    for (int i = 0; i < n; ++i) ++cnt[(k[i] >> shift) & mask];
}

/// Scalar: the stable scatter by one digit from exclusive offsets (as radix_bricks' scatter_digit).
void scatter_scalar(const U* k, int n, int shift, U mask, U* off, U* out) {
    for (int i = 0; i < n; ++i) {
        const U u = k[i];
        out[off[(u >> shift) & mask]++] = u;
    }
}

/// Exclusive offsets in place.
void to_offsets(U* c, U radix) {
    U sum = 0;
    for (U b = 0; b < radix; ++b) {
        const U x = c[b];
        c[b] = sum;
        sum += x;
    }
}

/// 16 keys' digits, and for each lane the number of lanes before it with the same digit
/// (VPCONFLICTD's mask, counted).
struct lanes {
    __m512i d;
    __m512i before;
};
inline lanes digits_of(__m512i keys, __m128i vshift, __m512i vmask) {
    const __m512i d = _mm512_and_si512(_mm512_srl_epi32(keys, vshift), vmask);
    return {d, _mm512_popcnt_epi32(_mm512_conflict_epi32(d))};
}

/// AVX-512: the histogram. Every lane scatters base + (its equal lanes before it) + 1, and for a
/// repeated index the highest lane (the largest value) is written last.
void count_avx512(const U* k, int n, int shift, U mask, U* cnt) {
    std::fill(cnt, cnt + mask + 1, 0u);
    const __m512i vmask = _mm512_set1_epi32(static_cast<int>(mask));
    const __m128i vshift = _mm_cvtsi32_si128(shift);
    const __m512i one = _mm512_set1_epi32(1);
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        const lanes l = digits_of(_mm512_loadu_si512(k + i), vshift, vmask);
        const __m512i base = _mm512_i32gather_epi32(l.d, cnt, 4);
        _mm512_i32scatter_epi32(cnt, l.d, _mm512_add_epi32(_mm512_add_epi32(base, l.before), one), 4);
    }
    for (; i < n; ++i) ++cnt[(k[i] >> shift) & mask];
}

/// AVX-512: the stable scatter (offsets exclusive, advanced as the scalar pass does).
void scatter_avx512(const U* k, int n, int shift, U mask, U* off, U* out) {
    const __m512i vmask = _mm512_set1_epi32(static_cast<int>(mask));
    const __m128i vshift = _mm_cvtsi32_si128(shift);
    const __m512i one = _mm512_set1_epi32(1);
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i keys = _mm512_loadu_si512(k + i);
        const lanes l = digits_of(keys, vshift, vmask);
        const __m512i pos = _mm512_add_epi32(_mm512_i32gather_epi32(l.d, off, 4), l.before);
        _mm512_i32scatter_epi32(out, pos, keys, 4);
        _mm512_i32scatter_epi32(off, l.d, _mm512_add_epi32(pos, one), 4);
    }
    for (; i < n; ++i) {
        const U u = k[i];
        out[off[(u >> shift) & mask]++] = u;
    }
}

struct leaf_buffers {
    std::vector<U> in, a, b, cnt1, cnt2;
    explicit leaf_buffers(std::uint64_t seed) : in(leaf), a(leaf), b(leaf), cnt1(2048), cnt2(2048) {
        std::mt19937 g(static_cast<unsigned>(seed));
        for (U& x : in) x = g() & ((1u << 21) - 1);  // a u32 leaf after an 11-bit MSD digit
    }
};

/// One leaf sorted by 21 bits (11 + 10) into b, by the scalar or the vector bricks.
template <bool Vec>
void sort_leaf(leaf_buffers& L) {
    auto count = Vec ? count_avx512 : count_scalar;
    auto scatter = Vec ? scatter_avx512 : scatter_scalar;
    count(L.in.data(), leaf, 0, 2047, L.cnt1.data());
    count(L.in.data(), leaf, 11, 1023, L.cnt2.data());
    to_offsets(L.cnt1.data(), 2048);
    to_offsets(L.cnt2.data(), 1024);
    scatter(L.in.data(), leaf, 0, 2047, L.cnt1.data(), L.a.data());
    scatter(L.a.data(), leaf, 11, 1023, L.cnt2.data(), L.b.data());
}

/// One pass only (the 11-bit scatter, offsets from a fresh count), for the per-pass cost.
template <bool Vec>
void pass_only(leaf_buffers& L) {
    count_scalar(L.in.data(), leaf, 0, 2047, L.cnt1.data());
    to_offsets(L.cnt1.data(), 2048);
    (Vec ? scatter_avx512 : scatter_scalar)(L.in.data(), leaf, 0, 2047, L.cnt1.data(), L.a.data());
}

template <class F>
double median_ns_per_key(int threads, int leaves_per_thread, std::vector<leaf_buffers>& all, F f) {
    std::vector<double> t;
    for (int r = 0; r < 9; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        tbb::parallel_for(0, threads, [&](int w) {
            for (int j = 0; j < leaves_per_thread; ++j) f(all[static_cast<std::size_t>(w * leaves_per_thread + j)]);
        });
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        t.push_back(ns / (double(leaves_per_thread) * leaf));
    }
    std::sort(t.begin(), t.end());
    return t[4];
}

}  // namespace

int main(int argc, char** argv) {
    const int T = argc > 1 ? std::atoi(argv[1]) : 16;
    const int per = 8;  // leaves a thread: 8 x 2^16 keys, 2 MiB of inputs, cycled
    std::vector<leaf_buffers> all;
    for (int i = 0; i < T * per; ++i) all.emplace_back(1234 + i);
    // Check: the vector leaf sort equals the scalar one, and is sorted by the 21 bits.
    bool ok = true;
    for (auto& L : all) {
        sort_leaf<false>(L);
        const std::vector<U> want = L.b;
        sort_leaf<true>(L);
        ok = ok && L.b == want && std::is_sorted(want.begin(), want.end());
    }
    std::printf("check: %s\n", ok ? "ok" : "MISMATCH");
    for (const int threads : {1, T}) {
        tbb::global_control gc(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
        std::printf("%2d threads: leaf (2 counts + 2 passes) scalar %.2f avx512 %.2f ns/key; one 11-bit pass (+count) scalar %.2f avx512 %.2f ns/key\n",
                    threads, median_ns_per_key(threads, per, all, sort_leaf<false>),
                    median_ns_per_key(threads, per, all, sort_leaf<true>),
                    median_ns_per_key(threads, per, all, pass_only<false>),
                    median_ns_per_key(threads, per, all, pass_only<true>));
    }
    return ok ? 0 : 1;
}
