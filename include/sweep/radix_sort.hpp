// sweep/radix_sort.hpp -- public layer: stable radix sort, in place on the caller's range.
//
// Keys: signed and unsigned integers of 1 to 8 bytes, float, double (IEEE 754 totalOrder, see
// detail/radix_traits.hpp). Values: any trivially copyable type. Stable in both directions:
// equal keys keep their input order, also with sweep::descending.
#pragma once

#include <cstdint>
#include <type_traits>

#include <sweep/detail/checks.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/radix_traits.hpp>
#include <sweep/functional.hpp>

#include <sweep/backend/seq/radix_sort.hpp>
#if SWEEP_HAS_TBB && __has_include(<sweep/backend/tbb/radix_sort.hpp>)
#include <sweep/backend/tbb/radix_sort.hpp>
#define SWEEP_HAS_PAR_RADIX_SORT 1
#endif
#if SWEEP_HAS_CUDA && __has_include(<sweep/backend/cuda/radix_sort.hpp>)
#include <sweep/backend/cuda/iterators.hpp>
#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/backend/cuda/radix_sort.hpp>
#define SWEEP_HAS_GPU_RADIX_SORT 1
#endif

namespace sweep {

namespace detail {

template <class Tag>
inline constexpr bool radix_backend_exists_v =
    std::is_same_v<Tag, seq_tag>
#ifdef SWEEP_HAS_PAR_RADIX_SORT
    || std::is_same_v<Tag, par_tag>
#endif
#ifdef SWEEP_HAS_GPU_RADIX_SORT
    || std::is_same_v<Tag, gpu_tag>
#endif
    ;

/// Whether sweep::automatic may send this sort to the GPU from this translation unit: when the GPU
/// radix sort is built in (it lands with its own issue), for raw or Thrust device pointers under
/// nvcc, and from other compilers in the shape of its precompiled kernels (raw pointers to
/// writable built-in keys; values, if any, of 4 or 8 bytes).
template <class KeyIt, class ValIt>
constexpr bool radix_sort_on_gpu() {
#if defined(SWEEP_HAS_GPU_RADIX_SORT) && defined(__CUDACC__)
    return !cuda::is_known_host_iterator_v<KeyIt> && !cuda::is_known_host_iterator_v<ValIt> &&
           std::is_pointer_v<decltype(cuda::unwrap(std::declval<KeyIt>()))> &&
           (std::is_same_v<ValIt, no_values> ||
            std::is_pointer_v<decltype(cuda::unwrap(std::declval<ValIt>()))>);
#elif defined(SWEEP_HAS_GPU_RADIX_SORT)
    if constexpr (!std::is_pointer_v<KeyIt>) {
        return false;
    } else {
        using K = std::remove_pointer_t<KeyIt>;
        if constexpr (std::is_const_v<K> || !cuda::is_builtin_type_v<K>) return false;
        else if constexpr (std::is_same_v<ValIt, no_values>) return true;
        else if constexpr (!std::is_pointer_v<ValIt>) return false;
        else
            return !std::is_const_v<std::remove_pointer_t<ValIt>> &&
                   (sizeof(std::remove_pointer_t<ValIt>) == 4 ||
                    sizeof(std::remove_pointer_t<ValIt>) == 8);
    }
#else
    return false;
#endif
}

template <bool Descending, class P, class KeyIt, class ValIt>
void radix_sort_entry(const char* name, const P& policy, KeyIt first, KeyIt last,
                      ValIt values) {
    static_assert(radix_key<value_t<KeyIt>>,
                  "sweep::radix_sort: keys must be integers of 1 to 8 bytes, float or double");
    if constexpr (!std::is_same_v<ValIt, no_values>)
        static_assert(std::is_trivially_copyable_v<value_t<ValIt>>,
                      "sweep::radix_sort_by_key: values must be trivially copyable");
    const std::int64_t n = checked_distance(name, first, last);
    const auto where = [&] {
        if constexpr (std::is_same_v<ValIt, no_values>)
            return locate<radix_sort_on_gpu<KeyIt, ValIt>()>(name, first);
        else return locate<radix_sort_on_gpu<KeyIt, ValIt>()>(name, first, values);
    }();
    invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
        if constexpr (radix_backend_exists_v<decltype(tag)>) {
            radix_sort<Descending>(tag, pol, first, n, values);
        } else {
            static_assert(dependent_false<decltype(tag)>,
                          "sweep::gpu: radix_sort is not available on the GPU backend yet");
        }
    });
}

}  // namespace detail

namespace algo {
/// sweep::radix_sort, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct radix_sort_fn {
    template <execution_policy P, detail::random_access KeyIt>
    void operator()(P&& policy, KeyIt first, KeyIt last) const {
        detail::radix_sort_entry<false>("radix_sort", policy, first, last, detail::no_values{});
    }

    template <execution_policy P, detail::random_access KeyIt>
    void operator()(P&& policy, KeyIt first, KeyIt last, descending_t) const {
        detail::radix_sort_entry<true>("radix_sort", policy, first, last, detail::no_values{});
    }
};
}  // namespace algo
inline constexpr algo::radix_sort_fn radix_sort{};

namespace algo {
/// sweep::radix_sort_by_key, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct radix_sort_by_key_fn {
    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt>
    void operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first) const {
        detail::radix_sort_entry<false>("radix_sort_by_key", policy, keys_first, keys_last,
                                        values_first);
    }

    template <execution_policy P, detail::random_access KeyIt, detail::random_access ValIt>
    void operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                           descending_t) const {
        detail::radix_sort_entry<true>("radix_sort_by_key", policy, keys_first, keys_last,
                                       values_first);
    }
};
}  // namespace algo
inline constexpr algo::radix_sort_by_key_fn radix_sort_by_key{};

}  // namespace sweep
