// sweep/backend/tbb/radix_bricks.hpp -- par backend (oneTBB): the serial pieces of the parallel
// radix sort (radix_sort.hpp), reused by every parallel phase and by the small-range path.
//
// Keys are sorted as their ordered bits (detail/radix_traits.hpp), complemented for descending, so
// that every pass is an ascending, stable counting sort on unsigned digits. Two kinds of storage:
//   caller_side  the caller's keys (stored as stored_t<K>) and values: bits are made on load,
//                undone on store (a runtime codec), so the caller's range always holds valid
//                keys, whatever pass wrote it;
//   bits_side    a temporary holding the ordered bits themselves.
// A "side" is a pair of pointers (keys, values), and the caller's codec; sorts without values
// carry a null no_value*. The bricks take sides by value: a copy that no store can alias keeps the
// pointers and the codec's mask in registers through the loops.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

#include <sweep/backend/tbb/radix_simd.hpp>
#include <sweep/detail/radix_traits.hpp>

namespace sweep::detail::tbb_backend::radix {

/// The value type of a keys-only sort.
struct no_value {};
template <class V>
inline constexpr bool has_values_v = !std::is_same_v<V, no_value>;

/// Keys <-> ordered bits: to_ordered, then an XOR with `flip`, a runtime mask (every bit for a
/// descending sort: stable, equal keys stay equal; the sign bit for signed integers stored as
/// their unsigned type, stored_t). A runtime mask, not template parameters, so that the sort is
/// compiled once per stored type rather than per key type and direction (a quarter of the
/// instances; the XOR costs nothing measurable in a memory-bound pass).
template <class S>
struct codec {
    using U = ordered_bits_t<S>;
    U flip;
    U enc(S s) const noexcept { return U(to_ordered(s) ^ flip); }
    S dec(U u) const noexcept { return from_ordered<S>(U(u ^ flip)); }
};

/// The type the sort reads and writes a key of type K as: the unsigned type of a standard signed
/// integer (which may alias it), else K itself.
template <class K>
using stored_t = typename std::conditional_t<
    std::is_same_v<K, signed char> || std::is_same_v<K, short> || std::is_same_v<K, int> ||
        std::is_same_v<K, long> || std::is_same_v<K, long long> ||
        (std::is_same_v<K, char> && std::is_signed_v<char>),
    std::make_unsigned<K>, std::type_identity<K>>::type;

/// The codec of keys K stored as stored_t<K>, for the given direction.
template <class K, bool Desc>
constexpr codec<stored_t<K>> codec_for() noexcept {
    using U = ordered_bits_t<K>;
    U flip = 0;
    if constexpr (!std::is_same_v<stored_t<K>, K>) flip = U(U(1) << (8 * sizeof(U) - 1));
    if constexpr (Desc) flip = U(~flip);
    return codec<stored_t<K>>{flip};
}

template <class S, class V>
struct caller_side {
    using U = ordered_bits_t<S>;
    static constexpr bool is_caller = true;
    using stored = S;
    S* k;
    V* v;
    codec<S> cd;
    /// Whether the stored keys are their ordered bits (no codec work).
    bool plain() const noexcept { return std::is_same_v<S, U> && cd.flip == 0; }
    S out(U u) const noexcept { return cd.dec(u); }
    U key(std::int64_t i) const noexcept { return cd.enc(k[i]); }
    void put(std::int64_t i, U u) const noexcept { k[i] = cd.dec(u); }
    caller_side at(std::int64_t off) const noexcept {
        caller_side r{k + off, v, cd};
        if constexpr (has_values_v<V>) r.v = v + off;
        return r;
    }
};

template <class U, class V>
struct bits_side {
    static constexpr bool is_caller = false;
    using stored = U;
    U* k;
    V* v;
    U out(U u) const noexcept { return u; }
    U key(std::int64_t i) const noexcept { return k[i]; }
    void put(std::int64_t i, U u) const noexcept { k[i] = u; }
    bits_side at(std::int64_t off) const noexcept {
        bits_side r{k + off, v};
        if constexpr (has_values_v<V>) r.v = v + off;
        return r;
    }
};

/// Bits [shift, shift + bits) of a key.
struct digit {
    int shift;
    int bits;
    std::uint32_t radix() const noexcept { return std::uint32_t{1} << bits; }
    template <class U>
    std::uint32_t of(U u) const noexcept {
        return static_cast<std::uint32_t>(u >> shift) & (radix() - 1);
    }
};

/// dst[i] = src[i], i < n (keys through the sides' codecs, values as they are).
template <class Src, class Dst>
void copy_range(const Src src, const Dst dst, std::int64_t n) noexcept {
    for (std::int64_t i = 0; i < n; ++i) {
        dst.put(i, src.key(i));
        if constexpr (has_values_v<std::remove_pointer_t<decltype(src.v)>>) dst.v[i] = src.v[i];
    }
}

/// memcpy with non-temporal stores for the whole 64-byte lines of the destination (they are not
/// read for ownership and do not evict the cache; the caller fences), ordinary stores for the
/// partial lines at its ends; a plain memcpy where the target has no streaming stores.
inline void stream_copy(void* to, const void* from, std::size_t bytes) noexcept {
#if defined(__x86_64__) || defined(__i386__)
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    const std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(d) % 64) % 64;
    if (bytes < head + 64) {
        std::memcpy(d, s, bytes);
        return;
    }
    std::memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
        const auto* f = reinterpret_cast<const __m128i*>(s);
        auto* t = reinterpret_cast<__m128i*>(d);
        const __m128i a = _mm_loadu_si128(f), b = _mm_loadu_si128(f + 1);
        const __m128i c = _mm_loadu_si128(f + 2), e = _mm_loadu_si128(f + 3);
        _mm_stream_si128(t, a);
        _mm_stream_si128(t + 1, b);
        _mm_stream_si128(t + 2, c);
        _mm_stream_si128(t + 3, e);
    }
    std::memcpy(d, s, bytes);
#else
    std::memcpy(to, from, bytes);
#endif
}

/// p[0, n) = x. With `stream`, the whole 64-byte lines of the range take streaming stores of a
/// 16-byte pattern of x (ordinary stores at the ends; the caller fences); else std::fill_n.
template <class T>
void fill_range(T* p, std::int64_t n, T x, bool stream) noexcept {
#if defined(__x86_64__) || defined(__i386__)
    static_assert(std::is_trivially_copyable_v<T>);
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    if constexpr (16 % sizeof(T) == 0) {
        if (stream && n >= 256 && addr % sizeof(T) == 0) {
            alignas(16) unsigned char pattern[16];
            for (std::size_t i = 0; i < 16; i += sizeof(T)) std::memcpy(pattern + i, &x, sizeof(T));
            const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(pattern));
            const std::int64_t head = static_cast<std::int64_t>((64 - addr % 64) % 64 / sizeof(T));
            std::fill_n(p, head, x);
            auto* d = reinterpret_cast<__m128i*>(p + head);  // 64-byte aligned
            std::int64_t lines = (n - head) * static_cast<std::int64_t>(sizeof(T)) / 64;
            for (; lines > 0; --lines, d += 4) {
                _mm_stream_si128(d, v);
                _mm_stream_si128(d + 1, v);
                _mm_stream_si128(d + 2, v);
                _mm_stream_si128(d + 3, v);
            }
            T* const rest = reinterpret_cast<T*>(d);
            std::fill(rest, p + n, x);
            return;
        }
    }
#endif
    (void)stream;
    std::fill_n(p, n, x);
}

/// Orders the streaming stores of this thread before its later stores (a no-op without them).
inline void stream_fence() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_sfence();
#endif
}

/// c[0, n) = src[0, n), where src is a bits side whose contents are not needed afterwards: with
/// `stream`, the keys are decoded in place and both arrays are copied with streaming stores (the
/// caller's range is not read again by the sort); else as copy_range.
template <class Src, class C>
void copy_out(const Src src, const C c, std::int64_t n, bool stream) noexcept {
    using K = typename C::stored;
    using U = std::remove_pointer_t<decltype(src.k)>;
    if (!stream || n <= 0) {
        copy_range(src, c, n);
        return;
    }
    static_assert(sizeof(K) == sizeof(U));
    if (!c.plain())
        for (std::int64_t i = 0; i < n; ++i) src.k[i] = std::bit_cast<U>(c.out(src.k[i]));
    stream_copy(c.k, src.k, static_cast<std::size_t>(n) * sizeof(K));
    if constexpr (has_values_v<std::remove_pointer_t<decltype(src.v)>>)
        stream_copy(c.v, src.v, static_cast<std::size_t>(n) * sizeof(*src.v));
    stream_fence();
}

/// Whether a side is 4-byte ordered bits without values: the sides the AVX-512 bricks take
/// (radix_simd.hpp).
template <class Side>
inline constexpr bool plain_u32_v = std::is_same_v<Side, bits_side<std::uint32_t, no_value>>;

/// cnt[d.of(key)] += 1 for every key of src[0, n); cnt holds d.radix() counters.
template <class Count, class Src>
void count_digit(const Src src, std::int64_t n, digit d, Count* cnt) noexcept {
    for (std::int64_t i = 0; i < n; ++i) ++cnt[d.of(src.key(i))];
}

/// The stable counting-sort scatter of src[0, n) by digit d: an element with digit x goes to
/// dst[off[x]++]. off holds d.radix() absolute positions in dst (Off: std::int64_t, or
/// std::uint32_t in cache, where a smaller table leaves more of L1 to the data).
template <class Src, class Dst, class Off>
void scatter_digit(const Src src, std::int64_t n, digit d, const Dst dst, Off* off) noexcept {
    constexpr bool with_values = has_values_v<std::remove_pointer_t<decltype(src.v)>>;
    if constexpr (plain_u32_v<Src> && plain_u32_v<Dst> && std::is_same_v<Off, std::uint32_t>) {
        // Positions are below n (offsets of n keys' counts), so 32-bit vector indices hold them.
        if ((simd::mode() & 2u) != 0 && n < (std::int64_t{1} << 31)) {
            simd::scatter_u32(src.k, n, d.shift, d.radix() - 1, dst.k, off);
            return;
        }
    }
    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = src.key(i);
        const std::int64_t p = off[d.of(u)]++;
        dst.put(p, u);
        if constexpr (with_values) dst.v[p] = src.v[i];
    }
}

/// Keys per 64-byte line (the write-combining unit of scatter_digit_wc).
template <class T>
inline constexpr std::int64_t line_elems = 64 / static_cast<std::int64_t>(sizeof(T));

/// memcpy for the few bytes of a partial line, in fixed-size pieces the compiler inlines (a
/// library call per flush cost more than the copy).
inline void small_copy(void* to, const void* from, std::size_t bytes) noexcept {
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) std::memcpy(d, s, 64);
    if (bytes & 32) { std::memcpy(d, s, 32); d += 32; s += 32; }
    if (bytes & 16) { std::memcpy(d, s, 16); d += 16; s += 16; }
    if (bytes & 8) { std::memcpy(d, s, 8); d += 8; s += 8; }
    if (bytes & 4) { std::memcpy(d, s, 4); d += 4; s += 4; }
    if (bytes & 2) { std::memcpy(d, s, 2); d += 2; s += 2; }
    if (bytes & 1) *d = *s;
}

/// scatter_digit with software write-combining, for destinations out of cache: each bucket
/// collects one destination cache line in a small buffer (kbuf/vbuf: radix lines of keys, and the
/// values of those keys), and a full line is written at once, with non-temporal stores when NT
/// (the line is not read for ownership, and does not evict the cache). Lines a bucket shares with
/// its neighbours (the first and the last of its run) are written element-wise. Satish, Kim,
/// Chhugani et al., "Fast sort on CPUs and GPUs", SIGMOD 2010; Polychroniou and Ross, SIGMOD 2014.
/// first: scratch of radix positions. BufferValues false: the values are written straight to
/// their place (wide values, whose lines would outgrow the caches; vbuf unused), the keys still
/// through their lines.
template <bool NT, bool BufferValues, class Src, class Dst, class V>
void scatter_digit_wc(const Src src, std::int64_t n, digit d, const Dst dst, std::int64_t* off,
                      std::int64_t* first, typename Dst::stored* kbuf, V* vbuf) noexcept {
    using S = typename Dst::stored;
    constexpr bool with_values = has_values_v<V> && BufferValues;
    constexpr bool direct_values = has_values_v<V> && !BufferValues;
    constexpr std::int64_t L = line_elems<S>;
    const auto addr = reinterpret_cast<std::uintptr_t>(dst.k);
    if (addr % sizeof(S) != 0) {  // not element-aligned (cannot happen for built-in keys)
        scatter_digit(src, n, d, dst, off);
        return;
    }
    const std::int64_t phase = static_cast<std::int64_t>((addr / sizeof(S)) & (L - 1));
    const std::uint32_t radix = d.radix();
    std::copy(off, off + radix, first);
    auto flush = [&](std::uint32_t x, std::int64_t from, std::int64_t to, std::int64_t line) {
        // Elements [from, to) of the line that starts at position `line`.
        small_copy(dst.k + from, kbuf + x * L + (from - line),
                   static_cast<std::size_t>(to - from) * sizeof(S));
        if constexpr (with_values)
            small_copy(dst.v + from, vbuf + x * L + (from - line),
                       static_cast<std::size_t>(to - from) * sizeof(V));
    };
    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = src.key(i);
        const std::uint32_t x = d.of(u);
        const std::int64_t p = off[x]++;
        const std::int64_t slot = (p + phase) & (L - 1);
        kbuf[x * L + slot] = dst.out(u);
        if constexpr (with_values) vbuf[x * L + slot] = src.v[i];
        if constexpr (direct_values) dst.v[p] = src.v[i];
        if (slot == L - 1) {
            const std::int64_t line = p - (L - 1);
            if (line >= first[x]) {
#if defined(__x86_64__) || defined(__i386__)
                if constexpr (NT) {
                    auto* to = reinterpret_cast<__m128i*>(dst.k + line);
                    const auto* from = reinterpret_cast<const __m128i*>(kbuf + x * L);
                    _mm_stream_si128(to, _mm_load_si128(from));
                    _mm_stream_si128(to + 1, _mm_load_si128(from + 1));
                    _mm_stream_si128(to + 2, _mm_load_si128(from + 2));
                    _mm_stream_si128(to + 3, _mm_load_si128(from + 3));
                    if constexpr (with_values)
                        std::memcpy(dst.v + line, vbuf + x * L, L * sizeof(V));
                } else {
                    flush(x, line, p + 1, line);
                }
#else
                flush(x, line, p + 1, line);
#endif
            } else {
                flush(x, first[x], p + 1, line);
            }
        }
    }
    for (std::uint32_t x = 0; x < radix; ++x) {
        const std::int64_t e = off[x];
        const std::int64_t line = e - ((e + phase) & (L - 1));
        const std::int64_t b = std::max(line, first[x]);
        if (e > b) flush(x, b, e, line);
    }
#if defined(__x86_64__) || defined(__i386__)
    if constexpr (NT) _mm_sfence();  // order the streaming stores before the pass ends
#endif
}

/// Stable insertion sort of src[0, n) into the scratch side tmp, then written to dst (n small;
/// dst may be src: src is read whole before dst is written).
template <class Src, class Tmp, class Dst>
void insertion_sort(const Src src, const Tmp tmp, const Dst dst, std::int64_t n) noexcept {
    constexpr bool with_values = has_values_v<std::remove_pointer_t<decltype(src.v)>>;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = src.key(i);
        std::int64_t j = i;
        if constexpr (with_values) {
            const auto v = src.v[i];
            for (; j > 0 && u < tmp.key(j - 1); --j) {
                tmp.put(j, tmp.key(j - 1));
                tmp.v[j] = tmp.v[j - 1];
            }
            tmp.v[j] = v;
        } else {
            for (; j > 0 && u < tmp.key(j - 1); --j) tmp.put(j, tmp.key(j - 1));
        }
        tmp.put(j, u);
    }
    copy_range(tmp, dst, n);
}

/// The digits that cover bits [lo, hi) in near-equal widths of at most max_bits, lowest first.
struct digit_list {
    digit d[64]{};
    int count = 0;
    digit_list(int lo, int hi, int max_bits) noexcept {
        const int w = hi - lo;
        if (w <= 0) return;
        count = (w + max_bits - 1) / max_bits;
        const int base = w / count, extra = w % count;
        for (int i = 0, s = lo; i < count; ++i) {
            d[i] = digit{s, base + (i < extra ? 1 : 0)};
            s += d[i].bits;
        }
    }
    /// The first k digits' shifts and masks, for the counting loops.
    void shifts_and_masks(int k, int* shift, std::uint32_t* mask) const noexcept {
        for (int j = 0; j < k; ++j) {
            shift[j] = d[j].shift;
            mask[j] = d[j].radix() - 1;
        }
    }
};

/// Histograms of every digit of dl over src[0, n) in one read; digit j counts into
/// counts[j * stride, ...). The digit count is made a compile-time constant so that the inner loop
/// unrolls (a loop over a runtime digit count ran at half the speed).
template <int D, class Src>
void count_digits_fixed(const Src src, std::int64_t n, const digit_list& dl, std::int64_t stride,
                        std::uint32_t* counts) noexcept {
    int shift[D];
    std::uint32_t mask[D];
    dl.shifts_and_masks(D, shift, mask);
    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = src.key(i);
        for (int j = 0; j < D; ++j)
            ++counts[j * stride + (static_cast<std::uint32_t>(u >> shift[j]) & mask[j])];
    }
}
template <class Src>
void count_digits(const Src& src, std::int64_t n, const digit_list& dl, std::int64_t stride,
                  std::uint32_t* counts) noexcept {
    if constexpr (plain_u32_v<Src>) {
        if ((simd::mode() & 1u) != 0 && dl.count <= 8 && dl.count * stride < (std::int64_t{1} << 31)) {
            int shift[8];
            std::uint32_t mask[8];
            dl.shifts_and_masks(dl.count, shift, mask);
            simd::count_u32(src.k, n, dl.count, shift, mask, stride, counts);
            return;
        }
    }
    switch (dl.count) {
        case 1: return count_digits_fixed<1>(src, n, dl, stride, counts);
        case 2: return count_digits_fixed<2>(src, n, dl, stride, counts);
        case 3: return count_digits_fixed<3>(src, n, dl, stride, counts);
        case 4: return count_digits_fixed<4>(src, n, dl, stride, counts);
        case 5: return count_digits_fixed<5>(src, n, dl, stride, counts);
        case 6: return count_digits_fixed<6>(src, n, dl, stride, counts);
        default:
            for (int j = 0; j < dl.count; ++j) count_digit(src, n, dl.d[j], counts + j * stride);
    }
}

/// Counters a serial LSD needs at most: digits of w <= LsdBits bits over 64 bits, 2^w each.
inline constexpr std::int64_t lsd_counters(int lsd_bits) noexcept {
    std::int64_t most = 0;
    for (int w = 1; w <= lsd_bits; ++w)
        most = std::max(most, static_cast<std::int64_t>((64 + w - 1) / w) << w);
    return most;
}

/// counts[j * stride + x] = keys of src[0, n) with digit j of dl equal to x, stride = 2^(widest
/// digit) (the first digit of a digit_list is its widest).
template <class Src>
std::int64_t histograms(const Src& src, std::int64_t n, const digit_list& dl,
                        std::uint32_t* counts) noexcept {
    const std::int64_t stride = std::int64_t{1} << dl.d[0].bits;
    std::fill(counts, counts + dl.count * stride, 0u);
    count_digits(src, n, dl, stride, counts);
    return stride;
}

/// Whether a digit whose counts over n keys are c[0, radix) varies (no bucket holds them all).
inline bool digit_varies(const std::uint32_t* c, std::uint32_t radix, std::int64_t n) noexcept {
    return std::find(c, c + radix, static_cast<std::uint32_t>(n)) == c + radix;
}

/// Counts c[0, radix) -> their exclusive prefix sums in place (the scatter's offsets).
inline std::uint32_t* to_offsets(std::uint32_t* c, std::uint32_t radix) noexcept {
    std::uint32_t sum = 0;
    for (std::uint32_t b = 0; b < radix; ++b) {
        const std::uint32_t k = c[b];
        c[b] = sum;
        sum += k;
    }
    return c;
}

/// LSD passes over a[0, n) by the digits of dl that vary over it, between a and the scratch t (of
/// n elements); the result is left in a. counts: the digits' histograms (histograms()).
template <class A, class T>
void lsd_in_place(const A& a, const T& t, std::int64_t n, const digit_list& dl,
                  std::uint32_t* counts, std::int64_t stride) noexcept {
    int p = 0;
    for (int j = 0; j < dl.count; ++j) {
        std::uint32_t* cj = counts + j * stride;
        if (!digit_varies(cj, dl.d[j].radix(), n)) continue;
        to_offsets(cj, dl.d[j].radix());
        if (p % 2 == 0) scatter_digit(a, n, dl.d[j], t, cj);
        else scatter_digit(t, n, dl.d[j], a, cj);
        ++p;
    }
    if (p % 2 == 1) copy_range(t, a, n);
}

/// A serial LSD over n keys sorts on at least log2(n) + tie_margin bits before settling ties
/// (settle_ties): for uniform keys about one key in 2^tie_margin then shares them with another.
inline constexpr int tie_margin = 6;

/// Where the passes of a serial LSD over n keys, bits [bit_lo, bit_hi), digits of `width` bits,
/// begin: bit_lo, or the bottom of the top log2(n) + tie_margin bits (in whole digits) when that
/// saves a pass (the ties are then settled by the bits below).
inline int top_bits_start(std::int64_t n, int bit_lo, int bit_hi, int width) noexcept {
    const int need = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1))) + tie_margin;
    const int top_passes = (need + width - 1) / width;
    return top_passes < (bit_hi - bit_lo + width - 1) / width ? bit_hi - top_passes * width : bit_lo;
}

/// Whether the top digits dl, by their histograms, leave few ties among n keys: a key shares all
/// of them with fewer than two others on average, taking the digits as independent
/// (n * prod_j sum_x (c_jx / n)^2 < 2; uniform keys: about 2^-tie_margin; u64 AND-of-two keys in
/// a 2^15-key leaf: about 1, and faster with the shortcut). Where the top bits hold much less
/// entropy than they could (doubles of a few binades: the exponent; about 10 at 60K keys), the
/// runs' insertion sorts cost more than the passes saved: then the LSD covers every bit.
inline bool few_ties(const std::uint32_t* counts, std::int64_t stride, const digit_list& dl,
                     std::int64_t n) noexcept {
    const double nn = static_cast<double>(n) * static_cast<double>(n);
    double p = static_cast<double>(n);
    for (int j = 0; j < dl.count; ++j) {
        const std::uint32_t* cj = counts + j * stride;
        double sq = 0;
        for (std::uint32_t x = 0; x < dl.d[j].radix(); ++x)
            sq += static_cast<double>(cj[x]) * static_cast<double>(cj[x]);
        p *= sq / nn;
    }
    return p < 2.0;
}

/// When few_ties says no to the top digits `top` (bits [sort_lo, bit_hi), `width` bits each,
/// counted into counts, stride = 2^width apart): every digit of [bit_lo, bit_hi), lowest first,
/// the ones below sort_lo counted in one more read of src[0, n) and the top ones' counts moved up
/// after theirs. Returns the digits; their count is at most that of digit_list(bit_lo, bit_hi,
/// width), so counts holds them.
template <class Src>
digit_list with_lower_digits(const Src& src, std::int64_t n, const digit_list& top, int bit_lo,
                             int width, std::uint32_t* counts, std::int64_t stride) noexcept {
    const digit_list lower(bit_lo, top.d[0].shift, width);
    std::memmove(counts + lower.count * stride, counts,
                 static_cast<std::size_t>(top.count * stride) * sizeof(std::uint32_t));
    std::fill(counts, counts + lower.count * stride, 0u);
    count_digits(src, n, lower, stride, counts);
    digit_list all = lower;
    for (int j = 0; j < top.count; ++j) all.d[all.count++] = top.d[j];
    return all;
}

/// The digits a serial LSD over src[0, n), bits [bit_lo, bit_hi), `width`-bit digits, passes
/// over, counted into counts: the top ones only (from sort_lo) when top_bits_start says that
/// saves a pass and few_ties agrees, else all (sort_lo == bit_lo).
struct lsd_digits {
    digit_list dl;
    std::int64_t stride;
    int sort_lo;
};
template <class Src>
lsd_digits choose_digits(const Src& src, std::int64_t n, int bit_lo, int bit_hi, int width,
                         std::uint32_t* counts) noexcept {
    const int top = top_bits_start(n, bit_lo, bit_hi, width);
    lsd_digits r{digit_list(top, bit_hi, width), 0, top};
    r.stride = histograms(src, n, r.dl, counts);
    if (top > bit_lo && !few_ties(counts, r.stride, r.dl, n)) {
        r.dl = with_lower_digits(src, n, r.dl, bit_lo, width, counts, r.stride);
        r.sort_lo = bit_lo;
    }
    return r;
}

template <class A, class T>
void sort_run(const A& a, const T& t, std::int64_t n, int bit_lo, int bit_hi, int max_bits,
              std::uint32_t* counts) noexcept;

/// a[0, n) is sorted by the key bits from `shift` up; orders each run of keys equal there by bits
/// [bit_lo, shift) (the bits below bit_lo are equal over the range), stable: insertion sort for a
/// short run, sort_run with the scratch t (n elements, same positions) for a long one.
template <class A, class T>
void settle_ties(const A& a, const T& t, std::int64_t n, int bit_lo, int shift, int max_bits,
                 std::uint32_t* counts) noexcept {
    using U = decltype(a.key(0));
    constexpr std::int64_t short_run = 16;
    std::int64_t i = 0;
    while (i < n) {
        const U hi = U(a.key(i) >> shift);
        std::int64_t j = i + 1;
        while (j < n && U(a.key(j) >> shift) == hi) ++j;
        const std::int64_t len = j - i;
        if (len > short_run) sort_run(a.at(i), t.at(i), len, bit_lo, shift, max_bits, counts);
        else if (len > 1) insertion_sort(a.at(i), t.at(i), a.at(i), len);
        i = j;
    }
}

/// Sorts a[0, n) in place by bits [bit_lo, bit_hi) (the others equal over the range), with the
/// scratch t: LSD passes on the top bits (top_bits_start), then the ties settled below them; so a
/// long run whose top bits hold little entropy (doubles of one binade) recurses on the bits below
/// rather than paying a pass for every digit. Each level takes at least tie_margin + 5 bits, so the
/// recursion is at most 6 deep.
template <class A, class T>
void sort_run(const A& a, const T& t, std::int64_t n, int bit_lo, int bit_hi, int max_bits,
              std::uint32_t* counts) noexcept {
    const int w = std::clamp(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n))) - 2, 4,
                             max_bits);
    const lsd_digits g = choose_digits(a, n, bit_lo, bit_hi, w, counts);
    lsd_in_place(a, t, n, g.dl, counts, g.stride);
    if (g.sort_lo > bit_lo) settle_ties(a, t, n, bit_lo, g.sort_lo, max_bits, counts);
}

/// Serial LSD radix sort of x[0, n) by bits [bit_lo, bit_hi), result in c[0, n) (the caller's
/// range), in digits of at most max_bits (<= LsdBits) bits. s is a bits side of n elements of
/// scratch; counts holds lsd_counters(max_bits) counters (n < 2^32). One read counts every digit;
/// digits constant over the range are skipped; each digit's counts become its offsets in place.
/// Passes alternate between s and x. When x is a bits side (free once read) and there are no
/// values, every pass stays in x and s, in cache, and one sequential copy (streaming when
/// `stream`) writes c: scattering the last pass straight into c would miss the cache on scattered
/// lines of the caller's range, each read for ownership. With values the last pass writes c
/// directly (faster there, measured). When x is the caller's range itself and the pass count is
/// odd, one copy brings the result back.
/// Wide keys, few of them (u64 keys in a 2^15-key leaf: 52 bits, 5 passes): the passes cover only
/// the top log2(n) + tie_margin bits (2 passes), and settle_ties orders the few runs of keys equal
/// there by the bits below, in cache, before the copy out. When the histograms of those top digits
/// say the ties would not be few (few_ties), a second read counts the other digits and every bit
/// is sorted as before.
template <int LsdBits, class X, class C, class S>
void serial_lsd(const X& x, const C& c, const S& s, std::int64_t n, int bit_lo, int bit_hi,
                int max_bits, std::uint32_t* counts, bool stream = false) noexcept {
    const int width = std::min(max_bits, LsdBits);
    // The top bits only, if that saves a pass and leaves few ties (else a second read counts the
    // digits below them). Digits are at most width bits: dl.count * stride <= lsd_counters(width).
    const lsd_digits g = choose_digits(x, n, bit_lo, bit_hi, width, counts);
    const digit_list& dl = g.dl;
    const std::int64_t stride = g.stride;
    const int sort_lo = g.sort_lo;
    const bool ties = sort_lo > bit_lo;
    int active[64];
    int r = 0;
    for (int j = 0; j < dl.count; ++j) {
        if (digit_varies(counts + j * stride, dl.d[j].radix(), n)) active[r++] = j;
    }
    auto offsets = [&](int j) { return to_offsets(counts + j * stride, dl.d[j].radix()); };
    if (r == 0) {  // every digit constant; never with ties (few_ties is false then)
        if constexpr (!X::is_caller) copy_out(x, c, n, stream);
        return;
    }
    if constexpr (!X::is_caller && has_values_v<std::remove_pointer_t<decltype(x.v)>>) {
        // With values: x -> s -> x -> s ... and the last pass into c (measured: the copy out
        // below made u32 + u32 pairs 1.5x slower at 2^26 and 2^27 on the development VM).
        for (int p = 0; p < r; ++p) {
            std::uint32_t* off = offsets(active[p]);
            const bool last = p + 1 == r;
            if (p % 2 == 0) {
                if (last) scatter_digit(x, n, dl.d[active[p]], c, off);
                else scatter_digit(x, n, dl.d[active[p]], s, off);
            } else {
                if (last) scatter_digit(s, n, dl.d[active[p]], c, off);
                else scatter_digit(s, n, dl.d[active[p]], x, off);
            }
        }
        if (ties) settle_ties(c, s, n, bit_lo, sort_lo, width, counts);
    } else {
        // c -> s -> c -> s ... or x -> s -> x -> s ...; the result is in s when the count is odd.
        for (int p = 0; p < r; ++p) {
            std::uint32_t* off = offsets(active[p]);
            if (p % 2 == 0) scatter_digit(x, n, dl.d[active[p]], s, off);
            else scatter_digit(s, n, dl.d[active[p]], x, off);
        }
        if (ties) {
            if (r % 2 == 1) settle_ties(s, x, n, bit_lo, sort_lo, width, counts);
            else settle_ties(x, s, n, bit_lo, sort_lo, width, counts);
        }
        if constexpr (X::is_caller) {
            if (r % 2 == 1) copy_range(s, c, n);
        } else {
            copy_out(r % 2 == 1 ? s : x, c, n, stream);
        }
    }
}

}  // namespace sweep::detail::tbb_backend::radix
