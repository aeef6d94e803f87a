// sweep/backend/cuda/agent/scan_bulk_agent.cuh -- GPU backend, agents: one tile of a scan held in
// shared memory, brought in by the copy engine (the fast path for contiguous, 16-byte aligned data
// whose input and output types have one size that divides 16, and whose accumulator has that size
// too or is the wider compensated pair: run_tile_same / run_tile_wide).
//
// Why: the register agent (scan_agent.cuh) holds its tile in registers, so the bytes a block has
// in flight cost registers, and more tile bytes per look-back hop cost resident blocks. Here the
// tile lives in shared memory (filled by one cp.async.bulk), registers hold one 16-byte vector per
// thread at a time, and the tile can be several times larger: fewer tiles, fewer look-back hops,
// and a load of the whole tile in flight for every resident block.
//
// A tile is TileBytes of 16-byte vectors; warp w owns the contiguous vectors
// [w * warp_vecs, (w + 1) * warp_vecs). Two passes over shared memory:
//   1. in rounds of 32 vectors (lane l takes vector r * 32 + l, conflict-free and in order):
//      transform, scan the vector in the thread, scan the 32 vector totals across the warp, fold in
//      the carry of the earlier rounds, write the warp-local inclusive scan back in place.
//   2. after the warp totals give the tile aggregate and the prefix service the tile's prefix:
//      read each vector again, combine with the warp's prefix and store it to global memory with
//      one 16-byte store per thread (coalesced: a warp writes 512 consecutive bytes).
// Association: in-vector left to right, a Kogge-Stone tree across the lanes, rounds left to
// right, warps left to right, then the prefix service. Fixed by the geometry alone.
// An accumulator wider than the element (the compensated pair) does not fit in the element's
// slot: pass 1 then only reduces (run_tile_wide), and pass 2 rescans the raw elements.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/scan_agent.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/detail/compensated.hpp>

namespace sweep::detail::cuda {

/// Operators whose reduction the wide path (accumulator wider than the element) may reorder: the
/// compensated pair sum, a sum of real numbers whose error bound (docs/numerics.md) holds for any
/// tree and any order of terms. Only the default (non-deterministic) mode reaches the bulk path.
template <class Op>
inline constexpr bool reorderable_op_v = false;
template <class T>
inline constexpr bool reorderable_op_v<comp_plus<T>> = true;

/// The compensated combine with Fast2Sum (Dekker) after ordering the sums by magnitude: for
/// |hi| >= |lo|, e = lo - (s - hi) is the exact error of s = fl(hi + lo), the same e as TwoSum's
/// (which is unique), with 3 additions and a compare instead of 6 additions. s and e, hence the
/// value, are those of comp_plus; only the sign of a zero carry may differ (TwoSum and Fast2Sum
/// round the zero error differently), so it serves the default mode only (scan_bulk_tuning's
/// FastSum, off by default; the wide path alone; bench_gpu_numerics measures it). Non-finite sums
/// give a NaN carry as TwoSum does, and the conversion passes s through.
template <class T>
struct comp_plus_fast {
    __device__ __forceinline__ comp_sum<T> operator()(const comp_sum<T>& a,
                                                      const comp_sum<T>& b) const {
        const bool a_big = fabs(a.s) >= fabs(b.s);
        const T hi = a_big ? a.s : b.s;
        const T lo = a_big ? b.s : a.s;
        const T s = a.s + b.s;
        const T e = lo - (s - hi);
        return comp_sum<T>{s, a.c + (b.c + e)};
    }
};

template <class Op, bool Fast>
struct wide_op_for {
    using type = Op;
};
template <class T>
struct wide_op_for<comp_plus<T>, true> {
    using type = comp_plus_fast<T>;
};

template <class Tuning, class Acc, class In, class Out, class Op, class F>
struct scan_bulk_agent {
    using tuning = Tuning;
    using params = scan_params<Acc, In, Out, Op, F>;
    using acc_type = Acc;
    using op_type = Op;
    using in_value = iter_value_t<In>;
    using out_value = std::remove_cv_t<std::remove_pointer_t<Out>>;

    /// Input, accumulator and output of one size: pass 1 writes the warp-local scan in place.
    static constexpr bool same_size = sizeof(in_value) == sizeof(Acc) &&
                                      sizeof(out_value) == sizeof(Acc) && 16 % sizeof(Acc) == 0;
    /// An accumulator wider than the element (the compensated pair over float/double): pass 1
    /// only reduces, pass 2 rescans the raw elements (run_tile_wide). Only for operators whose
    /// reduction may be reordered (reorderable_op_v).
    static constexpr bool wide = !same_size && sizeof(in_value) == sizeof(out_value) &&
                                 16 % sizeof(in_value) == 0 && sizeof(Acc) > sizeof(in_value) &&
                                 reorderable_op_v<Op>;

    /// Whether this path can serve the call at all (the run-time condition is 16-byte alignment of
    /// both pointers: launch_scan checks it).
    static constexpr bool eligible =
        std::is_pointer_v<In> && std::is_pointer_v<Out> && (same_size || wide);

    static constexpr int threads = Tuning::threads;
    static constexpr int warps = threads / warp_threads;
    static constexpr int vec = eligible ? 16 / static_cast<int>(sizeof(in_value)) : 1;  // items a vector
    static constexpr int tile_vecs = Tuning::tile_bytes / 16;
    static constexpr int warp_vecs = tile_vecs / warps;
    static constexpr int rounds = warp_vecs / warp_threads;
    static constexpr std::int64_t tile_items = std::int64_t{tile_vecs} * vec;
    static_assert(threads % warp_threads == 0 && warp_vecs % warp_threads == 0 && rounds >= 1);
    /// The wide path's second pass: vectors a lane takes a round, and its rounds.
    static constexpr int lane_vecs = wide ? Tuning::lane_vecs : 1;
    static constexpr int wide_rounds = warp_vecs / (warp_threads * lane_vecs);
    static_assert((lane_vecs == 1 || lane_vecs == 2 || lane_vecs == 4 || lane_vecs == 8) &&
                  warp_vecs % (warp_threads * lane_vecs) == 0);
    /// The operator of the wide path's in-tile combines (the tile aggregate, the prefix service
    /// and the warp prefixes keep `op`): comp_plus_fast with the tuning's FastSum.
    using wide_op = typename wide_op_for<Op, wide && Tuning::fast_sum>::type;

    struct header {
        alignas(16) std::uint64_t bar;
        std::int64_t tile;
        unsigned parity;  // the barrier phase the tile's copy completes
        smem_array<Acc, warps> warp_totals;
        smem_array<Acc, 1> tile_prefix;
    };
    static constexpr int header_bytes = (sizeof(header) + 127) / 128 * 128;
    /// Dynamic shared memory a block needs.
    static constexpr int smem_bytes = header_bytes + Tuning::tile_bytes;

    const params& p;
    header& h;
    uint4* data;  // the tile, tile_vecs vectors
    Op op;
    int tid, lane, warp;

    __device__ scan_bulk_agent(const params& p_, unsigned char* smem)
        : p(p_), h(*reinterpret_cast<header*>(smem)),
          data(reinterpret_cast<uint4*>(smem + header_bytes)), op(p_.op), tid(threadIdx.x),
          lane(threadIdx.x % warp_threads), warp(threadIdx.x / warp_threads) {}

    /// Thread 0: arm the barrier and start copying full tile `tile` in (phase `parity` of the
    /// barrier completes when it has landed).
    __device__ void start_copy(std::int64_t tile) {
        bulk::arrive_expect(&h.bar, Tuning::tile_bytes);
        bulk::copy_to_shared(data, p.in + tile * tile_items, Tuning::tile_bytes, &h.bar);
    }

    __device__ bool is_full(std::int64_t tile) const { return p.n - tile * tile_items >= tile_items; }

    /// The last, partial tile: every thread copies its share; slots past the end get a copy of a
    /// real value, so that the operator only ever sees values of the input.
    __device__ void load_partial(std::int64_t tile) {
        const std::int64_t base = tile * tile_items;
        bulk::fill_partial_tile(reinterpret_cast<in_value*>(data), p.in, base, p.n - base,
                                tile_items, tid, threads);
    }

    /// Scans tile `tile`, whose data is in shared memory (barrier waited on, or load_partial done
    /// and the block synchronized). Prefix: as in scan_agent::run_tile.
    template <class Prefix>
    __device__ void run_tile(std::int64_t tile, Prefix& prefix) {
        if constexpr (wide) {
            run_tile_wide(tile, prefix);
        } else {
            run_tile_same(tile, prefix);
        }
    }

    /// The tile's aggregate from the warp totals (left to right) and its prefix from the service;
    /// returns the exclusive prefix of this warp (tile prefix op warp prefix, absent terms left
    /// out). Every thread calls it after the warp totals are in shared memory (run_tile_same,
    /// run_tile_wide).
    template <class Prefix>
    __device__ maybe<Acc> warp_run(std::int64_t tile, Prefix& prefix) {
        maybe<Acc> warp_excl;
        const Acc aggregate = fold_warp_totals(h.warp_totals, warp, op, warp_excl);
        const maybe<Acc> tile_excl = prefix(tile, aggregate);
        return combine(tile_excl, warp_excl, op);
    }

    /// Input, accumulator and output of one size (same_size): the two passes of the file comment.
    template <class Prefix>
    __device__ void run_tile_same(std::int64_t tile, Prefix& prefix) {
        // ---- pass 1: warp-local inclusive scan, in place ------------------------------------
        maybe<Acc> carry;
        uint4* mine = data + warp * warp_vecs;
#pragma unroll 2
        for (int r = 0; r < rounds; ++r) {
            const uint4 raw = mine[r * warp_threads + lane];
            reg_array<in_value, vec> a;
            std::memcpy(&a, &raw, 16);
            reg_array<Acc, vec> x;
#pragma unroll
            for (int i = 0; i < vec; ++i) x[i] = static_cast<Acc>(p.f(a[i]));
#pragma unroll
            for (int i = 1; i < vec; ++i) x[i] = static_cast<Acc>(op(x[i - 1], x[i]));
            const Acc incl = warp_inclusive_scan(x[vec - 1], op, lane);
            const Acc left = shfl_up(incl, 1);  // meaningless on lane 0
            const maybe<Acc> before = lane == 0 ? carry : maybe<Acc>(combine(carry, left, op));
            if (before.has) {
#pragma unroll
                for (int i = 0; i < vec; ++i) x[i] = static_cast<Acc>(op(before.get(), x[i]));
            }
            uint4 w;
            std::memcpy(&w, &x, 16);
            mine[r * warp_threads + lane] = w;
            carry = maybe<Acc>(shfl_idx(x[vec - 1], warp_threads - 1));
        }
        if (lane == 0) h.warp_totals.set(warp, carry.get());
        __syncthreads();

        // ---- the tile's aggregate and prefix -----------------------------------------------
        const maybe<Acc> run = warp_run(tile, prefix);

        // ---- pass 2: combine with the prefix and store -----------------------------------------
        const std::int64_t base = tile * tile_items;
        const bool full = p.n - base >= tile_items;
        const std::int64_t warp_first = base + std::int64_t{warp} * warp_vecs * vec;
        Acc last_prev{};  // exclusive: the last value of the previous round (lane 31's)
#pragma unroll 2
        for (int r = 0; r < rounds; ++r) {
            const uint4 raw = mine[r * warp_threads + lane];
            reg_array<Acc, vec> x;
            std::memcpy(&x, &raw, 16);
            reg_array<out_value, vec> o;
            if (p.mode.exclusive) {
                // out_i = run op incl_{i-1}; run always holds at least the init.
                const Acc up = shfl_up(x[vec - 1], 1);
                const Acc round_last = shfl_idx(x[vec - 1], warp_threads - 1);
                const bool first = lane == 0 && r == 0;
                const Acc prev = lane == 0 ? last_prev : up;
                o[0] = first ? run.get() : static_cast<Acc>(op(run.get(), prev));
#pragma unroll
                for (int i = 1; i < vec; ++i)
                    o[i] = static_cast<Acc>(op(run.get(), x[i - 1]));
                last_prev = round_last;
            } else if (run.has) {
#pragma unroll
                for (int i = 0; i < vec; ++i) o[i] = static_cast<Acc>(op(run.get(), x[i]));
            } else {
#pragma unroll
                for (int i = 0; i < vec; ++i) o[i] = x[i];
            }
            const std::int64_t first_item = warp_first + std::int64_t{r * warp_threads + lane} * vec;
            if (full) {
                uint4 w;
                std::memcpy(&w, &o, 16);
                *reinterpret_cast<uint4*>(p.out + first_item) = w;
            } else {
#pragma unroll
                for (int i = 0; i < vec; ++i)
                    if (first_item + i < p.n) p.out[first_item + i] = o[i];
            }
        }
    }

    __device__ wide_op make_wide_op() const {
        if constexpr (std::is_same_v<wide_op, Op>) {
            return op;
        } else {
            return wide_op{};
        }
    }

    /// The vector's elements, transformed into the accumulator.
    __device__ reg_array<Acc, vec> load_acc(const uint4* at) const { return to_acc(*at); }
    __device__ reg_array<Acc, vec> to_acc(const uint4& raw) const {
        reg_array<in_value, vec> a;
        std::memcpy(&a, &raw, 16);
        reg_array<Acc, vec> x;
#pragma unroll
        for (int i = 0; i < vec; ++i) x[i] = static_cast<Acc>(p.f(a[i]));
        return x;
    }

    /// An accumulator wider than the element (wide): nothing can be written back in place, so
    ///   1. each lane reduces its vectors of all rounds into one accumulator (pairwise inside a
    ///      vector, then round after round), and a Kogge-Stone scan across the lanes gives the
    ///      warp's total: no shuffle per round. This reorders the reduction against the scan of
    ///      pass 2 (lane l's vectors of every round before lane l + 1's), which reorderable_op_v
    ///      allows: the aggregate is a sum over another tree, not the last output's bits.
    ///   2. after the tile's prefix, each round re-reads the raw elements from shared memory,
    ///      rescans them (in the vector left to right, Kogge-Stone across the lanes, the carry of
    ///      the earlier rounds, which starts at the warp's run) and stores them converted to the
    ///      output type.
    template <class Prefix>
    __device__ void run_tile_wide(std::int64_t tile, Prefix& prefix) {
        wide_op wop = make_wide_op();
        const uint4* mine = data + warp * warp_vecs;
        // ---- pass 1: the warp's total ------------------------------------------------------
        reg_array<Acc, 1> lane_total;
#pragma unroll 2
        for (int r = 0; r < rounds; ++r) {
            reg_array<Acc, vec> x = load_acc(mine + r * warp_threads + lane);
#pragma unroll
            for (int d = 1; d < vec; d *= 2)
#pragma unroll
                for (int i = 0; i + d < vec; i += 2 * d) x[i] = static_cast<Acc>(wop(x[i], x[i + d]));
            lane_total[0] = r == 0 ? x[0] : static_cast<Acc>(wop(lane_total[0], x[0]));
        }
        const Acc warp_total = warp_inclusive_scan(lane_total[0], wop, lane);
        if (lane == warp_threads - 1) h.warp_totals.set(warp, warp_total);
        __syncthreads();

        // ---- the tile's aggregate and prefix -----------------------------------------------
        maybe<Acc> carry = warp_run(tile, prefix);

        // ---- pass 2: rescan from the raw elements, combine, convert and store ----------------
        // Round r: lane l takes the lane_vecs consecutive vectors starting at
        // (r * 32 + l) * lane_vecs, i.e. `items` consecutive elements (the lane_vecs stores of a
        // round together cover a whole span of lane_vecs * 512 bytes). The loads go in a rotated
        // order: 16-byte loads conflict within 8 lanes, where lanes l and l + 8 / lv would hit
        // one bank group at one step; lane l starts at its vector `rot` = (l * lv / 8) mod lv,
        // which spreads them over all 8 groups, and selects with constant indices put the
        // vectors back in order.
        constexpr int lv = lane_vecs;
        constexpr int items = lv * vec;
        constexpr int rot_shift = lv == 2 ? 2 : lv == 4 ? 1 : 0;
        const int rot = lv == 1 ? 0 : (lane >> rot_shift) & (lv - 1);
        const std::int64_t base = tile * tile_items;
        const bool full = p.n - base >= tile_items;
        const std::int64_t warp_first = base + std::int64_t{warp} * warp_vecs * vec;
#pragma unroll 2
        for (int r = 0; r < wide_rounds; ++r) {
            const int v0 = (r * warp_threads + lane) * lv;  // the lane's first vector in `mine`
            uint4 raw[lv];  // raw[j]: vector (j + rot) mod lv of the lane's
#pragma unroll
            for (int j = 0; j < lv; ++j) raw[j] = mine[v0 + ((j + rot) & (lv - 1))];
            reg_array<Acc, items> x;
#pragma unroll
            for (int k = 0; k < lv; ++k) {
                uint4 vk = raw[k];  // rot == 0
#pragma unroll
                for (int q = 1; q < lv; ++q)
                    if (rot == q) vk = raw[(k - q) & (lv - 1)];
                const reg_array<Acc, vec> y = to_acc(vk);
#pragma unroll
                for (int i = 0; i < vec; ++i) x[k * vec + i] = y[i];
            }
#pragma unroll
            for (int i = 1; i < items; ++i) x[i] = static_cast<Acc>(wop(x[i - 1], x[i]));
            const Acc incl = warp_inclusive_scan(x[items - 1], wop, lane);
            const Acc left = shfl_up(incl, 1);  // meaningless on lane 0
            const Acc round_total = shfl_idx(incl, warp_threads - 1);
            const maybe<Acc> before = lane == 0 ? carry : maybe<Acc>(combine(carry, left, wop));
            reg_array<out_value, items> o;
            if (p.mode.exclusive) {
                // out_i = before op x_{i-1}; before always holds at least the init.
                o[0] = static_cast<out_value>(before.get());
#pragma unroll
                for (int i = 1; i < items; ++i)
                    o[i] = static_cast<out_value>(static_cast<Acc>(wop(before.get(), x[i - 1])));
            } else if (before.has) {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    o[i] = static_cast<out_value>(static_cast<Acc>(wop(before.get(), x[i])));
            } else {
#pragma unroll
                for (int i = 0; i < items; ++i) o[i] = static_cast<out_value>(x[i]);
            }
            carry = maybe<Acc>(combine(carry, round_total, wop));
            const std::int64_t first_item = warp_first + std::int64_t{v0} * vec;
            if (full) {
#pragma unroll
                for (int k = 0; k < lv; ++k) {
                    uint4 w;
                    std::memcpy(&w, &o[k * vec], 16);
                    *reinterpret_cast<uint4*>(p.out + first_item + k * vec) = w;
                }
            } else {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (first_item + i < p.n) p.out[first_item + i] = o[i];
            }
        }
    }
};

}  // namespace sweep::detail::cuda
