// sweep/backend/cuda/agent/segment_heads.cuh -- GPU backend, agents: a thread's segment heads,
// derived in the load from each segment form. No head array ever goes through global memory.
//
// A thread holds Items consecutive elements [mine, mine + Items) and gets their heads as a bit
// mask (bit i: element mine + i starts a segment). Elements at or past n count as heads, so the
// padding of a partial tile never joins a real segment.
//   keys     bit i = !key_eq(keys[mine + i - 1], keys[mine + i]); the key before a lane's first
//            is the previous lane's last (a shuffle), before a warp's first one scalar load.
//   flags    bit i = flags[mine + i] != 0.
//   offsets  element p is a head iff some o[j] == p. The whole block derives the tile's heads
//            together (block_read): the validation kernel has written, per tile t, the first
//            offset index j with o[j] >= t * tile_items (the tile index); the block reads the
//            offsets [index[t], index[t + 1]) -- exactly those that fall in the tile, coalesced,
//            about once over the grid -- and sets a byte per element in shared memory; each
//            thread then reads its Items bytes as bits. Empty segments (o[j] == o[j + 1]): only
//            the first of a run marks; a run costs its reads, nothing else. Offsets must be
//            validated (0 = o[0] <= ... <= o[k] = n) before: every read is then in bounds.
//            (This replaced a per-warp derivation without the index -- a 32-way search from every
//            warp, then a gallop along the offsets from every lane, several dependent loads per
//            head -- which measured 1.1-6.9x the by-key time on the H200.)
// Keys and flags given as 16-byte-aligned pointers of a full tile load as whole 16-byte vectors
// (fetch: issue the loads; finish: transpose through the warp's shared-memory slice and compare),
// so that the agent can issue the values' loads in between.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include <sweep/backend/cuda/agent/tile_io.cuh>
#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/detail/segments.hpp>

namespace sweep::detail::cuda {

template <int Items>
using head_mask_t = std::conditional_t<(Items <= 32), std::uint32_t, std::uint64_t>;

template <int Items>
__device__ __forceinline__ head_mask_t<Items> head_bit(int i) {
    return head_mask_t<Items>(1) << i;
}

/// Lane's 16-byte chunks of a warp's contiguous segment, striped (lane l: chunks l, l + 32, ...).
template <int Chunks>
__device__ __forceinline__ void fetch_striped(const void* seg, int lane, uint4 (&r)[Chunks]) {
    const uint4* g = static_cast<const uint4*>(seg);
#pragma unroll
    for (int j = 0; j < Chunks; ++j) r[j] = g[j * warp_threads + lane];
}

/// Turns striped chunks into the lane's blocked ones through the warp's shared-memory slice
/// (padded as in tile_io.cuh: conflict-free both ways).
template <int Chunks>
__device__ __forceinline__ void striped_to_blocked(uint4 (&r)[Chunks], unsigned char* smem,
                                                   int lane) {
    uint4* s = reinterpret_cast<uint4*>(smem);
    __syncwarp();  // the slice's previous readers are done
#pragma unroll
    for (int j = 0; j < Chunks; ++j) s[padded_chunk(j * warp_threads + lane)] = r[j];
    __syncwarp();
#pragma unroll
    for (int j = 0; j < Chunks; ++j) r[j] = s[padded_chunk(lane * Chunks + j)];
}

template <class Segs, int Items>
struct segment_heads;

/// Whether a form's heads may be derived by the whole block (block_read, with the tile index and
/// the agent's shared-memory flags array) rather than per warp (fetch/finish or read); if so,
/// uses_block(segs) says whether they are (the precompiled kernels' forms decide at run time).
template <class Heads>
inline constexpr bool block_heads_v = [] {
    if constexpr (requires { Heads::block; }) return Heads::block;
    else return false;
}();

// ---- keys ----------------------------------------------------------------------------------

template <class KeyIt, class KeyEq, int Items>
struct segment_heads<key_heads<KeyIt, KeyEq>, Items> {
    using segs_t = key_heads<KeyIt, KeyEq>;
    using key_t = std::remove_cv_t<typename std::iterator_traits<KeyIt>::value_type>;
    using mask_t = head_mask_t<Items>;
    static constexpr bool vector = std::is_pointer_v<KeyIt> && Items * sizeof(key_t) % 16 == 0;
    static constexpr int chunks = vector ? static_cast<int>(Items * sizeof(key_t) / 16) : 1;
    static constexpr int io_bytes = vector ? warp_io_bytes(Items, sizeof(key_t)) : 16;

    uint4 r[chunks];
    reg_array<key_t, 1> before;  // lane 0: the key before the warp's first

    __device__ void fetch(const segs_t& s, std::int64_t warp_first, int lane) {
        if constexpr (vector) {
            fetch_striped(s.keys + warp_first, lane, r);
            if (lane == 0 && warp_first > 0) before[0] = s.keys[warp_first - 1];
        }
    }

    __device__ mask_t finish(const segs_t& s, std::int64_t mine, unsigned char* slice, int lane) {
        mask_t m = 0;
        if constexpr (vector) {
            striped_to_blocked(r, slice, lane);
            reg_array<key_t, Items> k;
            std::memcpy(&k, r, sizeof(k));
            key_t prev = shfl_up(k[Items - 1], 1);
            if (lane == 0) prev = before[0];  // unused for element 0 (a head anyway)
#pragma unroll
            for (int i = 0; i < Items; ++i)
                if (!s.key_eq(i == 0 ? prev : k[i - 1], k[i])) m |= head_bit<Items>(i);
            if (mine == 0) m |= 1;
        }
        return m;
    }

    __device__ mask_t read(const segs_t& s, std::int64_t, std::int64_t mine, std::int64_t n,
                           int) {
        mask_t m = 0;
        if (mine >= n) return ~mask_t(0);
        reg_array<key_t, 1> prev;
        if (mine > 0) prev[0] = s.keys[mine - 1];
#pragma unroll
        for (int i = 0; i < Items; ++i) {
            const std::int64_t pos = mine + i;
            if (pos >= n) {
                m |= head_bit<Items>(i);
                continue;
            }
            reg_array<key_t, 1> k;
            k[0] = s.keys[pos];
            if (pos == 0 || !s.key_eq(prev[0], k[0])) m |= head_bit<Items>(i);
            prev[0] = k[0];
        }
        return m;
    }

    /// Look-behind (segmented_scan_agent): which of the 32 * Steps elements [lo, lo + 32 Steps),
    /// lo > 0, are heads, striped: bit s of lane l's result is element lo + 32 s + l. One warp.
    template <int Steps>
    __device__ std::uint32_t behind(const segs_t& s, std::int64_t lo, int lane,
                                    const std::int64_t*, std::int64_t) {
        reg_array<key_t, Steps> k;
        reg_array<key_t, 1> before;
#pragma unroll
        for (int st = 0; st < Steps; ++st) k[st] = s.keys[lo + warp_threads * st + lane];
        if (lane == 0) before[0] = s.keys[lo - 1];
        std::uint32_t m = 0;
#pragma unroll
        for (int st = 0; st < Steps; ++st) {
            key_t prev = shfl_up(k[st], 1);
            if (st > 0) {
                const key_t last = shfl_idx(k[st - 1], warp_threads - 1);
                if (lane == 0) prev = last;
            } else if (lane == 0) {
                prev = before[0];
            }
            if (!s.key_eq(prev, k[st])) m |= 1u << st;
        }
        return m;
    }
};

// ---- head flags ----------------------------------------------------------------------------

template <class FlagIt, int Items>
struct segment_heads<flag_heads<FlagIt>, Items> {
    using segs_t = flag_heads<FlagIt>;
    using flag_t = std::remove_cv_t<typename std::iterator_traits<FlagIt>::value_type>;
    using mask_t = head_mask_t<Items>;
    static constexpr bool vector = std::is_pointer_v<FlagIt> && Items * sizeof(flag_t) % 16 == 0;
    static constexpr int chunks = vector ? static_cast<int>(Items * sizeof(flag_t) / 16) : 1;
    static constexpr int io_bytes = vector ? warp_io_bytes(Items, sizeof(flag_t)) : 16;

    uint4 r[chunks];

    __device__ void fetch(const segs_t& s, std::int64_t warp_first, int lane) {
        if constexpr (vector) fetch_striped(s.flags + warp_first, lane, r);
    }

    __device__ mask_t finish(const segs_t&, std::int64_t mine, unsigned char* slice, int lane) {
        mask_t m = 0;
        if constexpr (vector) {
            striped_to_blocked(r, slice, lane);
            reg_array<flag_t, Items> f;
            std::memcpy(&f, r, sizeof(f));
#pragma unroll
            for (int i = 0; i < Items; ++i)
                if (f[i] != 0) m |= head_bit<Items>(i);
            if (mine == 0) m |= 1;
        }
        return m;
    }

    __device__ mask_t read(const segs_t& s, std::int64_t, std::int64_t mine, std::int64_t n,
                           int) {
        mask_t m = 0;
#pragma unroll
        for (int i = 0; i < Items; ++i) {
            const std::int64_t pos = mine + i;
            if (pos >= n || pos == 0 || s.flags[pos] != 0) m |= head_bit<Items>(i);
        }
        return m;
    }

    /// Look-behind: as key_heads::behind.
    template <int Steps>
    __device__ std::uint32_t behind(const segs_t& s, std::int64_t lo, int lane,
                                    const std::int64_t*, std::int64_t) {
        std::uint32_t m = 0;
#pragma unroll
        for (int st = 0; st < Steps; ++st)
            if (s.flags[lo + warp_threads * st + lane] != 0) m |= 1u << st;
        return m;
    }
};

// ---- offsets -------------------------------------------------------------------------------

/// Whether k + 1 = `count` offsets over n elements are dense: segments of 16 elements or fewer
/// on average, so that reading the offsets costs about what the scan's own read of the values
/// does. Dense offsets out of place are checked by the scan's tiles (dispatch/segmented_scan.cuh)
/// and their tile index search starts from an interpolated guess (validate_offsets_kernel).
__host__ __device__ constexpr bool dense_offsets(std::int64_t count, std::int64_t n) {
    return n > 0 && count * 16 >= n;
}

/// The first j with o[j] >= t (count >= 1; for nondecreasing offsets with o[count - 1] >= t), found
/// by a group of G lanes together (G a power of 2 up to 32; the groups are aligned lane ranges,
/// all G lanes call with the same t): each step probes G evenly spaced points of the remaining
/// range and keeps the gap where the answer lies, so about log_(G+1)(count) dependent loads (G = 1:
/// binary search). Every read lies in [0, count) and the result too, whatever the offsets hold.
///
/// `guess` (in [0, count), or -1: none): where the answer is likely (dense offsets: t's share of
/// count). The first step then probes the W = max(G, 8) consecutive offsets around it (8 / G a
/// lane, loaded together): for offsets near-linear in j (one-element segments) that finds the
/// answer with one round trip, else it still narrows the range from one side.
template <int G, class OffIt>
__device__ std::int64_t group_lower_bound(OffIt o, std::int64_t count, std::int64_t t, int lane,
                                          std::int64_t guess = -1) {
    static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0);
    const int r = lane % G;          // my rank in the group
    const int first_lane = lane - r;
    unsigned mask = full_mask;
    if constexpr (G < 32) mask = ((1u << G) - 1u) << first_lane;
    std::int64_t lo = 0, hi = count - 1;  // the answer lies in [lo, hi]; o[hi] >= t
    constexpr int M = G >= 8 ? 1 : 8 / G;  // window positions a lane
    constexpr int W = G * M;
    if (guess >= 0 && hi - lo >= W) {
        std::int64_t w = guess - W / 2;  // the window [w, w + W) inside [lo, hi)
        w = w < lo ? lo : (w > hi - W ? hi - W : w);
        unsigned bits = 0;  // bit i: o[w + r M + i] >= t
#pragma unroll
        for (int i = 0; i < M; ++i)
            if (static_cast<std::int64_t>(o[w + r * M + i]) >= t) bits |= 1u << i;
        const unsigned ge = (__ballot_sync(mask, bits != 0) & mask) >> first_lane;
        if (ge == 0) {
            lo = w + W;
        } else {
            const int f = __ffs(ge) - 1;  // the first lane with one
            const unsigned fb = __shfl_sync(mask, bits, first_lane + f);
            const int at = f * M + __ffs(fb) - 1;
            if (at > 0) return w + at;  // o[w + at - 1] < t <= o[w + at]
            hi = w;
        }
    }
    while (hi - lo >= G) {
        // Probes strictly increase with the rank (hi - lo >= G) and lie in [lo, hi).
        auto probe = [&](int l) { return lo + (hi - lo) * (l + 1) / (G + 1); };
        const unsigned ge =
            (__ballot_sync(mask, static_cast<std::int64_t>(o[probe(r)]) >= t) & mask) >>
            first_lane;
        if (ge == 0) {
            lo = probe(G - 1) + 1;
        } else {
            const int f = __ffs(ge) - 1;
            const std::int64_t new_lo = f == 0 ? lo : probe(f - 1) + 1;
            hi = probe(f);
            lo = new_lo;
        }
    }
    // hi - lo < G: the group's ranks cover [lo, hi].
    const std::int64_t q = lo + r;
    const unsigned ge =
        (__ballot_sync(mask, q <= hi && static_cast<std::int64_t>(o[q]) >= t) & mask) >>
        first_lane;
    return ge != 0 ? lo + (__ffs(ge) - 1) : hi;  // ge == 0 only for invalid offsets
}

template <class OffIt, int Items>
struct segment_heads<offset_segments<OffIt>, Items> {
    using segs_t = offset_segments<OffIt>;
    using mask_t = head_mask_t<Items>;
    using off_value = typename std::iterator_traits<OffIt>::value_type;
    static constexpr bool vector = false;
    static constexpr bool block = true;
    static constexpr int io_bytes = 16;
    // Raw pointers to 4- and 8-byte integers are read as 16-byte vectors when aligned (V offsets
    // a load): a tile of one-element segments holds as many offsets as elements, and scalar
    // loads, a few in flight a thread, left its read latency-bound (H200, int32 2^24: 1.8x the
    // by-key time).
    static constexpr bool vector_offsets =
        std::is_pointer_v<OffIt> && std::is_integral_v<off_value> &&
        (sizeof(off_value) == 4 || sizeof(off_value) == 8);
    __device__ static bool uses_block(const segs_t&) { return true; }

    /// Look-behind: as key_heads::behind, but only the last head before the tile is marked (the
    /// only one the look-behind uses): o[index[tile] - 1], the last offset below the tile's first
    /// element (index[tile] >= 1 for tile >= 1 and valid offsets, as o[0] = 0; offsets checked
    /// in the scan kernel may be invalid: then none).
    template <int Steps>
    __device__ std::uint32_t behind(const segs_t& s, std::int64_t lo, int lane,
                                    const std::int64_t* index, std::int64_t tile) {
        const std::int64_t j = index[tile];
        if (j < 1) return 0u;
        const std::int64_t h = static_cast<std::int64_t>(s.first[j - 1]);
        const std::int64_t d = h - lo - lane;  // element lo + 32 s + lane == h
        return d >= 0 && d % warp_threads == 0 && d / warp_threads < Steps
                   ? 1u << static_cast<int>(d / warp_threads)
                   : 0u;
    }

    /// Offset o[j] (value v, the one before it `prev` when has_prev) of a tile of `limit`
    /// elements from `base`: marks its element if it starts a run (a run of equal offsets, i.e.
    /// empty segments, is marked by its first entry only, so every byte has one writer) and
    /// returns whether it breaks the order (outside the tile, or below the one before). T: the
    /// arithmetic's type (the offsets' own on the vector path, int64 on the scalar one).
    template <class T>
    __device__ static bool mark(T v, T prev, bool has_prev, std::int64_t base, std::int64_t limit,
                                unsigned char* flags) {
        using UT = std::make_unsigned_t<T>;
        const UT q = static_cast<UT>(static_cast<UT>(v) - static_cast<UT>(base));
        const bool inside = static_cast<std::uint64_t>(q) < static_cast<std::uint64_t>(limit);
        if (inside && !(has_prev && v == prev)) flags[static_cast<int>(q)] = 1;
        return !inside || (has_prev && v < prev);
    }

    /// The heads of tile `tile` ([base, base + Threads * Items)), called by every thread of the
    /// block (it synchronizes the block twice). `index`: the tile index (tiles + 1 entries,
    /// dispatch/segmented_scan.cuh); `flags`: a byte per element of the tile (element e at
    /// flags[e], warp w's at flags + w * 32 * Items), 16-byte aligned, which nothing else uses
    /// (the agent's flags array).
    ///
    /// `bad` (the same in every thread): whether the offsets this tile read break "nondecreasing
    /// from 0 to n". With `check`, the tile also reads its share of the tail [index[tiles],
    /// count) (offsets that must all be n): the tiles together then read every offset once, and
    /// offsets are valid iff o[0] == 0, o[count - 1] == n and no tile is bad (proof in
    /// docs/segmented_scan.md). Whatever the offsets hold, every read stays in [0, count) and
    /// every mark in the tile; the tile's first element of the input is always a head (so the
    /// look-back always finds a tile 0 that publishes its prefix).
    template <int Threads>
    __device__ mask_t block_read(const segs_t& s, const std::int64_t* index, std::int64_t tile,
                                 std::int64_t base, std::int64_t n, std::int64_t mine,
                                 unsigned char* flags, bool check, bool& bad) {
        constexpr int warp_span = warp_threads * Items;  // a warp's elements (bytes of its flags)
        constexpr int tile_items = Threads * Items;
        const int tid = static_cast<int>(threadIdx.x);
        const int lane = tid % warp_threads;
        unsigned char* own = flags + (tid / warp_threads) * warp_span;
        const std::int64_t count = static_cast<std::int64_t>(s.last - s.first);
        const std::int64_t tiles = (n + tile_items - 1) / tile_items;
        // The loads are issued before the block waits: all threads read the same words.
        const std::int64_t j0 = index[tile];
        const std::int64_t j1 = index[tile + 1];
        const std::int64_t jt = check ? index[tiles] : count;
        auto* z = reinterpret_cast<std::uint32_t*>(own);
#pragma unroll
        for (int i = lane; i < warp_span / 4; i += warp_threads) z[i] = 0;
        __syncthreads();
        const std::int64_t limit = n - base < tile_items ? n - base : tile_items;
        bool wrong = j1 < j0;
        const OffIt o = s.first;
        bool vectors = false;
        if constexpr (vector_offsets) {
            vectors = reinterpret_cast<std::uintptr_t>(o) % 16 == 0;  // uniform
        }
        if (vectors) {
            if constexpr (vector_offsets) {
                // Whole vectors over [j0, j1), U a thread in flight (int32: 2048 offsets a block
                // a round, a tile of 128 x 16 one-element segments in one). A warp takes U * 32
                // consecutive vectors a round, lane l the l-th of each 32, so that the offset
                // before a vector's first is the last of the lane before (of lane 31 the step
                // before, for lane 0), loaded only by lane 0 at the warp's first step. The
                // arithmetic is the offsets' own (32-bit for 4-byte offsets, which cannot
                // describe n >= 2^32 validly; the index kernel rejects o[count - 1] != n).
                constexpr int V = 16 / static_cast<int>(sizeof(off_value));
                constexpr int U = 4;
                constexpr int warp_vectors = U * warp_threads;
                const auto* ov = reinterpret_cast<const uint4*>(o);
                const std::int64_t vfirst = j0 / V;
                const std::int64_t vend = (j1 + V - 1) / V;
                const std::int64_t vfull = count / V;  // vectors wholly inside [0, count)
                const int w = tid / warp_threads;
                for (std::int64_t vb = vfirst + std::int64_t{w} * warp_vectors; vb < vend;
                     vb += std::int64_t{Threads} / warp_threads * warp_vectors) {  // warp-uniform
                    uint4 raw[U];
#pragma unroll
                    for (int u = 0; u < U; ++u) {
                        const std::int64_t vi = vb + u * warp_threads + lane;
                        raw[u] = uint4{0, 0, 0, 0};
                        if (vi < vfull && vi < vend) {
                            raw[u] = ov[vi];
                        } else if (vi < vend) {  // the last offsets: no read past o[count - 1]
                            off_value part[V] = {};
#pragma unroll
                            for (int i = 0; i < V; ++i)
                                if (vi * V + i < count) part[i] = o[vi * V + i];
                            std::memcpy(&raw[u], part, sizeof(part));
                        }
                    }
                    off_value carry = lane == 0 && vb * V > j0 ? o[vb * V - 1] : off_value{};
#pragma unroll
                    for (int u = 0; u < U; ++u) {
                        const std::int64_t vi = vb + u * warp_threads + lane;
                        off_value e[V];
                        std::memcpy(e, &raw[u], sizeof(e));
                        const off_value from_left = __shfl_up_sync(full_mask, e[V - 1], 1);
                        const off_value from_last = __shfl_sync(full_mask, e[V - 1], warp_threads - 1);
                        off_value prev = lane == 0 ? carry : from_left;
                        carry = from_last;  // lane 0's next step follows lane 31's vector
                        const std::int64_t first = vi * V;
                        if (vi < vend && first >= j0 && first + V <= j1) {
                            // The whole vector lies in [j0, j1) (all but a round's ends): one
                            // check for its V offsets, then the marks. (The kernel is
                            // issue-bound at one-element segments: ncu, H200, session 11.)
                            using UT = std::make_unsigned_t<off_value>;
                            const UT b = static_cast<UT>(base);
                            const UT ulimit = static_cast<UT>(limit);
                            const bool has_prev = first > j0;  // offset j0 has none
                            UT q[V];
                            bool ok = !has_prev || prev <= e[0];
#pragma unroll
                            for (int i = 0; i < V; ++i) {
                                q[i] = static_cast<UT>(static_cast<UT>(e[i]) - b);
                                ok &= q[i] < ulimit;
                                if (i > 0) ok &= e[i - 1] <= e[i];
                            }
                            wrong |= !ok;
                            if (ok) {  // every q[i] is inside the tile
#pragma unroll
                                for (int i = 0; i < V; ++i) {
                                    if (i == 0 ? !has_prev || e[0] != prev : e[i] != e[i - 1]) {
                                        const int at = static_cast<int>(q[i]);
                                        flags[at] = 1;
                                    }
                                }
                            }
                            continue;
                        }
                        // The elements of [j0, j1) in this vector: [lo, hi) of its V.
                        const int lo = first >= j0 ? 0 : static_cast<int>(j0 - first);
                        const int hi = vi >= vend ? 0
                                       : j1 - first >= V ? V
                                                         : static_cast<int>(j1 - first);
#pragma unroll
                        for (int i = 0; i < V; ++i) {
                            const off_value v = e[i];
                            if (i >= lo && i < hi)
                                wrong |= mark(v, prev, first + i > j0, base, limit, flags);
                            prev = v;
                        }
                    }
                }
            }
        } else {
            // Scalar loads, `batch` a thread in flight: more for long threads (a tile of
            // one-element segments holds Items offsets a thread), 4 otherwise (ptxas sm_90: 8
            // took int32 128 x 16 from 56 to 70 registers, int8 128 x 64 stayed at 96). o[j - 1]
            // comes from the lane before (lane 0 loads it).
            constexpr int batch = Items >= 32 ? 8 : 4;
            for (std::int64_t b = j0; b < j1; b += batch * Threads) {  // uniform over the block
                std::int64_t v[batch], r[batch];
#pragma unroll
                for (int u = 0; u < batch; ++u) {
                    const std::int64_t jj = b + std::int64_t{u} * Threads + tid;
                    v[u] = jj < j1 ? static_cast<std::int64_t>(o[jj]) : 0;
                    r[u] = lane == 0 && jj > j0 && jj < j1 ? static_cast<std::int64_t>(o[jj - 1])
                                                          : 0;
                }
#pragma unroll
                for (int u = 0; u < batch; ++u) {
                    const std::int64_t jj = b + std::int64_t{u} * Threads + tid;
                    const std::int64_t before = __shfl_up_sync(full_mask, static_cast<long long>(v[u]), 1);
                    if (lane != 0) r[u] = before;  // lane - 1 holds o[jj - 1] (jj - 1 >= j0)
                    if (jj < j1)
                        wrong |= mark(v[u], r[u], jj > j0, base, limit, flags);
                }
            }
        }
        if (check && jt < count) {
            // This tile's share of the tail: offsets that must all be n (trailing empty
            // segments and o[count - 1]); spread over the tiles so that a long tail costs no
            // single block much.
            const std::int64_t share = (count - jt + tiles - 1) / tiles;
            const std::int64_t lo = jt + tile * share;
            const std::int64_t hi = lo + share < count ? lo + share : count;
            for (std::int64_t j = lo + tid; j < hi; j += Threads)
                wrong |= static_cast<std::int64_t>(o[j]) != n;
        }
        bad = __syncthreads_or(wrong) != 0;
        // My Items bytes (0 or 1) as bits: 4 bytes b0..b3 of a word w give b0 | b1 << 1 | b2 << 2
        // | b3 << 3 = (w * 0x10204080) >> 28 (the partial products never overlap: no carries).
        const unsigned char* f = own + lane * Items;
        mask_t m = 0;
        if constexpr (Items % 16 == 0) {
#pragma unroll
            for (int c = 0; c < Items / 16; ++c) {
                const uint4 v = reinterpret_cast<const uint4*>(f)[c];
                const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    m |= static_cast<mask_t>((w[k] * 0x10204080u) >> 28) << (16 * c + 4 * k);
            }
        } else if constexpr (Items % 4 == 0) {
#pragma unroll
            for (int k = 0; k < Items / 4; ++k) {
                const std::uint32_t w = reinterpret_cast<const std::uint32_t*>(f)[k];
                m |= static_cast<mask_t>((w * 0x10204080u) >> 28) << (4 * k);
            }
        } else {
#pragma unroll
            for (int i = 0; i < Items; ++i)
                if (f[i] != 0) m |= head_bit<Items>(i);
        }
        if (mine == 0) m |= 1;  // element 0 (o[0] == 0 marks it when the offsets are valid)
        if (mine + Items > n) {  // past the end: heads (the padding joins no real segment)
#pragma unroll
            for (int i = 0; i < Items; ++i)
                if (mine + i >= n) m |= head_bit<Items>(i);
        }
        return m;
    }
};

}  // namespace sweep::detail::cuda
