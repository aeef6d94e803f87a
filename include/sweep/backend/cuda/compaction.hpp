// sweep/backend/cuda/compaction.hpp -- GPU backend, host side: copy_if, partition_copy, partition
// and stable_partition on gpu_tag (found by ADL from <sweep/copy_if.hpp>, <sweep/partition.hpp>).
//
// Checks what can only be checked here (host iterators at compile time, host pointers at run
// time), unwraps Thrust pointers, then either instantiates the engine (translation units compiled
// by nvcc: any trivially copyable type, any predicate, any device iterator) or calls the kernels
// precompiled in the library (other compilers: built-in types on raw pointers with the
// comparison predicates of <sweep/functional.hpp>). Every call waits for its work: the iterators
// it returns depend on the kept count. docs/compaction.md describes the engine.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <sweep/backend/cuda/compaction_precompiled.hpp>
#include <sweep/backend/cuda/iterators.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>

#if defined(__CUDACC__)
#include <sweep/backend/cuda/dispatch/compaction.cuh>
#endif

namespace sweep::detail {

namespace cuda {

template <class It>
void check_device_iterator(It it, const char* name, const char* what) {
    if constexpr (std::is_pointer_v<It>) {
        if (!is_device_accessible(static_cast<const void*>(it))) throw_invalid_argument(name, what);
    } else {
        (void)it;
        (void)name;
        (void)what;
    }
}

/// Raw pointers are read through const pointers, so that copy_if from T* and from const T*,
/// partition_copy and the in-place pass share their kernels.
template <class It>
auto as_input(It it) {
    if constexpr (std::is_pointer_v<It>) return static_cast<const std::remove_pointer_t<It>*>(it);
    else return it;
}

template <class It>
using pointee_t = std::remove_cv_t<std::remove_pointer_t<It>>;

/// Raw pointers to one built-in type T (outputs non-const).
template <class In, class T>
inline constexpr bool builtin_input_v =
    std::is_pointer_v<In> && is_builtin_type_v<T> && std::is_same_v<pointee_t<In>, T>;
template <class Out, class T>
inline constexpr bool builtin_output_v =
    std::is_pointer_v<Out> && std::is_same_v<std::remove_pointer_t<Out>, T>;

template <class In, class Stencil, class Out, class Pred>
inline constexpr bool host_callable_copy_if_v =
    builtin_input_v<In, pointee_t<In>> && builtin_input_v<Stencil, pointee_t<Stencil>> &&
    builtin_output_v<Out, pointee_t<In>> && builtin_compare_index<Pred, pointee_t<Stencil>>() >= 0;

template <class In, class OutT, class OutF, class Pred>
inline constexpr bool host_callable_partition_v =
    builtin_input_v<In, pointee_t<In>> && builtin_output_v<OutT, pointee_t<In>> &&
    builtin_output_v<OutF, pointee_t<In>> && builtin_compare_index<Pred, pointee_t<In>>() >= 0;

template <class It>
inline constexpr bool rejected_host_iterator_v = is_known_host_iterator_v<It>;

/// The element type of an iterator, as the engine stores it.
template <class It>
using element_t = std::remove_cv_t<value_t<It>>;

// Whether the GPU backend can run these calls in this translation unit (what sweep::automatic asks
// before it sends a call here): any device iterators under nvcc, the precompiled kernels' shape
// otherwise.
template <class In>
using input_t = std::remove_const_t<decltype(as_input(std::declval<In>()))>;

template <class In, class Stencil, class Out, class Pred>
inline constexpr bool copy_if_runs_here_v =
#if defined(__CUDACC__)
    !rejected_host_iterator_v<In> && !rejected_host_iterator_v<Stencil> &&
    !rejected_host_iterator_v<Out>;
#else
    host_callable_copy_if_v<input_t<In>, input_t<Stencil>, Out, Pred>;
#endif

template <class In, class OutT, class OutF, class Pred>
inline constexpr bool partition_copy_runs_here_v =
#if defined(__CUDACC__)
    !rejected_host_iterator_v<In> && !rejected_host_iterator_v<OutT> &&
    !rejected_host_iterator_v<OutF>;
#else
    host_callable_partition_v<input_t<In>, OutT, OutF, Pred>;
#endif

template <class It, class Pred>
inline constexpr bool partition_runs_here_v = partition_copy_runs_here_v<It, It, It, Pred>;

#if !defined(__CUDACC__)
template <class T>
void set_builtin_value_type(builtin_compaction_request& r) {
    r.value_type = static_cast<builtin_type>(builtin_type_index<T>());
}
#endif

}  // namespace cuda

template <class P, class In, class Stencil, class Out, class Pred>
Out copy_if(gpu_tag, const P& policy, In first, std::int64_t n, Stencil stencil, Out d_first,
            Pred pred) {
    static_assert(!cuda::rejected_host_iterator_v<In> && !cuda::rejected_host_iterator_v<Stencil> &&
                      !cuda::rejected_host_iterator_v<Out>,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them.");
    if (n == 0) return d_first;
    constexpr const char* name = "copy_if";
    const auto in = cuda::as_input(cuda::unwrap(first));
    const auto st = cuda::as_input(cuda::unwrap(stencil));
    const auto out = cuda::unwrap(d_first);
    using in_t = std::remove_const_t<decltype(in)>;
    using st_t = std::remove_const_t<decltype(st)>;
    static_assert(std::is_trivially_copyable_v<cuda::element_t<in_t>>,
                  "sweep::gpu: copy_if needs a trivially copyable value type.");
    bool stencil_is_input = false;
    if constexpr (std::is_same_v<in_t, st_t>) stencil_is_input = in == st;
    cuda::check_device_iterator(in, name, "the input is not device or managed memory (sweep::gpu)");
    if (!stencil_is_input)
        cuda::check_device_iterator(st, name,
                                    "the stencil is not device or managed memory (sweep::gpu)");
    cuda::check_device_iterator(out, name,
                                "the output is not device or managed memory (sweep::gpu)");
    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const cuda::temp_allocator alloc = cuda::make_temp_allocator(policy.resource);

#if defined(__CUDACC__)
    using tuning = cuda::default_compaction_tuning<cuda::element_t<in_t>>;
    const std::int64_t kept = cuda::run_compaction<tuning>(name, in, st, stencil_is_input, out, out,
                                                           false, false, n, pred, s, alloc);
#else
    static_assert(cuda::host_callable_copy_if_v<in_t, st_t, std::remove_const_t<decltype(out)>,
                                                Pred>,
                  "sweep::gpu stream compaction from a translation unit not compiled by nvcc: "
                  "only the precompiled kernels are available, i.e. raw device pointers to one "
                  "built-in element type (8-64-bit integers, float, double; a stencil of a "
                  "built-in type too) and a predicate of <sweep/functional.hpp> on the element "
                  "(or stencil) type exactly: sweep::greater_than<T>, greater_or_equal<T>, "
                  "less_than<T>, less_or_equal<T>, equal_to_value<T>, not_equal_to_value<T>, or "
                  "sweep::nonzero<>. Compile this call site with nvcc (a .cu file) for other "
                  "types, predicates or iterators.");
    cuda::builtin_compaction_request r;
    r.in = in;
    r.stencil = stencil_is_input ? nullptr : static_cast<const void*>(st);
    r.out_true = out;
    r.n = n;
    cuda::set_builtin_value_type<cuda::pointee_t<in_t>>(r);
    cuda::set_builtin_predicate<cuda::pointee_t<st_t>>(r, pred);
    r.mode = cuda::builtin_compaction_mode::select;
    r.stream = s;
    r.alloc = alloc;
    r.name = name;
    const std::int64_t kept = cuda::compaction_builtin(r);
#endif
    return d_first + kept;
}

template <class P, class In, class OutTrue, class OutFalse, class Pred>
std::pair<OutTrue, OutFalse> partition_copy(gpu_tag, const P& policy, In first, std::int64_t n,
                                            OutTrue d_true, OutFalse d_false, Pred pred) {
    static_assert(!cuda::rejected_host_iterator_v<In> && !cuda::rejected_host_iterator_v<OutTrue> &&
                      !cuda::rejected_host_iterator_v<OutFalse>,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them.");
    if (n == 0) return {d_true, d_false};
    constexpr const char* name = "partition_copy";
    const auto in = cuda::as_input(cuda::unwrap(first));
    const auto out_t = cuda::unwrap(d_true);
    const auto out_f = cuda::unwrap(d_false);
    using in_t = std::remove_const_t<decltype(in)>;
    static_assert(std::is_trivially_copyable_v<cuda::element_t<in_t>>,
                  "sweep::gpu: partition_copy needs a trivially copyable value type.");
    cuda::check_device_iterator(in, name, "the input is not device or managed memory (sweep::gpu)");
    cuda::check_device_iterator(out_t, name,
                                "d_true is not device or managed memory (sweep::gpu)");
    cuda::check_device_iterator(out_f, name,
                                "d_false is not device or managed memory (sweep::gpu)");
    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const cuda::temp_allocator alloc = cuda::make_temp_allocator(policy.resource);

#if defined(__CUDACC__)
    using tuning = cuda::default_compaction_tuning<cuda::element_t<in_t>>;
    const std::int64_t kept = cuda::run_compaction<tuning>(name, in, in, true, out_t, out_f, true,
                                                           false, n, pred, s, alloc);
#else
    static_assert(cuda::host_callable_partition_v<in_t, std::remove_const_t<decltype(out_t)>,
                                                  std::remove_const_t<decltype(out_f)>, Pred>,
                  "sweep::gpu stream compaction from a translation unit not compiled by nvcc: "
                  "only the precompiled kernels are available, i.e. raw device pointers to one "
                  "built-in element type (8-64-bit integers, float, double) and a predicate of "
                  "<sweep/functional.hpp> on that type exactly: sweep::greater_than<T>, "
                  "greater_or_equal<T>, less_than<T>, less_or_equal<T>, equal_to_value<T>, "
                  "not_equal_to_value<T>, or sweep::nonzero<>. Compile this call site with nvcc "
                  "(a .cu file) for other types, predicates or iterators.");
    cuda::builtin_compaction_request r;
    r.in = in;
    r.out_true = out_t;
    r.out_false = out_f;
    r.n = n;
    cuda::set_builtin_value_type<cuda::pointee_t<in_t>>(r);
    cuda::set_builtin_predicate<cuda::pointee_t<in_t>>(r, pred);
    r.mode = cuda::builtin_compaction_mode::split;
    r.stream = s;
    r.alloc = alloc;
    r.name = name;
    const std::int64_t kept = cuda::compaction_builtin(r);
#endif
    return {d_true + kept, d_false + (n - kept)};
}

namespace cuda {

/// stable_partition (stable) and partition (`stable` false: the two-ended exchange pass on raw
/// pointers from 2^24 elements, unstable; the stable pass otherwise). docs/compaction.md.
template <class P, class It, class Pred>
std::int64_t partition_in_place(const char* name, const P& policy, It first, std::int64_t n,
                                Pred pred, bool stable) {
    static_assert(!rejected_host_iterator_v<It>,
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them.");
    if (n == 0) return 0;
    const auto range = unwrap(first);
    const auto in = as_input(range);
    using in_t = std::remove_const_t<decltype(in)>;
    static_assert(std::is_trivially_copyable_v<element_t<in_t>>,
                  "sweep::gpu: partition and stable_partition need a trivially copyable value "
                  "type (the rejected elements wait in a temporary).");
    check_device_iterator(in, name, "the range is not device or managed memory (sweep::gpu)");
    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const temp_allocator alloc = make_temp_allocator(policy.resource);
#if defined(__CUDACC__)
    using tuning = default_compaction_tuning<element_t<in_t>>;
    if (stable) return run_partition_in_place<tuning>(name, in, range, n, pred, s, alloc);
    return run_partition_unstable_in_place<tuning>(name, in, range, n, pred, s, alloc);
#else
    static_assert(host_callable_partition_v<in_t, std::remove_const_t<decltype(range)>,
                                            std::remove_const_t<decltype(range)>, Pred>,
                  "sweep::gpu stream compaction from a translation unit not compiled by nvcc: "
                  "only the precompiled kernels are available, i.e. raw device pointers to one "
                  "built-in element type (8-64-bit integers, float, double) and a predicate of "
                  "<sweep/functional.hpp> on that type exactly: sweep::greater_than<T>, "
                  "greater_or_equal<T>, less_than<T>, less_or_equal<T>, equal_to_value<T>, "
                  "not_equal_to_value<T>, or sweep::nonzero<>. Compile this call site with nvcc "
                  "(a .cu file) for other types, predicates or iterators.");
    builtin_compaction_request r;
    r.in = in;
    r.out_true = range;
    r.n = n;
    set_builtin_value_type<pointee_t<in_t>>(r);
    set_builtin_predicate<pointee_t<in_t>>(r, pred);
    r.mode = stable ? builtin_compaction_mode::in_place : builtin_compaction_mode::in_place_unstable;
    r.stream = s;
    r.alloc = alloc;
    r.name = name;
    return compaction_builtin(r);
#endif
}

}  // namespace cuda

template <class P, class It, class Pred>
std::int64_t stable_partition(gpu_tag, const P& policy, It first, std::int64_t n, Pred pred) {
    return cuda::partition_in_place("stable_partition", policy, first, n, pred, true);
}

template <class P, class It, class Pred>
std::int64_t partition(gpu_tag, const P& policy, It first, std::int64_t n, Pred pred) {
    // .deterministic(): the stable pass, the one result every policy gives then (docs/api.md).
    constexpr bool stable = (P::numerics & numerics_deterministic) != 0;
    return cuda::partition_in_place("partition", policy, first, n, pred, stable);
}

}  // namespace sweep::detail
