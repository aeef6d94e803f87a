// src/tbb/radix_simd.cpp -- the AVX-512 bricks of the par radix sort (backend/tbb/radix_simd.hpp
// says what and why). Compiled for the baseline target; only these functions carry the AVX-512
// target attribute, and they run only where the CPU reports the instructions.
#include <sweep/backend/tbb/radix_simd.hpp>
#include <sweep/detail/radix_traits.hpp>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics warn about their own _mm512_undefined_* idiom (__Y = __Y) when used
// in a function with the target attribute under -Wall (a false positive; GCC bug 105593).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>

// SWEEP_NO_RADIX_SIMD=1 (for the library's build) leaves the bricks out: the scalar ones always run.
#if defined(SWEEP_NO_RADIX_SIMD) && SWEEP_NO_RADIX_SIMD != 0
#define SWEEP_RADIX_HAVE_AVX512 0
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__NVCOMPILER)
#define SWEEP_RADIX_HAVE_AVX512 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define SWEEP_RADIX_HAVE_AVX512 0
#endif

namespace sweep::detail::tbb_backend::radix::simd {

namespace {

bool cpu_has_avx512() noexcept {
#if SWEEP_RADIX_HAVE_AVX512
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512vpopcntdq");
#else
    return false;
#endif
}

/// Whether the bricks were measured faster on this CPU's cores: Intel family 6, Sapphire Rapids
/// (model 143) and Emerald Rapids (207, measured; the same cores). Elsewhere (Zen 4, whose 512-bit
/// scatters are slow; Ice Lake, whose gathers the GDS microcode slows) they are off unless asked.
bool measured_cpu() noexcept {
#if SWEEP_RADIX_HAVE_AVX512
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0, &a, &b, &c, &d) == 0) return false;
    const bool intel = b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;  // GenuineIntel
    if (!intel || __get_cpuid(1, &a, &b, &c, &d) == 0) return false;
    const unsigned family = (a >> 8) & 0xFu;
    const unsigned model = ((a >> 4) & 0xFu) | (((a >> 16) & 0xFu) << 4);
    return family == 6 && (model == 143 || model == 207);
#else
    return false;
#endif
}

/// SWEEP_RADIX_AVX512: a decimal 0-7 chooses the bricks; anything else (unset, empty, other text
/// or values) leaves the default: all on where measured_cpu(), all off elsewhere.
unsigned mode_from_env() noexcept {
    const char* e = std::getenv("SWEEP_RADIX_AVX512");
    if (e == nullptr || e[0] < '0' || e[0] > '7' || e[1] != '\0') return measured_cpu() ? 7u : 0u;
    return static_cast<unsigned>(e[0] - '0');
}

// The tests' call counters: kept only once a test has set the mode, so that sorts outside tests
// do not bump counters shared by every worker.
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> count_calls{0}, scatter_calls{0}, survey_calls{0};

inline void note_call(std::atomic<std::uint64_t>& c) noexcept {
    if (counting.load(std::memory_order_relaxed)) c.fetch_add(1, std::memory_order_relaxed);
}

std::atomic<unsigned>& current() noexcept {
    static std::atomic<unsigned> m{default_mode()};
    return m;
}

}  // namespace

bool available() noexcept {
    static const bool yes = cpu_has_avx512();
    return yes;
}

unsigned default_mode() noexcept { return available() ? mode_from_env() : 0u; }

unsigned mode() noexcept { return current().load(std::memory_order_relaxed); }

unsigned set_mode_for_tests(unsigned m) noexcept {
    counting.store(true, std::memory_order_relaxed);
    return current().exchange(available() ? (m & 7u) : 0u, std::memory_order_relaxed);
}

brick_calls calls_for_tests() noexcept {
    return brick_calls{count_calls.load(std::memory_order_relaxed),
                       scatter_calls.load(std::memory_order_relaxed),
                       survey_calls.load(std::memory_order_relaxed)};
}

namespace {

/// The scalar loops: the vector bricks' tails, and the whole of them without AVX-512.
void count_scalar(const std::uint32_t* k, std::int64_t n, int digits, const int* shift,
                  const std::uint32_t* mask, std::int64_t stride, std::uint32_t* counts) noexcept {
    for (std::int64_t i = 0; i < n; ++i)
        for (int j = 0; j < digits; ++j) ++counts[j * stride + ((k[i] >> shift[j]) & mask[j])];
}

void scatter_scalar(const std::uint32_t* src, std::int64_t n, int shift, std::uint32_t mask,
                    std::uint32_t* dst, std::uint32_t* off) noexcept {
    for (std::int64_t i = 0; i < n; ++i) {
        const std::uint32_t u = src[i];
        dst[off[(u >> shift) & mask]++] = u;
    }
}

void survey_scalar(const void* w, std::int64_t n, bool is_float, std::uint32_t flip, int shift,
                   std::uint32_t mask, bool check_sorted, std::uint32_t prev,
                   std::uint32_t* counts, survey_acc32& acc) noexcept {
    const unsigned char* p = static_cast<const unsigned char*>(w);
    std::uint32_t o = acc.or_all, a = acc.and_all;
    bool sorted = acc.sorted;
    for (std::int64_t i = 0; i < n; ++i) {
        std::uint32_t u;
        std::memcpy(&u, p + 4 * i, 4);
        if (is_float) u = sweep::detail::to_ordered(std::bit_cast<float>(u));
        u ^= flip;
        o |= u;
        a &= u;
        if (check_sorted) sorted = sorted && prev <= u;
        prev = u;
        ++counts[(u >> shift) & mask];
    }
    acc = survey_acc32{o, a, sorted};
}

}  // namespace

#if SWEEP_RADIX_HAVE_AVX512

#define SWEEP_AVX512 __attribute__((target("avx512f,avx512cd,avx512vpopcntdq")))

namespace {

/// One digit's counters over 16 keys: idx = digit + base; each lane adds the lanes before it with
/// the same index and itself; the highest such lane is scattered last.
SWEEP_AVX512 inline void count16(__m512i keys, __m128i shift, __m512i mask, __m512i base,
                                 std::uint32_t* counts) noexcept {
    const __m512i idx = _mm512_add_epi32(_mm512_and_si512(_mm512_srl_epi32(keys, shift), mask), base);
    const __m512i before = _mm512_popcnt_epi32(_mm512_conflict_epi32(idx));
    const __m512i c = _mm512_i32gather_epi32(idx, counts, 4);
    _mm512_i32scatter_epi32(counts, idx,
                            _mm512_add_epi32(_mm512_add_epi32(c, before), _mm512_set1_epi32(1)), 4);
}

}  // namespace

SWEEP_AVX512 void count_u32(const std::uint32_t* k, std::int64_t n, int digits, const int* shift,
                            const std::uint32_t* mask, std::int64_t stride,
                            std::uint32_t* counts) noexcept {
    note_call(count_calls);
    if (digits > 8) return count_scalar(k, n, digits, shift, mask, stride, counts);
    __m128i vs[8];
    __m512i vm[8], vb[8];
    for (int j = 0; j < digits; ++j) {
        vs[j] = _mm_cvtsi32_si128(shift[j]);
        vm[j] = _mm512_set1_epi32(static_cast<int>(mask[j]));
        vb[j] = _mm512_set1_epi32(static_cast<int>(j * stride));
    }
    std::int64_t i = 0;
    if (digits == 2) {  // the leaves' common case: the loop over digits unrolled
        for (; i + 16 <= n; i += 16) {
            const __m512i keys = _mm512_loadu_si512(k + i);
            count16(keys, vs[0], vm[0], vb[0], counts);
            count16(keys, vs[1], vm[1], vb[1], counts);
        }
    } else {
        for (; i + 16 <= n; i += 16) {
            const __m512i keys = _mm512_loadu_si512(k + i);
            for (int j = 0; j < digits; ++j) count16(keys, vs[j], vm[j], vb[j], counts);
        }
    }
    count_scalar(k + i, n - i, digits, shift, mask, stride, counts);
}

SWEEP_AVX512 void scatter_u32(const std::uint32_t* src, std::int64_t n, int shift,
                              std::uint32_t mask, std::uint32_t* dst,
                              std::uint32_t* off) noexcept {
    note_call(scatter_calls);
    const __m128i vs = _mm_cvtsi32_si128(shift);
    const __m512i vm = _mm512_set1_epi32(static_cast<int>(mask));
    const __m512i one = _mm512_set1_epi32(1);
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i keys = _mm512_loadu_si512(src + i);
        const __m512i d = _mm512_and_si512(_mm512_srl_epi32(keys, vs), vm);
        const __m512i before = _mm512_popcnt_epi32(_mm512_conflict_epi32(d));
        const __m512i pos = _mm512_add_epi32(_mm512_i32gather_epi32(d, off, 4), before);
        _mm512_i32scatter_epi32(dst, pos, keys, 4);
        _mm512_i32scatter_epi32(off, d, _mm512_add_epi32(pos, one), 4);
    }
    scatter_scalar(src + i, n - i, shift, mask, dst, off);
}

SWEEP_AVX512 void survey_u32(const void* w, std::int64_t n, bool is_float, std::uint32_t flip,
                             int shift, std::uint32_t mask, bool check_sorted, std::uint32_t prev,
                             std::uint32_t* counts, survey_acc32& acc) noexcept {
    note_call(survey_calls);
    const unsigned char* p = static_cast<const unsigned char*>(w);
    const __m128i vs = _mm_cvtsi32_si128(shift);
    const __m512i vm = _mm512_set1_epi32(static_cast<int>(mask));
    const __m512i vflip = _mm512_set1_epi32(static_cast<int>(flip));
    const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
    const __m512i zero = _mm512_setzero_si512();
    __m512i o = _mm512_set1_epi32(static_cast<int>(acc.or_all));
    __m512i a = _mm512_set1_epi32(static_cast<int>(acc.and_all));
    __m512i last = _mm512_set1_epi32(static_cast<int>(prev));
    __mmask16 in_order = 0xFFFF;
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i u = _mm512_loadu_si512(p + 4 * i);
        // to_ordered of a float (radix_traits.hpp), 16 lanes: XOR with all ones or the sign.
        if (is_float) u = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi32(u, 31), sign));
        u = _mm512_xor_si512(u, vflip);
        o = _mm512_or_si512(o, u);
        a = _mm512_and_si512(a, u);
        if (check_sorted) {
            // Each lane's predecessor: the previous vector's last lane, then this vector's lanes.
            const __m512i before = _mm512_alignr_epi32(u, last, 15);
            in_order &= _mm512_cmple_epu32_mask(before, u);
        }
        last = u;
        count16(u, vs, vm, zero, counts);
    }
    acc.or_all = static_cast<std::uint32_t>(_mm512_reduce_or_epi32(o));
    acc.and_all = static_cast<std::uint32_t>(_mm512_reduce_and_epi32(a));
    if (check_sorted && in_order != 0xFFFF) acc.sorted = false;
    if (i > 0) {
        alignas(64) std::uint32_t lanes[16];
        _mm512_store_si512(lanes, last);
        prev = lanes[15];
    }
    survey_scalar(p + 4 * i, n - i, is_float, flip, shift, mask, check_sorted, prev, counts, acc);
}

#else  // no AVX-512 in this build: never called (mode() is 0), defined for the linker

void survey_u32(const void* w, std::int64_t n, bool is_float, std::uint32_t flip, int shift,
                std::uint32_t mask, bool check_sorted, std::uint32_t prev, std::uint32_t* counts,
                survey_acc32& acc) noexcept {
    survey_scalar(w, n, is_float, flip, shift, mask, check_sorted, prev, counts, acc);
}

void count_u32(const std::uint32_t* k, std::int64_t n, int digits, const int* shift,
               const std::uint32_t* mask, std::int64_t stride, std::uint32_t* counts) noexcept {
    count_scalar(k, n, digits, shift, mask, stride, counts);
}

void scatter_u32(const std::uint32_t* src, std::int64_t n, int shift, std::uint32_t mask,
                 std::uint32_t* dst, std::uint32_t* off) noexcept {
    scatter_scalar(src, n, shift, mask, dst, off);
}

#endif

}  // namespace sweep::detail::tbb_backend::radix::simd
