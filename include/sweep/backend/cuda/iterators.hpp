// sweep/backend/cuda/iterators.hpp -- GPU backend, host side: what kinds of iterators reach the
// engine. Thrust's device_ptr and device_vector iterators become raw pointers (so that the
// engine can use 16-byte accesses); known host iterators are rejected at compile time.
#pragma once

#include <deque>
#include <iterator>
#include <type_traits>

#if defined(__CUDACC__)
#include <thrust/device_ptr.h>
#include <thrust/iterator/detail/normal_iterator.h>
#endif

namespace sweep::detail::cuda {

template <class It>
struct is_known_host_iterator : std::false_type {};
#if defined(__GLIBCXX__)
// libstdc++'s std::vector, std::string and std::array-like iterators.
template <class P, class C>
struct is_known_host_iterator<__gnu_cxx::__normal_iterator<P, C>> : std::true_type {};
template <class T, class R, class P>
struct is_known_host_iterator<std::_Deque_iterator<T, R, P>> : std::true_type {};
#endif
template <class It>
struct is_known_host_iterator<std::reverse_iterator<It>> : is_known_host_iterator<It> {};
template <class It>
struct is_known_host_iterator<std::move_iterator<It>> : is_known_host_iterator<It> {};
#if defined(__CUDACC__)
// thrust::host_vector's iterators wrap raw host pointers.
template <class T>
struct is_known_host_iterator<thrust::detail::normal_iterator<T*>> : std::true_type {};
#endif

template <class It>
inline constexpr bool is_known_host_iterator_v = is_known_host_iterator<std::remove_cvref_t<It>>::value;

/// The iterator the engine runs on.
template <class It>
auto unwrap(It it) {
    return it;
}
#if defined(__CUDACC__)
template <class T>
T* unwrap(thrust::device_ptr<T> p) {
    return thrust::raw_pointer_cast(p);
}
template <class T>
T* unwrap(thrust::detail::normal_iterator<thrust::device_ptr<T>> it) {
    return thrust::raw_pointer_cast(it.base());
}
#endif

}  // namespace sweep::detail::cuda
