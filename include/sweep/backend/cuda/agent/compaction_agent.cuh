// sweep/backend/cuda/agent/compaction_agent.cuh -- GPU backend, agents: one tile of stream
// compaction (copy_if, partition_copy, and the pass of the in-place partitions).
//
// load (predicate fused) -> count per warp -> ranks within the tile -> kept elements (and, when
// splitting, the rejected ones) placed in order in shared memory -> the tile's prefix, a count,
// from a prefix service -> contiguous, coalesced stores from shared memory. No flag or index
// array ever goes to global memory.
//
// Arrangement: lane l of a warp holds, in round r, the `vec` consecutive elements of group
// r * 32 + l of the warp's segment (vec = 4 for 1-byte values, 2 for 2-byte ones, else 1). So one
// round of a warp covers 32 * vec consecutive elements, and one ballot per element of the group
// gives every lane its rank within the round: the kept elements of a round land in consecutive
// shared-memory slots (no bank conflicts), and the order is the input order (stable).
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/tuning/compaction_tuning.cuh>

namespace sweep::detail::cuda {

template <class It>
using compaction_value_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

/// One launch's arguments. All run-time switches of one kernel: copy_if, partition_copy and the
/// in-place pass share an instantiation when their iterator types agree.
template <class In, class Stencil, class OutT, class OutF, class Pred>
struct compaction_params {
    In in;
    Stencil stencil;
    OutT out_true;
    OutF out_false;
    std::int64_t n;
    std::int64_t* total;    // the kept count, written by the last tile
    Pred pred;
    bool split;             // rejected elements go to out_false (partition_copy, in place;
                            // only with stencil_is_input: the values are then in registers)
    bool fenced;            // out_true aliases the input (in place): see count_prefix.cuh
    bool stencil_is_input;  // the plain copy_if: pred(input), no stencil loads
    bool in_aligned;        // `in` is 4-byte aligned: 1- and 2-byte values load as 32-bit words
    bool stencil_aligned;   // likewise for the stencil
    // The in-place pass on the shared-memory path only (compaction_bulk_agent): where the
    // direction chosen for this call lies (non-zero: mirrored, docs/compaction.md), written by
    // the reset kernel this launch runs behind. nullptr: forward.
    const std::uint32_t* direction = nullptr;
    // The shared-memory path only: its tile copies read with an L2::evict_first hint
    // (dispatch/compaction.cuh sets it where tuning/compaction_tuning.cuh says).
    bool evict_first = false;
};

/// A thread's items in registers, item i = element i % Vec of round i / Vec. Vec > 1 (1- and
/// 2-byte values): one 32-bit word per round, elements extracted by shifts, so that a round's
/// group stays one register (element-wise storage would take a register per byte).
template <class T, int Items, int Vec>
struct item_registers {
    static constexpr bool packed = false;
    using value_type = T;
    reg_array<T, Items> x;
    __device__ __forceinline__ T get(int i) const { return x[i]; }
    __device__ __forceinline__ void set(int i, const T& v) { x[i] = v; }
};
template <class T, int Items, int Vec>
    requires(Vec > 1)
struct item_registers<T, Items, Vec> {
    static_assert(sizeof(T) * Vec == 4);
    static constexpr bool packed = true;
    using value_type = T;
    using bits_t = std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>;
    static constexpr int shift = 8 * static_cast<int>(sizeof(T));
    std::uint32_t w[Items / Vec];
    __device__ __forceinline__ T get(int i) const {
        const auto b = static_cast<bits_t>(w[i / Vec] >> (shift * (i % Vec)));
        reg_array<T, 1> v;
        std::memcpy(&v[0], &b, sizeof(T));
        return v[0];
    }
};

template <class Tuning, class In, class Stencil, class OutT, class OutF, class Pred>
struct compaction_agent {
    using tuning = Tuning;
    using value_type = compaction_value_t<In>;
    using stencil_type = compaction_value_t<Stencil>;
    using params = compaction_params<In, Stencil, OutT, OutF, Pred>;

    static constexpr int threads = Tuning::threads;
    static constexpr int rounds = Tuning::rounds;
    static constexpr int vec = compaction_vec(sizeof(value_type));
    static constexpr int items = rounds * vec;  // per thread
    static constexpr int warps = threads / warp_threads;
    static constexpr int warp_items = warp_threads * items;
    static constexpr int tile_items = threads * items;
    static_assert(threads % warp_threads == 0);
    static_assert(items <= 64, "the flags of a thread's items live in two 32-bit masks");
    static constexpr int flag_words = (items + 31) / 32;
    using values = item_registers<value_type, items, vec>;
    using stencil_values =
        item_registers<stencil_type, items, (sizeof(stencil_type) * vec == 4 ? vec : 1)>;

    static constexpr bool same_stencil = std::is_same_v<In, Stencil>;


    struct shared_storage {
        smem_array<value_type, tile_items> buf;  // the tile, reordered: kept, then rejected
        int warp_counts[warps];
        std::int64_t prefix;
        std::int64_t tile;
    };

    const params& p;
    shared_storage& smem;
    Pred pred;  // a copy, so that predicates with a non-const operator() work too
    int tid, lane, warp;

    __device__ compaction_agent(const params& p_, shared_storage& s)
        : p(p_), smem(s), pred(p_.pred), tid(static_cast<int>(threadIdx.x)),
          lane(static_cast<int>(threadIdx.x) % warp_threads),
          warp(static_cast<int>(threadIdx.x) / warp_threads) {}

    /// Offset of item i from the thread's first item: a compile-time constant once unrolled.
    static __device__ __forceinline__ constexpr int item_offset(int i) {
        return (i / vec) * warp_threads * vec + i % vec;
    }

    /// Loads this thread's items of an iterator, warp-striped by groups.
    /// * A group that is one 32-bit word (1- and 2-byte elements): on a 4-byte aligned pointer
    ///   and a full tile, one word load per round. Otherwise (a fancy iterator, a misaligned
    ///   pointer, the last tile) the warp stages its segment element by element (coalesced) in
    ///   its part of the tile buffer, which is free until the placement, and reads its words back:
    ///   element-wise loads straight into words would hold a register per element in flight.
    /// * Otherwise element by element into registers; `full`: no bounds checks, so that all
    ///   loads issue before the first is used.
    template <class It, class Regs>
    __device__ __forceinline__ void load_items(It it, std::int64_t base, int len, bool full,
                                               bool aligned, Regs& x) {
        const int first = warp * warp_items + lane * vec;
        if constexpr (Regs::packed) {
            if constexpr (std::is_pointer_v<It>) {
                if (full && aligned) {
                    const auto* w = reinterpret_cast<const std::uint32_t*>(it + (base + first));
#pragma unroll
                    for (int r = 0; r < rounds; ++r) x.w[r] = w[r * warp_threads];
                    return;
                }
            }
            using bits_t = typename Regs::bits_t;
            static_assert(sizeof(bits_t) == sizeof(value_type));
            bits_t* stage = reinterpret_cast<bits_t*>(smem.buf.bytes) + warp * warp_items;
            const int valid = len - warp * warp_items;  // elements of the warp's segment
            const It at = it + (base + warp * warp_items);
#pragma unroll 4
            for (int k = 0; k < items; ++k) {
                const int j = k * warp_threads + lane;
                bits_t b = 0;
                if (j < valid) {
                    const auto v = static_cast<typename Regs::value_type>(at[j]);
                    std::memcpy(&b, &v, sizeof(b));
                }
                stage[j] = b;
            }
            __syncwarp();
            const auto* w = reinterpret_cast<const std::uint32_t*>(stage) + lane;
#pragma unroll
            for (int r = 0; r < rounds; ++r) x.w[r] = w[r * warp_threads];
            __syncwarp();
        } else {
            const It at = it + (base + first);
            if (full) {
#pragma unroll
                for (int i = 0; i < items; ++i) x.set(i, at[item_offset(i)]);
            } else {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (first + item_offset(i) < len) x.set(i, at[item_offset(i)]);
            }
        }
    }

    /// Compacts tile `tile`. Prefix: count_carry or count_lookback (count_prefix.cuh), used by
    /// warp 0. Returns the kept count up to and including this tile.
    template <class Prefix>
    __device__ std::int64_t run_tile(std::int64_t tile, Prefix& prefix) {
        const std::int64_t base = tile * tile_items;
        const std::int64_t left = p.n - base;
        const int len = left < tile_items ? static_cast<int>(left) : tile_items;
        const bool full = len == tile_items;

        // ---- load, the predicate fused ---------------------------------------------------------
        // The plain forms hold their values in registers from here to the placement. The stencil
        // form loads the stencil only; it gathers the kept values in the placement, so that a
        // value is read only if kept (sectors without a kept value are never fetched).
        // Item i of this thread exists iff item_offset(i) < mine_left (compared with a constant,
        // so that no per-item index lives in a register).
        const int first = warp * warp_items + lane * vec;
        const int mine_left = len - first;
        bool from_input = false;
        if constexpr (same_stencil) from_input = p.stencil_is_input;
        values x;
        std::uint32_t flags[flag_words];  // bit i % 32 of word i / 32: item i is kept
#pragma unroll
        for (int f = 0; f < flag_words; ++f) flags[f] = 0;
        if (from_input) {
            if constexpr (same_stencil) {
                load_items(p.in, base, len, full, p.in_aligned, x);
#pragma unroll
                for (int i = 0; i < items; ++i) {
                    if (full || item_offset(i) < mine_left) {
                        const bool keep = static_cast<bool>(pred(x.get(i)));
                        flags[i / 32] |= static_cast<std::uint32_t>(keep) << (i % 32);
                    }
                }
            }
        } else if constexpr (stencil_values::packed) {
            stencil_values st;
            load_items(p.stencil, base, len, full, p.stencil_aligned, st);
#pragma unroll
            for (int i = 0; i < items; ++i)
                if (full || item_offset(i) < mine_left)
                    flags[i / 32] |= static_cast<std::uint32_t>(static_cast<bool>(pred(st.get(i))))
                                     << (i % 32);
        } else {
            // Each stencil element is used once, right after its load: no array of them, so that
            // a wide stencil does not hold a register per element (the scheduler still issues
            // loads ahead as far as registers allow).
            const Stencil at = p.stencil + (base + first);
            if (full) {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    flags[i / 32] |= static_cast<std::uint32_t>(
                                         static_cast<bool>(pred(stencil_type(at[item_offset(i)]))))
                                     << (i % 32);
            } else {
#pragma unroll
                for (int i = 0; i < items; ++i)
                    if (item_offset(i) < mine_left)
                        flags[i / 32] |= static_cast<std::uint32_t>(static_cast<bool>(
                                             pred(stencil_type(at[item_offset(i)]))))
                                         << (i % 32);
            }
        }

        // ---- count: per warp, then the tile -------------------------------------------------
        int mine = 0;
#pragma unroll
        for (int f = 0; f < flag_words; ++f) mine += __popc(flags[f]);
#if __CUDA_ARCH__ >= 800
        const int warp_count = __reduce_add_sync(full_mask, mine);
#else
        int warp_count = mine;
#pragma unroll
        for (int d = warp_threads / 2; d > 0; d /= 2)
            warp_count += __shfl_xor_sync(full_mask, warp_count, d);
#endif
        if (lane == 0) smem.warp_counts[warp] = warp_count;
        __syncthreads();
        int warp_before = 0, kept = 0;
#pragma unroll
        for (int w = 0; w < warps; ++w) {
            const int c = smem.warp_counts[w];
            if (w < warp) warp_before += c;
            kept += c;
        }

        // ---- the tile's count, published at once by warp 0 -----------------------------------
        if (warp == 0) prefix.announce(tile, static_cast<std::int64_t>(kept));

        // ---- place the tile in order in shared memory: kept at [0, kept), rejected after ----
        // Rank of an element = kept elements of the tile before it: the earlier warps', this
        // warp's earlier rounds', this round's earlier lanes' (a ballot per group element), and
        // this lane's earlier group elements. A rejected element at tile index j goes to
        // kept + (j - rank).
        const unsigned lanes_before = (1u << lane) - 1u;
        const In gather = p.in + (base + first);  // the stencil form's kept values
        const int rejected_at = kept + first;     // kept + j - rank = rejected_at + offset - rank
        int run = warp_before;
#pragma unroll
        for (int r = 0; r < rounds; ++r) {
            unsigned ballot[vec];
            int before = 0, total = 0;
#pragma unroll
            for (int c = 0; c < vec; ++c) {
                const int i = r * vec + c;
                ballot[c] = __ballot_sync(full_mask, ((flags[i / 32] >> (i % 32)) & 1u) != 0);
                before += __popc(ballot[c] & lanes_before);
                total += __popc(ballot[c]);
            }
            int rank = run + before;
#pragma unroll
            for (int c = 0; c < vec; ++c) {
                const int i = r * vec + c;
                if ((flags[i / 32] >> (i % 32)) & 1u) {
                    if (from_input) smem.buf.set(rank, x.get(i));
                    else smem.buf.set(rank, static_cast<value_type>(gather[item_offset(i)]));
                    ++rank;
                } else if (p.split && (full || item_offset(i) < mine_left)) {
                    smem.buf.set(rejected_at + item_offset(i) - rank, x.get(i));
                }
            }
            run += total;
        }

        // ---- the tile's prefix: warp 0 looks back, its values no longer live -------------------
        if (warp == 0) prefix.resolve(tile, static_cast<std::int64_t>(kept), &smem.prefix);
        __syncthreads();  // the placed tile and the prefix slot are visible to every thread
        const std::int64_t kept_before = smem.prefix;

        // ---- store: consecutive threads, consecutive outputs --------------------------------
        const int count = p.split ? len : kept;
        const OutT out_t = p.out_true + kept_before;
        if (count == kept) {
#pragma unroll 4
            for (int k = 0; k < items; ++k) {
                const int j = k * threads + tid;
                if (j < kept) out_t[j] = smem.buf.get(j);
            }
        } else {
            const OutF out_f = p.out_false + (base - kept_before);  // rejected before the tile
#pragma unroll 4
            for (int k = 0; k < items; ++k) {
                const int j = k * threads + tid;
                if (j < count) {
                    const value_type v = smem.buf.get(j);
                    if (j < kept) out_t[j] = v;
                    else out_f[j - kept] = v;
                }
            }
        }
        return kept_before + kept;
    }
};

}  // namespace sweep::detail::cuda
