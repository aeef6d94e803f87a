// sweep/detail/canonical.hpp -- shared by every backend: the canonical association tree of
// `.deterministic()` scans, and its emulation in plain C++ for the host backends.
//
// A deterministic scan's every output is the value of one fixed expression tree over the inputs,
// whatever runs it (docs/numerics.md, docs/decisions/0003-numerics.md):
//   - tiles of tile_items = threads * items elements, fixed by the accumulator's size alone
//     (geometry<Acc>; never by the device, the stream, the thread count or the tuning of the
//     default mode);
//   - inside a tile, the tree of the GPU register agent (backend/cuda/agent/scan_agent.cuh):
//     thread t holds items [t * items, (t + 1) * items) (blocked); each thread scans its items left
//     to right; the 32 thread totals of a warp are scanned by Kogge-Stone (step d = 1, 2, 4, 8, 16:
//     lane l >= d takes op(lane[l - d], lane[l])); the warp totals are folded left to right. The
//     output of item i of thread t (lane l of warp w) is
//         op(run, x'_i),  run = op(op(tile_prefix, warp_prefix_w), lane_prefix_l)
//     with absent terms left out (x'_i: the thread's inclusive scan; exclusive: op(run, x'_{i-1}),
//     and run itself for the thread's first item);
//   - between tiles, groups of 32 tiles (tile t = 32 g + p): A_t the tile's aggregate (warp
//     totals folded left to right); K_g[p] the Kogge-Stone inclusive scan of A_{32g} .. A_{32g+31}
//     across the 32 lanes of a warp (the same steps as above), lane p; the group prefixes chained
//     strictly left to right, G_g = op(G_{g-1}, K_g[31]), G_{-1} = the init (or nothing); tile t's
//     prefix is op(G_{g-1}, K_g[p - 1]) (G_{g-1} alone for p = 0).
// The GPU runs that agent with this geometry and the grouped look-back (lookback/lookback.cuh:
// grouped_exclusive_prefix); seq and par run the emulation below. Every op(a, b) of the tree has
// the same operands in the same order everywhere, so a deterministic operator (a pure function:
// some nodes, such as a group's scan, are evaluated more than once) gives the same bits. (Until session 7 the tiles were chained one by one,
// P_t = op(P_{t-1}, A_t): a serial fold on the GPU's critical path; the groups make it 5 steps of
// a warp scan plus one op per group. docs/decisions/0003-numerics.md.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include <sweep/execution.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail {

/// The policy's numerics flags.
template <class P>
inline constexpr bool is_deterministic_v =
    (std::remove_cvref_t<P>::numerics & numerics_deterministic) != 0;

/// The built-in operators (sweep's and std::plus) for accumulator Acc.
template <class Op, class Acc>
inline constexpr bool is_builtin_plus_v =
    std::is_same_v<Op, sweep::plus<>> || std::is_same_v<Op, sweep::plus<Acc>> ||
    std::is_same_v<Op, std::plus<>> || std::is_same_v<Op, std::plus<Acc>>;
template <class Op, class Acc>
inline constexpr bool is_builtin_minmax_v =
    std::is_same_v<Op, sweep::minimum<>> || std::is_same_v<Op, sweep::minimum<Acc>> ||
    std::is_same_v<Op, sweep::maximum<>> || std::is_same_v<Op, sweep::maximum<Acc>>;

/// Operators whose result does not depend on the association at all: integer plus (wrapping,
/// i.e. arithmetic modulo 2^bits: associative), min and max over integers. For them every tree
/// gives the same bits, so `.deterministic()` takes the default code path. (Not float min/max:
/// with NaNs, `b < a ? b : a` is not associative.)
template <class Acc, class Op>
inline constexpr bool exact_op_v =
    std::is_integral_v<Acc> && (is_builtin_plus_v<Op, Acc> || is_builtin_minmax_v<Op, Acc>);

/// Whether a scan with this policy, accumulator and operator runs the canonical tree.
template <class P, class Acc, class Op>
inline constexpr bool use_canonical_v = is_deterministic_v<P> && !exact_op_v<Acc, Op>;

namespace canonical {

inline constexpr int warp = 32;

/// The canonical tile geometry by accumulator size. Changing any value changes the bits of
/// deterministic floating-point results: these are part of the documented contract
/// (docs/numerics.md), not tuning. Sizes 1-8: the register path's measured default tuning of
/// session 1 (backend/cuda/tuning/scan_tuning.cuh). 16 bytes (compensated double pairs): 128 x 8,
/// chosen by registers (ptxas: 90 a thread, 5 blocks of 8 KB tiles an SM, against 84 and 2
/// blocks at 256 x 4; docs/decisions/0003-numerics.md).
template <std::size_t Size>
struct geometry_for {
    static constexpr int threads = 256;
    static constexpr int items = Size <= 16 ? 4 : 2;
};
template <> struct geometry_for<1> { static constexpr int threads = 128, items = 64; };
template <> struct geometry_for<2> { static constexpr int threads = 128, items = 64; };
template <> struct geometry_for<4> { static constexpr int threads = 128, items = 32; };
template <> struct geometry_for<8> { static constexpr int threads = 128, items = 16; };
template <> struct geometry_for<16> { static constexpr int threads = 128, items = 8; };

template <class Acc>
struct geometry {
    static constexpr int threads = geometry_for<sizeof(Acc)>::threads;
    static constexpr int items = geometry_for<sizeof(Acc)>::items;
    static constexpr int warps = threads / warp;
    static constexpr std::int64_t tile_items = std::int64_t{threads} * items;
};

/// A value or nothing (the prefix of tile 0 of an inclusive scan without init).
template <class T>
struct opt {
    union {
        T v;
    };
    bool has = false;
    opt() noexcept {}
    explicit opt(const T& x) : has(true) { std::construct_at(&v, x); }
    opt(const opt& o) : has(o.has) {
        if (has) std::construct_at(&v, o.v);
    }
    opt& operator=(const opt& o) {
        if (has) std::destroy_at(&v);
        has = o.has;
        if (has) std::construct_at(&v, o.v);
        return *this;
    }
    ~opt() {
        if (has) std::destroy_at(&v);
    }
};

template <class T, class Op>
opt<T> combine(const opt<T>& a, const opt<T>& b, Op& op) {
    if (!a.has) return b;
    if (!b.has) return a;
    return opt<T>(static_cast<T>(op(a.v, b.v)));
}

/// Uninitialized storage for n values of a trivially copyable T (no default constructor needed).
template <class T>
class buffer {
    static_assert(std::is_trivially_copyable_v<T>);
    union slot {
        slot() noexcept {}
        T v;
    };
    std::unique_ptr<slot[]> s_;

public:
    explicit buffer(std::size_t n) : s_(new slot[n]) {}
    T& operator[](std::size_t i) noexcept { return s_[i].v; }
    void set(std::size_t i, const T& x) noexcept { std::construct_at(&s_[i].v, x); }
};

/// Per-call working memory of the emulation: one tile of thread-inclusive values, the 32 lane
/// values of a warp, the warps' totals.
template <class Acc>
struct workspace {
    using G = geometry<Acc>;
    buffer<Acc> x{static_cast<std::size_t>(G::tile_items)};
    buffer<Acc> lanes{static_cast<std::size_t>(G::threads)};  // Kogge-Stone results, per thread
    buffer<Acc> warps{static_cast<std::size_t>(G::warps)};
};

/// Thread-serial inclusive scans of the tile [base, base + len) into ws.x (valid items only),
/// each thread's total (its last valid value) into ws.lanes. Returns the number of threads
/// holding at least one valid item. (On the GPU a partial thread also folds copies of a real
/// value past the end; its total only feeds lanes above it, which hold no valid item.)
template <class Acc, class Get, class Op>
int thread_scans(workspace<Acc>& ws, Get& get, Op& op, std::int64_t base, std::int64_t len) {
    using G = geometry<Acc>;
    const int active = static_cast<int>((len + G::items - 1) / G::items);
    const int full = static_cast<int>(len / G::items);  // threads with all items valid
    int t = 0;
    // Four threads in lockstep: four independent dependency chains for the core to overlap (the
    // association of each thread's scan is unchanged).
    for (; t + 4 <= full; t += 4) {
        const std::int64_t f0 = std::int64_t{t} * G::items;
        for (int u = 0; u < 4; ++u)
            ws.x.set(f0 + u * G::items, static_cast<Acc>(get(base + f0 + u * G::items)));
        for (int i = 1; i < G::items; ++i)
            for (int u = 0; u < 4; ++u) {
                const std::int64_t k = f0 + u * G::items + i;
                ws.x.set(k, static_cast<Acc>(op(ws.x[k - 1], static_cast<Acc>(get(base + k)))));
            }
        for (int u = 0; u < 4; ++u) ws.lanes.set(t + u, ws.x[f0 + u * G::items + G::items - 1]);
    }
    for (; t < active; ++t) {
        const std::int64_t first = std::int64_t{t} * G::items;
        const int valid = static_cast<int>(len - first < G::items ? len - first : G::items);
        ws.x.set(first, static_cast<Acc>(get(base + first)));
        for (int i = 1; i < valid; ++i)
            ws.x.set(first + i, static_cast<Acc>(op(ws.x[first + i - 1],
                                                    static_cast<Acc>(get(base + first + i)))));
        ws.lanes.set(t, ws.x[first + valid - 1]);
    }
    return active;
}

/// Kogge-Stone scans across the lanes of each warp over ws.lanes[0, active), in place; the totals
/// of the full warps into ws.warps. Returns the number of warps with an active thread.
template <class Acc, class Op>
int warp_scans(workspace<Acc>& ws, Op& op, int active) {
    const int warps = (active + warp - 1) / warp;
    for (int w = 0; w < warps; ++w) {
        const int lanes = active - w * warp < warp ? active - w * warp : warp;
        Acc* v = &ws.lanes[static_cast<std::size_t>(w) * warp];
        // Step d: lane l >= d takes op(lane[l - d], lane[l]) of the previous step; going from
        // the high lanes down reads every lane[l - d] before it changes.
        for (int d = 1; d < warp; d *= 2)
            for (int l = lanes - 1; l >= d; --l) v[l] = static_cast<Acc>(op(v[l - d], v[l]));
        if (lanes == warp) ws.warps.set(static_cast<std::size_t>(w), v[warp - 1]);
    }
    return warps;
}

/// The aggregate A of the full tile [base, base + tile_items).
template <class Acc, class Get, class Op>
Acc tile_aggregate(workspace<Acc>& ws, Get& get, Op& op, std::int64_t base) {
    using G = geometry<Acc>;
    // Thread totals only: a left fold of each thread's items, four threads in lockstep.
    static_assert(G::threads % 4 == 0);
    for (int t = 0; t < G::threads; t += 4) {
        const std::int64_t first = base + std::int64_t{t} * G::items;
        Acc a0 = static_cast<Acc>(get(first));
        Acc a1 = static_cast<Acc>(get(first + G::items));
        Acc a2 = static_cast<Acc>(get(first + 2 * G::items));
        Acc a3 = static_cast<Acc>(get(first + 3 * G::items));
        for (int i = 1; i < G::items; ++i) {
            a0 = static_cast<Acc>(op(a0, static_cast<Acc>(get(first + i))));
            a1 = static_cast<Acc>(op(a1, static_cast<Acc>(get(first + G::items + i))));
            a2 = static_cast<Acc>(op(a2, static_cast<Acc>(get(first + 2 * G::items + i))));
            a3 = static_cast<Acc>(op(a3, static_cast<Acc>(get(first + 3 * G::items + i))));
        }
        ws.lanes.set(t, a0);
        ws.lanes.set(t + 1, a1);
        ws.lanes.set(t + 2, a2);
        ws.lanes.set(t + 3, a3);
    }
    warp_scans(ws, op, G::threads);
    Acc agg = ws.warps[0];
    for (int w = 1; w < G::warps; ++w) agg = static_cast<Acc>(op(agg, ws.warps[w]));
    return agg;
}

/// Scans the tile [base, base + len) (len <= tile_items) with the tile's exclusive prefix
/// `tile_excl` (nothing: tile 0 of an inclusive scan without init), writing put(i, value) for
/// every i in it. Returns the tile's aggregate A for a full tile (for the chain: group_chain);
/// for a partial tile (the last) nothing.
template <bool Exclusive, class Acc, class Get, class Put, class Op>
opt<Acc> tile_scan(workspace<Acc>& ws, Get& get, Put& put, Op& op, std::int64_t base,
                   std::int64_t len, const opt<Acc>& tile_excl) {
    using G = geometry<Acc>;
    const int active = thread_scans(ws, get, op, base, len);
    const int warps = warp_scans(ws, op, active);
    opt<Acc> warp_excl;  // fold of the warp totals before warp w
    for (int w = 0; w < warps; ++w) {
        const opt<Acc> tw = combine(tile_excl, warp_excl, op);
        const int lanes = active - w * warp < warp ? active - w * warp : warp;
        for (int l = 0; l < lanes; ++l) {
            const int t = w * warp + l;
            const opt<Acc> run = l == 0 ? tw : combine(tw, opt<Acc>(ws.lanes[t - 1]), op);
            const std::int64_t first = std::int64_t{t} * G::items;
            const int valid = static_cast<int>(len - first < G::items ? len - first : G::items);
            const Acc* x = &ws.x[first];
            if constexpr (Exclusive) {
                // run always holds at least the init.
                put(base + first, run.v);
                for (int i = 1; i < valid; ++i)
                    put(base + first + i, static_cast<Acc>(op(run.v, x[i - 1])));
            } else if (run.has) {
                for (int i = 0; i < valid; ++i)
                    put(base + first + i, static_cast<Acc>(op(run.v, x[i])));
            } else {
                for (int i = 0; i < valid; ++i) put(base + first + i, x[i]);
            }
        }
        if (lanes == warp)
            warp_excl = warp_excl.has ? opt<Acc>(static_cast<Acc>(op(warp_excl.v, ws.warps[w])))
                                      : opt<Acc>(ws.warps[w]);
    }
    if (len < G::tile_items) return opt<Acc>();
    return warp_excl;
}

inline constexpr int group_tiles = warp;

/// The chain between tiles (the header): the prefix G_{g-1} of the groups before the current one
/// and the aggregates of the current group's tiles so far (par hands it from block to block).
template <class Acc>
struct group_chain {
    union slot {
        slot() noexcept {}
        Acc v;
    };
    opt<Acc> before;  // G_{g-1}
    slot aggs[group_tiles];
    int count = 0;  // tiles of the current group seen

    group_chain() = default;
    explicit group_chain(const opt<Acc>& init) : before(init) {}
    group_chain(const group_chain& o) : before(o.before), count(o.count) {
        for (int i = 0; i < count; ++i) std::construct_at(&aggs[i].v, o.aggs[i].v);
    }
    group_chain& operator=(const group_chain& o) {
        before = o.before;
        count = o.count;
        for (int i = 0; i < count; ++i) std::construct_at(&aggs[i].v, o.aggs[i].v);
        return *this;
    }

    /// K_g[last]: the Kogge-Stone scan of aggs[0 .. last], lane `last` (lane l >= d takes
    /// op(lane[l - d], lane[l]) at steps d = 1, 2, 4, 8, 16; lanes above `last` never enter it).
    template <class Op>
    Acc scan_lane(int last, Op& op) const {
        slot v[group_tiles];
        for (int l = 0; l <= last; ++l) std::construct_at(&v[l].v, aggs[l].v);
        for (int d = 1; d < group_tiles; d *= 2)
            for (int l = last; l >= d; --l) v[l].v = static_cast<Acc>(op(v[l - d].v, v[l].v));
        return v[last].v;
    }

    /// The exclusive prefix of the next tile: op(G_{g-1}, K_g[p - 1]), p = count.
    template <class Op>
    opt<Acc> prefix(Op& op) const {
        if (count == 0) return before;
        return combine(before, opt<Acc>(scan_lane(count - 1, op)), op);
    }

    /// Appends the next tile's aggregate; the 32nd closes the group: G_g = op(G_{g-1}, K_g[31]).
    template <class Op>
    void push(const Acc& a, Op& op) {
        std::construct_at(&aggs[count].v, a);
        if (++count == group_tiles) {
            before = combine(before, opt<Acc>(scan_lane(group_tiles - 1, op)), op);
            count = 0;
        }
    }
};

/// The whole canonical scan of [0, n) run serially: tiles in order, carrying the chain.
template <bool Exclusive, class Acc, class Get, class Put, class Op>
void scan_serial(Get& get, Put& put, Op& op, std::int64_t n, opt<Acc> carry) {
    using G = geometry<Acc>;
    workspace<Acc> ws;
    group_chain<Acc> chain(carry);
    for (std::int64_t base = 0; base < n; base += G::tile_items) {
        const std::int64_t len = n - base < G::tile_items ? n - base : G::tile_items;
        const opt<Acc> a = tile_scan<Exclusive>(ws, get, put, op, base, len, chain.prefix(op));
        if (a.has) chain.push(a.v, op);
    }
}

}  // namespace canonical
}  // namespace sweep::detail
