// sweep/backend/cuda/agent/radix_agent.cuh -- GPU backend, radix sort: what one block does.
//
// Keys are ranked by the ordered bits of detail/radix_traits.hpp (inverted for a descending
// sort, which keeps equal keys in input order). A tile is held warp-striped: item j of lane l of
// warp w is tile element w * 32 * Items + 32 j + l, so that the order in which a warp ranks its
// items (item by item, lane by lane) is the order of the input, which makes the ranking stable:
//   1. per item, the lanes with the same digit find each other (__match_any_sync); the highest
//      of them adds their number to the warp's counter of that digit in shared memory, and each
//      lane's rank is the counter before that plus its place among its peers;
//   2. per digit (thread t owns digits t*D .. t*D+D-1), the warps' counters are scanned: warp
//      offsets within the digit, and the tile's count of the digit;
//   3. a block-wide exclusive scan of the counts gives where each digit starts in the tile.
// A key's place in the tile sorted by digit is start[digit] + warp offset + rank.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cub/block/block_scan.cuh>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/backend/cuda/tuning/radix_tuning.cuh>
#include <sweep/detail/radix_traits.hpp>

namespace sweep::detail::cuda {

/// The value type of a keys-only sort.
struct radix_no_values {};

template <class V>
inline constexpr bool radix_has_values_v = !std::is_same_v<V, radix_no_values>;

/// Passes of `bits`-wide digits over keys of type K.
template <class K>
constexpr int radix_pass_count(int bits) {
    return static_cast<int>((8 * sizeof(K) + bits - 1) / bits);
}

/// The ordered bits a key is sorted by (descending: their complement). The kernels rank keys
/// already converted by their codec (below), i.e. ordered bits with Descending false, for which
/// this is the identity.
template <bool Descending, class K>
__device__ __forceinline__ ordered_bits_t<K> radix_key_bits(K k) {
    const ordered_bits_t<K> u = to_ordered(k);
    if constexpr (Descending) return static_cast<ordered_bits_t<K>>(~u);
    else return u;
}

/// The type a key is stored as in the kernels: the unsigned integer of its size for integer keys
/// (signed or not), the key type itself for float and double. With radix_codec below, the integer
/// key types of one size share two kernel sets (with and without the XOR) whatever their
/// signedness and direction: a .cu file that sorts int32 and uint32 keys ascending and descending
/// compiles two sets of kernels, not four.
template <class K>
using radix_stored_t = std::conditional_t<std::is_floating_point_v<K>, K, ordered_bits_t<K>>;

/// How a stored key becomes the bits it is sorted by, and back: to_ordered, then (Flip) an XOR
/// with `flip`: the sign bit for signed integer keys (their to_ordered, done on the unsigned
/// type), inverted for a descending sort (the complement of the ordered bits sorts in the
/// opposite order and keeps equal keys in input order). A kernel parameter, read by the XOR from
/// the constant bank (no register). Without Flip (unsigned or floating keys, ascending) there is
/// no XOR: one more instruction per key at the load and the store cost u32 keys ~2 % on the H200
/// (perf/results/gpu-session17-ci-radix-2026-11-27.md), so those keep kernels of their own.
template <class S, bool Flip>
struct radix_codec {
    ordered_bits_t<S> flip;
    __device__ __forceinline__ ordered_bits_t<S> encode(S k) const {
        if constexpr (Flip) return static_cast<ordered_bits_t<S>>(to_ordered(k) ^ flip);
        else return to_ordered(k);
    }
    __device__ __forceinline__ S decode(ordered_bits_t<S> u) const {
        if constexpr (Flip) return from_ordered<S>(static_cast<ordered_bits_t<S>>(u ^ flip));
        else return from_ordered<S>(u);
    }
};

/// Whether key type K sorted in this direction needs the XOR.
template <class K, bool Descending>
inline constexpr bool radix_flips = Descending || (std::is_integral_v<K> && std::is_signed_v<K>);

/// The codec of key type K stored as radix_stored_t<K>.
template <class K, bool Descending>
constexpr radix_codec<radix_stored_t<K>, radix_flips<K, Descending>> radix_codec_for() {
    using U = ordered_bits_t<K>;
    U flip = Descending ? U(~U(0)) : U(0);
    if constexpr (std::is_integral_v<K> && std::is_signed_v<K>)
        flip = static_cast<U>(flip ^ U(U(1) << (8 * sizeof(K) - 1)));
    return radix_codec<radix_stored_t<K>, radix_flips<K, Descending>>{flip};
}

/// The type values are moved as: an unsigned integer of their size where that has their size and
/// alignment (sorting moves bits only), so that values of int, float or uint32 share kernels;
/// the value type itself otherwise.
template <class V, bool Word = (sizeof(V) == 1 || sizeof(V) == 2 || sizeof(V) == 4 ||
                                sizeof(V) == 8) && alignof(V) == sizeof(V)>
struct radix_moved_value {
    using type = V;
};
template <class V>
struct radix_moved_value<V, true> {
    using type = typename unsigned_of_size<sizeof(V)>::type;
};
template <>
struct radix_moved_value<radix_no_values, true> {
    using type = radix_no_values;
};

template <int Bits, class U>
__device__ __forceinline__ int radix_digit(U u, int shift) {
    return static_cast<int>(static_cast<unsigned>(u >> shift) & ((1u << Bits) - 1u));
}

/// Shared memory of the ranking blocks (dynamic): the warps' digit counters, overlaid by the
/// tile's keys once every rank is known; the tile's values; where each digit starts in the
/// tile; each digit's global offset minus that start (Onesweep only).
template <class Tuning, class K, class V>
struct radix_smem {
    static constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }
    static constexpr std::size_t hist_bytes =
        std::size_t{Tuning::warps} * Tuning::radix * sizeof(unsigned);
    static constexpr std::size_t key_tile_bytes = std::size_t(Tuning::tile_items) * sizeof(K);
    static constexpr std::size_t keys_offset = 0;
    static constexpr std::size_t keys_bytes =
        align16(hist_bytes > key_tile_bytes ? hist_bytes : key_tile_bytes);
    static constexpr std::size_t values_offset = keys_bytes;
    static constexpr std::size_t values_bytes =
        radix_has_values_v<V> ? align16(std::size_t(Tuning::tile_items) * sizeof(V)) : 0;
    static constexpr std::size_t start_offset = values_offset + values_bytes;
    static constexpr std::size_t start_bytes = align16(Tuning::radix * sizeof(unsigned));
    static constexpr std::size_t base_offset = start_offset + start_bytes;
    static constexpr std::size_t base_bytes = Tuning::radix * sizeof(std::int64_t);
    static constexpr std::size_t bytes = base_offset + base_bytes;

    unsigned char* raw;
    __device__ unsigned* hist() const { return reinterpret_cast<unsigned*>(raw + keys_offset); }
    __device__ K* keys() const { return reinterpret_cast<K*>(raw + keys_offset); }
    __device__ V* values() const { return reinterpret_cast<V*>(raw + values_offset); }
    __device__ unsigned* start() const { return reinterpret_cast<unsigned*>(raw + start_offset); }
    __device__ std::int64_t* base() const {
        return reinterpret_cast<std::int64_t*>(raw + base_offset);
    }
};

template <class Tuning>
struct radix_ranker {
    static constexpr int radix = Tuning::radix;
    static constexpr int threads = Tuning::threads;
    static constexpr int items = Tuning::items;
    /// Digits per thread in steps 2 and 3.
    static constexpr int dpt = (radix + threads - 1) / threads;
    static_assert(Tuning::tile_items < 65536, "ranks are 16-bit (the digit rides above them)");
    using block_scan = cub::BlockScan<unsigned, threads>;

    /// Tile element index of item j of this thread.
    __device__ static int element(int j) {
        const int lane = threadIdx.x % warp_threads;
        const int warp = threadIdx.x / warp_threads;
        return warp * warp_threads * items + j * warp_threads + lane;
    }

    /// Zeroes the warps' counters with 16-byte stores, unrolled (a strided loop of 4-byte
    /// stores took ~100 instructions per thread per tile: 6 per key at 384 x 16; R3).
    __device__ static void zero_hist(unsigned* hist) {
        constexpr int vecs = Tuning::warps * radix / 4;  // radix >= 32: whole uint4s
        uint4* const h = reinterpret_cast<uint4*>(hist);   // the counters start 16-byte aligned
#pragma unroll
        for (int r = 0; r < (vecs + threads - 1) / threads; ++r) {
            const int i = static_cast<int>(threadIdx.x) + r * threads;
            if (vecs % threads == 0 || i < vecs) h[i] = make_uint4(0u, 0u, 0u, 0u);
        }
    }

    /// The digit of a key in this pass (recomputed where needed rather than kept in registers:
    /// registers decide how many blocks an SM holds).
    template <bool Descending, class K>
    __device__ static int digit_of(K k, int shift) {
        return radix_digit<Tuning::radix_bits>(radix_key_bits<Descending>(k), shift);
    }

    /// digit_of, computed afresh: the key passes through an empty asm first, so the compiler
    /// cannot reuse the digits (and counter addresses) of the histogram step and keep them alive
    /// across its barrier. Used by the ranking of register-tight shapes (Tuning::fresh_digits):
    /// at 56 registers (3 blocks of 384 per SM) keeping them spilled 12-13 words per thread
    /// per tile; recomputing costs ~4 instructions per key and no spills (perf/notes-gpu.md R3).
    template <bool Descending, class K>
    __device__ static int fresh_digit_of(K k, int shift) {
        if constexpr (sizeof(K) == 8) {
            std::uint64_t b;
            std::memcpy(&b, &k, 8);
            asm volatile("" : "+l"(b));
            std::memcpy(&k, &b, 8);
        } else if constexpr (sizeof(K) == 4) {
            std::uint32_t b;
            std::memcpy(&b, &k, 4);
            asm volatile("" : "+r"(b));
            std::memcpy(&k, &b, 4);
        } else {
            std::uint32_t b = 0;
            std::memcpy(&b, &k, sizeof(K));
            asm volatile("" : "+r"(b));
            std::memcpy(&k, &b, sizeof(K));
        }
        return digit_of<Descending>(k, shift);
    }

    /// The lanes of the warp whose digit equals this lane's d (ok lanes, d < radix) or which
    /// are not ok too. All 32 lanes call it. Bounded false: every lane is ok (padded tiles), no
    /// ballot for ok.
    template <bool Bounded = true>
    __device__ static unsigned match_peers(int d, bool ok) {
        if constexpr (Tuning::pred_ballot) {
            // Per digit bit: the lanes that agree with this lane on it (ballot of the bit,
            // complemented where this lane's bit is 0), as predicate PTX: ptxas moves all the
            // digit's bits into predicates with one R2P and spends VOTE + @!P LOP3 + LOP3 per
            // bit (perf/notes-gpu.md R3). volatile: the result depends on the other lanes, so
            // two calls with equal inputs in this lane must not be merged (same SASS either way).
            unsigned peers = ~0u;
#pragma unroll
            for (int b = 0; b < Tuning::radix_bits; ++b) {
                unsigned m;
                asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
                    "and.b32 t, %1, %2;\n\t"
                    "setp.ne.u32 p, t, 0;\n\t"
                    "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
                    "@!p not.b32 %0, %0;\n\t}"
                    : "=r"(m)
                    : "r"(static_cast<unsigned>(d)), "r"(1u << b));
                peers &= m;
            }
            if constexpr (Bounded) {
                // Invalid lanes (d forced to one value by the caller) must not join valid ones.
                unsigned v = __ballot_sync(full_mask, ok);
                peers &= ok ? v : ~v;
            }
            return peers;
        } else if constexpr (Tuning::ballot_match) {
            // One ballot per digit bit, plus one for ok (invalid lanes must not join digit 0).
            unsigned peers = ~0u;
            if constexpr (Bounded) {
                peers = __ballot_sync(full_mask, ok);
                if (!ok) peers = ~peers;
            }
#pragma unroll
            for (int b = 0; b < Tuning::radix_bits; ++b) {
                const bool bit = ((d >> b) & 1) != 0;
                const unsigned m = __ballot_sync(full_mask, bit);
                peers &= bit ? m : ~m;
            }
            return peers;
        } else {
            return __match_any_sync(full_mask, ok ? d : radix);
        }
    }

    /// Padded tiles (radix_padded_tile): the key that stands in for the missing elements of the
    /// last tile. Its ordered bits (after the descending complement) are all ones, so its digit
    /// is the largest any key can have in every pass (radix - 1, or all ones of a narrower top
    /// digit) and, coming after every real key in tile order, it ranks after all of them: places
    /// [valid, tile) hold the padding, [0, valid) the real keys.
    template <bool Descending, class K>
    __host__ __device__ static K pad_key() {
        using U = ordered_bits_t<K>;
        constexpr U sign = U(U(1) << (8 * sizeof(K) - 1));
        const U want = Descending ? U(0) : U(~U(0));  // to_ordered(pad)
        U bits;
        if constexpr (std::is_floating_point_v<K>) bits = (want & sign) ? U(want ^ sign) : U(~want);
        else if constexpr (std::is_signed_v<K>) bits = U(want ^ sign);
        else bits = want;
        K k;
        std::memcpy(&k, &bits, sizeof(K));
        return k;
    }

    /// Early counts, step 1 (hist zeroed and visible): each warp counts its keys' digits into
    /// its own counters. Items at element >= valid take no part (padded tiles: every item
    /// counts, the padding included, so that the places are a permutation of the tile).
    template <bool Descending, class K>
    __device__ static void warp_histogram(const K (&keys)[items], int valid, int shift,
                                          unsigned* hist) {
        unsigned* const wh = hist + (threadIdx.x / warp_threads) * radix;
#pragma unroll
        for (int j = 0; j < items; ++j)
            if (Tuning::padded_tile || element(j) < valid)
                atomicAdd(wh + digit_of<Descending>(keys[j], shift), 1u);
    }

    /// Early counts, after digit_counts and digit_starts: adds each digit's start in the tile to
    /// every warp's offset of it, so that the counters hold where the warp's first key of the
    /// digit goes in the tile. The caller puts a barrier before the ranking reads them.
    __device__ static void offsets_to_places(unsigned* hist, const unsigned (&first)[dpt]) {
#pragma unroll
        for (int i = 0; i < dpt; ++i) {
            const int d = threadIdx.x * dpt + i;
            if (d < radix) {
                // Fully unrolled with lean_counts (as digit_counts' loads), by 4 otherwise.
#pragma unroll(Tuning::lean_counts ? Tuning::warps : 4)
                for (int w = 0; w < Tuning::warps; ++w) hist[w * radix + d] += first[i];
            }
        }
    }

    /// Early counts, the ranking (after offsets_to_places and a barrier): rank[j] becomes item
    /// j's place in the tile sorted by digit (stable: lanes in order within an item, items in
    /// order within a warp, warps in order through the offsets).
    template <bool Descending, class K>
    __device__ static void places_in_tile(const K (&keys)[items], int valid, int shift,
                                          unsigned* hist, unsigned (&rank)[items]) {
        const int lane = threadIdx.x % warp_threads;
        unsigned* const wh = hist + (threadIdx.x / warp_threads) * radix;
        // The lanes below this one; with lean_rank, up to and including it (lane 31: all).
        const unsigned lower = Tuning::lean_ranking ? (2u << lane) - 1u : (1u << lane) - 1u;
#pragma unroll
        for (int j = 0; j < items; ++j) {
            // Padded tiles: every item is a key (the padding ranks last), no bound check.
            const bool ok = Tuning::padded_tile || element(j) < valid;
            int d = 0;
            if (ok) {
                if constexpr (Tuning::fresh_digits) d = fresh_digit_of<Descending>(keys[j], shift);
                else d = digit_of<Descending>(keys[j], shift);
            }
            const unsigned peers = match_peers<!Tuning::padded_tile>(d, ok);
            const int leader = 31 - __clz(peers);
            if constexpr (Tuning::lean_ranking) {
                // One population count: this lane's peers up to and including itself. For the
                // leader (the highest peer) that is all of them, what it adds (FLO and POPC go
                // through a quarter-rate pipe: ncu, session 20).
                const unsigned upto = static_cast<unsigned>(__popc(peers & lower));
                unsigned before = 0;
                if (ok && lane == leader) before = atomicAdd(wh + d, upto);
                before = __shfl_sync(full_mask, before, leader);
                rank[j] = before + upto - 1u;
            } else {
                unsigned before = 0;
                if (ok && lane == leader)
                    before = atomicAdd(wh + d, static_cast<unsigned>(__popc(peers)));
                before = __shfl_sync(full_mask, before, leader);
                rank[j] = before + static_cast<unsigned>(__popc(peers & lower));
            }
        }
    }

    /// Step 1. hist zeroed and visible (after a barrier). Items at element >= valid take no part.
    template <bool Descending, class K>
    __device__ static void rank_in_warps(const K (&keys)[items], int valid, int shift,
                                         unsigned* hist, unsigned (&rank)[items]) {
        const int lane = threadIdx.x % warp_threads;
        unsigned* const wh = hist + (threadIdx.x / warp_threads) * radix;
        const unsigned lower = (1u << lane) - 1u;
#pragma unroll
        for (int j = 0; j < items; ++j) {
            const bool ok = element(j) < valid;
            const int d = ok ? digit_of<Descending>(keys[j], shift) : radix;
            const unsigned peers = match_peers(d, ok);
            const int leader = 31 - __clz(peers);
            unsigned before = 0;
            if (ok && lane == leader) {
                before = wh[d];
                wh[d] = before + static_cast<unsigned>(__popc(peers));
            }
            before = __shfl_sync(full_mask, before, leader);
            // The digit rides in the upper half (tiles hold < 2^16 keys): `places` needs it, and
            // keeping it here costs no register (recomputing it invites the compiler to keep a
            // copy of every digit alive across the barrier instead).
            rank[j] = (static_cast<unsigned>(d) << 16) | (before + static_cast<unsigned>(__popc(peers & lower)));
            __syncwarp();
        }
    }

    /// Step 2, after a barrier: turns the warps' counters into warp offsets within each digit
    /// and returns this thread's digits' tile counts.
    __device__ static void digit_counts(unsigned* hist, unsigned (&count)[dpt]) {
#pragma unroll
        for (int i = 0; i < dpt; ++i) {
            const int d = threadIdx.x * dpt + i;
            unsigned run = 0;
            if (d < radix) {
                if constexpr (Tuning::lean_counts) {
                    // Every warp's counter loaded first (independent loads, one shared-memory
                    // latency), then the running sum: a loop of load, add, store waited once per
                    // warp (ncu, session 20: short-scoreboard stalls on each add).
                    unsigned c[Tuning::warps];
#pragma unroll
                    for (int w = 0; w < Tuning::warps; ++w) c[w] = hist[w * radix + d];
#pragma unroll
                    for (int w = 0; w < Tuning::warps; ++w) {
                        hist[w * radix + d] = run;
                        run += c[w];
                    }
                } else {
#pragma unroll 4
                    for (int w = 0; w < Tuning::warps; ++w) {
                        const unsigned c = hist[w * radix + d];
                        hist[w * radix + d] = run;
                        run += c;
                    }
                }
            }
            count[i] = run;
        }
    }

    /// Step 3: the digits' starts in the tile (returned for this thread's digits and stored to
    /// start[]). The caller puts a barrier before reading start[].
    __device__ static void digit_starts(typename block_scan::TempStorage& tmp,
                                        const unsigned (&count)[dpt], unsigned (&first)[dpt],
                                        unsigned* start) {
        unsigned in[dpt];
#pragma unroll
        for (int i = 0; i < dpt; ++i) in[i] = count[i];
        block_scan(tmp).ExclusiveSum(in, first);
#pragma unroll
        for (int i = 0; i < dpt; ++i) {
            const int d = threadIdx.x * dpt + i;
            if (d < radix) start[d] = first[i];
        }
    }

    /// A ranked item's place in the tile sorted by digit (after a barrier following step 3).
    /// rank[] as step 1 left it (digit << 16 | rank in the warp's digit).
    __device__ static void places(int valid, const unsigned* hist, const unsigned* start,
                                  unsigned (&rank)[items]) {
        const unsigned* const wh = hist + (threadIdx.x / warp_threads) * radix;
#pragma unroll
        for (int j = 0; j < items; ++j) {
            if (element(j) < valid) {
                const unsigned d = rank[j] >> 16;
                rank[j] = (rank[j] & 0xffffu) + start[d] + wh[d];
            }
        }
    }
};

}  // namespace sweep::detail::cuda
