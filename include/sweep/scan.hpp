// sweep/scan.hpp -- public layer: inclusive and exclusive scans, plain and transform.
//
// Each entry point checks the contract, fixes the accumulator type the way the standard does
// (the input's value type, or the type of `init`), and forwards at once to the backend chosen by
// the policy. Every form reduces to one backend call:
//     scan<Exclusive, Acc>(tag, policy, name, first, n, d_first, op, transform, init_or_no_init)
// (`name`: the public algorithm's name, for error messages).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <sweep/detail/canonical.hpp>
#include <sweep/detail/checks.hpp>
#include <sweep/detail/compensated.hpp>
#include <sweep/detail/dispatch.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/functional.hpp>

#include <sweep/backend/seq/scan.hpp>
#if SWEEP_HAS_TBB
#include <sweep/backend/tbb/scan.hpp>
#endif
#if SWEEP_HAS_CUDA
#include <sweep/backend/cuda/scan.hpp>
#endif

namespace sweep {

namespace detail {

/// Whether sweep::automatic may send this scan to the GPU from this translation unit.
template <class P, class Acc, class In, class Out, class Op, class F>
constexpr bool scan_on_gpu() {
#if SWEEP_HAS_CUDA
    return cuda::scan_runs_here_v<sweep_policy_t<P>::numerics, Acc, In, Out, Op, F>;
#else
    return false;
#endif
}

template <bool Exclusive, class Acc, class P, class In, class Out, class Op, class F, class Init>
Out scan_entry(const char* name, const P& policy, In first, In last, Out d_first, Op op, F f,
               Init init) {
    const std::int64_t n = checked_distance(name, first, last);
    check_scan_aliasing(name, first, n, d_first);
    if constexpr ((sweep_policy_t<P>::numerics & numerics_compensated) != 0) {
        // .compensated(): the same scan over (sum, carry) pairs (detail/compensated.hpp); each
        // output is its pair rounded to the output type.
        static_assert(is_compensable_v<Acc> && is_builtin_plus_v<Op, Acc>,
                      "sweep: .compensated() applies to sum scans over float or double only: the "
                      "accumulator (the value type, or the type of init) must be float or double "
                      "and the operator sweep::plus or std::plus. Drop .compensated() for other "
                      "operators or types.");
        using C = comp_sum<Acc>;
        auto cf = to_comp<Acc, F>{std::move(f)};
        const auto where = locate<scan_on_gpu<P, C, In, Out, comp_plus<Acc>, to_comp<Acc, F>>()>(
            name, first, d_first);
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            if constexpr (has_init_v<Init>) {
                return scan<Exclusive, C>(tag, pol, name, first, n, d_first, comp_plus<Acc>{},
                                          std::move(cf), C{static_cast<Acc>(init), Acc(0)});
            } else {
                return scan<Exclusive, C>(tag, pol, name, first, n, d_first, comp_plus<Acc>{},
                                          std::move(cf), no_init{});
            }
        });
    } else {
        const auto where = locate<scan_on_gpu<P, Acc, In, Out, Op, F>()>(name, first, d_first);
        return invoke_backend(policy, n, where, [&](auto tag, const auto& pol) {
            return scan<Exclusive, Acc>(tag, pol, name, first, n, d_first, std::move(op),
                                        std::move(f), std::move(init));
        });
    }
}

// The accumulator of a scan without init: the (transformed) input's value type.
template <class In, class F>
using transformed_t = std::remove_cvref_t<std::invoke_result_t<F&, reference_t<In>>>;

/// F can be called with one element of In (a unary operation, not a value or a binary one).
template <class F, class In>
inline constexpr bool unary_on = std::is_invocable_v<F&, reference_t<In>>;

}  // namespace detail

namespace algo {
/// sweep::inclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct inclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out>
    Out operator()(P&& policy, In first, In last, Out d_first) const {
        return detail::scan_entry<false, detail::value_t<In>>("inclusive_scan", policy, first, last,
                                                              d_first, plus<>{}, detail::identity{},
                                                              detail::no_init{});
    }

    template <execution_policy P, detail::random_access In, class Out, class Op>
    Out operator()(P&& policy, In first, In last, Out d_first, Op op) const {
        return detail::scan_entry<false, detail::value_t<In>>("inclusive_scan", policy, first, last,
                                                              d_first, op, detail::identity{},
                                                              detail::no_init{});
    }

    template <execution_policy P, detail::random_access In, class Out, class Op, class T>
    Out operator()(P&& policy, In first, In last, Out d_first, Op op, T init) const {
        return detail::scan_entry<false, T>("inclusive_scan", policy, first, last, d_first, op,
                                            detail::identity{}, init);
    }
};
}  // namespace algo
inline constexpr algo::inclusive_scan_fn inclusive_scan{};

namespace algo {
/// sweep::exclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct exclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out, class T>
    Out operator()(P&& policy, In first, In last, Out d_first, T init) const {
        return detail::scan_entry<true, T>("exclusive_scan", policy, first, last, d_first, plus<>{},
                                           detail::identity{}, init);
    }

    template <execution_policy P, detail::random_access In, class Out, class T, class Op>
    Out operator()(P&& policy, In first, In last, Out d_first, T init, Op op) const {
        return detail::scan_entry<true, T>("exclusive_scan", policy, first, last, d_first, op,
                                           detail::identity{}, init);
    }
};
}  // namespace algo
inline constexpr algo::exclusive_scan_fn exclusive_scan{};

// The transform scans also take Thrust's argument order, so that a Thrust program ports by its
// namespace alone: Thrust passes the unary operation first, (unary_op, op) and
// (unary_op, init, op), where the standard has (op, unary_op), (op, unary_op, init) and
// (init, op, unary_op). The order is told from which argument can be called with one element
// (detail::unary_on); the standard order wins whenever the arguments fit it.

namespace algo {
/// sweep::transform_inclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct transform_inclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out, class Op, class F>
    Out operator()(P&& policy, In first, In last, Out d_first, Op op, F unary_op) const {
        if constexpr (detail::unary_on<Op, In> && !detail::unary_on<F, In>) {
            // Thrust: (first, last, result, unary_op, binary_op)
            return detail::scan_entry<false, detail::transformed_t<In, Op>>(
                "transform_inclusive_scan", policy, first, last, d_first, unary_op, op,
                detail::no_init{});
        } else {
            return detail::scan_entry<false, detail::transformed_t<In, F>>(
                "transform_inclusive_scan", policy, first, last, d_first, op, unary_op,
                detail::no_init{});
        }
    }

    template <execution_policy P, detail::random_access In, class Out, class Op, class F, class T>
    Out operator()(P&& policy, In first, In last, Out d_first, Op op, F unary_op,
                                 T init) const {
        if constexpr (detail::unary_on<Op, In> && !detail::unary_on<F, In>) {
            // Thrust: (first, last, result, unary_op, init, binary_op): here op = unary_op,
            // unary_op = init, init = binary_op.
            return detail::scan_entry<false, F>("transform_inclusive_scan", policy, first, last,
                                                d_first, init, op, unary_op);
        } else {
            return detail::scan_entry<false, T>("transform_inclusive_scan", policy, first, last,
                                                d_first, op, unary_op, init);
        }
    }
};
}  // namespace algo
inline constexpr algo::transform_inclusive_scan_fn transform_inclusive_scan{};

namespace algo {
/// sweep::transform_exclusive_scan, a function object: argument-dependent lookup never finds it, so other
/// libraries' unqualified calls with sweep functors stay theirs (docs/architecture.md).
struct transform_exclusive_scan_fn {
    template <execution_policy P, detail::random_access In, class Out, class T, class Op, class F>
    Out operator()(P&& policy, In first, In last, Out d_first, T init, Op op,
                                 F unary_op) const {
        if constexpr (detail::unary_on<T, In> && !detail::unary_on<F, In>) {
            // Thrust: (first, last, result, unary_op, init, binary_op): here init = unary_op,
            // op = init, unary_op = binary_op.
            return detail::scan_entry<true, Op>("transform_exclusive_scan", policy, first, last,
                                                d_first, unary_op, init, op);
        } else {
            return detail::scan_entry<true, T>("transform_exclusive_scan", policy, first, last,
                                               d_first, op, unary_op, init);
        }
    }
};
}  // namespace algo
inline constexpr algo::transform_exclusive_scan_fn transform_exclusive_scan{};

}  // namespace sweep
