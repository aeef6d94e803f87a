// sweep/backend/cuda/radix_sort.hpp -- GPU backend, host side: radix_sort and radix_sort_by_key
// on gpu_tag (found by ADL from <sweep/radix_sort.hpp>).
//
// Checks what can only be checked here (host iterators at compile time, host pointers at run
// time), unwraps Thrust pointers, then either instantiates the engine (translation units compiled
// by nvcc: every key type, any trivially copyable value type) or calls the sorts precompiled in
// the library (other compilers: built-in keys, values of 4 or 8 bytes). Without .on(stream) the
// call waits for its work; with it, it returns once the work is enqueued. docs/radix_sort.md
// describes the engine (Onesweep on sweep's look-back).
#pragma once

#include <cstdint>
#include <type_traits>

#include <sweep/backend/cuda/iterators.hpp>
#include <sweep/backend/cuda/radix_precompiled.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/radix_traits.hpp>

#if defined(__CUDACC__)
#include <sweep/backend/cuda/dispatch/radix_sort.cuh>
#endif

namespace sweep::detail {

template <bool Descending, class P, class KeyIt, class ValIt>
void radix_sort(gpu_tag, const P& policy, KeyIt first, std::int64_t n, ValIt values) {
    constexpr bool with_values = !std::is_same_v<ValIt, no_values>;
    static_assert(!cuda::is_known_host_iterator_v<KeyIt> &&
                      (!with_values || !cuda::is_known_host_iterator_v<ValIt>),
                  "sweep::gpu: this is a host container's iterator. sweep::gpu needs device "
                  "memory: raw device pointers, thrust::device_ptr, thrust::device_vector "
                  "iterators or Thrust fancy iterators over them.");
    if (n == 0) return;
    constexpr const char* name = with_values ? "radix_sort_by_key" : "radix_sort";
    auto keys = cuda::unwrap(first);
    static_assert(std::is_pointer_v<decltype(keys)>,
                  "sweep::gpu radix_sort: keys must be raw device pointers, thrust::device_ptr or "
                  "thrust::device_vector iterators (the sort is in place on contiguous memory).");
    using K = std::remove_pointer_t<decltype(keys)>;
    static_assert(!std::is_const_v<K>, "sweep::gpu radix_sort: the keys must be writable");
    if (!cuda::is_device_accessible(static_cast<const void*>(keys)))
        throw_invalid_argument(name, "the keys are not device or managed memory (sweep::gpu)");
    const stream_t s = policy.has_stream ? policy.stream : nullptr;
    const cuda::temp_allocator alloc = cuda::make_temp_allocator(policy.resource);

    if constexpr (with_values) {
        auto vals = cuda::unwrap(values);
        static_assert(std::is_pointer_v<decltype(vals)>,
                      "sweep::gpu radix_sort_by_key: values must be raw device pointers, "
                      "thrust::device_ptr or thrust::device_vector iterators.");
        using V = std::remove_pointer_t<decltype(vals)>;
        static_assert(!std::is_const_v<V>, "sweep::gpu radix_sort_by_key: the values must be writable");
        if (!cuda::is_device_accessible(static_cast<const void*>(vals)))
            throw_invalid_argument(name,
                                   "the values are not device or managed memory (sweep::gpu)");
#if defined(__CUDACC__)
        static_assert(sizeof(V) <= 2048,
                      "sweep::gpu radix_sort_by_key: values of more than 2 KB do not fit the "
                      "sort's shared-memory tiles; sort (key, index) pairs and gather the values "
                      "by index instead.");
        cuda::run_radix_sort<cuda::default_radix_tuning<K, V>, Descending>(name, keys, vals, n, s,
                                                                           alloc);
#else
        static_assert(cuda::is_builtin_type_v<K> && (sizeof(V) == 4 || sizeof(V) == 8),
                      "sweep::gpu radix_sort_by_key from a translation unit not compiled by nvcc: "
                      "only the precompiled sorts are available, i.e. raw device pointers to "
                      "built-in keys (8-64-bit integers, float, double) and values of 4 or 8 "
                      "bytes. Compile this call site with nvcc (a .cu file) for other value "
                      "types.");
        if (reinterpret_cast<std::uintptr_t>(vals) % sizeof(V) != 0)
            throw_invalid_argument(name, "the values are not aligned to their size (the "
                                         "precompiled sorts move them as 4- or 8-byte words)");
        cuda::builtin_radix_request r;
        r.keys = keys;
        r.values = vals;
        r.n = n;
        r.key_type = static_cast<cuda::builtin_type>(cuda::builtin_type_index<K>());
        r.value_bytes = static_cast<int>(sizeof(V));
        r.descending = Descending;
        r.stream = s;
        r.alloc = alloc;
        r.name = name;
        cuda::radix_sort_builtin(r);
#endif
    } else {
        (void)values;
#if defined(__CUDACC__)
        cuda::run_radix_sort<cuda::default_radix_tuning<K, cuda::radix_no_values>, Descending>(
            name, keys, static_cast<cuda::radix_no_values*>(nullptr), n, s, alloc);
#else
        static_assert(cuda::is_builtin_type_v<K>);
        cuda::builtin_radix_request r;
        r.keys = keys;
        r.n = n;
        r.key_type = static_cast<cuda::builtin_type>(cuda::builtin_type_index<K>());
        r.descending = Descending;
        r.stream = s;
        r.alloc = alloc;
        r.name = name;
        cuda::radix_sort_builtin(r);
#endif
    }
    if (!policy.has_stream && n > 1) cuda::synchronize(s, name);
}

}  // namespace sweep::detail
