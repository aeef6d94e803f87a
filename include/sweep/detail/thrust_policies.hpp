// sweep/detail/thrust_policies.hpp -- dispatch layer: Thrust's policies in sweep's argument position.
//
// Included by dispatch.hpp when Thrust was included first (THRUST_VERSION) or when
// SWEEP_THRUST_INTEROP is defined; <sweep/thrust.hpp> includes both in the right order.
//   thrust::host                                 -> sweep::par
//   thrust::device, thrust::cuda::par            -> sweep::gpu
//   thrust::cuda::par.on(s), par_nosync.on(s)    -> sweep::gpu.on(s)
#pragma once

#include <type_traits>

#include <thrust/execution_policy.h>

#include <sweep/execution.hpp>

namespace sweep::detail {

template <>
struct policy_traits<std::remove_cv_t<decltype(thrust::host)>> {
    using tag = par_tag;
    static constexpr par_policy<> convert(const std::remove_cv_t<decltype(thrust::host)>&) noexcept {
        return {};
    }
};

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
// thrust::device is thrust::cuda::par itself in current CCCL; older versions had a type of its own.
struct thrust_device_is_cuda_par;
using thrust_device_t =
    std::conditional_t<std::is_same_v<std::remove_cv_t<decltype(thrust::device)>,
                                      thrust::cuda_cub::par_t>,
                       thrust_device_is_cuda_par, std::remove_cv_t<decltype(thrust::device)>>;

template <>
struct policy_traits<thrust_device_t> {
    using tag = gpu_tag;
    static constexpr gpu_policy<> convert(const thrust_device_t&) noexcept { return {}; }
};

template <>
struct policy_traits<thrust::cuda_cub::par_t> {
    using tag = gpu_tag;
    static constexpr gpu_policy<> convert(const thrust::cuda_cub::par_t&) noexcept { return {}; }
};

template <>
struct policy_traits<thrust::cuda_cub::execute_on_stream> {
    using tag = gpu_tag;
    static gpu_policy<> convert(const thrust::cuda_cub::execute_on_stream& p) noexcept {
        return gpu.on(get_stream(p));  // get_stream: Thrust's hidden friend, found by ADL
    }
};

template <>
struct policy_traits<thrust::cuda_cub::execute_on_stream_nosync> {
    using tag = gpu_tag;
    static gpu_policy<> convert(const thrust::cuda_cub::execute_on_stream_nosync& p) noexcept {
        return gpu.on(get_stream(p));
    }
};
#endif

}  // namespace sweep::detail
