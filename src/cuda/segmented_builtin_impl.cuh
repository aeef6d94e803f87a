// src/cuda/segmented_builtin_impl.cuh -- GPU backend, precompiled kernels: the segmented scans
// host-compiled callers link against (include/sweep/backend/cuda/segmented_precompiled.hpp).
//
// One kernel pair per (value type, operator). The segment description is a run-time choice among
// the fourteen precompiled forms (keys of 1-8 bytes or float/double, flags of 1-8 bytes, 32/64-bit
// offsets): builtin_segments carries the code, and its segment_heads picks the head derivation of
// the nvcc path (agent/segment_heads.cuh) for that form with a switch on a kernel parameter, the
// same for every thread (no divergence; the branches' registers are not live at once). So a
// precompiled call runs the same per-form code as an nvcc-compiled one.
//
// Vector (16-byte) loads of keys and flags: allowed for a form when its warp slice is at most 2x
// the values' (builtin_io_cap), so that a form with wide keys over narrow values (int64 keys, int8
// values) does not inflate every kernel's shared memory; such a form reads its heads with scalar
// loads instead (correct, a little slower).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>

#include <sweep/backend/cuda/dispatch/segmented_scan.cuh>
#include <sweep/backend/cuda/segmented_precompiled.hpp>
#include <sweep/detail/segments.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail::cuda {

/// The precompiled kernels' segment description: the form decided at run time.
template <int IoCap>
struct builtin_segments {
    const void* p;              // keys, flags, or the first offset
    std::int64_t offset_count;  // offsets: k + 1
    std::int64_t n;             // the values' count
    builtin_segment_kind kind;
};

template <int IoCap>
bool segments_are_offsets(const builtin_segments<IoCap>& s) {
    return is_offsets_kind(s.kind);
}

template <class O>
__host__ __device__ offset_segments<const O*> offsets_as(const void* p, std::int64_t count) {
    const O* o = static_cast<const O*>(p);
    return offset_segments<const O*>{o, o + count};
}

template <int IoCap>
std::int64_t offsets_count(const builtin_segments<IoCap>& s) {
    return is_offsets_kind(s.kind) ? s.offset_count : 0;
}

template <int IoCap>
void launch_validate_offsets(const builtin_segments<IoCap>& s, std::int64_t n, unsigned* invalid,
                             std::int64_t* index, std::int64_t tiles, std::int64_t tile_items,
                             bool full, stream_t st, const char* name) {
    using B = builtin_segment_kind;
    switch (s.kind) {
        case B::offsets_i32:
            return launch_validate_offsets(offsets_as<std::int32_t>(s.p, s.offset_count), n,
                                           invalid, index, tiles, tile_items, full, st, name);
        case B::offsets_u32:
            return launch_validate_offsets(offsets_as<std::uint32_t>(s.p, s.offset_count), n,
                                           invalid, index, tiles, tile_items, full, st, name);
        case B::offsets_i64:
            return launch_validate_offsets(offsets_as<std::int64_t>(s.p, s.offset_count), n,
                                           invalid, index, tiles, tile_items, full, st, name);
        case B::offsets_u64:
            return launch_validate_offsets(offsets_as<std::uint64_t>(s.p, s.offset_count), n,
                                           invalid, index, tiles, tile_items, full, st, name);
        default: return;
    }
}

template <int IoCap, int Items>
struct segment_heads<builtin_segments<IoCap>, Items> {
    using segs_t = builtin_segments<IoCap>;
    using mask_t = head_mask_t<Items>;

    // The nvcc path's segment types, one per form.
    template <class K>
    using keys_t = key_heads<const K*, std::equal_to<K>>;
    template <class F>
    using flags_t = flag_heads<const F*>;

    template <class Sub>
    static constexpr bool sub_vector =
        segment_heads<Sub, Items>::vector && segment_heads<Sub, Items>::io_bytes <= IoCap;
    template <class Sub>
    static constexpr int sub_io = sub_vector<Sub> ? segment_heads<Sub, Items>::io_bytes : 16;
    static constexpr int max2(int a, int b) { return a > b ? a : b; }

    static constexpr bool vector = true;
    static constexpr int io_bytes = max2(
        max2(max2(sub_io<keys_t<std::uint8_t>>, sub_io<keys_t<std::uint16_t>>),
             max2(sub_io<keys_t<std::uint32_t>>, sub_io<keys_t<std::uint64_t>>)),
        max2(max2(sub_io<keys_t<float>>, sub_io<keys_t<double>>),
             max2(max2(sub_io<flags_t<std::uint8_t>>, sub_io<flags_t<std::uint16_t>>),
                  max2(sub_io<flags_t<std::uint32_t>>, sub_io<flags_t<std::uint64_t>>))));

    /// Calls f(sub) with the nvcc path's segment description of s's form.
    template <class F>
    __device__ __forceinline__ static mask_t with_form(const segs_t& s, F&& f) {
        using B = builtin_segment_kind;
        switch (s.kind) {
            case B::keys_u8: return f(keys_t<std::uint8_t>{static_cast<const std::uint8_t*>(s.p)});
            case B::keys_u16: return f(keys_t<std::uint16_t>{static_cast<const std::uint16_t*>(s.p)});
            case B::keys_u32: return f(keys_t<std::uint32_t>{static_cast<const std::uint32_t*>(s.p)});
            case B::keys_u64: return f(keys_t<std::uint64_t>{static_cast<const std::uint64_t*>(s.p)});
            case B::keys_f32: return f(keys_t<float>{static_cast<const float*>(s.p)});
            case B::keys_f64: return f(keys_t<double>{static_cast<const double*>(s.p)});
            case B::flags_u8: return f(flags_t<std::uint8_t>{static_cast<const std::uint8_t*>(s.p)});
            case B::flags_u16: return f(flags_t<std::uint16_t>{static_cast<const std::uint16_t*>(s.p)});
            case B::flags_u32: return f(flags_t<std::uint32_t>{static_cast<const std::uint32_t*>(s.p)});
            case B::flags_u64: return f(flags_t<std::uint64_t>{static_cast<const std::uint64_t*>(s.p)});
            case B::offsets_i32: return f(offsets_as<std::int32_t>(s.p, s.offset_count));
            case B::offsets_u32: return f(offsets_as<std::uint32_t>(s.p, s.offset_count));
            case B::offsets_i64: return f(offsets_as<std::int64_t>(s.p, s.offset_count));
            default: return f(offsets_as<std::uint64_t>(s.p, s.offset_count));
        }
    }

    __device__ void fetch(const segs_t&, std::int64_t, int) {}  // finish issues and uses its loads

    // The offsets forms derive their heads with the whole block (the nvcc path's block_read, with
    // the tile index); the others per warp.
    static constexpr bool block = true;
    __device__ static bool uses_block(const segs_t& s) { return is_offsets_kind(s.kind); }

    template <int Threads>
    __device__ mask_t block_read(const segs_t& s, const std::int64_t* index, std::int64_t tile,
                                 std::int64_t base, std::int64_t n, std::int64_t mine,
                                 unsigned char* flags, bool check, bool& bad) {
        return with_form(s, [&](const auto& sub) -> mask_t {
            using sub_t = std::remove_cvref_t<decltype(sub)>;
            if constexpr (block_heads_v<segment_heads<sub_t, Items>>) {
                segment_heads<sub_t, Items> h;
                return h.template block_read<Threads>(sub, index, tile, base, n, mine, flags,
                                                      check, bad);
            } else {
                bad = false;
                return mask_t(0);  // not reached: uses_block(s) holds only for offsets
            }
        });
    }

    /// A full tile with 16-byte aligned heads (the host clears heads_aligned for offsets).
    __device__ mask_t finish(const segs_t& s, std::int64_t mine, unsigned char* slice, int lane) {
        const std::int64_t warp_first = mine - std::int64_t{lane} * Items;
        return with_form(s, [&](const auto& sub) -> mask_t {
            using sub_t = std::remove_cvref_t<decltype(sub)>;
            segment_heads<sub_t, Items> h;
            if constexpr (block_heads_v<segment_heads<sub_t, Items>>) {
                return mask_t(0);  // not reached: offsets go through block_read
            } else if constexpr (sub_vector<sub_t>) {
                h.fetch(sub, warp_first, lane);
                return h.finish(sub, mine, slice, lane);
            } else {
                return h.read(sub, warp_first, mine, s.n, lane);
            }
        });
    }

    __device__ mask_t read(const segs_t& s, std::int64_t warp_first, std::int64_t mine,
                           std::int64_t n, int lane) {
        return with_form(s, [&](const auto& sub) -> mask_t {
            using sub_t = std::remove_cvref_t<decltype(sub)>;
            segment_heads<sub_t, Items> h;
            if constexpr (block_heads_v<segment_heads<sub_t, Items>>) {
                return mask_t(0);  // not reached: offsets go through block_read
            } else {
                return h.read(sub, warp_first, mine, n, lane);
            }
        });
    }
};

/// The shared-memory cap of the vector head forms: 2x the values' warp slice (at most 18 KB a
/// block of 4 warps; vector keys and flags for every form whose heads are at most twice as wide
/// per element as the values, and for all forms from 4-byte values on).
template <class T>
inline constexpr int builtin_io_cap =
    2 * warp_io_bytes(default_segmented_tuning<T>::items, static_cast<int>(sizeof(T)));

template <class T, class Op>
void run_segmented_builtin(const builtin_segmented_request& r) {
    using segs_t = builtin_segments<builtin_io_cap<T>>;
    const segs_t segs{r.segments, r.offset_count, r.n, r.kind};
    reg_array<T, 1> init;
    std::memcpy(&init[0], r.init, sizeof(T));
    const bool heads_aligned =
        !is_offsets_kind(r.kind) && reinterpret_cast<std::uintptr_t>(r.segments) % 16 == 0;
    launch_segmented_scan<default_segmented_tuning<T>, false, T>(
        r.name, static_cast<const T*>(r.in), static_cast<T*>(r.out), r.n, Op{}, segs, init,
        r.exclusive, r.has_init, heads_aligned, r.stream, r.alloc);
}

template <class T>
void run_segmented_builtin_ops(builtin_op op, const builtin_segmented_request& r) {
    switch (op) {
        case builtin_op::plus: return run_segmented_builtin<T, sweep::plus<T>>(r);
        case builtin_op::minimum: return run_segmented_builtin<T, sweep::minimum<T>>(r);
        case builtin_op::maximum: return run_segmented_builtin<T, sweep::maximum<T>>(r);
    }
}

// One per .cu file (split so that they build in parallel).
void segmented_builtin_8(builtin_type type, builtin_op op, const builtin_segmented_request& r);
void segmented_builtin_16(builtin_type type, builtin_op op, const builtin_segmented_request& r);
void segmented_builtin_32(builtin_type type, builtin_op op, const builtin_segmented_request& r);
void segmented_builtin_64(builtin_type type, builtin_op op, const builtin_segmented_request& r);

}  // namespace sweep::detail::cuda
