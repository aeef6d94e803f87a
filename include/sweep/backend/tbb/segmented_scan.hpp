// sweep/backend/tbb/segmented_scan.hpp -- par backend (oneTBB): segmented scans (by key, head
// flags, offsets).
//
// The chained pass of the plain scan (chained_pass.hpp) over the same fixed 32K-element blocks,
// with the carry (has-head, value) and the segmented operator (Blelloch 1990, "Prefix sums and
// their applications", sec. 1.5; Sengupta et al. 2007):
//     (fa, a) . (fb, b) = fb ? (fb, b) : (fa, a op b)
// A block's own part after its first head does not depend on anything before the block, so the
// first pass scans it at once, writing its output, and hands on the value of its open segment;
// only the part before the first head waits for the carry. Each byte is read from DRAM once and
// written once, and a block with a head early in it is read only once at all:
//   pass 1 (no wait): f = the block's first head; [f, hi) scanned and stored; carry out
//                     (true, acc) -- or, for a block without a head, (false, reduce(block)).
//   pass 2 (carry in): [lo, f) scanned with the carry (no head in it), from cache.
// The carries are combined in block order, so the result depends on the block size only (never on
// the thread count); for exact operators it is seq's. See docs/segmented_scan.md.
//
// Heads are derived where they are needed, never stored: keys[i-1] vs keys[i], flags[i] != 0, or
// a walk along the offsets (binary search for a block's first offset, then galloping over runs of
// empty segments). Offsets are validated (in parallel) before anything is written.
#pragma once

#include <sweep/detail/fault_injection.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <sweep/backend/tbb/arena.hpp>
#include <sweep/backend/tbb/chained_pass.hpp>
#include <sweep/backend/tbb/scan.hpp>
#include <sweep/backend/tbb/scan_bricks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/detail/segments.hpp>

namespace sweep::detail {

namespace tbb_backend {

/// The carry between blocks: whether a segment starts anywhere up to here, and the value of the
/// segment open at the block's end (with the init folded in at its head, for exclusive scans).
template <class Acc>
struct seg_carry {
    bool has_head;
    Acc value;
};

// ---- heads, per segment form --------------------------------------------------------------

/// Is element i > 0 a head? (Element 0 always is.)
template <class KeyIt, class KeyEq>
bool head_at(const key_heads<KeyIt, KeyEq>& h, std::int64_t i) {
    return !h.key_eq(h.keys[i - 1], h.keys[i]);
}
template <class FlagIt>
bool head_at(const flag_heads<FlagIt>& h, std::int64_t i) {
    return h.flags[i] != 0;
}

/// Offsets as the par backend reads them (already validated: 0 = o[0] <= ... <= o[k] = n).
template <class OffIt>
struct offset_walk {
    OffIt o;
    std::int64_t count;  // k + 1
    std::int64_t at(std::int64_t j) const { return static_cast<std::int64_t>(o[j]); }
    /// The first j with o[j] >= pos.
    std::int64_t lower_bound(std::int64_t pos) const {
        std::int64_t lo = 0, len = count;
        while (len > 0) {
            const std::int64_t half = len / 2;
            if (at(lo + half) < pos) {
                lo += half + 1;
                len -= half + 1;
            } else {
                len = half;
            }
        }
        return lo;
    }
    /// The first j' >= j with o[j'] > pos (pos < n, so it exists), galloping: a run of r empty
    /// segments costs O(log r) reads, not r.
    std::int64_t after(std::int64_t j, std::int64_t pos) const {
        if (at(j) > pos) return j;
        std::int64_t lo = j, step = 1;  // invariant: o[lo] <= pos
        for (;;) {
            const std::int64_t probe = std::min(lo + step, count - 1);
            if (at(probe) > pos) {
                std::int64_t hi = probe;  // o[hi] > pos: bisect (lo, hi]
                while (hi - lo > 1) {
                    const std::int64_t mid = lo + (hi - lo) / 2;
                    if (at(mid) > pos) hi = mid;
                    else lo = mid;
                }
                return hi;
            }
            lo = probe;
            step *= 2;
        }
    }
};

template <class H>
struct is_offsets : std::false_type {};
template <class OffIt>
struct is_offsets<offset_segments<OffIt>> : std::true_type {};

// ---- bricks -------------------------------------------------------------------------------

/// The accumulator at a head whose input is x (the init, if any, on the left).
template <bool Exclusive, class Acc, class Op, class Init, class X>
Acc start_value(Op& op, const Init& init, X&& x) {
    if constexpr (Exclusive || has_init_v<Init>) return Acc(op(init, std::forward<X>(x)));
    else return Acc(std::forward<X>(x));
}

/// Scans [lo, hi) as one segment starting at lo (no head inside). Returns the accumulator after
/// hi - 1 (the value of the open segment). Reads x_i before writing out_i: in place is fine.
template <bool Exclusive, class Acc, class In, class Out, class Op, class Init>
Acc scan_one_segment(In first, std::int64_t lo, std::int64_t hi, Out d_first, Op& op,
                     const Init& init) {
    Acc acc = start_value<Exclusive, Acc>(op, init, first[lo]);
    if constexpr (Exclusive) d_first[lo] = init;
    else d_first[lo] = acc;
    for (std::int64_t i = lo + 1; i < hi; ++i) {
        if constexpr (Exclusive) {
            Acc next = op(acc, first[i]);
            d_first[i] = acc;
            acc = std::move(next);
        } else {
            acc = op(acc, first[i]);
            d_first[i] = acc;
        }
    }
    return acc;
}

/// h ? a : b without a branch, for integers. GCC turns the plain conditional into a branch, which
/// mispredicts on about every other element when segments are 1-4 long at random (measured: 3.8
/// ns an element instead of ~1).
template <class T>
T select(bool h, T a, T b) {
    using U = std::make_unsigned_t<T>;
    const U m = U(0) - U(h);
    return T((U(a) & m) | (U(b) & ~m));
}

/// Scans [lo, hi), lo a head, restarting at every head inside; returns the accumulator after
/// hi - 1. Pointwise forms (keys, flags): one loop, the restart is a select, not a branch, for
/// simple types.
template <bool Exclusive, class Acc, class In, class Out, class Heads, class Op, class Init>
Acc scan_from_head(const Heads& heads, In first, std::int64_t lo, std::int64_t hi, Out d_first,
                   Op& op, const Init& init) {
    if constexpr (is_offsets<Heads>::value) {
        const offset_walk<decltype(heads.first)> w{heads.first,
                                                   static_cast<std::int64_t>(heads.last -
                                                                             heads.first)};
        std::int64_t j = w.lower_bound(lo);  // o[j] == lo: lo is a head
        std::int64_t pos = lo;
        for (;;) {
            // The segment from pos ends at the first offset past pos: usually o[j + 1]; after a
            // run of empty segments, found by galloping.
            ++j;
            std::int64_t end = w.at(j);
            if (end == pos) {
                j = w.after(j, pos);
                end = w.at(j);
            }
            end = std::min(end, hi);
            Acc acc = scan_one_segment<Exclusive, Acc>(first, pos, end, d_first, op, init);
            if (end == hi) return acc;
            pos = end;
        }
    } else {
        Acc acc = start_value<Exclusive, Acc>(op, init, first[lo]);
        if constexpr (Exclusive) d_first[lo] = init;
        else d_first[lo] = acc;
        // One element with its head bit h.
        auto step = [&](std::int64_t i, bool h) {
            if constexpr (Exclusive && std::is_integral_v<Acc>) {
                const Acc base = select(h, Acc(init), acc);
                acc = op(base, first[i]);
                d_first[i] = base;
            } else if constexpr (Exclusive) {
                Acc base = h ? Acc(init) : acc;
                acc = op(base, first[i]);
                d_first[i] = std::move(base);
            } else if constexpr (has_init_v<Init>) {
                acc = op(h ? Acc(init) : acc, first[i]);
                d_first[i] = acc;
            } else if constexpr (std::is_integral_v<Acc> && is_plus_v<Op, Acc>) {
                // acc = (h ? 0 : acc) + x, by a mask: two operations on the carried chain.
                using U = std::make_unsigned_t<Acc>;
                acc = Acc(U(acc) & (U(h) - U(1))) + Acc(first[i]);
                d_first[i] = acc;
            } else if constexpr (std::is_integral_v<Acc>) {
                const Acc xi = first[i];
                acc = select(h, xi, Acc(op(acc, xi)));
                d_first[i] = acc;
            } else {
                acc = h ? Acc(first[i]) : Acc(op(acc, first[i]));
                d_first[i] = acc;
            }
        };
        // Chunks of 64: the head bits first (a loop the compiler vectorizes for plain keys and
        // flags), then a plain scan when the chunk has no head -- long segments run at the plain
        // scan's speed -- or the restarting one.
        constexpr std::int64_t chunk = 64;
        unsigned char hb[chunk];
        for (std::int64_t i = lo + 1; i < hi; i += chunk) {
            const std::int64_t len = std::min(chunk, hi - i);
            unsigned char any = 0;
            for (std::int64_t j = 0; j < len; ++j) {
                hb[j] = head_at(heads, i + j) ? 1 : 0;
                any |= hb[j];
            }
            if (any == 0) {
                for (std::int64_t j = 0; j < len; ++j) {
                    if constexpr (Exclusive) {
                        Acc next = op(acc, first[i + j]);
                        d_first[i + j] = acc;
                        acc = std::move(next);
                    } else {
                        acc = op(acc, first[i + j]);
                        d_first[i + j] = acc;
                    }
                }
            } else {
                for (std::int64_t j = 0; j < len; ++j) step(i + j, hb[j] != 0);
            }
        }
        return acc;
    }
}

/// The first head in [lo, hi), or hi.
template <class Heads>
std::int64_t first_head(const Heads& heads, std::int64_t lo, std::int64_t hi) {
    if (lo == 0) return 0;
    if constexpr (is_offsets<Heads>::value) {
        const offset_walk<decltype(heads.first)> w{heads.first,
                                                   static_cast<std::int64_t>(heads.last -
                                                                             heads.first)};
        const std::int64_t at = w.at(w.lower_bound(lo));  // o[k] = n >= hi bounds it
        return std::min(at, hi);
    } else {
        // 64 at a time without an early exit (vectorizable), then the exact position.
        constexpr std::int64_t chunk = 64;
        for (std::int64_t i = lo; i < hi; i += chunk) {
            const std::int64_t len = std::min(chunk, hi - i);
            bool any = false;
            for (std::int64_t j = 0; j < len; ++j) any |= head_at(heads, i + j);
            if (any)
                for (std::int64_t j = 0;; ++j)
                    if (head_at(heads, i + j)) return i + j;
        }
        return hi;
    }
}

/// validate_offsets (detail/segments.hpp) with the monotonicity check spread over the workers:
/// with one-element segments the offsets are as long as the input.
template <class OffIt>
void validate_offsets_par(const char* name, OffIt first, OffIt last, std::int64_t n,
                          int max_threads) {
    const auto count = static_cast<std::int64_t>(last - first);
    constexpr std::int64_t serial_below = std::int64_t{1} << 16;  // ~20 us on one core
    if (count < serial_below) {
        validate_offsets(name, first, last, n);
        return;
    }
    if (static_cast<std::int64_t>(first[0]) != 0)
        throw_invalid_argument(name, "offsets: o[0] != 0");
    std::atomic<bool> decreasing{false};
    in_arena(max_threads, [&](int) {
        tbb::parallel_for(
            tbb::blocked_range<std::int64_t>(1, count, std::int64_t{1} << 14),
            [&](const tbb::blocked_range<std::int64_t>& r) {
                if (decreasing.load(std::memory_order_relaxed)) return;
                bool bad = false;
                for (std::int64_t j = r.begin(); j != r.end(); ++j)
                    bad |= static_cast<std::int64_t>(first[j]) <
                           static_cast<std::int64_t>(first[j - 1]);
                if (bad) decreasing.store(true, std::memory_order_relaxed);
            });
    });
    if (decreasing.load()) throw_invalid_argument(name, "offsets: not nondecreasing");
    if (static_cast<std::int64_t>(first[count - 1]) != n)
        throw_invalid_argument(name, "offsets: o[k] != n");
}

/// offsets_head_flags (detail/segments.hpp) over the workers: with one-element segments the
/// offsets are as long as the input.
template <class OffIt>
std::unique_ptr<unsigned char[]> offsets_head_flags_par(const char* name, OffIt first, OffIt last,
                                                        std::int64_t n, int max_threads) {
    validate_offsets_par(name, first, last, n, max_threads);
    if (n == 0) return nullptr;
    std::unique_ptr<unsigned char[]> flags(
        new unsigned char[testing::temporary_size(static_cast<std::size_t>(n))]);
    const auto count = static_cast<std::int64_t>(last - first);
    in_arena(max_threads, [&](int) {
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, std::int64_t{1} << 16),
                          [&](const tbb::blocked_range<std::int64_t>& r) {
                              std::memset(flags.get() + r.begin(), 0,
                                          static_cast<std::size_t>(r.size()));
                          });
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, count - 1, std::int64_t{1} << 14),
                          [&](const tbb::blocked_range<std::int64_t>& r) {
                              mark_offset_heads(first, r.begin(), r.end(), n, flags.get());
                          });
    });
    return flags;
}

}  // namespace tbb_backend

template <bool Exclusive, class Acc, class P, class In, class Out, class Heads, class Op,
          class Init>
Out segmented_scan(par_tag, const P& policy, const char* name, In first, std::int64_t n,
                   Out d_first, const Heads& heads, Op op, Init init) {
    using namespace tbb_backend;
    if constexpr (is_offsets<Heads>::value)
        validate_offsets_par(name, heads.first, heads.last, n, policy.max_threads);
    if (n == 0) return d_first;
    using carry_t = seg_carry<Acc>;
    const block_grid grid{n, scan_block};
    const std::int64_t blocks = grid.count();
    // Each block's first head, from its first pass to its second (same worker). Allocated before
    // any output is written.
    std::unique_ptr<std::int64_t[]> heads_at(
        new std::int64_t[testing::temporary_size(static_cast<std::size_t>(blocks))]);
    identity id;

    chained_pass<carry_t>(
        policy.max_threads, blocks, std::nullopt,
        [&](std::int64_t b) -> carry_t {
            const std::int64_t lo = grid.begin(b), hi = grid.end(b);
            const std::int64_t f = first_head(heads, lo, hi);
            heads_at[static_cast<std::size_t>(b)] = f;
            if (f == hi) return carry_t{false, block_reduce<Acc>(first, lo, hi, op, id)};
            return carry_t{true,
                           scan_from_head<Exclusive, Acc>(heads, first, f, hi, d_first, op, init)};
        },
        [&](const carry_t& prefix, carry_t&& local) -> carry_t {
            if (local.has_head) return std::move(local);
            return carry_t{prefix.has_head, Acc(op(prefix.value, std::move(local.value)))};
        },
        [&](std::int64_t b, const carry_t* carry) {
            const std::int64_t lo = grid.begin(b), hi = grid.end(b);
            std::int64_t f;
            if (b + 1 == blocks) {  // the last block has no first pass
                f = first_head(heads, lo, hi);
                if (f < hi) scan_from_head<Exclusive, Acc>(heads, first, f, hi, d_first, op, init);
            } else {
                f = heads_at[static_cast<std::size_t>(b)];
            }
            // [lo, f) continues the segment open before the block (lo > 0 here: element 0 is a
            // head, so f == 0 in block 0).
            if (f > lo) block_scan<Exclusive, Acc>(first, lo, f, d_first, op, id, &carry->value);
        });
    return d_first + n;
}

}  // namespace sweep::detail
