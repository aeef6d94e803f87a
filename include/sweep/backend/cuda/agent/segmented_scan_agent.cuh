// sweep/backend/cuda/agent/segmented_scan_agent.cuh -- GPU backend, agents: one tile of a
// segmented scan.
//
// A block scans one tile of Threads * Items values under the segmented operator (Blelloch 1990;
// Sengupta, Harris, Zhang, Owens 2007): (fa, a) . (fb, b) = fb ? (fb, b) : (fa, a op b).
//   load      values, and the heads as one bit per item (agent/segment_heads.cuh): issued
//             together, 16-byte vectors where the pointers allow
//   thread    scan of the thread's items, restarting at its heads (the init, if any, folded in at
//             each head: exclusive results are the inclusive ones shifted by one)
//   warp      Kogge-Stone over the lanes' (any head, last value); a lane combines a lower lane's
//             value only while that lane is not before the lane's own nearest head (one ballot
//             gives every lane its segment's first lane: the shuffles move values only)
//   block     fold of the warps' aggregates
//   prefix    agent/segmented_prefix.cuh: only tiles whose first element is not a head need it
//   combine   the items before each thread's first head take the prefix of the element before
//             the thread; exclusive output at i is init at a head, else the inclusive value at
//             i - 1
//   store
// The association is fixed by the tile geometry alone; only the prefix service can bring timing
// into it (ordered look-back: none).
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/segment_heads.cuh>
#include <sweep/backend/cuda/agent/tile_io.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/tuning/segmented_tuning.cuh>  // look_behind_of

namespace sweep::detail::cuda {

/// What a launch knows at run time (one kernel serves all of these).
struct segmented_mode {
    bool exclusive = false;     // exclusive scans always have an init
    bool has_init = false;      // fold the init in at every head
    bool in_aligned = false;    // values: a 16-byte aligned pointer (vector loads allowed)
    bool out_aligned = false;   // output: likewise
    bool heads_aligned = false; // keys / flags: likewise
};

template <class Acc, class In, class Out, class Op, class Segs>
struct segmented_params {
    In in;
    Out out;
    std::int64_t n;
    Op op;
    Segs segs;
    reg_array<Acc, 1> init;
    segmented_mode mode;
    // The offsets form (else all null). Checked before the scan (`checked` null): the
    // validation kernel has set `invalid` (nonzero: write nothing) and block 0 copies it to
    // `verdict`. Checked in the scan (`checked` set: dispatch/segmented_scan.cuh): every tile
    // adds what it found to `invalid` and counts itself in `checked`; the last to count copies
    // `invalid` to `verdict`.
    unsigned* invalid;
    const std::int64_t* tile_index;  // block-derived heads (offsets): the index kernel's
                                     // index, tiles + 1 entries (else null)
    std::int64_t* verdict;  // mapped host memory (or null)
    unsigned* checked;      // tiles that have checked their offsets (or null)
};

/// Bits of the offsets' validation word (one per message of detail::validate_offsets, in its
/// order).
enum : unsigned {
    offsets_first_not_zero = 1,
    offsets_decreasing = 2,
    offsets_last_not_n = 4,
};

/// The offsets check's verdict into the mapped host word the host spins on (wait_for_mapped):
/// a volatile store, fenced at system scope so that it leaves for the host at once.
template <class Params>
__device__ __forceinline__ void publish_verdict(const Params& p) {
    *static_cast<volatile std::int64_t*>(p.verdict) =
        static_cast<std::int64_t>(*static_cast<volatile unsigned*>(p.invalid));
    __threadfence_system();
}

/// Whether a form's heads can be found before a tile (segment_heads::behind), and whether a
/// prefix service lets the agent look behind instead of back (segmented_prefix.cuh).
template <class Heads, class Segs>
inline constexpr bool look_behind_heads_v = requires(Heads& h, const Segs& s) {
    h.template behind<1>(s, std::int64_t{}, 0, nullptr, std::int64_t{});
};
template <class Prefix>
inline constexpr bool look_behind_prefix_v = [] {
    if constexpr (requires { Prefix::look_behind_ok; }) return Prefix::look_behind_ok;
    else return false;
}();

template <class Tuning, class Acc, class In, class Out, class Op, class Segs>
struct segmented_scan_agent {
    static constexpr int threads = Tuning::threads;
    static constexpr int items = Tuning::items;
    static constexpr int tile_items = Tuning::tile_items;
    static constexpr int warps = threads / warp_threads;
    using tuning = Tuning;
    static_assert(threads % warp_threads == 0 && warps <= warp_threads);
    static_assert(items <= 64, "the head bits of a thread live in one 64-bit mask");

    using params = segmented_params<Acc, In, Out, Op, Segs>;
    using acc_type = Acc;
    using op_type = Op;
    using heads_t = segment_heads<Segs, items>;
    using mask_t = head_mask_t<items>;
    using in_value = std::remove_cv_t<typename std::iterator_traits<In>::value_type>;
    using out_value = std::conditional_t<std::is_pointer_v<Out>, std::remove_pointer_t<Out>, Acc>;

    // Vector paths: contiguous memory whose per-thread share is whole 16-byte vectors, the warps'
    // slices at most 40 KB together (several blocks an SM).
    static constexpr int io_limit = 40 * 1024;
    static constexpr bool vector_in = std::is_pointer_v<In> && items * sizeof(in_value) % 16 == 0 &&
                                      warps * warp_io_bytes(items, sizeof(in_value)) <= io_limit;
    static constexpr bool vector_out =
        std::is_pointer_v<Out> && items * sizeof(out_value) % 16 == 0 &&
        warps * warp_io_bytes(items, sizeof(out_value)) <= io_limit;
    static constexpr bool vector_heads = heads_t::vector && warps * heads_t::io_bytes <= io_limit;
    static constexpr int chunks_in = vector_in ? static_cast<int>(items * sizeof(in_value) / 16) : 1;
    static constexpr int io_in = vector_in ? warp_io_bytes(items, sizeof(in_value)) : 16;
    static constexpr int io_out = vector_out ? warp_io_bytes(items, sizeof(out_value)) : 16;
    static constexpr int io_heads = vector_heads ? heads_t::io_bytes : 16;
    static constexpr int io_bytes = io_in > io_out ? (io_in > io_heads ? io_in : io_heads)
                                                   : (io_out > io_heads ? io_out : io_heads);
    // Block-derived heads (offsets) set a byte per element in shared memory, in an array of
    // their own (threads x items bytes), so that a mark's byte is its element's place in the
    // tile. (They were in the warps' io slices, whose padding made each mark compute a padded
    // slot: the marking takes most of the offsets kernel's issue slots at one-element segments,
    // ncu, H200, session 11, and the padding cost it 4-12%.) The precompiled kernels, whose form
    // is chosen at run time, carry the array for the keys and flags forms too.
    static constexpr bool block_heads = block_heads_v<heads_t>;
    static constexpr bool per_warp_heads = requires(heads_t& hh, const Segs& sg) {
        hh.read(sg, std::int64_t{}, std::int64_t{}, std::int64_t{}, 0);
    };
    static_assert(block_heads || per_warp_heads);
    static constexpr int flag_bytes = block_heads ? threads * items : 16;

    // The look-behind (tuning/segmented_tuning.cuh): elements before the tile searched for a head.
    static constexpr int look_behind = look_behind_of<Tuning>;
    static_assert(look_behind % warp_threads == 0 && look_behind <= warp_threads * warp_threads &&
                  look_behind <= tile_items / 2);
    template <class Prefix>
    static constexpr bool look_behind_for() {
        return look_behind_heads_v<heads_t, Segs> && look_behind_prefix_v<Prefix>;
    }

    struct shared_storage {
        alignas(16) unsigned char io[warps][io_bytes];
        alignas(16) unsigned char flags[flag_bytes];  // unused unless block_heads
        smem_array<Acc, warps> warp_values;
        smem_array<Acc, 1> tile_prefix;
        bool warp_has_head[warps];
        bool first_is_head;  // the tile's first element starts a segment
        smem_array<Acc, 1> behind;  // the look-behind's prefix, if behind_found
        bool behind_found;
        std::int64_t tile;
    };
    static_assert(sizeof(shared_storage) <= 48 * 1024,
                  "a block's static shared memory is at most 48 KiB (the io slices are bounded by "
                  "io_limit, the flags by threads x items)");

    const params& p;
    shared_storage& smem;
    Op op;
    int tid, lane, warp;

    __device__ segmented_scan_agent(const params& p_, shared_storage& s)
        : p(p_), smem(s), op(p_.op), tid(threadIdx.x), lane(threadIdx.x % warp_threads),
          warp(threadIdx.x / warp_threads) {}

    /// Warp 0: the look-behind of tile `tile` (> 0). Reads the look_behind elements before the
    /// tile, striped (step st, lane l: element lo + 32 st + l), finds the last head among them and
    /// reduces from it to base - 1, in order (the init folded in at the head), into
    /// smem.behind; smem.behind_found says whether there was a head.
    __device__ void look_behind_prefix(std::int64_t tile, std::int64_t base, const Acc& init,
                                       bool fold_init) {
        constexpr int steps = look_behind / warp_threads;
        const std::int64_t lo = base - look_behind;  // > 0: look_behind <= tile_items / 2
        reg_array<Acc, steps> v;
#pragma unroll
        for (int st = 0; st < steps; ++st)
            v[st] = static_cast<Acc>(p.in[lo + std::int64_t{warp_threads} * st + lane]);
        heads_t heads;
        const std::uint32_t hb =
            heads.template behind<steps>(p.segs, lo, lane, p.tile_index, tile);
        int hs = -1, hl = 0;  // the last head: step hs, lane hl (uniform)
#pragma unroll
        for (int st = steps - 1; st >= 0; --st) {
            const unsigned b = __ballot_sync(full_mask, (hb >> st) & 1u);
            if (hs < 0 && b != 0) {
                hs = st;
                hl = warp_threads - 1 - __clz(b);
            }
        }
        maybe<Acc> acc;
#pragma unroll
        for (int st = 0; st < steps; ++st) {
            if (st < hs) continue;  // uniform; hs < 0 skips every step
            // The step's valid elements (from the head on) are a suffix of the lanes; an ordered
            // tree reduction into lane 0 (a lane combines its block with the next block).
            bool valid = st > hs || lane >= hl;
            reg_array<Acc, 1> x;
            x[0] = v[st];
            if (fold_init && st == hs && lane == hl) x[0] = static_cast<Acc>(op(init, x[0]));
#pragma unroll
            for (int d = 1; d < warp_threads; d *= 2) {
                const Acc y = shfl_down(x[0], d);
                const bool y_valid = __shfl_down_sync(full_mask, valid, d) != 0;
                if (lane + d < warp_threads && y_valid) {
                    x[0] = valid ? static_cast<Acc>(op(x[0], y)) : y;
                    valid = true;
                }
            }
            acc = maybe<Acc>(combine(acc, x[0], op));  // lane 0's x: the step's reduction
        }
        if (lane == 0) {
            smem.behind_found = hs >= 0;
            if (hs >= 0) smem.behind.set(0, acc.get());
        }
    }

    /// Scans tile `tile`. Prefix: a callable (tile, has_head, aggregate, need) -> maybe<Acc>
    /// (agent/segmented_prefix.cuh), called by all threads after the warp aggregates are in shared
    /// memory.
    template <class Prefix>
    __device__ void run_tile(std::int64_t tile, Prefix& prefix) {
        const std::int64_t base = tile * tile_items;
        const std::int64_t n = p.n;
        const bool full = n - base >= tile_items;
        const std::int64_t warp_first = base + std::int64_t{warp} * warp_threads * items;
        const std::int64_t mine = base + std::int64_t{tid} * items;  // my first item
        unsigned char* slice = smem.io[warp];
        reg_array<Acc, items> x;
        mask_t h = 0;
        unsigned check_ticket = 0;  // tid 0 of a checking tile: its place in the check count

        // ---- load: values and head bits, all global loads issued before the first is used -----
        const bool vec_in = vector_in && full && p.mode.in_aligned;
        const bool vec_heads = vector_heads && full && p.mode.heads_aligned;
        uint4 raw_in[chunks_in];
        if constexpr (vector_in) {
            if (vec_in) fetch_striped(p.in + warp_first, lane, raw_in);
        }
        heads_t heads;
        bool by_block = false;
        if constexpr (block_heads) {
            if (heads_t::uses_block(p.segs)) {  // uniform over the grid
                const bool check = p.checked != nullptr;  // uniform over the grid
                bool bad = false;
                h = heads.template block_read<threads>(p.segs, p.tile_index, tile, base, n, mine,
                                                       smem.flags, check, bad);
                by_block = true;
                if (check && tid == 0) {
                    // What this tile found (fenced before its count: a tile that found nothing
                    // has nothing to order), then the count. The count's result is read only
                    // after the tile's store (finish_check), so its round trip overlaps the
                    // scan; the tile that completes the count reads every tile's findings and
                    // tells the host.
                    if (bad) {
                        atomicOr(p.invalid, offsets_decreasing);
                        __threadfence();
                    }
                    check_ticket = atomicAdd(p.checked, 1u) + 1u;
                }
            }
        }
        if constexpr (per_warp_heads) {
            if (by_block) {
            } else if (vec_heads) {
                heads.fetch(p.segs, warp_first, lane);
                h = heads.finish(p.segs, mine, slice, lane);
            } else {
                h = heads.read(p.segs, warp_first, mine, n, lane);
            }
        }
        bool loaded = false;
        if constexpr (vector_in) {
            if (vec_in) {
                striped_to_blocked(raw_in, slice, lane);
                reg_array<in_value, items> v;
                std::memcpy(&v, raw_in, sizeof(v));
#pragma unroll
                for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(v[i]);
                loaded = true;
            }
        }
        if (loaded) {
        } else if (full) {
#pragma unroll
            for (int i = 0; i < items; ++i) x[i] = static_cast<Acc>(p.in[mine + i]);
        } else {
            // Partial (last) tile: slots past the end are heads holding a copy of a real value,
            // so the operator only sees values of the input (their results are not stored).
            const Acc filler = static_cast<Acc>(p.in[base]);
#pragma unroll
            for (int i = 0; i < items; ++i)
                x[i] = mine + i < n ? static_cast<Acc>(p.in[mine + i]) : filler;
        }

        // ---- scan within the thread, restarting at heads --------------------------------------
        const bool fold_init = p.mode.exclusive || p.mode.has_init;
        const Acc init = p.init[0];
#pragma unroll
        for (int i = 0; i < items; ++i) {
            if (h & head_bit<items>(i)) {
                if (fold_init) x[i] = static_cast<Acc>(op(init, x[i]));
            } else if (i > 0) {
                x[i] = static_cast<Acc>(op(x[i - 1], x[i]));
            }
        }

        // ---- scan across the warp, then across the warps ----------------------------------------
        const unsigned lanes_with_head = __ballot_sync(full_mask, h != 0);
        const unsigned upto_me = lanes_with_head & (full_mask >> (warp_threads - 1 - lane));
        const int seg_lane = upto_me != 0 ? warp_threads - 1 - __clz(upto_me) : 0;
        Acc v = x[items - 1];
#pragma unroll
        for (int d = 1; d < warp_threads; d *= 2) {
            const Acc y = shfl_up(v, d);
            if (lane - d >= seg_lane) v = static_cast<Acc>(op(y, v));
        }
        const Acc lane_excl = shfl_up(v, 1);  // meaningless on lane 0
        const bool lane_excl_head = (lanes_with_head & ((1u << lane) - 1u)) != 0;
        if (lane == warp_threads - 1) {
            smem.warp_values.set(warp, v);
            smem.warp_has_head[warp] = lanes_with_head != 0;
        }
        if (tid == 0) smem.first_is_head = (h & 1) != 0;
        __syncthreads();

        unsigned warp_heads = 0;  // bit w: warp w holds a head
#pragma unroll
        for (int w = 0; w < warps; ++w) warp_heads |= smem.warp_has_head[w] ? 1u << w : 0u;
        bool warp_excl_has = false, warp_excl_head = false;
        reg_array<Acc, 1> warp_excl, aggregate;
        aggregate[0] = smem.warp_values.get(0);
        for (int w = 1; w < warps; ++w) {
            if (w == warp) {
                warp_excl_has = true;
                warp_excl_head = (warp_heads & ((1u << w) - 1u)) != 0;
                warp_excl[0] = aggregate[0];
            }
            const Acc wv = smem.warp_values.get(w);
            aggregate[0] = (warp_heads >> w) & 1u ? wv : static_cast<Acc>(op(aggregate[0], wv));
        }

        // ---- the tile's prefix ------------------------------------------------------------------
        bool need = !smem.first_is_head;
        maybe<Acc> behind;  // the prefix found by the look-behind (uniform)
        if constexpr (look_behind > 0 && look_behind_for<Prefix>()) {
            // A tile with a head that does not start with one: its prefix is the inclusive value of
            // element base - 1, i.e. the reduction from the last head before the tile, which is
            // often among the look_behind elements before it. Found there, the tile publishes P
            // and never waits for its predecessor.
            if (need && warp_heads != 0) {  // uniform (shared memory); tile > 0
                if (warp == 0) look_behind_prefix(tile, base, init, fold_init);
                __syncthreads();
                if (smem.behind_found) {
                    need = false;
                    behind = maybe<Acc>(smem.behind.get(0));
                }
            }
        }
        maybe<Acc> tile_excl = prefix(tile, warp_heads != 0, aggregate[0], need);
        if constexpr (look_behind > 0) {
            if (behind.has) tile_excl = behind;
        }

        // ---- combine: the inclusive value of the element before my first item -------------------
        // (before-me pair) = warp_excl . lane_excl under the segmented operator; if no head lies
        // before me in the tile, the tile's prefix goes in front.
        bool before_has = warp_excl_has, before_head = warp_excl_head;
        reg_array<Acc, 1> before;
        if (warp_excl_has) before[0] = warp_excl[0];
        if (lane != 0) {
            if (!before_has || lane_excl_head) before[0] = lane_excl;
            else before[0] = static_cast<Acc>(op(before[0], lane_excl));
            before_has = true;
            before_head = before_head || lane_excl_head;
        }
        maybe<Acc> run;
        if (before_has && before_head) run = maybe<Acc>(before[0]);
        else if (before_has) run = maybe<Acc>(combine(tile_excl, before[0], op));
        else run = tile_excl;

        // Items before my first head continue the segment open before me.
        if (run.has) {
#pragma unroll
            for (int i = 0; i < items; ++i) {
                if (h & (head_bit<items>(i) | (head_bit<items>(i) - 1))) break;
                x[i] = static_cast<Acc>(op(run.get(), x[i]));
            }
        }
        if (p.mode.exclusive) {
#pragma unroll
            for (int i = items - 1; i > 0; --i) x[i] = (h & head_bit<items>(i)) ? init : x[i - 1];
            if (h & 1) x[0] = init;
            else x[0] = run.get();  // not a head: element mine - 1 exists and run holds its value
        }

        // ---- store ------------------------------------------------------------------------------
        if constexpr (vector_out) {
            if (full && p.mode.out_aligned) {
                reg_array<out_value, items> o;
#pragma unroll
                for (int i = 0; i < items; ++i) o[i] = x[i];
                store_warp_blocked<items>(p.out + warp_first, slice, lane, o);
                finish_check(check_ticket);
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < items; ++i)
            if (full || mine + i < n) p.out[mine + i] = x[i];
        finish_check(check_ticket);
    }

    /// The tile whose count completed the check (ticket == tiles, tid 0 only) reads every tile's
    /// findings and publishes the verdict to the host.
    __device__ void finish_check(unsigned ticket) const {
        if (ticket != 0 && p.verdict != nullptr &&
            std::int64_t{ticket} == (p.n + tile_items - 1) / tile_items) {
            __threadfence();
            publish_verdict(p);
        }
    }
};

}  // namespace sweep::detail::cuda
