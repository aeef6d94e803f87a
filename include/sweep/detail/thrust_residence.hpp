// sweep/detail/thrust_residence.hpp -- dispatch layer: where Thrust iterators live, for
// sweep::automatic (detail/dispatch.hpp's iterator_residence).
//
// thrust::iterator_system names each iterator's system: the CUDA device system -> device (the GPU,
// decided at compile time); any_system (counting, constant, discard iterators) -> neutral (they
// follow the call's other iterators); anything else -> host. Included by dispatch.hpp when a
// Thrust header came first, with SWEEP_THRUST_INTEROP, and in every nvcc-compiled translation unit
// of a CUDA build (only Thrust's light iterator-traits header).
#pragma once

#include <type_traits>

#include <thrust/iterator/detail/any_system_tag.h>
#include <thrust/iterator/iterator_traits.h>

namespace sweep::detail {

template <class It>
    requires(!std::is_pointer_v<It> && requires { typename thrust::iterator_system<It>::type; })
struct iterator_residence<It> {
    using system = std::remove_cv_t<typename thrust::iterator_system<It>::type>;
    static constexpr residence value =
        std::is_same_v<system, thrust::any_system_tag> ? residence::neutral
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
        : std::is_convertible_v<system, thrust::device_system_tag> ? residence::device
#endif
                                                                   : residence::host;
};

}  // namespace sweep::detail
