// sweep/backend/cuda/scan.hpp -- GPU backend, host side: the scan entry found by ADL on gpu_tag.
//
// Checks what can only be checked here (host iterators at compile time, host pointers at run
// time), unwraps Thrust pointers, then either instantiates the engine (translation units compiled
// by nvcc: any trivially copyable type, any operator, any device iterator) or calls the kernels
// precompiled in the library (other compilers: built-in types and operators on raw pointers).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/backend/cuda/iterators.hpp>
#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/detail/canonical.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/compensated.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>

#if defined(__CUDACC__)
#include <sweep/backend/cuda/dispatch/scan.cuh>
#endif

namespace sweep::detail {

namespace cuda {

template <class It>
void require_device_accessible(It it, const char* name, const char* what) {
    if constexpr (std::is_pointer_v<It>) {
        if (!is_device_accessible(static_cast<const void*>(it))) throw_invalid_argument(name, what);
    }
}

// What a host-compiled call may use: raw pointers to one built-in type throughout, the identity
// transform and a built-in operator.
template <class Acc, class In, class Out, class Op, class F>
inline constexpr bool host_callable_v =
    is_builtin_type_v<Acc> && std::is_pointer_v<In> && std::is_pointer_v<Out> &&
    std::is_same_v<std::remove_cv_t<std::remove_pointer_t<In>>, Acc> &&
    std::is_same_v<std::remove_pointer_t<Out>, Acc> && std::is_same_v<F, identity> &&
    builtin_op_index<Op, Acc>() >= 0;

template <class Acc>
struct comp_value {};
template <class T>
struct comp_value<comp_sum<T>> {
    using type = T;
};

// A compensated sum a host-compiled call may make: pairs of float/double over raw pointers to
// that type, no user transform.
template <class Acc, class In, class Out, class F>
inline constexpr bool host_compensated_v = false;
template <class T, class In, class Out>
inline constexpr bool host_compensated_v<comp_sum<T>, In, Out, to_comp<T, identity>> =
    is_compensable_v<T> && std::is_pointer_v<In> && std::is_pointer_v<Out> &&
    std::is_same_v<std::remove_cv_t<std::remove_pointer_t<In>>, T> &&
    std::is_same_v<std::remove_pointer_t<Out>, T>;

/// Whether the GPU backend can run this scan in this translation unit (what sweep::automatic asks
/// before it sends a call here): any device iterators under nvcc, the precompiled kernels' shape
/// otherwise.
template <unsigned Flags, class Acc, class In, class Out, class Op, class F>
inline constexpr bool scan_runs_here_v =
#if defined(__CUDACC__)
    !is_known_host_iterator_v<In> && !is_known_host_iterator_v<Out> &&
    std::is_trivially_copyable_v<Acc>;
#else
    host_compensated_v<Acc, In, Out, F> ||
    (host_callable_v<Acc, In, Out, Op, F> &&
     ((Flags & numerics_deterministic) == 0 || !std::is_floating_point_v<Acc> ||
      is_builtin_plus_v<Op, Acc>));
#endif

}  // namespace cuda

template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan(gpu_tag, const P& policy, const char* name, In first, std::int64_t n, Out d_first, Op op, F f,
         Init init) {
    static_assert(!cuda::is_known_host_iterator_v<In> && !cuda::is_known_host_iterator_v<Out>,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them.");
    static_assert(std::is_trivially_copyable_v<Acc>,
                  "sweep::gpu: the scan's value type (the accumulator) must be trivially copyable.");
    if (n == 0) return d_first;

    auto in = cuda::unwrap(first);
    auto out = cuda::unwrap(d_first);
    cuda::require_device_accessible(in, name,
                                    "the input is not device or managed memory (sweep::gpu)");
    cuda::require_device_accessible(out, name,
                                    "the output is not device or managed memory (sweep::gpu)");

    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const cuda::temp_allocator alloc = cuda::make_temp_allocator(policy.resource);
    // .deterministic() with an operator that is not exact: the canonical tree (detail/
    // canonical.hpp), i.e. the canonical geometry and the ordered look-back, on the shared-memory
    // path with the register agent's association for aligned contiguous data of one element size
    // (scan_bulk_blocked_agent), on the register path otherwise. Exact operators give the same
    // bits on the default path.
    constexpr bool canonical = use_canonical_v<P, Acc, Op>;

#if defined(__CUDACC__)
    cuda::reg_array<Acc, 1> init_value;
    if constexpr (has_init_v<Init>) init_value[0] = static_cast<Acc>(init);
    if constexpr (canonical) {
        cuda::launch_scan<cuda::canonical_scan_tuning<Acc>, true, Acc, decltype(in), decltype(out),
                          Op, F, cuda::canonical_scan_bulk_tuning<Acc>>(
            name, in, out, n, op, f, init_value, Exclusive, has_init_v<Init>, s, alloc);
    } else {
        cuda::launch_scan<cuda::default_scan_tuning<Acc>, false, Acc>(
            name, in, out, n, op, f, init_value, Exclusive, has_init_v<Init>, s, alloc);
    }
#else
    // A compensated call arrives as a scan over comp_sum<T> pairs (scan.hpp); it is precompiled
    // for T = float/double on raw pointers to T without a transform, as the sums are.
    constexpr bool comp_route = cuda::host_compensated_v<Acc, decltype(in), decltype(out), F>;
    static_assert(comp_route || cuda::host_callable_v<Acc, decltype(in), decltype(out), Op, F>,
                  "sweep::gpu from a translation unit not compiled by nvcc: only the precompiled "
                  "kernels are available, i.e. raw device pointers to one built-in element type "
                  "(8-64-bit integers, float, double; the init, if any, of that same type), no "
                  "transform, and sweep::plus/minimum/maximum or std::plus. Compile this call "
                  "site with nvcc (a .cu file) for custom types, operators or iterators.");
    static_assert(comp_route || !canonical ||
                      ((std::is_same_v<Acc, float> || std::is_same_v<Acc, double>) &&
                       is_builtin_plus_v<Op, Acc>),
                  "sweep::gpu.deterministic() from a translation unit not compiled by nvcc: "
                  "precompiled for float and double sums (and every integer scan); compile this "
                  "call site with nvcc for float min/max or other operators.");
    cuda::builtin_scan_request r;
    r.in = in;
    r.out = out;
    r.n = n;
    r.exclusive = Exclusive;
    r.has_init = has_init_v<Init>;
    r.stream = s;
    r.alloc = alloc;
    r.name = name;
    if constexpr (comp_route) {
        using T = typename cuda::comp_value<Acc>::type;
        if constexpr (has_init_v<Init>) {
            const T v = static_cast<Acc>(init).s;  // the pair (init, 0) the entry made
            std::memcpy(r.init, &v, sizeof(T));
        }
        r.numerics = numerics_compensated | (P::numerics & numerics_deterministic);
        cuda::scan_builtin(static_cast<cuda::builtin_type>(cuda::builtin_type_index<T>()),
                           cuda::builtin_op::plus, r);
    } else {
        if constexpr (has_init_v<Init>) {
            const Acc v = static_cast<Acc>(init);
            std::memcpy(r.init, &v, sizeof(Acc));
        }
        r.numerics = canonical ? numerics_deterministic : 0u;
        cuda::scan_builtin(static_cast<cuda::builtin_type>(cuda::builtin_type_index<Acc>()),
                           static_cast<cuda::builtin_op>(cuda::builtin_op_index<Op, Acc>()), r);
    }
    (void)op;
    (void)f;
#endif
    if (!policy.has_stream) cuda::synchronize(s, name);
    return d_first + n;
}

}  // namespace sweep::detail
