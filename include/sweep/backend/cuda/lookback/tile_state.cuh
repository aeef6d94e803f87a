// sweep/backend/cuda/lookback/tile_state.cuh -- GPU backend, look-back engine: the tile statuses.
//
// Each tile publishes its status once it knows its aggregate (A) and again once it knows its
// inclusive prefix (P) (Merrill & Garland 2016, section 4). The value travels with the status:
//   * values of at most 4 bytes: one 64-bit word  {status:32 | value:32}
//   * values of at most 8 bytes: one 128-bit word {status:64 | value:64}
//   * larger values: a 32-bit status word plus two value slots (aggregate, prefix), the value
//     stored before the status with release semantics and read after it with acquire semantics.
//   * compensated double pairs (16 bytes, paired_state_v): two 128-bit words {status | half},
//     read together and taken when their statuses agree (tile_state_pair): one round trip.
// A status of 0 (invalid) means "not yet published"; the dispatch layer zeroes the words before
// each launch, or the launch takes the clean half of its stream's arena and zeroes the other
// (leave_clean; docs/decisions/0001-tile-state-reset.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <sweep/backend/cuda/agent/warp_ops.cuh>
#include <sweep/detail/compensated.hpp>

namespace sweep::detail::cuda::lookback {

enum : std::uint32_t {
    status_invalid = 0,    // nothing published yet (the zeroed state)
    status_aggregate = 1,  // value = this tile's own reduction
    status_prefix = 2,     // value = reduction of tiles 0..this one (inclusive prefix)
};

// ---- memory-order primitives (PTX ISA 8.x memory consistency model) ----------------------------
// .relaxed.gpu accesses are "strong": they are coherent at device scope and are never served from
// a stale L1 line, which plain (weak) loads may be. Single-copy atomicity holds for naturally
// aligned 32-, 64- and 128-bit (.b128, sm_70+, PTX 8.3) accesses.

__device__ __forceinline__ std::uint32_t load_relaxed(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ std::uint64_t load_relaxed(const std::uint64_t* p) {
    std::uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void load_relaxed_128(const void* p, std::uint64_t& lo,
                                                 std::uint64_t& hi) {
    asm volatile(
        "{\n\t.reg .b128 t;\n\tld.relaxed.gpu.global.b128 t, [%2];\n\tmov.b128 {%0, %1}, t;\n}"
        : "=l"(lo), "=l"(hi)
        : "l"(p)
        : "memory");
}
__device__ __forceinline__ void store_relaxed(std::uint64_t* p, std::uint64_t v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed_128(void* p, std::uint64_t lo, std::uint64_t hi) {
    asm volatile(
        "{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], t;\n}" ::"l"(p),
        "l"(lo), "l"(hi)
        : "memory");
}
__device__ __forceinline__ void store_release(std::uint32_t* p, std::uint32_t v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
/// fence.acq_rel.gpu: after a relaxed load that observed a release store, this fence makes the
/// writer's earlier stores visible to this thread's later loads (PTX "fence-SC / release pattern").
__device__ __forceinline__ void fence_acquire() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

// ---- the three layouts -------------------------------------------------------------------------

/// Values of at most 4 bytes: status and value in one 64-bit word, written and read with one
/// relaxed access. Nothing else is communicated through the word, so relaxed is enough: the
/// reader needs no other memory of the writer, only the word itself, which is single-copy atomic.
template <class T>
struct tile_state_64 {
    static_assert(sizeof(T) <= 4);
    std::uint64_t* words;

    static constexpr std::size_t status_bytes(std::int64_t tiles) { return tiles * 8; }
    static constexpr std::size_t value_bytes(std::int64_t) { return 0; }
    static tile_state_64 make(void* status, void*, std::int64_t) {
        return tile_state_64{static_cast<std::uint64_t*>(status)};
    }

    __device__ void publish(std::int64_t tile, std::uint32_t status, const T& v) const {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof(T));
        store_relaxed(words + tile, (std::uint64_t{bits} << 32) | status);
    }
    __device__ std::uint32_t read(std::int64_t tile, T& v) const {
        const std::uint64_t w = load_relaxed(words + tile);
        const auto bits = static_cast<std::uint32_t>(w >> 32);
        std::memcpy(&v, &bits, sizeof(T));
        return static_cast<std::uint32_t>(w);
    }
};

/// Values of 5 to 8 bytes: a 16-byte word {status, value}, one relaxed 128-bit access each way
/// (same reasoning as tile_state_64).
template <class T>
struct tile_state_128 {
    static_assert(sizeof(T) <= 8);
    std::uint64_t* words;  // two per tile, 16-byte aligned

    static constexpr std::size_t status_bytes(std::int64_t tiles) { return tiles * 16; }
    static constexpr std::size_t value_bytes(std::int64_t) { return 0; }
    static tile_state_128 make(void* status, void*, std::int64_t) {
        return tile_state_128{static_cast<std::uint64_t*>(status)};
    }

    __device__ void publish(std::int64_t tile, std::uint32_t status, const T& v) const {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof(T));
        store_relaxed_128(words + 2 * tile, status, bits);
    }
    __device__ std::uint32_t read(std::int64_t tile, T& v) const {
        std::uint64_t lo, hi;
        load_relaxed_128(words + 2 * tile, lo, hi);
        std::memcpy(&v, &hi, sizeof(T));
        return static_cast<std::uint32_t>(lo);
    }
};

/// Larger values: status words plus separate aggregate and prefix slots. The writer stores the
/// value (plain stores) and then the status with st.release.gpu, so the value happens-before any
/// read that observes the status. The reader loads the status relaxed and, once it is valid,
/// issues fence.acq_rel.gpu and reads the slot with relaxed (L1-bypassing) loads: a plain load
/// could hit a line of the slot array cached in L1 before the slot was written. Two slots, not
/// one, because a reader that saw A must still find the aggregate after the writer publishes P.
/// A slot is the value's bytes rounded up to whole, 4-byte aligned 32-bit words (shuffle_words),
/// written and read word by word: every byte a reader loads was stored by the writer (padding
/// included: compute-sanitizer's initcheck reported the padding of a 24-byte segmented pair read
/// but never written, when the slot was assigned as a T), and a value whose size is not a multiple
/// of 4 or whose alignment is below 4 never puts a word access across two slots or off alignment.
template <class T>
struct tile_state_split {
    using slot = shuffle_words<T>;
    std::uint32_t* flags;
    slot* aggregates;
    slot* prefixes;
    std::int64_t tiles;

    static constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
    static constexpr std::size_t status_bytes(std::int64_t tiles) { return round16(tiles * 4); }
    static constexpr std::size_t value_bytes(std::int64_t tiles) {
        return 2 * round16(tiles * sizeof(slot));
    }
    static tile_state_split make(void* status, void* values, std::int64_t tiles) {
        auto* a = static_cast<slot*>(values);
        auto* p = reinterpret_cast<slot*>(static_cast<char*>(values) + round16(tiles * sizeof(slot)));
        return tile_state_split{static_cast<std::uint32_t*>(status), a, p, tiles};
    }

    __device__ void publish(std::int64_t tile, std::uint32_t status, const T& v) const {
        slot s;
        std::memcpy(s.w, &v, sizeof(T));
        std::uint32_t* w = (status == status_aggregate ? aggregates : prefixes)[tile].w;
#pragma unroll
        for (int i = 0; i < slot::count; ++i) w[i] = s.w[i];
        store_release(flags + tile, status);
    }
    /// Reads the status only (the spin); read_value once it is valid.
    __device__ std::uint32_t read(std::int64_t tile, T&) const { return load_relaxed(flags + tile); }
    __device__ T read_value(std::int64_t tile, std::uint32_t status) const {
        const std::uint32_t* w = (status == status_aggregate ? aggregates : prefixes)[tile].w;
        slot s;
#pragma unroll
        for (int i = 0; i < slot::count; ++i) s.w[i] = load_relaxed(w + i);
        reg_array<T, 1> r;
        std::memcpy(&r[0], s.w, sizeof(T));
        return r[0];
    }
};

/// Values of 9 to 16 bytes, opt-in (paired_state_v): two 16-byte words per tile, 32 bytes, one
/// sector: {status:64 | bytes 0-7} and {status:64 | bytes 8-15}, each written with one relaxed
/// 128-bit store (the first word first). A reader loads both at once (relaxed, independent: one
/// round trip) and takes the value only when the two statuses agree; otherwise it reports
/// "nothing yet" and polls again. Why that is enough without release/acquire: each word goes
/// through invalid -> A -> P (a status is published at most once with a given value: A = the
/// aggregate, P = the inclusive prefix), and each 128-bit access is single-copy atomic, so a word
/// read with status X holds the half of the value published with X; two words read with the same
/// X hold the two halves of one value. A mismatch (the writer between its two stores, or the
/// stores seen out of order) lasts until both stores are visible. Against the split layout: no
/// second, dependent round trip for the value after the status, and no fence.
/// Callers' contract: read() may answer status_invalid for a tile seen published before (while
/// its writer is between the two stores of A -> P), so a caller must poll until valid, as
/// lookback::read_windows does; it must not take one read of a published tile for granted.
template <class T>
struct tile_state_pair {
    static_assert(sizeof(T) > 8 && sizeof(T) <= 16);
    std::uint64_t* words;  // four per tile, 16-byte aligned (32 with the dispatch's offsets)

    static constexpr std::size_t status_bytes(std::int64_t tiles) { return tiles * 32; }
    static constexpr std::size_t value_bytes(std::int64_t) { return 0; }
    static tile_state_pair make(void* status, void*, std::int64_t) {
        return tile_state_pair{static_cast<std::uint64_t*>(status)};
    }

    __device__ void publish(std::int64_t tile, std::uint32_t status, const T& v) const {
        std::uint64_t h[2] = {0, 0};
        std::memcpy(h, &v, sizeof(T));
        store_relaxed_128(words + 4 * tile, status, h[0]);
        store_relaxed_128(words + 4 * tile + 2, status, h[1]);
    }
    __device__ std::uint32_t read(std::int64_t tile, T& v) const {
        std::uint64_t s0, h0, s1, h1;
        load_relaxed_128(words + 4 * tile, s0, h0);
        load_relaxed_128(words + 4 * tile + 2, s1, h1);
        if (s0 != s1) return status_invalid;
        const std::uint64_t h[2] = {h0, h1};
        std::memcpy(&v, h, sizeof(T));
        return static_cast<std::uint32_t>(s0);
    }
};

/// Which values of 9 to 16 bytes take tile_state_pair instead of the split layout: compensated
/// double pairs (the .compensated() scans). Other 16-byte types keep the split layout until this
/// one is measured (bench_gpu_numerics compares the two through a renamed pair type). Building
/// with -DSWEEP_COMP_STATE_SPLIT=1 puts compensated pairs back on the split layout (a fallback
/// switch; define it the same in every translation unit of a program).
#ifndef SWEEP_COMP_STATE_SPLIT
#define SWEEP_COMP_STATE_SPLIT 0
#endif
template <class T>
inline constexpr bool paired_state_v = false;
template <>
inline constexpr bool paired_state_v<comp_sum<double>> = SWEEP_COMP_STATE_SPLIT == 0;

template <class T>
inline constexpr int state_kind =
    sizeof(T) <= 4 ? 0 : (sizeof(T) <= 8 ? 1 : (paired_state_v<T> && sizeof(T) <= 16 ? 3 : 2));

template <class T, int Kind = state_kind<T>>
struct tile_state_for;
template <class T> struct tile_state_for<T, 0> { using type = tile_state_64<T>; };
template <class T> struct tile_state_for<T, 1> { using type = tile_state_128<T>; };
template <class T> struct tile_state_for<T, 2> { using type = tile_state_split<T>; };
template <class T> struct tile_state_for<T, 3> { using type = tile_state_pair<T>; };

/// The tile-state layout for values of type T.
template <class T>
using tile_state = typename tile_state_for<T>::type;

// ---- launches on a clean arena -----------------------------------------------------------------

/// A launch whose tile states live in its stream's clean arena (runtime.hpp, arena_lease): the
/// other half, which the previous launch on the stream used and this one zeroes (its ticket line,
/// status words and value slots: the next launch may be of another layout and put status words
/// where these slots were). `vectors` 0: nothing to zero (temporary memory, reset before the
/// launch, or an arena whose other half is clean).
struct arena_cleanup {
    uint4* words = nullptr;
    unsigned vectors = 0;
};

/// The end of every look-back kernel: the block zeroes its share of the arena's other half. Nothing
/// else touches that half while this launch runs (the launch before it on the stream has finished,
/// the launch after it cannot start before this one ends), so plain stores do, and the kernel's
/// end makes them visible to the next launch.
__device__ __forceinline__ void leave_clean(const arena_cleanup& c) {
    if (c.vectors == 0) return;
    const unsigned share = (c.vectors + gridDim.x - 1) / gridDim.x;
    const unsigned begin = blockIdx.x * share;
    const unsigned end = begin + share < c.vectors ? begin + share : c.vectors;
    for (unsigned i = begin + threadIdx.x; i < end; i += blockDim.x) c.words[i] = make_uint4(0, 0, 0, 0);
}

}  // namespace sweep::detail::cuda::lookback
