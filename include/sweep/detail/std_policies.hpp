// sweep/detail/std_policies.hpp -- dispatch layer: names the standard execution policy types.
//
// <execution> costs about a second of compile time with libstdc++ (it drags in the parallel
// algorithms and their TBB backend). The policy classes themselves live in a small header of
// libstdc++'s PSTL, and std::execution::X is the very same type, so we include only that one.
#pragma once

#include <type_traits>

#if defined(__GLIBCXX__) && __has_include(<pstl/execution_defs.h>)
#include <pstl/pstl_config.h>
#include <pstl/execution_defs.h>
namespace sweep::detail::std_policies {
using __pstl::execution::parallel_policy;
using __pstl::execution::parallel_unsequenced_policy;
using __pstl::execution::sequenced_policy;
using __pstl::execution::unsequenced_policy;  // libstdc++'s PSTL has had it since GCC 9
#define SWEEP_STD_HAS_UNSEQ 1
}  // namespace sweep::detail::std_policies
#else
#include <execution>
namespace sweep::detail::std_policies {
using std::execution::parallel_policy;
using std::execution::parallel_unsequenced_policy;
using std::execution::sequenced_policy;
#if defined(__cpp_lib_execution) && __cpp_lib_execution >= 201902L
using std::execution::unsequenced_policy;
#define SWEEP_STD_HAS_UNSEQ 1
#endif
}  // namespace sweep::detail::std_policies
#endif

#ifndef SWEEP_STD_HAS_UNSEQ
#define SWEEP_STD_HAS_UNSEQ 0
#endif
