// sweep/backend/cuda/agent/compaction_bulk_agent.cuh -- GPU backend, agents: one tile of stream
// compaction held in shared memory, brought in by the copy engine (the fast path for copy_if,
// partition_copy and the in-place pass on contiguous, 16-byte aligned pointers to 1-, 2-, 4- or
// 8-byte values, the predicate on the value itself).
//
// Why (as scan_bulk_agent.cuh): the register agent (compaction_agent.cuh) holds its tile in
// registers, so the bytes a block has in flight cost registers, hence resident blocks, hence the
// look-back waits they hide. Here one cp.async.bulk brings the whole tile into shared memory and
// registers hold a few words at a time.
//
// A tile is TileBytes; warp w owns the contiguous bytes [w * warp_bytes, (w + 1) * warp_bytes),
// cut into rounds of 512 bytes. One round of a warp is `rows` rows of 32 words (a word: 4 bytes,
// 8 for 8-byte values); lane l reads word l of each row, so the reads are conflict-free and a
// row's elements are in lane order.
//
//   count   per round: read the round's words, apply the predicate; lane counts -> warp counts
//           (one warp reduction) -> tile count (barrier)
//   announce warp 0 publishes the tile's count (count_prefix.cuh) before anything is placed, so
//           that successors waiting on this tile see it a placement earlier
//   place   per round: read the round's words (registers), the predicate again, one ballot per
//           word element gives every element its rank among the round's kept ones; __syncwarp;
//           write the round back permuted in place. Split (partition_copy, in place): kept
//           elements in order at the round's start, the rejected ones in order after them; only
//           the round itself is written, and it has been read entirely. Not split (copy_if): kept
//           elements packed after the warp's kept ones of the earlier rounds, at the warp's
//           start; a slot (the warp's kept elements before the element) is never past the
//           element's own index, so only this round and earlier ones are written. Consecutive
//           kept elements of a row land in consecutive slots (no bank conflicts).
//   prefix  warp 0, after its own placement, looks back (the wait for the predecessors' counts
//           overlaps every warp's placement)
//   store   split: each warp stores its rounds, the kept run of round r to out_true at (tile
//           prefix + kept before the round), the rejected run to out_false likewise. Not split:
//           each warp stores its one packed kept run, 128 elements a step, so that the work
//           follows the kept count rather than the tile size. Consecutive lanes, consecutive
//           addresses.
// The predicate is applied twice to each element (count, place); like the standard's, it must
// give the same result for the same value (equality-preserving): the placement follows the second
// application and the tile's position the first.
// Stable: rounds, rows, lanes and word elements are walked in input order.
//
// run_tile does the whole tile; its steps (count, tile_counts, announce, place, store) are members
// of their own.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/bulk_copy.cuh>
#include <sweep/backend/cuda/agent/compaction_agent.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>

namespace sweep::detail::cuda {

/// Set in the kept count the last tile writes when the in-place pass ran mirrored.
inline constexpr std::int64_t compaction_mirrored_bit = std::int64_t{1} << 62;

template <class Tuning, class In, class Stencil, class OutT, class OutF, class Pred>
struct compaction_bulk_agent {
    using tuning = Tuning;
    using value_type = compaction_value_t<In>;
    using params = compaction_params<In, Stencil, OutT, OutF, Pred>;

    /// Whether this path can serve the call at all. The run-time conditions: the plain form
    /// (stencil_is_input), `in` 16-byte aligned, more tiles than the single block takes
    /// (dispatch/compaction.cuh checks them).
    static constexpr bool eligible = std::is_pointer_v<In> && std::is_same_v<In, Stencil> &&
                                     (sizeof(value_type) == 1 || sizeof(value_type) == 2 ||
                                      sizeof(value_type) == 4 || sizeof(value_type) == 8);

    static constexpr int size = static_cast<int>(sizeof(value_type));
    using word_t = std::conditional_t<sizeof(value_type) == 8, std::uint64_t, std::uint32_t>;
    static constexpr int word_bytes = static_cast<int>(sizeof(word_t));
    static constexpr int per_word = word_bytes / size;          // elements of a word
    static constexpr int round_bytes = 512;
    static constexpr int rows = round_bytes / (warp_threads * word_bytes);  // words a lane, a round
    static constexpr int round_items = round_bytes / size;
    static constexpr int flags = rows * per_word;                // elements a lane, a round (<= 16)

    static constexpr int threads = Tuning::threads;
    static constexpr int warps = threads / warp_threads;
    static constexpr int tile_bytes = Tuning::tile_bytes;
    static constexpr int warp_bytes = tile_bytes / warps;
    static constexpr int rounds = warp_bytes / round_bytes;
    static constexpr int warp_items = warp_bytes / size;
    static constexpr std::int64_t tile_items = tile_bytes / size;
    static_assert(warps >= 1 && threads % warp_threads == 0 &&
                      tile_bytes % (warps * round_bytes) == 0 && rounds >= 1,
                  "compaction_bulk_tuning: TileBytes must be a multiple of 512 x Threads / 32");
    static_assert(flags <= 32);

    struct header {
        alignas(16) std::uint64_t bar;  // the tile's copy
        std::int64_t order;             // the tile's ticket: the look-back's index
        std::int64_t prefix;            // kept elements before the tile (warp 0's look-back)
        int warp_counts[warps];
        unsigned short round_counts[warps][rounds];  // kept elements of each round (<= 512)
    };
    static constexpr int header_bytes = (static_cast<int>(sizeof(header)) + 127) / 128 * 128;
    /// Dynamic shared memory a block needs.
    static constexpr int smem_bytes = header_bytes + tile_bytes;

    const params& p;
    header& h;
    unsigned char* data;  // the tile, tile_bytes
    Pred pred;            // a copy, so that predicates with a non-const operator() work too
    int tid, lane, warp;

    __device__ compaction_bulk_agent(const params& p_, unsigned char* smem)
        : p(p_), h(*reinterpret_cast<header*>(smem)), data(smem + header_bytes), pred(p_.pred),
          tid(static_cast<int>(threadIdx.x)), lane(static_cast<int>(threadIdx.x) % warp_threads),
          warp(static_cast<int>(threadIdx.x) / warp_threads) {}

    __device__ bool is_full(std::int64_t tile) const { return p.n - tile * tile_items >= tile_items; }
    __device__ int tile_len(std::int64_t tile) const {
        const std::int64_t left = p.n - tile * tile_items;
        return left < tile_items ? static_cast<int>(left) : static_cast<int>(tile_items);
    }

    /// Thread 0: arm the barrier and start copying full tile `tile` in (phase 0 of the barrier
    /// completes when it has landed), with an L2::evict_first hint when p.evict_first. The
    /// barrier must be initialized and fenced before.
    __device__ void start_copy(std::int64_t tile) {
        bulk::arrive_expect(&h.bar, static_cast<unsigned>(tile_bytes));
        bulk::copy_to_shared(data, p.in + tile * tile_items, static_cast<unsigned>(tile_bytes),
                             &h.bar, p.evict_first);
    }

    /// The last, partial tile: element by element (coalesced). Slots past the end stay as they
    /// are; the predicate is never applied to them.
    __device__ void load_partial(std::int64_t tile) {
        const std::int64_t base = tile * tile_items;
        const int len = static_cast<int>(p.n - base);
        auto* s = reinterpret_cast<value_type*>(data);
        for (int i = tid; i < len; i += threads) s[i] = p.in[base + i];
    }

    static __device__ __forceinline__ value_type element(word_t w, int e) {
        reg_array<value_type, 1> v;
        if constexpr (per_word == 1) {
            std::memcpy(&v[0], &w, sizeof(value_type));
        } else {
            using bits_t = std::conditional_t<sizeof(value_type) == 1, std::uint8_t, std::uint16_t>;
            const auto b = static_cast<bits_t>(w >> (8 * size * e));
            std::memcpy(&v[0], &b, sizeof(value_type));
        }
        return v[0];
    }

    /// Compacts tile `tile`, whose data is in shared memory (barrier waited on, or load_partial
    /// done and the block synchronized). Prefix: count_lookback (count_prefix.cuh), used by warp
    /// 0 with the look-back index `order` (the tile's ticket).
    ///
    /// Forward (order == tile): the count is the tile's kept elements and the prefix P the kept
    /// elements before the tile; kept -> out_true[P + rank], rejected -> out_false[base - P + j].
    /// Mirrored (the in-place pass only, OutT == OutF; tiles taken from the back, order = tiles -
    /// 1 - tile): the count is the tile's rejected elements and P the rejected elements after the
    /// tile; rejected -> out_true (the range, in place) at n - P - rejected(tile) + j, kept ->
    /// out_false (the temporary) at end(tile) + P - kept(tile) + rank, so that the kept elements
    /// fill the temporary's last k slots in order. Returns the count up to and including this
    /// tile in look-back order (kept from the front, or rejected from the back).
    template <class Prefix>
    __device__ std::int64_t run_tile(std::int64_t tile, std::int64_t order, bool mirror,
                                     Prefix& prefix) {
        const int len = tile_len(tile);
        count(len);
        __syncthreads();
        int warp_before = 0;
        const int kept = tile_counts(warp_before);

        // ---- the tile's prefix: warp 0 publishes its count, places, then looks back ------------
        // The count goes out before the placement (count: predicates only), so that successors
        // waiting on this tile see it a placement earlier; every warp places while warp 0 waits.
        const int counted = mirror ? len - kept : kept;
        if (warp == 0) announce(order, counted, prefix);
        const int warp_kept = place(len);
        if (warp == 0) prefix.resolve(order, static_cast<std::int64_t>(counted), &h.prefix);
        __syncthreads();
        const std::int64_t before = h.prefix;  // kept before the tile, or rejected after it
        store(tile, len, kept, warp_before, warp_kept, before, mirror);
        return before + counted;
    }

    /// Count: this warp's kept elements of the tile (len valid elements), the predicate applied
    /// to each (place applies it again: API.md names no number of applications, and the
    /// standard's execution-policy overloads promise O(n)); lane 0 writes the warp's count to the
    /// header.
    __device__ void count(int len) {
        const int c = len == tile_items ? count_rounds<true>(len) : count_rounds<false>(len);
        if (lane == 0) h.warp_counts[warp] = c;
    }

    template <bool Full>
    __device__ __forceinline__ int count_rounds(int len) {
        const int my_rounds = rounds_holding(len);
        int mine = 0;  // this lane's kept elements
#pragma unroll 4
        for (int r = 0; r < my_rounds; ++r) {
            word_t w[rows];
            read_round(r, w);
            const int mine_left = len - (warp * warp_items + r * round_items) - lane * per_word;
#pragma unroll
            for (int c = 0; c < rows; ++c)
#pragma unroll
                for (int e = 0; e < per_word; ++e)
                    mine += ((Full || c * warp_threads * per_word + e < mine_left) &&
                             static_cast<bool>(pred(element(w[c], e))))
                                ? 1
                                : 0;
        }
        return __reduce_add_sync(full_mask, static_cast<unsigned>(mine));
    }

    /// Rounds of this warp that hold valid elements (all of them in a full tile; the store loop
    /// of the last tile stops at the same round).
    __device__ __forceinline__ int rounds_holding(int len) const {
        const int left = len - warp * warp_items;
        return left <= 0 ? 0 : left >= warp_items ? rounds : (left + round_items - 1) / round_items;
    }

    /// Place: this warp's rounds of the tile (len valid elements) permuted in place; lane 0 writes
    /// (split) the round counts to the header. Returns the warp's kept count. The two run-time
    /// choices (a full tile or the last one; split or not) are taken once, outside the round
    /// loop, so that each of the four loops carries no test it does not need.
    __device__ int place(int len) {
        if (len == tile_items)
            return p.split ? place_rounds<true, true>(len) : place_rounds<true, false>(len);
        return p.split ? place_rounds<false, true>(len) : place_rounds<false, false>(len);
    }

    /// This lane's words of round r of this warp (rows words, lane l reading word l of each row).
    __device__ __forceinline__ void read_round(int r, word_t (&w)[rows]) const {
        const auto* words =
            reinterpret_cast<const word_t*>(data + warp * warp_bytes + r * round_bytes) + lane;
#pragma unroll
        for (int c = 0; c < rows; ++c) w[c] = words[c * warp_threads];
    }

    /// The round loop of place. Split: kept then rejected in each round's own slots. Not split
    /// (copy_if): the kept ones packed at the warp's start, after the warp's kept ones so far; an
    /// element's slot, the warp's kept elements before it, is at most its own index, so every
    /// slot written lies in this round (read entirely, before the __syncwarp) or in an earlier
    /// one. Either way no write of round r touches round r + 1, so the next round's words are
    /// read before this round's writes (one round of shared-memory latency hidden).
    template <bool Full, bool Split>
    __device__ __forceinline__ int place_rounds(int len) {
        const unsigned lanes_before = (1u << lane) - 1u;
        auto* s = reinterpret_cast<value_type*>(data);
        value_type* const warp_s = s + warp * warp_items;
        const int my_rounds = Full ? rounds : rounds_holding(len);
        int warp_kept = 0;
        word_t w[rows];
        if (my_rounds > 0) read_round(0, w);
#pragma unroll 1
        for (int r = 0; r < my_rounds; ++r) {
            const int round_first = warp * warp_items + r * round_items;  // tile index
            // Element (c, e) of this lane is round index (c * 32 + lane) * per_word + e.
            bool f[rows][per_word];  // kept (predicates, not bits packed and unpacked again)
#pragma unroll
            for (int c = 0; c < rows; ++c)
#pragma unroll
                for (int e = 0; e < per_word; ++e) {
                    if constexpr (Full) {
                        f[c][e] = static_cast<bool>(pred(element(w[c], e)));
                    } else {
                        const int mine_left = len - round_first - lane * per_word;
                        f[c][e] = c * warp_threads * per_word + e < mine_left &&
                                  static_cast<bool>(pred(element(w[c], e)));
                    }
                }
            word_t v[rows];  // this round's words, kept for the writes below
#pragma unroll
            for (int c = 0; c < rows; ++c) v[c] = w[c];
            if (r + 1 < my_rounds) read_round(r + 1, w);
            int before[rows];  // kept of this round before this lane's word of row c
            int round_kept = 0;
#pragma unroll
            for (int c = 0; c < rows; ++c) {
                int below = 0, all = 0;
#pragma unroll
                for (int e = 0; e < per_word; ++e) {
                    const unsigned b = __ballot_sync(full_mask, f[c][e]);
                    below += __popc(b & lanes_before);
                    all += __popc(b);
                }
                before[c] = round_kept + below;
                round_kept += all;
            }
            __syncwarp();  // every lane has read the round before any lane writes into it
            value_type* const out = Split ? s + round_first : warp_s + warp_kept;
#pragma unroll
            for (int c = 0; c < rows; ++c) {
                int rank = before[c];
#pragma unroll
                for (int e = 0; e < per_word; ++e) {
                    const int i = (c * warp_threads + lane) * per_word + e;  // round index
                    if (f[c][e]) {
                        out[rank] = element(v[c], e);
                        ++rank;
                    } else if constexpr (Split) {
                        // Past the end: index i >= valid elements, so its slot is past every
                        // real rejected one's and never stored.
                        out[round_kept + i - rank] = element(v[c], e);
                    }
                }
            }
            if (Split && lane == 0)
                h.round_counts[warp][r] = static_cast<unsigned short>(round_kept);
            warp_kept += round_kept;
        }
        return warp_kept;
    }

    /// After the barrier that follows count: the tile's kept count, and the kept count of the
    /// warps before this one (warp_before).
    __device__ int tile_counts(int& warp_before) const {
        int kept = 0;
        warp_before = 0;
#pragma unroll
        for (int v = 0; v < warps; ++v) {
            const int c = h.warp_counts[v];
            if (v < warp) warp_before += c;
            kept += c;
        }
        return kept;
    }

    /// Warp 0: publish the tile's count (the in-place pass first orders the copy engine's reads
    /// of the tile's input before the publication that lets later tiles overwrite them).
    template <class Prefix>
    __device__ void announce(std::int64_t order, int counted, Prefix& prefix) const {
        if (p.fenced) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            asm volatile("fence.proxy.async.global;" ::: "memory");
#endif
        }
        prefix.announce(order, static_cast<std::int64_t>(counted));
    }

    /// Store: this warp's kept run(s) and (split) rejected runs of the placed tile, `before` being
    /// its prefix (kept before it, or mirrored rejected after it).
    __device__ void store(std::int64_t tile, int len, int kept, int warp_before, int warp_kept,
                          std::int64_t before, bool mirror) const {
        const std::int64_t base = tile * tile_items;
        const bool split = p.split;
        const value_type* const s = reinterpret_cast<const value_type*>(data);
        const value_type* const warp_s = s + warp * warp_items;
        const std::int64_t warp_rejected_before = warp * warp_items - warp_before;
        if constexpr (std::is_same_v<OutT, OutF>) {
            // One store loop for both directions (a second copy of it spilled for int8).
            const std::int64_t kept_at =
                mirror ? base + len + before - kept + warp_before : before + warp_before;
            const std::int64_t rejected_at = mirror
                                                 ? p.n - before - (len - kept) + warp_rejected_before
                                                 : base - before + warp_rejected_before;
            if (split)
                store_rounds((mirror ? p.out_false : p.out_true) + kept_at,
                             (mirror ? p.out_true : p.out_false) + rejected_at, len, s);
            else
                store_run(p.out_true + kept_at, warp_kept, warp_s);
        } else {
            if (split)
                store_rounds(p.out_true + (before + warp_before),
                             p.out_false + (base - before + warp_rejected_before), len, s);
            else
                store_run(p.out_true + (before + warp_before), warp_kept, warp_s);
        }
    }

    /// This warp's rounds (split): the kept run of each to out_kept, the rejected run to
    /// out_rejected, both advancing; lane j stores elements j, j + 32, ... of a run.
    template <class OutK, class OutR>
    __device__ __forceinline__ void store_rounds(OutK out_kept, OutR out_rejected, int len,
                                                 const value_type* s) const {
#pragma unroll 1
        for (int r = 0; r < rounds; ++r) {
            const int round_first = warp * warp_items + r * round_items;
            const int valid = len - round_first < round_items ? len - round_first : round_items;
            if (valid <= 0) break;
            const int rk = h.round_counts[warp][r];
            // Lane-offset bases, so that the unrolled accesses below differ by constants.
            const value_type* const src = s + round_first + lane;
            OutK ok = out_kept + lane;
            OutR orj = out_rejected + (lane - rk);
#pragma unroll
            for (int k0 = 0; k0 < round_items; k0 += warp_threads) {
                const int k = k0 + lane;
                if (k < rk) ok[k0] = src[k0];
                else if (k < valid) orj[k0] = src[k0];
            }
            out_kept += rk;
            out_rejected += valid - rk;
        }
    }

    /// This warp's kept elements (not split), packed at src = the warp's slots: count of them to
    /// out, lane j storing elements j, j + 32, ...; 4 x 32 a step, then the rest. The work follows
    /// the kept count, not the tile size, and the warp's output is one run.
    template <class OutK>
    __device__ __forceinline__ void store_run(OutK out, int count, const value_type* src) const {
        constexpr int step = 4 * warp_threads;
        out += lane;
        src += lane;
        int k0 = 0;  // the same in every lane: the loop does not diverge
#pragma unroll 1
        for (; k0 + step <= count; k0 += step) {
            value_type v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) v[u] = src[u * warp_threads];
#pragma unroll
            for (int u = 0; u < 4; ++u) out[u * warp_threads] = v[u];
            out += step;
            src += step;
        }
        const int left = count - k0 - lane;  // from this lane's next element on, < step
#pragma unroll
        for (int u = 0; u < 4; ++u)
            if (u * warp_threads < left) out[u * warp_threads] = src[u * warp_threads];
    }
};

}  // namespace sweep::detail::cuda
