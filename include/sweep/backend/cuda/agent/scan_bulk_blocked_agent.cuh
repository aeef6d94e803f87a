// sweep/backend/cuda/agent/scan_bulk_blocked_agent.cuh -- GPU backend, agents: one tile of a
// scan held in shared memory (brought in by the copy engine, as in scan_bulk_agent.cuh), scanned
// with the association of the register agent (scan_agent.cuh): thread t scans the items
// [t * Items, (t + 1) * Items) of the tile left to right, a Kogge-Stone tree joins the 32 thread
// totals of a warp, the warp totals fold left to right. That is the in-tile tree of the canonical
// deterministic scan (detail/canonical.hpp), so `.deterministic()` can take the copy engine's path
// and keep its bits (docs/decisions/0003-numerics.md).
//
// Why not scan_bulk_agent: its tree (lanes take 16-byte vectors in warp-wide rounds) is another
// association. Why not the register agent: it holds the tile in registers, loaded after the ticket
// arrives, which caps the bytes a block has in flight (double: 8 blocks of 16 KB an SM, 4 bytes
// spilled; perf/notes-gpu.md 18); here the whole tile is one bulk copy and registers hold one
// thread's items only while it scans them.
//
// A thread's items are `vt` consecutive 16-byte vectors (vt = 1, 2, 4 or 8), so the threads of an
// 8-lane shared-memory wavefront read addresses vt * 16 bytes apart: with vt = 8, all in one
// 16-byte bank group. Each lane therefore reads its vectors in a rotated order (at step j, vector
// (j + rot) mod vt, rot spreading the 8 lanes over the 8 bank groups: conflict-free) and puts them
// back in order with log2(vt) stages of selects with constant indices (a register array cannot be
// indexed by a run-time value without going to local memory). Three passes:
//   1. each thread reads its items (rotated), transforms and scans them, writes the thread-local
//      inclusive scan back in place (rotated again), and the warp scans the thread totals;
//   2. the tile's aggregate (warp totals left to right) and its prefix from the prefix service;
//      each thread's run (tile prefix op warp prefix op lane prefix) goes to shared memory;
//   3. in rounds of 32 vectors (lane l takes vector r * 32 + l of its warp's share: conflict-free
//      reads, coalesced 16-byte stores): out = run(owner) op the item's thread-local scan.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/scan_agent.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>

namespace sweep::detail::cuda {

/// v[k] <- v[(k - Sign * amount) mod N] for 0 <= amount < N (N a power of two): one stage of
/// selects per bit of `amount`, every index a constant.
template <int Sign, int N>
__device__ __forceinline__ void rotate_vectors(uint4 (&v)[N], int amount) {
#pragma unroll
    for (int s = 1; s < N; s *= 2) {
        const bool on = (amount & s) != 0;
        uint4 t[N];
#pragma unroll
        for (int k = 0; k < N; ++k) {
            const uint4& from = v[((k - Sign * s) % N + N) % N];
            t[k].x = on ? from.x : v[k].x;
            t[k].y = on ? from.y : v[k].y;
            t[k].z = on ? from.z : v[k].z;
            t[k].w = on ? from.w : v[k].w;
        }
#pragma unroll
        for (int k = 0; k < N; ++k) v[k] = t[k];
    }
}

template <class Tuning, class Acc, class In, class Out, class Op, class F>
struct scan_bulk_blocked_agent {
    using tuning = Tuning;
    using params = scan_params<Acc, In, Out, Op, F>;
    using acc_type = Acc;
    using op_type = Op;
    using in_value = iter_value_t<In>;
    using out_value = std::remove_cv_t<std::remove_pointer_t<Out>>;

    static constexpr int threads = Tuning::threads;
    static constexpr int items = Tuning::items;
    static constexpr int warps = threads / warp_threads;
    static constexpr std::int64_t tile_items = std::int64_t{threads} * items;

    /// Input, accumulator and output of one size that divides 16, a thread's items whole 16-byte
    /// vectors, 1, 2, 4 or 8 of them (the rotation's reach); the run-time condition is 16-byte
    /// alignment of both pointers (launch_scan checks it).
    static constexpr bool same_size = sizeof(in_value) == sizeof(Acc) &&
                                      sizeof(out_value) == sizeof(Acc) && 16 % sizeof(Acc) == 0;
    static constexpr int vec = same_size ? 16 / static_cast<int>(sizeof(Acc)) : 1;  // items a vector
    static constexpr int vt = items / vec;  // vectors a thread
    static constexpr bool eligible = std::is_pointer_v<In> && std::is_pointer_v<Out> && same_size &&
                                     items % vec == 0 &&
                                     (vt == 1 || vt == 2 || vt == 4 || vt == 8);
    static constexpr int tile_bytes = threads * items * static_cast<int>(sizeof(Acc));
    static_assert(threads % warp_threads == 0);

    struct header {
        alignas(16) std::uint64_t bar;
        std::int64_t tile;
        unsigned parity;      // the barrier phase the tile's copy completes
        unsigned first_has;   // whether thread 0 has a run (only thread 0 of tile 0 may lack one)
        smem_array<Acc, warps> warp_totals;
        smem_array<Acc, 1> tile_prefix;
        smem_array<Acc, threads> runs;  // each thread's run (pass 2 -> pass 3)
    };
    static constexpr int header_bytes = (sizeof(header) + 127) / 128 * 128;
    /// Dynamic shared memory a block needs.
    static constexpr int smem_bytes = header_bytes + tile_bytes;

    const params& p;
    header& h;
    uint4* data;  // the tile, threads * vt vectors
    Op op;
    int tid, lane, warp;

    __device__ scan_bulk_blocked_agent(const params& p_, unsigned char* smem)
        : p(p_), h(*reinterpret_cast<header*>(smem)),
          data(reinterpret_cast<uint4*>(smem + header_bytes)), op(p_.op), tid(threadIdx.x),
          lane(threadIdx.x % warp_threads), warp(threadIdx.x / warp_threads) {}

    /// Thread 0: arm the barrier and start copying full tile `tile` in.
    __device__ void start_copy(std::int64_t tile) {
        bulk::arrive_expect(&h.bar, tile_bytes);
        bulk::copy_to_shared(data, p.in + tile * tile_items, tile_bytes, &h.bar);
    }

    __device__ bool is_full(std::int64_t tile) const { return p.n - tile * tile_items >= tile_items; }

    /// The last, partial tile: every thread copies its share; slots past the end get a copy of a
    /// real value (the register agent's filler), so that the operator only sees input values.
    __device__ void load_partial(std::int64_t tile) {
        const std::int64_t base = tile * tile_items;
        bulk::fill_partial_tile(reinterpret_cast<in_value*>(data), p.in, base, p.n - base,
                                tile_items, tid, threads);
    }

    /// Scans tile `tile`, whose data is in shared memory. Prefix: as in scan_agent::run_tile.
    template <class Prefix>
    __device__ void run_tile(std::int64_t tile, Prefix& prefix) {
        // ---- pass 1: the thread's items, scanned, written back in place ------------------------
        // rot: lanes l..l+7 of a wavefront start at different bank groups (their spans are
        // vt * 16 bytes apart: 8 / vt of them share a group, and rot tells those apart).
        constexpr int rot_shift = vt == 8 ? 0 : vt == 4 ? 1 : vt == 2 ? 2 : 3;
        const int rot = vt == 1 ? 0 : (lane >> rot_shift) & (vt - 1);
        uint4* mine = data + tid * vt;
        uint4 raw[vt];
#pragma unroll
        for (int j = 0; j < vt; ++j) raw[j] = mine[(j + rot) & (vt - 1)];
        rotate_vectors<1>(raw, rot);  // raw[k] = vector k
        reg_array<Acc, items> x;
#pragma unroll
        for (int k = 0; k < vt; ++k) {
            reg_array<in_value, vec> a;
            std::memcpy(&a, &raw[k], 16);
#pragma unroll
            for (int i = 0; i < vec; ++i) x[k * vec + i] = static_cast<Acc>(p.f(a[i]));
        }
#pragma unroll
        for (int i = 1; i < items; ++i) x[i] = static_cast<Acc>(op(x[i - 1], x[i]));
        const Acc total = x[items - 1];
#pragma unroll
        for (int k = 0; k < vt; ++k) std::memcpy(&raw[k], &x[k * vec], 16);
        rotate_vectors<-1>(raw, rot);  // raw[j] = vector (j + rot) mod vt
#pragma unroll
        for (int j = 0; j < vt; ++j) mine[(j + rot) & (vt - 1)] = raw[j];

        const Acc warp_incl = warp_inclusive_scan(total, op, lane);
        const Acc lane_excl = shfl_up(warp_incl, 1);  // meaningless on lane 0
        if (lane == warp_threads - 1) h.warp_totals.set(warp, warp_incl);
        __syncthreads();

        // ---- pass 2: the tile's aggregate and prefix; each thread's run ------------------------
        maybe<Acc> warp_excl;
        const Acc aggregate = fold_warp_totals(h.warp_totals, warp, op, warp_excl);
        const maybe<Acc> tile_excl = prefix(tile, aggregate);
        maybe<Acc> run = combine(tile_excl, warp_excl, op);
        if (lane != 0) run = combine(run, maybe<Acc>(lane_excl), op);
        h.runs.set(tid, run.has ? run.get() : total);
        if (tid == 0) h.first_has = run.has ? 1u : 0u;
        __syncthreads();

        // ---- pass 3: out = run op thread-local scan, coalesced stores ------------------------
        // Lane 0's vector is always the first of its owner's span (vt divides 32), so the item
        // before any other lane's vector is in lane - 1's vector of the same round.
        const std::int64_t base = tile * tile_items;
        const bool full = p.n - base >= tile_items;
        const bool first_has = h.first_has != 0;
        const uint4* share = data + warp * warp_threads * vt;  // the warp's threads' vectors
#pragma unroll 2
        for (int r = 0; r < vt; ++r) {
            const int v = r * warp_threads + lane;  // vector within the warp's share
            const int owner = warp * warp_threads + v / vt;
            const uint4 raw_v = share[v];
            reg_array<Acc, vec> xs;
            std::memcpy(&xs, &raw_v, 16);
            const Acc rv = h.runs.get(owner);
            reg_array<out_value, vec> o;
            if (p.mode.exclusive) {
                // out_i = run op x'_{i-1}; run itself for the owner's first item (run always
                // holds at least the init).
                const Acc up = shfl_up(xs[vec - 1], 1);
                o[0] = v % vt == 0 ? static_cast<out_value>(rv)
                                   : static_cast<out_value>(static_cast<Acc>(op(rv, up)));
#pragma unroll
                for (int i = 1; i < vec; ++i)
                    o[i] = static_cast<out_value>(static_cast<Acc>(op(rv, xs[i - 1])));
            } else if (owner != 0 || first_has) {
#pragma unroll
                for (int i = 0; i < vec; ++i)
                    o[i] = static_cast<out_value>(static_cast<Acc>(op(rv, xs[i])));
            } else {
#pragma unroll
                for (int i = 0; i < vec; ++i) o[i] = static_cast<out_value>(xs[i]);
            }
            const std::int64_t first_item =
                base + (std::int64_t{warp} * warp_threads * vt + v) * vec;
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
};

}  // namespace sweep::detail::cuda
