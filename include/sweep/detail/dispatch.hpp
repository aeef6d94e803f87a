// sweep/detail/dispatch.hpp -- dispatch layer: the one place that looks at a policy.
//
// policy_traits<P> maps every accepted policy type (sweep's own, the standard ones, Thrust's) to
// a backend tag and to the sweep policy value it stands for. The public entry points call
// `detail::to_sweep(policy)` once and then overload the backend call on `backend_t<P>`.
#pragma once

#include <cstdint>
#include <type_traits>

#include <sweep/detail/config.hpp>
#include <sweep/execution.hpp>
#include <sweep/detail/std_policies.hpp>

namespace sweep::detail {

struct seq_tag {};
struct par_tag {};
struct gpu_tag {};
struct automatic_tag {};

template <class P>
struct policy_traits {};  // not a policy: no `tag`

template <unsigned F>
struct policy_traits<seq_policy<F>> {
    using tag = seq_tag;
    static constexpr seq_policy<F> convert(const seq_policy<F>& p) noexcept { return p; }
};
template <unsigned F>
struct policy_traits<par_policy<F>> {
    using tag = par_tag;
    static constexpr par_policy<F> convert(const par_policy<F>& p) noexcept { return p; }
};
template <unsigned F, class R>
struct policy_traits<gpu_policy<F, R>> {
    using tag = gpu_tag;
    static constexpr gpu_policy<F, R> convert(const gpu_policy<F, R>& p) noexcept { return p; }
};
template <unsigned F, class R>
struct policy_traits<automatic_policy<F, R>> {
    using tag = automatic_tag;
    static constexpr automatic_policy<F, R> convert(const automatic_policy<F, R>& p) noexcept {
        return p;
    }
};

// std::execution::seq -> sweep::seq; par, par_unseq, unseq -> sweep::par.
template <>
struct policy_traits<std_policies::sequenced_policy> {
    using tag = seq_tag;
    static constexpr seq_policy<> convert(const std_policies::sequenced_policy&) noexcept {
        return {};
    }
};
template <>
struct policy_traits<std_policies::parallel_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(const std_policies::parallel_policy&) noexcept {
        return {};
    }
};
template <>
struct policy_traits<std_policies::parallel_unsequenced_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(
        const std_policies::parallel_unsequenced_policy&) noexcept {
        return {};
    }
};
#if SWEEP_STD_HAS_UNSEQ
template <>
struct policy_traits<std_policies::unsequenced_policy> {
    using tag = par_tag;
    static constexpr par_policy<> convert(const std_policies::unsequenced_policy&) noexcept {
        return {};
    }
};
#endif

}  // namespace sweep::detail

namespace sweep {

/// Anything sweep accepts in the policy position.
template <class P>
concept execution_policy =
    requires { typename detail::policy_traits<std::remove_cvref_t<P>>::tag; };

}  // namespace sweep

namespace sweep::detail {

template <class P>
using backend_t = typename policy_traits<std::remove_cvref_t<P>>::tag;

/// The sweep policy value a policy stands for.
template <class P>
constexpr auto to_sweep(const P& p) noexcept {
    return policy_traits<std::remove_cvref_t<P>>::convert(p);
}

template <class P>
using sweep_policy_t = decltype(to_sweep(std::declval<const P&>()));

template <class P>
inline constexpr bool is_gpu_v = std::is_same_v<backend_t<P>, gpu_tag>;

}  // namespace sweep::detail

#if defined(THRUST_VERSION) || defined(SWEEP_THRUST_INTEROP)
#include <sweep/detail/thrust_policies.hpp>
#endif

namespace sweep::detail {

/// Below this many elements, sweep::automatic runs host data on one thread. Placeholder until
/// the automatic-selection issue measures it on the GPU machine's host (docs/api.md).
inline constexpr std::int64_t automatic_seq_below = std::int64_t{1} << 15;

/// Calls f(tag, sweep_policy) with the backend that will run the call. This is where policies
/// that decide late (sweep::automatic) decide, and where a missing backend is reported.
template <class P, class F>
decltype(auto) invoke_backend(const P& policy, std::int64_t n, F&& f) {
    using tag = backend_t<P>;
    static_assert(!std::is_same_v<tag, gpu_tag> || SWEEP_HAS_CUDA,
                  "sweep::gpu: the GPU backend is not built. Configure sweep with a CUDA toolkit "
                  "and SWEEP_ENABLE_CUDA=ON, or use sweep::par / sweep::seq.");
    const auto p = to_sweep(policy);
    if constexpr (std::is_same_v<tag, automatic_tag>) {
        constexpr unsigned flags = std::remove_cvref_t<decltype(p)>::numerics;
        if (n < automatic_seq_below) return f(seq_tag{}, seq_policy<flags>{});
        if constexpr (SWEEP_HAS_TBB) {
            return f(par_tag{}, par_policy<flags>{p.max_threads});
        } else {
            return f(seq_tag{}, seq_policy<flags>{});
        }
    } else if constexpr (std::is_same_v<tag, par_tag> && !SWEEP_HAS_TBB) {
        // Built without oneTBB: sweep::par keeps its meaning (same results) on one thread.
        return f(seq_tag{}, seq_policy<std::remove_cvref_t<decltype(p)>::numerics>{});
    } else {
        return f(tag{}, p);
    }
}

}  // namespace sweep::detail
