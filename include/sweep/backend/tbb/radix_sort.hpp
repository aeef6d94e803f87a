// sweep/backend/tbb/radix_sort.hpp -- par backend (oneTBB): stable radix sort, in place on the
// caller's range, with one n-sized temporary (docs/radix_sort.md).
//
// Most-significant digit first at the top, least-significant digit first in cache at the leaves
// (the hybrid of Polychroniou and Ross, "A comprehensive study of main-memory partitioning and its
// application to large-scale comparison- and radix-sort", SIGMOD 2014):
//   1. survey (parallel, one read): OR and AND of all keys (which bits vary at all), whether the
//      range is already sorted, and the histogram of the top digit for each of a few large chunks
//      (chunks_per_worker per worker);
//   2. MSD pass (parallel over the same chunks): the chunk histograms, scanned across chunks, are
//      where each chunk's run of each bucket starts; each chunk is scattered into the temporary
//      through per-worker write-combining lines with streaming stores: stable, one read and one
//      write of DRAM, no second count;
//   3. buckets (parallel over buckets): each bucket, now contiguous, is sorted on one thread by a
//      serial LSD radix sort between its place in the temporary and a per-worker scratch, both in
//      L2, then copied (streaming stores) to the caller's range (with values: its last pass
//      writes the caller's range). A bucket too large for L2 takes
//      one more serial MSD split; a bucket too large for one worker (skewed keys) is sorted by
//      steps 1-3 again, in parallel.
// DRAM sees 5 transfers of the keys (read; read + write; read + write), whatever the key width.
// Keys alone whose bits vary over at most count_sort_bits positions skip steps 2-3: a counting
// sort (count_sort) reads them once more and fills the range (3 transfers).
// Ranges below serial_below, and .threads(1), run steps 2-3 on the calling thread.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <sweep/backend/tbb/arena.hpp>
#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/radix_bricks.hpp>
#include <sweep/backend/tbb/temporary.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/radix_traits.hpp>

namespace sweep::detail::tbb_backend::radix {

// ---- tuning (docs/radix_sort.md has the measurements) -------------------------------------------

// The library ships this sort compiled for the built-in key types (keys alone, and with 4- or
// 8-byte unsigned values: src/tbb/radix_par_*.cpp), with the default tuning below. A translation
// unit that changes any tuning or testing macro (they must be the same in the whole program)
// compiles its own instead.
#if defined(SWEEP_RADIX_LSD_BITS) || defined(SWEEP_RADIX_MSD_BITS) ||                           \
    defined(SWEEP_RADIX_LEAF_KIB) || defined(SWEEP_RADIX_SERIAL_BELOW) ||                       \
    defined(SWEEP_RADIX_LSD_SMALL_SHIFT) || defined(SWEEP_RADIX_CHUNKS_PER_WORKER) ||           \
    defined(SWEEP_RADIX_STREAM_KIB) || defined(SWEEP_RADIX_TIMING) ||                           \
    defined(SWEEP_RADIX_SPLIT_BITS) || defined(SWEEP_RADIX_COUNT_BITS) ||                        \
    (defined(SWEEP_FAULT_INJECTION) && SWEEP_FAULT_INJECTION) || defined(SWEEP_NO_PRECOMPILED_RADIX)
#define SWEEP_RADIX_PRECOMPILED 0
#else
#define SWEEP_RADIX_PRECOMPILED 1
#endif

#ifndef SWEEP_RADIX_LSD_BITS
#define SWEEP_RADIX_LSD_BITS 11
#endif
#ifndef SWEEP_RADIX_MSD_BITS
#define SWEEP_RADIX_MSD_BITS 12
#endif
#ifndef SWEEP_RADIX_LEAF_KIB
#define SWEEP_RADIX_LEAF_KIB 256
#endif
#ifndef SWEEP_RADIX_SERIAL_BELOW
#define SWEEP_RADIX_SERIAL_BELOW 65536
#endif

/// Digit width of the in-cache LSD passes.
inline constexpr int lsd_bits = SWEEP_RADIX_LSD_BITS;
/// A serial LSD over n keys uses digits of at most log2(n) - lsd_small_shift bits.
#ifndef SWEEP_RADIX_LSD_SMALL_SHIFT
#define SWEEP_RADIX_LSD_SMALL_SHIFT 2
#endif
inline constexpr int lsd_small_shift = SWEEP_RADIX_LSD_SMALL_SHIFT;
/// Widest MSD digit of a parallel pass: 12 bits, so that 2^27 u64 keys make buckets of one leaf
/// rather than two (measured faster on the 16-core host; the scatter's 4096 write-combining lines
/// of keys still sit in L2; docs/radix_sort.md). Taken only past 2^11 leaves.
inline constexpr int max_msd_bits = SWEEP_RADIX_MSD_BITS;
/// Bytes (keys + values) of the buckets an MSD pass aims at ("a leaf"): source, scratch and
/// destination of its serial LSD stay in a 1-2 MiB L2. A serial LSD takes up to lsd_leaves leaves.
inline constexpr std::int64_t leaf_bytes = std::int64_t{SWEEP_RADIX_LEAF_KIB} << 10;
/// Largest range of a serial LSD, in leaves.
inline constexpr std::int64_t lsd_leaves = 4;
#ifndef SWEEP_RADIX_CHUNKS_PER_WORKER
#define SWEEP_RADIX_CHUNKS_PER_WORKER 4
#endif
/// Chunks per worker of a parallel MSD pass (survey and scatter): few and large, so that each
/// bucket's run in a chunk spans many whole cache lines (partial lines at the run's ends are
/// written element-wise), yet enough for the workers to balance their load.
inline constexpr int chunks_per_worker = SWEEP_RADIX_CHUNKS_PER_WORKER;
/// Smallest chunk of a parallel MSD pass, in keys.
inline constexpr std::int64_t min_chunk = std::int64_t{1} << 14;
/// Below this many keys the whole sort runs on the calling thread.
inline constexpr std::int64_t serial_below = SWEEP_RADIX_SERIAL_BELOW;
/// Buckets this small are insertion-sorted.
inline constexpr std::int64_t insertion_max = 16;
#ifndef SWEEP_RADIX_SPLIT_BITS
#define SWEEP_RADIX_SPLIT_BITS 11
#endif
/// Width of the serial MSD split of a bucket larger than a leaf.
inline constexpr int split_bits = SWEEP_RADIX_SPLIT_BITS;
#ifndef SWEEP_RADIX_STREAM_KIB
#define SWEEP_RADIX_STREAM_KIB 4096
#endif
/// Sorts and passes over at least this many bytes write with streaming stores: the MSD scatter,
/// the leaves' copy into the caller's range and the counting sort's fill (the result is not read
/// again by the sort). 4 MiB since session 23: on the 16-core host 2^21 u64 keys (16 MiB) sorted
/// 1.8x faster with streaming stores than without, and no size measured (2^21-2^25) lost.
inline constexpr std::int64_t stream_bytes = std::int64_t{SWEEP_RADIX_STREAM_KIB} << 10;
#ifndef SWEEP_RADIX_COUNT_BITS
#define SWEEP_RADIX_COUNT_BITS 16
#endif
/// Keys alone whose bits vary over at most this many positions (u8 keys, u16 keys when there are
/// enough of them, u32 keys & 0xFFFF) are sorted by counting: one read counts each distinct key,
/// one write fills the range (docs/radix_sort.md, Algorithm). 0 turns it off. The counters must
/// also fit the workers' scratch (counting_pays): with the default leaves that holds up to 18 bits,
/// so larger values change nothing.
inline constexpr int count_sort_bits = SWEEP_RADIX_COUNT_BITS;
static_assert(count_sort_bits >= 0 && count_sort_bits <= 24, "SWEEP_RADIX_COUNT_BITS: 0 to 24");
/// ... where there are at least this many keys for each counter of every worker (the counters'
/// clearing, summing and scanning stay small next to the keys' read and write).
inline constexpr std::int64_t count_sort_keys_per_counter = 4;
/// Tests: the counting sorts run so far (one relaxed increment a counting sort).
inline std::atomic<std::int64_t> count_sorts_for_tests{0};

// ---- phase clock (perf only) --------------------------------------------------------------------
// Compiled in with SWEEP_RADIX_TIMING=1 (the whole program; perf/sweep_perf_cpu_radix_phases
// prints it): wall nanoseconds of each phase of the top-level parallel sort, summed over calls.
#ifndef SWEEP_RADIX_TIMING
#define SWEEP_RADIX_TIMING 0
#endif
enum class phase : int { memory, survey, offsets, scatter, buckets };
inline constexpr int phase_count = 5;
#if SWEEP_RADIX_TIMING
inline std::array<std::atomic<std::int64_t>, phase_count> phase_ns{};
inline std::atomic<std::int64_t> phase_calls{0};
class phase_clock {
public:
    explicit phase_clock(bool on) noexcept : on_(on) {}
    void lap(phase p) noexcept {
        if (!on_) return;
        const auto t = std::chrono::steady_clock::now();
        phase_ns[static_cast<int>(p)] +=
            std::chrono::duration_cast<std::chrono::nanoseconds>(t - t_).count();
        t_ = t;
    }

private:
    bool on_;
    std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};
#else
struct phase_clock {
    explicit constexpr phase_clock(bool) noexcept {}
    constexpr void lap(phase) const noexcept {}
};
#endif

inline int ceil_log2(std::int64_t x) noexcept {
    return x <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(x - 1));
}

/// n elements of T, uninitialized. Mapped with huge pages (temporary.hpp) when `mapped` and at
/// least stream_bytes, where first-touch faults are most of the cost of fresh memory; else from
/// operator new, whose heap serves repeated calls without new faults. Per-worker scratch is never
/// mapped: a worker touches only what its buckets need, and a huge page is cleared whole. T is
/// trivially copyable (an implicit-lifetime type), so raw storage holds it without construction,
/// and T need not be default-constructible.
template <class T, std::size_t Align = alignof(T)>
class buffer {
public:
    explicit buffer(std::int64_t n, bool mapped = false) {
        if (n <= 0) return;
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
        if (!mapped || bytes < static_cast<std::size_t>(stream_bytes)) {
            testing::host_temporary();
            small_.reset(static_cast<T*>(::operator new(bytes, std::align_val_t{align})));
            p_ = small_.get();
        } else {
            big_.emplace(n);
            p_ = big_->get();
        }
    }
    T* get() const noexcept { return p_; }

private:
    static constexpr std::size_t align = Align > 64 ? Align : 64;
    struct release {
        void operator()(T* p) const noexcept { ::operator delete(p, std::align_val_t{align}); }
    };
    std::unique_ptr<T, release> small_;
    std::optional<raw_temporary<T>> big_;
    T* p_ = nullptr;
};

template <class V>
using value_buffer_t = std::conditional_t<has_values_v<V>, V, char>;
template <class V>
using value_buffer = buffer<value_buffer_t<V>>;

/// Sides whose survey the AVX-512 brick can take (radix_simd.hpp): 4-byte keys read as 32-bit
/// words, through the codec of an integer (an XOR) or of a float (to_ordered, then the XOR).
template <class X>
struct survey32 {
    static constexpr bool ok = false;
};
template <class V>
struct survey32<caller_side<std::uint32_t, V>> {
    static constexpr bool ok = true, is_float = false;
    static std::uint32_t flip(const caller_side<std::uint32_t, V>& x) noexcept { return x.cd.flip; }
};
template <class V>
struct survey32<caller_side<float, V>> {
    static constexpr bool ok = sizeof(float) == 4 && std::numeric_limits<float>::is_iec559;
    static constexpr bool is_float = true;
    static std::uint32_t flip(const caller_side<float, V>& x) noexcept { return x.cd.flip; }
};
template <class V>
struct survey32<bits_side<std::uint32_t, V>> {
    static constexpr bool ok = true, is_float = false;
    static std::uint32_t flip(const bits_side<std::uint32_t, V>&) noexcept { return 0; }
};

/// One worker's survey accumulators, alone on its cache line.
template <class U>
struct alignas(64) survey_acc {
    U or_all;
    U and_all;
    bool sorted;
};

/// Runs fn(w) for w in [0, workers) as oneTBB tasks of the current arena. Each fn loops on a shared
/// ticket, so a task that starts late finds no work left; w indexes per-worker scratch (no two
/// tasks with the same w run at once).
template <class F>
void run_workers(int workers, F&& fn) {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, workers, 1),
        [&](const tbb::blocked_range<int>& r) {
            for (int w = r.begin(); w != r.end(); ++w) fn(w);
        },
        tbb::simple_partitioner());
}

/// The sort of keys stored as S (stored_t) through the codec given at construction.
template <class S, class V>
class sorter {
public:
    using U = ordered_bits_t<S>;
    using C = caller_side<S, V>;
    using B = bits_side<U, V>;
    static constexpr int key_bits = 8 * static_cast<int>(sizeof(U));
    static constexpr std::int64_t elem_bytes =
        static_cast<std::int64_t>(sizeof(U) + (has_values_v<V> ? sizeof(V) : 0));
    /// The bucket size MSD passes aim at, and the largest range a serial LSD sorts (a few leaves:
    /// a bucket just over the aim costs some L3 traffic, less than one more split pass).
    static constexpr std::int64_t leaf = std::max<std::int64_t>(leaf_bytes / elem_bytes, 1024);
    static constexpr std::int64_t lsd_max = lsd_leaves * leaf;
    static constexpr std::int64_t radix_max = std::int64_t{1} << std::max(max_msd_bits, split_bits);
    static constexpr std::int64_t count_stride = std::max(lsd_counters(lsd_bits), radix_max);
    static constexpr std::int64_t offs_stride = 2 * std::max(std::int64_t{1} << lsd_bits, radix_max);
    static constexpr std::int64_t line = line_elems<U>;
    /// Values go through write-combining lines too where those lines take at most 1 MiB a worker
    /// (4096 lines x keys a line x sizeof(V): 256-512 KiB for u32 or u64 values with 4- or 8-byte
    /// keys, 1 MiB for 16-byte values with 4-byte keys); wider ones (or 1-byte keys with u64
    /// values: 2 MiB) are written straight to their place: their lines would outgrow the caches
    /// they are meant to sit in (64 MiB a worker for 1 KiB values with u32 keys).
    static constexpr bool wc_values =
        has_values_v<V> && radix_max * line * static_cast<std::int64_t>(sizeof(V)) <= (1 << 20);
    /// One worker's write-combining lines: radix_max lines of keys, then their values.
    static constexpr std::int64_t wc_bytes =
        radix_max * 64 + (wc_values ? radix_max * line * static_cast<std::int64_t>(sizeof(V)) : 0);

    /// Everything one sort needs, allocated before the caller's range is written.
    struct memory {
        buffer<U> tk;
        value_buffer<V> tv;
        buffer<U> sk;
        value_buffer<V> sv;
        // Tables written before they are read: uninitialized (clearing them cost a mid-size sort
        // tens of microseconds).
        buffer<std::uint32_t> counts;
        buffer<std::int64_t> offs;
        buffer<std::int64_t> hist;  // per chunk of the top MSD pass: counts, then offsets
        std::vector<survey_acc<U>> acc;
        std::vector<std::uint32_t> order;
        buffer<std::byte, alignof(value_buffer_t<V>)> wc;  // values' lines follow the keys' lines
        /// temp == 0 on one thread: the range fits the scratch, so it is sorted by one serial
        /// LSD (or an insertion sort), with no split: the counters of its digits only, no
        /// offsets. Parallel: temp is the range; the chunk histograms are those of its top MSD
        /// pass (a recursion into a bucket has no more chunks).
        /// `keys`: how many the parallel survey reads (its chunk histograms); temp is 0 when
        /// the parallel sort is sure to count (counting_only).
        memory(std::int64_t temp, std::int64_t scratch, int workers, bool parallel,
               std::int64_t keys)
            : tk(temp, true), tv(has_values_v<V> ? temp : 0, true), sk(scratch * workers),
              sv(has_values_v<V> ? scratch * workers : 0),
              counts(parallel || temp > 0 ? count_stride * workers
                                          : lsd_counters(lsd_width(scratch))),
              offs(parallel || temp > 0 ? offs_stride * workers : 0),
              hist(parallel ? radix_max * chunk_count(keys, workers) : 0),
              acc(testing::temporary_size(parallel ? static_cast<std::size_t>(workers) : 0)),
              order(testing::temporary_size(parallel ? static_cast<std::size_t>(radix_max) : 0)),
              wc(temp > 0 ? wc_bytes * workers : 0) {}
    };

    /// stream: the whole sort is larger than a last-level cache (the leaves write the caller's
    /// range with streaming stores).
    sorter(S* keys, V* vals, codec<S> cd, memory& m, std::int64_t scratch, int workers,
           bool stream)
        : c_{keys, vals, cd}, t_{m.tk.get(), value_ptr(m.tv)}, m_(m), scratch_(scratch),
          workers_(workers), stream_(stream) {}

    /// Sorts the whole range on the calling thread.
    void serial(std::int64_t n) { serial_sort(c_, 0, n, 0, key_bits, 0); }

    /// Sorts the whole range on workers_ workers of the current arena.
    void parallel(std::int64_t n) { par_sort(c_, 0, n, 0, key_bits, true); }

private:
    static V* value_ptr(const value_buffer<V>& b) noexcept {
        if constexpr (has_values_v<V>) return b.get();
        else return nullptr;
    }
    B scratch(int w) const noexcept {
        B s{m_.sk.get() + static_cast<std::int64_t>(w) * scratch_, nullptr};
        if constexpr (has_values_v<V>) s.v = m_.sv.get() + static_cast<std::int64_t>(w) * scratch_;
        return s;
    }
    std::uint32_t* counts(int w) const noexcept { return m_.counts.get() + w * count_stride; }
    std::int64_t* offs(int w) const noexcept { return m_.offs.get() + w * offs_stride; }
    std::int64_t* firsts(int w) const noexcept { return offs(w) + offs_stride / 2; }
    std::byte* wc(int w) const noexcept { return m_.wc.get() + w * wc_bytes; }  // 64-aligned
    /// The write-combining scatter into an out-of-cache destination (streaming stores when the
    /// pass is larger than a last-level cache could hold).
    template <class Src, class Dst>
    void scatter_far(const Src& src, std::int64_t n, digit d, const Dst& dst, std::int64_t* off,
                     int w, bool stream) const noexcept {
        using D = typename Dst::stored;
        auto* kb = reinterpret_cast<D*>(wc(w));
        using VB = std::conditional_t<has_values_v<V>, V, no_value>;
        VB* const vb = wc_values ? reinterpret_cast<VB*>(wc(w) + radix_max * 64) : nullptr;
        if (stream) scatter_digit_wc<true, wc_values>(src, n, d, dst, off, firsts(w), kb, vb);
        else scatter_digit_wc<false, wc_values>(src, n, d, dst, off, firsts(w), kb, vb);
    }

    /// The buffer a pass out of X writes: the caller's range and the temporary alternate.
    template <class X>
    auto other() const noexcept {
        if constexpr (X::is_caller) return t_;
        else return c_;
    }

    /// Digit width of a serial LSD over n keys: lsd_bits, narrower for small buckets, where
    /// clearing and scanning 2^bits counters per digit would cost more than a pass saves.
    static int lsd_width(std::int64_t n) noexcept {
        return std::clamp(ceil_log2(n) - lsd_small_shift, 4, lsd_bits);
    }

    // ---- one thread -----------------------------------------------------------------------------

    /// Sorts x[lo, lo + n) by bits [bit_lo, bit_hi) (all other bits are equal within the range)
    /// into the caller's range, on one thread with worker w's scratch. depth: serial splits above.
    template <class X>
    void serial_sort(const X& x, std::int64_t lo, std::int64_t n, int bit_lo, int bit_hi, int w,
                     int depth = 0) const noexcept {
        const X xs = x.at(lo);
        const C cs = c_.at(lo);
        if (n <= 1 || bit_hi <= bit_lo) {
            if constexpr (!X::is_caller) copy_range(xs, cs, n);
            return;
        }
        if (n <= insertion_max) {
            insertion_sort(xs, scratch(w), cs, n);
            return;
        }
        if (n <= scratch_) {
            serial_lsd<lsd_bits>(xs, cs, scratch(w), n, bit_lo, bit_hi, lsd_width(n), counts(w),
                                 stream_);
            return;
        }
        // Too large for cache: split into the other buffer and recurse. Deeper splits (skewed
        // keys only) are narrower, so that the stack holds at most 2^split_bits + 63 * 2^8 bounds.
        if (depth == 0) serial_split<split_bits>(x, lo, n, bit_lo, bit_hi, w, depth);
        else serial_split<8>(x, lo, n, bit_lo, bit_hi, w, depth);
    }

    template <int Bits, class X>
    void serial_split(const X& x, std::int64_t lo, std::int64_t n, int bit_lo, int bit_hi, int w,
                      int depth) const noexcept {
        const X xs = x.at(lo);
        // Only the bits that vary over the range are sorted on (one read, as the survey does).
        U o = 0, a = U(~U(0));
        for (std::int64_t i = 0; i < n; ++i) {
            const U u = xs.key(i);
            o |= u;
            a &= u;
        }
        const U varying = U((o ^ a) & bit_range(bit_lo, bit_hi));
        if (varying == 0) {
            if constexpr (!X::is_caller) copy_range(xs, c_.at(lo), n);
            return;
        }
        bit_hi = std::bit_width(varying);
        bit_lo = std::countr_zero(varying);
        const int b = msd_width(n, bit_hi - bit_lo, 1, Bits);
        const digit d{bit_hi - b, b};
        std::array<std::int64_t, (std::size_t{1} << Bits) + 1> bound{};
        count_digit(xs, n, d, bound.data() + 1);
        for (std::uint32_t j = 0; j < d.radix(); ++j) bound[j + 1] += bound[j];
        std::int64_t* off = offs(w);
        std::copy(bound.begin(), bound.begin() + d.radix(), off);
        scatter_far(xs, n, d, other<X>().at(lo), off, w, n * elem_bytes >= stream_bytes);
        for (std::uint32_t j = 0; j < d.radix(); ++j)
            if (bound[j + 1] > bound[j])
                serial_sort(other<X>(), lo + bound[j], bound[j + 1] - bound[j], bit_lo, d.shift, w,
                            depth + 1);
    }

    /// Bits [lo, hi) set.
    static U bit_range(int lo, int hi) noexcept {
        return U(U(~U(0)) >> (key_bits - (hi - lo)) << lo);
    }

    // ---- parallel -------------------------------------------------------------------------------

    /// Width of an MSD digit over n keys with `avail` bits below it: buckets of about a leaf
    /// (and at least `at_least` bits), widened by up to 3 bits where that saves a pass of the
    /// leaves' LSD (u32 at 2^24: 10 bits, then 22 bits in 2 passes, not 8 and 24 in 3).
    static int msd_width(std::int64_t n, int avail, int at_least, int widest) noexcept {
        const int top = std::min(widest, avail);
        const int w = std::min(std::max(ceil_log2((n + leaf - 1) / leaf), at_least), top);
        auto leaf_passes = [&](int b) {
            const int rem = avail - b;
            const int width = lsd_width(std::max<std::int64_t>(n >> b, 1));
            return rem <= 0 ? 0 : (rem + width - 1) / width;
        };
        int best = w;
        for (int b = w + 1; b <= std::min(top, w + 3); ++b)
            if (leaf_passes(b) < leaf_passes(best)) best = b;
        return std::max(best, 1);
    }

    struct survey_result {
        U or_all;
        U and_all;
        bool sorted;
    };

    /// The chunks of a parallel MSD pass over n keys (the survey and the scatter use the same).
    static std::int64_t chunk_count(std::int64_t n, int workers) noexcept {
        return std::clamp<std::int64_t>(n / min_chunk, 1, std::int64_t{chunks_per_worker} * workers);
    }
    block_grid chunk_grid(std::int64_t n) const noexcept {
        const std::int64_t chunks = chunk_count(n, workers_);
        return block_grid{n, (n + chunks - 1) / chunks};
    }
    std::int64_t* chunk_hist(std::int64_t c) const noexcept {
        return m_.hist.get() + c * radix_max;
    }

    /// One parallel read of xs[0, n): OR, AND, sortedness (when asked) and, for every chunk of
    /// grid, the histogram of d into chunk_hist(c)[0, d.radix()).
    template <class X>
    survey_result survey(const X& x, const block_grid& grid, digit d, bool check_sorted) const {
        std::atomic<std::int64_t> ticket{0};
        run_workers(workers_, [&](int w) {
            const X xs = x;  // a local copy: the codec's mask is not reloaded after each count
            U o = 0, a = U(~U(0));
            bool sorted = true;
            for (;;) {
                const std::int64_t b = ticket.fetch_add(1, std::memory_order_relaxed);
                if (b >= grid.count()) break;
                std::int64_t* h = chunk_hist(b);
                const std::int64_t lo = grid.begin(b), hi = grid.end(b);
                if constexpr (survey32<X>::ok) {
                    if ((simd::mode() & 4u) != 0 && hi - lo < (std::int64_t{1} << 32)) {
                        // 32-bit counters, widened after.
                        std::uint32_t* loc = counts(w);
                        std::fill(loc, loc + d.radix(), 0u);
                        const bool chk = check_sorted && sorted;
                        simd::survey_acc32 acc{o, a, sorted};
                        simd::survey_u32(xs.k + lo, hi - lo, survey32<X>::is_float,
                                         survey32<X>::flip(xs), d.shift, d.radix() - 1, chk,
                                         chk && lo > 0 ? xs.key(lo - 1) : U(0), loc, acc);
                        o = acc.or_all;
                        a = acc.and_all;
                        sorted = acc.sorted;
                        std::copy(loc, loc + d.radix(), h);
                        continue;
                    }
                }
                std::fill(h, h + d.radix(), 0);
                if (check_sorted && sorted) {
                    U prev = lo > 0 ? xs.key(lo - 1) : U(0);
                    for (std::int64_t i = lo; i < hi; ++i) {
                        const U u = xs.key(i);
                        o |= u;
                        a &= u;
                        sorted &= prev <= u;
                        prev = u;
                        ++h[d.of(u)];
                    }
                } else {
                    for (std::int64_t i = lo; i < hi; ++i) {
                        const U u = xs.key(i);
                        o |= u;
                        a &= u;
                        ++h[d.of(u)];
                    }
                }
            }
            m_.acc[static_cast<std::size_t>(w)] = survey_acc<U>{o, a, sorted};
        });
        survey_result r{0, U(~U(0)), true};
        for (int w = 0; w < workers_; ++w) {
            const auto& acc = m_.acc[static_cast<std::size_t>(w)];
            r.or_all |= acc.or_all;
            r.and_all &= acc.and_all;
            r.sorted = r.sorted && acc.sorted;
        }
        return r;
    }

    /// After a survey of grid on digit d: bound[j] = first position of bucket j (j <= radix), and
    /// each chunk's histogram becomes the first position of its run of each bucket (chunk c's
    /// elements of bucket j follow those of chunks before c: the scatter is stable).
    void chunk_offsets(const block_grid& grid, digit d, std::int64_t* bound) const noexcept {
        const std::uint32_t radix = d.radix();
        std::fill(bound, bound + radix + 1, 0);
        for (std::int64_t c = 0; c < grid.count(); ++c) {
            const std::int64_t* h = chunk_hist(c);
            for (std::uint32_t j = 0; j < radix; ++j) bound[j + 1] += h[j];
        }
        for (std::uint32_t j = 0; j < radix; ++j) bound[j + 1] += bound[j];
        std::int64_t* run = offs(0);  // worker 0's offsets are free between passes
        std::copy(bound, bound + radix, run);
        for (std::int64_t c = 0; c < grid.count(); ++c) {
            std::int64_t* h = chunk_hist(c);
            for (std::uint32_t j = 0; j < radix; ++j) {
                const std::int64_t k = h[j];
                h[j] = run[j];
                run[j] += k;
            }
        }
    }

    /// The MSD pass: xs[0, n) scattered by digit d into ys[0, n), stable, chunk by chunk of grid
    /// from the offsets of chunk_offsets. One read and one (streaming) write of the data.
    template <class X, class Y>
    void msd_pass(const X& xs, const Y& ys, const block_grid& grid, digit d) const {
        const bool stream = grid.n * elem_bytes >= stream_bytes;
        std::atomic<std::int64_t> ticket{0};
        run_workers(workers_, [&](int w) {
            for (;;) {
                const std::int64_t b = ticket.fetch_add(1, std::memory_order_relaxed);
                if (b >= grid.count()) break;
                const std::int64_t lo = grid.begin(b);
                scatter_far(xs.at(lo), grid.end(b) - lo, d, ys, chunk_hist(b), w, stream);
            }
        });
    }

    /// Digits this narrow are counted into four interleaved tables of 256 (count_keys).
    static constexpr int interleaved_bits = 8;
    /// Counters a worker's table holds for a counting sort over `span` bits.
    static std::int64_t count_table(int span) noexcept {
        return std::max<std::int64_t>(std::int64_t{1} << span, 4 << interleaved_bits);
    }

public:
    /// Whether a parallel sort on `workers` workers with `scratch` keys of scratch each sorts n
    /// keys alone whose bits vary over `span` positions by counting: at most count_sort_bits
    /// bits, fewer than 2^32 keys (32-bit counters and positions), at least
    /// count_sort_keys_per_counter keys for each counter of each worker, and the workers'
    /// counters fit in their scratch (count_sort takes no memory of its own).
    static bool counting_pays(std::int64_t n, int span, int workers, std::int64_t scratch) noexcept {
        return !has_values_v<V> && span <= count_sort_bits && n < (std::int64_t{1} << 32) &&
               n / count_sort_keys_per_counter >= (static_cast<std::int64_t>(workers) << span) &&
               count_table(span) * 4 <= scratch * static_cast<std::int64_t>(sizeof(U));
    }
    /// Whether the parallel sort of n keys is sure to count whatever they are: keys alone no wider
    /// than count_sort_bits, with enough of them. It then needs no temporary.
    static bool counting_only(std::int64_t n, int workers, std::int64_t scratch) noexcept {
        return key_bits <= count_sort_bits && counting_pays(n, key_bits, workers, scratch);
    }

private:
    /// cnt[d.of(key)] += 1 for the keys of x[0, n). Digits of at most interleaved_bits count into
    /// four interleaved tables of 256 (cnt[0, 1024)), so that runs of equal keys do not wait on
    /// one counter's store; the caller adds them up (add_interleaved).
    template <class X>
    static void count_keys(const X& x, std::int64_t n, digit d, std::uint32_t* cnt) noexcept {
        if (d.bits > interleaved_bits) {
            count_digit(x, n, d, cnt);
            return;
        }
        constexpr std::int64_t t = std::int64_t{1} << interleaved_bits;
        std::int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            ++cnt[d.of(x.key(i))];
            ++cnt[t + d.of(x.key(i + 1))];
            ++cnt[2 * t + d.of(x.key(i + 2))];
            ++cnt[3 * t + d.of(x.key(i + 3))];
        }
        for (; i < n; ++i) ++cnt[d.of(x.key(i))];
    }
    /// After count_keys of digit d into cnt: the interleaved tables summed into cnt[0, radix).
    static void add_interleaved(digit d, std::uint32_t* cnt) noexcept {
        if (d.bits > interleaved_bits) return;
        constexpr std::int64_t t = std::int64_t{1} << interleaved_bits;
        for (std::int64_t v = 0; v < d.radix(); ++v) cnt[v] += cnt[t + v] + cnt[2 * t + v] + cnt[3 * t + v];
    }

    /// Keys alone whose bits outside digit d (the window where they vary) are those of `base`:
    /// ys[0, n) = xs[0, n) sorted. Each worker counts the 2^d.bits possible keys over the chunks
    /// of grid it takes, in its own table in the workers' scratch; worker 0's table becomes the
    /// totals, then each key's first position; the range is filled key by key in parallel. Equal
    /// ordered bits are equal keys (the codecs are one-to-one on the stored bits: NaN payloads
    /// stay apart), so this is the stable sort's result exactly. xs may be ys: every key is
    /// counted before the first write. Takes no memory (counting_pays checked the scratch).
    template <class X>
    void count_sort(const X& xs, const C& ys, std::int64_t n, const block_grid& grid, digit d,
                    U base) const {
        count_sorts_for_tests.fetch_add(1, std::memory_order_relaxed);
        const std::int64_t radix = d.radix();
        const std::int64_t table = count_table(d.bits);
        // The scratch is raw storage (buffer), idle while this runs (huge buckets are sorted
        // before the others); its U objects are neither read here nor after: each use writes
        // before it reads. 64-byte aligned.
        auto* const tables = reinterpret_cast<std::uint32_t*>(m_.sk.get());
        std::atomic<std::int64_t> ticket{0};
        run_workers(workers_, [&](int w) {
            std::uint32_t* t = tables + static_cast<std::int64_t>(w) * table;
            std::fill(t, t + table, 0u);
            for (;;) {
                const std::int64_t b = ticket.fetch_add(1, std::memory_order_relaxed);
                if (b >= grid.count()) break;
                count_keys(xs.at(grid.begin(b)), grid.end(b) - grid.begin(b), d, t);
            }
            add_interleaved(d, t);
        });
        // Worker 0's table: how many keys are v (all workers), then where v's run starts (n <
        // 2^32: the positions fit); v's run ends where v + 1's starts, the last at n.
        std::uint32_t* const first = tables;
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, radix, 4096), [&](const auto& r) {
            for (std::int64_t v = r.begin(); v != r.end(); ++v)
                for (int w = 1; w < workers_; ++w) first[v] += tables[w * table + v];
        });
        std::uint32_t at = 0;
        for (std::int64_t v = 0; v < radix; ++v) {
            const std::uint32_t k = first[v];
            first[v] = at;
            at += k;
        }
        auto end_of = [&](std::int64_t v) { return v + 1 < radix ? std::int64_t{first[v + 1]} : n; };
        // The fill: pieces of the range, each from the key whose run holds its first position.
        const block_grid out{n, std::max<std::int64_t>(std::int64_t{1} << 16,
                                                       (n + 8 * workers_ - 1) / (8 * workers_))};
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, out.count(), 1), [&](const auto& r) {
            for (std::int64_t b = r.begin(); b != r.end(); ++b) {
                std::int64_t p = out.begin(b);
                const std::int64_t e = out.end(b);
                std::int64_t v = std::upper_bound(first, first + radix, static_cast<std::uint32_t>(p)) - first - 1;
                for (; p < e; ++v) {
                    const std::int64_t q = std::min(end_of(v), e);
                    if (q > p)
                        fill_range(ys.k + p, q - p, ys.out(U(base | U(U(v) << d.shift))), stream_);
                    p = q;
                }
            }
            stream_fence();
        });
    }

    template <class X>
    void par_copy(const X& xs, const C& cs, std::int64_t n) const {
        const block_grid grid{n, std::int64_t{1} << 16};
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, grid.count()), [&](const auto& r) {
            for (std::int64_t b = r.begin(); b != r.end(); ++b)
                copy_range(xs.at(grid.begin(b)), cs.at(grid.begin(b)), grid.end(b) - grid.begin(b));
        });
    }

    /// Sorts x[lo, lo + n) by bits [bit_lo, bit_hi) into the caller's range, in parallel.
    template <class X>
    void par_sort(const X& x, std::int64_t lo, std::int64_t n, int bit_lo, int bit_hi, bool top) {
        const X xs = x.at(lo);
        phase_clock clock(top);
        std::array<std::int64_t, radix_max + 1> bound;
        const int spread = ceil_log2(8 * static_cast<std::int64_t>(workers_));  // 8 buckets a worker
        int width = msd_width(n, bit_hi - bit_lo, spread, max_msd_bits);
        digit d{bit_hi - width, width};
        const block_grid grid = chunk_grid(n);
        const survey_result s = survey(xs, grid, d, top);
        const U varying = U((s.or_all ^ s.and_all) & bit_range(bit_lo, bit_hi));
        if (varying == 0 || (top && s.sorted)) {
            if constexpr (!X::is_caller) par_copy(xs, c_.at(lo), n);
            return;
        }
        const int vary_hi = std::bit_width(varying), vary_lo = std::countr_zero(varying);
        if constexpr (!has_values_v<V>) {
            if (counting_pays(n, vary_hi - vary_lo, workers_, scratch_)) {
                clock.lap(phase::survey);
                // Every bit outside [vary_lo, vary_hi) is the same in all these keys: below
                // bit_lo over the whole sort, at and above bit_hi within this bucket.
                count_sort(xs, c_.at(lo), n, grid, digit{vary_lo, vary_hi - vary_lo},
                           U(s.and_all & U(~bit_range(vary_lo, vary_hi))));
                clock.lap(phase::buckets);
                return;
            }
        }
        if (bit_hi - vary_hi > 1) {
            // The top bits are constant: count again on the digit where the keys differ.
            bit_hi = vary_hi;
            bit_lo = vary_lo;
            width = msd_width(n, bit_hi - bit_lo, spread, max_msd_bits);
            d = digit{bit_hi - width, width};
            survey(xs, grid, d, false);
        }
        clock.lap(phase::survey);
        bit_lo = std::max(bit_lo, vary_lo);
        const std::uint32_t radix = d.radix();
        chunk_offsets(grid, d, bound.data());
        clock.lap(phase::offsets);

        const auto y = other<X>();
        msd_pass(xs, y.at(lo), grid, d);
        clock.lap(phase::scatter);

        // Buckets: a bucket larger than a worker's share is sorted in parallel, one after the
        // other; the others go to the workers, largest (those needing a split) first.
        const int sub_hi = d.shift;
        const std::int64_t huge =
            std::max<std::int64_t>(serial_below, n / (2 * static_cast<std::int64_t>(workers_)));
        auto size_of = [&](std::uint32_t j) { return bound[j + 1] - bound[j]; };
        auto is_huge = [&](std::uint32_t j) { return size_of(j) > huge && sub_hi > bit_lo; };
        for (std::uint32_t j = 0; j < radix; ++j)
            if (is_huge(j)) par_sort(y, lo + bound[j], size_of(j), bit_lo, sub_hi, false);
        // m_.order is filled only now: the recursion above uses it too.
        std::uint32_t* order = m_.order.data();
        std::int64_t queued = 0;
        for (std::uint32_t j = 0; j < radix; ++j)
            if (!is_huge(j) && size_of(j) > scratch_) order[queued++] = j;
        for (std::uint32_t j = 0; j < radix; ++j)
            if (!is_huge(j) && size_of(j) > 0 && size_of(j) <= scratch_) order[queued++] = j;
        std::atomic<std::int64_t> ticket{0};
        run_workers(workers_, [&](int w) {
            for (;;) {
                const std::int64_t q = ticket.fetch_add(1, std::memory_order_relaxed);
                if (q >= queued) break;
                const std::uint32_t j = order[q];
                serial_sort(y, lo + bound[j], bound[j + 1] - bound[j], bit_lo, sub_hi, w);
            }
        });
        clock.lap(phase::buckets);
    }

    C c_;
    B t_;
    memory& m_;
    std::int64_t scratch_;
    int workers_;
    bool stream_;
};

/// Sorts keys[0, n) (stored as S; and vals[0, n) along, unless V is no_value) through the codec
/// cd on up to max_threads threads.
template <class S, class V>
void sort_stored(int max_threads, S* keys, V* vals, codec<S> cd, std::int64_t n) {
    using T = sorter<S, V>;
    const int workers = max_threads > 0 ? max_threads : tbb::this_task_arena::max_concurrency();
    const std::int64_t scratch = std::min(n, T::lsd_max);  // per worker
    if (workers <= 1 || n < serial_below) {
        typename T::memory m(n > scratch ? n : 0, scratch, 1, false, 0);
        T(keys, vals, cd, m, scratch, 1, n * T::elem_bytes >= stream_bytes).serial(n);
        return;
    }
    phase_clock clock(true);
    // Keys alone too narrow to need more than a counting sort never touch the temporary.
    typename T::memory m(T::counting_only(n, workers, scratch) ? 0 : n, scratch, workers, true, n);
    clock.lap(phase::memory);
#if SWEEP_RADIX_TIMING
    ++phase_calls;
#endif
    T s(keys, vals, cd, m, scratch, workers, n * T::elem_bytes >= stream_bytes);
    in_arena(max_threads, [&](int) { s.parallel(n); });
}

/// Sorts keys[0, n) (and vals[0, n) along, unless V is no_value) on up to max_threads threads.
/// Signed integer keys are read and written as their unsigned type (which may alias them), so
/// that every key type of a width and both directions share one compiled sort.
template <bool Desc, class K, class V>
void sort(int max_threads, K* keys, V* vals, std::int64_t n) {
    using S = stored_t<K>;
    sort_stored<S, V>(max_threads, reinterpret_cast<S*>(keys), vals, codec_for<K, Desc>(), n);
}

// The stored types of the built-in keys (both directions, signed and unsigned alike), keys alone
// and with std::uint32_t or std::uint64_t values: compiled once in the library
// (src/tbb/radix_par_*.cpp), not in every caller.
#define SWEEP_RADIX_FOR_EACH_STORED(X)                                                           \
    X(std::uint8_t) X(std::uint16_t) X(std::uint32_t) X(std::uint64_t) X(float) X(double)
#define SWEEP_RADIX_INSTANCES(PREFIX, S)                                                         \
    PREFIX void sort_stored<S, no_value>(int, S*, no_value*, codec<S>, std::int64_t);            \
    PREFIX void sort_stored<S, std::uint32_t>(int, S*, std::uint32_t*, codec<S>, std::int64_t);  \
    PREFIX void sort_stored<S, std::uint64_t>(int, S*, std::uint64_t*, codec<S>, std::int64_t);
#if SWEEP_RADIX_PRECOMPILED
#define SWEEP_RADIX_EXTERN(S) SWEEP_RADIX_INSTANCES(extern template, S)
SWEEP_RADIX_FOR_EACH_STORED(SWEEP_RADIX_EXTERN)
#undef SWEEP_RADIX_EXTERN
#endif

}  // namespace sweep::detail::tbb_backend::radix

namespace sweep::detail {

/// sweep::par radix sort: in place on keys[0, n) (values along), stable, IEEE totalOrder for
/// floating-point keys. Non-contiguous iterators are staged through a contiguous copy.
template <bool Descending, class P, class KeyIt, class ValIt>
void radix_sort(par_tag, const P& policy, KeyIt keys, std::int64_t n, ValIt values) {
    using namespace tbb_backend::radix;
    using K = value_t<KeyIt>;
    constexpr bool with_values = !std::is_same_v<ValIt, no_values>;
    using V = typename std::conditional_t<with_values, std::iterator_traits<ValIt>,
                                          std::iterator_traits<no_value*>>::value_type;
    if (n < 2) return;
    // Staging buffers first: std::bad_alloc leaves the caller's ranges unchanged.
    std::optional<buffer<K>> key_stage;
    std::optional<buffer<V>> value_stage;
    K* kp = nullptr;
    V* vp = nullptr;
    if constexpr (std::contiguous_iterator<KeyIt>) {
        kp = std::to_address(keys);
    } else {
        key_stage.emplace(n, true);
        kp = key_stage->get();
    }
    if constexpr (with_values) {
        if constexpr (std::contiguous_iterator<ValIt>) {
            vp = std::to_address(values);
        } else {
            value_stage.emplace(n, true);
            vp = value_stage->get();
        }
    }
    if constexpr (!std::contiguous_iterator<KeyIt>) std::copy(keys, keys + n, kp);
    if constexpr (with_values && !std::contiguous_iterator<ValIt>) std::copy(values, values + n, vp);
    tbb_backend::radix::sort<Descending>(policy.max_threads, kp, vp, n);
    if constexpr (!std::contiguous_iterator<KeyIt>) std::copy(kp, kp + n, keys);
    if constexpr (with_values && !std::contiguous_iterator<ValIt>) std::copy(vp, vp + n, values);
}

}  // namespace sweep::detail
