// sweep/backend/cuda/segmented_precompiled.hpp -- GPU backend, host side: the segmented-scan
// kernels the library ships compiled (src/cuda/segmented_builtin*.cu), for callers compiled
// without nvcc.
//
// Values: raw pointers to one built-in type (the output and the init, if any, of that same type),
// with plus, minimum or maximum. Segments, a run-time form of one kernel per (type, operator):
//   by key    raw pointers to built-in keys (integers of 1-8 bytes, bool, float, double) compared
//             with std::equal_to<> or std::equal_to<K>. Integer keys are compared as their bits
//             (the same as == for integers), so keys of one width share code.
//   flags     raw pointers to integer (or bool) flags: a head where the flag is not 0.
//   offsets   raw pointers to 32- or 64-bit, signed or unsigned, offsets.
// Inclusive/exclusive and the init are run-time flags too.
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/detail/segments.hpp>

namespace sweep::detail::cuda {

template <class Segs>
inline constexpr bool is_offset_segments_v = false;
template <class OffIt>
inline constexpr bool is_offset_segments_v<offset_segments<OffIt>> = true;

/// The segment form and its element type, as one run-time code.
enum class builtin_segment_kind : unsigned char {
    keys_u8, keys_u16, keys_u32, keys_u64, keys_f32, keys_f64,
    flags_u8, flags_u16, flags_u32, flags_u64,
    offsets_i32, offsets_u32, offsets_i64, offsets_u64,
};

constexpr bool is_offsets_kind(builtin_segment_kind k) {
    return k >= builtin_segment_kind::offsets_i32;
}

/// One precompiled segmented-scan call.
struct builtin_segmented_request {
    const void* in = nullptr;
    void* out = nullptr;
    std::int64_t n = 0;
    bool exclusive = false;
    bool has_init = false;
    alignas(8) unsigned char init[8] = {};
    builtin_segment_kind kind = builtin_segment_kind::keys_u32;
    const void* segments = nullptr;  // keys, flags, or the first offset
    std::int64_t offset_count = 0;   // offsets: k + 1 (at least 1)
    stream_t stream = nullptr;
    temp_allocator alloc;
    const char* name = "segmented_scan";
};

/// Defined in src/cuda/segmented_builtin.cu. The offsets form waits for the stream and throws
/// std::invalid_argument for invalid offsets (as the nvcc-compiled path does).
void segmented_scan_builtin(builtin_type type, builtin_op op, const builtin_segmented_request& r);

// ---- which segment descriptions have precompiled kernels ---------------------------------------

template <class T>
constexpr int builtin_width_code() {  // 0..3 for 1, 2, 4, 8 bytes; -1 otherwise
    return sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : sizeof(T) == 8 ? 3 : -1;
}

template <class Segs>
struct builtin_segment_kind_of {
    static constexpr int value = -1;
};

template <class K, class KeyEq>
struct builtin_segment_kind_of<key_heads<K*, KeyEq>> {
    using key = std::remove_cv_t<K>;
    using eq = std::remove_cvref_t<KeyEq>;
    static constexpr bool builtin_eq =
        std::is_same_v<eq, std::equal_to<>> || std::is_same_v<eq, std::equal_to<key>>;
    static constexpr int value = [] {
        using B = builtin_segment_kind;
        if constexpr (!builtin_eq) return -1;
        else if constexpr (std::is_same_v<key, float>) return static_cast<int>(B::keys_f32);
        else if constexpr (std::is_same_v<key, double>) return static_cast<int>(B::keys_f64);
        else if constexpr (std::is_integral_v<key> && builtin_width_code<key>() >= 0)
            return static_cast<int>(B::keys_u8) + builtin_width_code<key>();
        else return -1;
    }();
};

template <class F>
struct builtin_segment_kind_of<flag_heads<F*>> {
    using flag = std::remove_cv_t<F>;
    static constexpr int value = [] {
        if constexpr (std::is_integral_v<flag> && builtin_width_code<flag>() >= 0)
            return static_cast<int>(builtin_segment_kind::flags_u8) + builtin_width_code<flag>();
        else return -1;
    }();
};

template <class O>
struct builtin_segment_kind_of<offset_segments<O*>> {
    using off = std::remove_cv_t<O>;
    static constexpr int value = [] {
        using B = builtin_segment_kind;
        if constexpr (!std::is_integral_v<off> || std::is_same_v<off, bool>) return -1;
        else if constexpr (sizeof(off) == 4)
            return static_cast<int>(std::is_signed_v<off> ? B::offsets_i32 : B::offsets_u32);
        else if constexpr (sizeof(off) == 8)
            return static_cast<int>(std::is_signed_v<off> ? B::offsets_i64 : B::offsets_u64);
        else return -1;
    }();
};

/// What a host-compiled segmented scan may use: raw pointers to one built-in value type
/// throughout (the init, if any, converted to it), a built-in operator and a precompiled segment
/// description.
template <class Acc, class In, class Out, class Segs, class Op>
inline constexpr bool host_callable_segmented_v =
    is_builtin_type_v<Acc> && std::is_pointer_v<In> && std::is_pointer_v<Out> &&
    std::is_same_v<std::remove_cv_t<std::remove_pointer_t<In>>, Acc> &&
    std::is_same_v<std::remove_pointer_t<Out>, Acc> && builtin_op_index<Op, Acc>() >= 0 &&
    builtin_segment_kind_of<Segs>::value >= 0;

}  // namespace sweep::detail::cuda
