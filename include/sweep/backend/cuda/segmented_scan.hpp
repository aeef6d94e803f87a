// sweep/backend/cuda/segmented_scan.hpp -- GPU backend, host side: the segmented-scan entry found
// by ADL on gpu_tag.
//
// Checks what can only be checked here (host iterators at compile time, host pointers at run
// time), unwraps Thrust pointers in the values, the output and the segment description, then
// instantiates the engine (dispatch/segmented_scan.cuh) in translation units compiled by nvcc, or
// calls the kernels precompiled in the library (segmented_precompiled.hpp: built-in types and
// operators, segments as raw pointers) from other compilers; anything else from those fails to
// compile with a message that says so.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/backend/cuda/iterators.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/backend/cuda/segmented_precompiled.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/detail/segments.hpp>

#if defined(__CUDACC__)
#include <sweep/backend/cuda/dispatch/segmented_scan.cuh>
#endif

namespace sweep::detail {

namespace cuda {

template <class It>
void require_device_pointer(It it, const char* name, const char* what) {
    if constexpr (std::is_pointer_v<It>) {
        if (!is_device_accessible(static_cast<const void*>(it))) throw_invalid_argument(name, what);
    }
}

/// Per segment form: whether it holds a known host iterator, and its device form.
template <class Segs>
struct segments_on_device;

template <class KeyIt, class KeyEq>
struct segments_on_device<key_heads<KeyIt, KeyEq>> {
    static constexpr bool host_iterator = is_known_host_iterator_v<KeyIt>;
    static auto convert(const key_heads<KeyIt, KeyEq>& s, const char* name) {
        auto keys = unwrap(s.keys);
        require_device_pointer(keys, name, "the keys are not device or managed memory (sweep::gpu)");
        return key_heads<decltype(keys), KeyEq>{keys, s.key_eq};
    }
    template <class D>
    static bool aligned16(const D& d) {
        if constexpr (std::is_pointer_v<decltype(d.keys)>)
            return reinterpret_cast<std::uintptr_t>(d.keys) % 16 == 0;
        else return false;
    }
};

template <class FlagIt>
struct segments_on_device<flag_heads<FlagIt>> {
    static constexpr bool host_iterator = is_known_host_iterator_v<FlagIt>;
    static auto convert(const flag_heads<FlagIt>& s, const char* name) {
        auto flags = unwrap(s.flags);
        require_device_pointer(flags, name,
                               "the head flags are not device or managed memory (sweep::gpu)");
        return flag_heads<decltype(flags)>{flags};
    }
    template <class D>
    static bool aligned16(const D& d) {
        if constexpr (std::is_pointer_v<decltype(d.flags)>)
            return reinterpret_cast<std::uintptr_t>(d.flags) % 16 == 0;
        else return false;
    }
};

template <class OffIt>
struct segments_on_device<offset_segments<OffIt>> {
    static constexpr bool host_iterator = is_known_host_iterator_v<OffIt>;
    static auto convert(const offset_segments<OffIt>& s, const char* name) {
        auto first = unwrap(s.first);
        auto last = unwrap(s.last);
        if (last - first > 0)
            require_device_pointer(first, name,
                                   "the offsets are not device or managed memory (sweep::gpu)");
        return offset_segments<decltype(first)>{first, last};
    }
    template <class D>
    static bool aligned16(const D&) {
        return false;  // read by a search, never as vectors
    }
};

/// Whether the GPU backend can run this segmented scan in this translation unit (what
/// sweep::automatic asks before it sends a call here).
template <unsigned Flags, class Acc, class In, class Out, class Segs, class Op>
inline constexpr bool segmented_runs_here_v =
#if defined(__CUDACC__)
    !is_known_host_iterator_v<In> && !is_known_host_iterator_v<Out> &&
    !segments_on_device<Segs>::host_iterator && std::is_trivially_copyable_v<Acc>;
#else
    (Flags & numerics_deterministic) == 0 && host_callable_segmented_v<Acc, In, Out, Segs, Op>;
#endif

}  // namespace cuda

template <bool Exclusive, class Acc, class P, class In, class Out, class Segs, class Op,
          class Init>
Out segmented_scan(gpu_tag, const P& policy, const char* name, In first, std::int64_t n,
                   Out d_first, const Segs& segs, Op op, Init init) {
    using seg_traits = cuda::segments_on_device<Segs>;
    static_assert(!cuda::is_known_host_iterator_v<In> && !cuda::is_known_host_iterator_v<Out> &&
                      !seg_traits::host_iterator,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them (values, output, keys, flags "
                  "and offsets alike).");
    static_assert(std::is_trivially_copyable_v<Acc>,
                  "sweep::gpu: the scan's value type (the accumulator) must be trivially copyable.");
#if !defined(__CUDACC__)
    constexpr bool ordered = (P::numerics & numerics_deterministic) != 0;
    static_assert(cuda::host_callable_segmented_v<Acc, In, Out, Segs, Op>,
                  "sweep::gpu segmented scans from a translation unit not compiled by nvcc: only "
                  "the precompiled kernels are available, i.e. raw device pointers to one "
                  "built-in value type (8-64-bit integers, float, double; output and init of "
                  "that same type), sweep::plus/minimum/maximum or std::plus, and segments given "
                  "as raw pointers: keys of a built-in type with std::equal_to, integer head "
                  "flags, or 32/64-bit offsets. Compile this call site with nvcc (a .cu file) "
                  "for custom types, operators, key comparisons or iterators.");
    static_assert(!ordered,
                  "sweep::gpu.deterministic() segmented scans from host-compiled code: not yet "
                  "precompiled. Compile this call site with nvcc.");
    cuda::builtin_segmented_request r;
    r.kind = static_cast<cuda::builtin_segment_kind>(cuda::builtin_segment_kind_of<Segs>::value);
    if constexpr (cuda::is_offset_segments_v<Segs>) {
        const std::int64_t count = static_cast<std::int64_t>(segs.last - segs.first);
        if (count < 0) throw_invalid_argument(name, "offsets: o_last < o_first");
        if (count == 0) {
            if (n != 0) throw_invalid_argument(name, "offsets: empty, but the input is not");
            return d_first;
        }
        cuda::require_device_pointer(segs.first, name,
                                     "the offsets are not device or managed memory (sweep::gpu)");
        r.segments = segs.first;
        r.offset_count = count;
    } else {
        if (n == 0) return d_first;  // touches nothing, as for scans
        const void* heads = nullptr;
        if constexpr (requires { segs.keys; }) {
            heads = segs.keys;
            cuda::require_device_pointer(segs.keys, name,
                                         "the keys are not device or managed memory (sweep::gpu)");
        } else {
            heads = segs.flags;
            cuda::require_device_pointer(
                segs.flags, name, "the head flags are not device or managed memory (sweep::gpu)");
        }
        r.segments = heads;
    }
    if (n > 0) {
        cuda::require_device_pointer(first, name,
                                     "the input is not device or managed memory (sweep::gpu)");
        cuda::require_device_pointer(d_first, name,
                                     "the output is not device or managed memory (sweep::gpu)");
    }
    r.in = first;
    r.out = d_first;
    r.n = n;
    r.exclusive = Exclusive;
    r.has_init = has_init_v<Init>;
    if constexpr (has_init_v<Init>) {
        const Acc v = static_cast<Acc>(init);
        std::memcpy(r.init, &v, sizeof(Acc));
    }
    r.stream = policy.has_stream ? policy.stream : nullptr;
    r.alloc = cuda::make_temp_allocator(policy.resource);
    r.name = name;
    cuda::segmented_scan_builtin(static_cast<cuda::builtin_type>(cuda::builtin_type_index<Acc>()),
                                 static_cast<cuda::builtin_op>(cuda::builtin_op_index<Op, Acc>()),
                                 r);
    (void)op;
    if (!policy.has_stream) cuda::synchronize(r.stream, name);
    return d_first + n;
#else
    constexpr bool offsets = cuda::is_offset_segments_v<Segs>;
    auto in = cuda::unwrap(first);
    auto out = cuda::unwrap(d_first);
    if constexpr (!offsets) {
        if (n == 0) return d_first;  // touches nothing: no pointer is even checked, as for scans
    }
    const auto dsegs = seg_traits::convert(segs, name);
    if constexpr (offsets) {
        // An empty offsets range describes only an empty input; nothing to read on the device.
        if (dsegs.last - dsegs.first <= 0) {
            if (dsegs.last - dsegs.first < 0) throw_invalid_argument(name, "offsets: o_last < o_first");
            if (n != 0) throw_invalid_argument(name, "offsets: empty, but the input is not");
            return d_first;
        }
    }
    if (n > 0) {
        cuda::require_device_pointer(in, name,
                                     "the input is not device or managed memory (sweep::gpu)");
        cuda::require_device_pointer(out, name,
                                     "the output is not device or managed memory (sweep::gpu)");
    }

    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const cuda::temp_allocator alloc = cuda::make_temp_allocator(policy.resource);
    constexpr bool ordered = (P::numerics & numerics_deterministic) != 0;

    cuda::reg_array<Acc, 1> init_value;
    if constexpr (has_init_v<Init>) init_value[0] = static_cast<Acc>(init);
    cuda::launch_segmented_scan<cuda::default_segmented_tuning<Acc>, ordered, Acc>(
        name, in, out, n, op, dsegs, init_value, Exclusive, has_init_v<Init>,
        seg_traits::aligned16(dsegs), s, alloc);
    if (!policy.has_stream) cuda::synchronize(s, name);
    return d_first + n;
#endif
}

}  // namespace sweep::detail
