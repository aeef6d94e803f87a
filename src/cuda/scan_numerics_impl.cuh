// src/cuda/scan_numerics_impl.cuh -- GPU backend, precompiled kernels: float and double sums in
// the numerics modes (.deterministic(), .compensated(), both), for host-compiled callers. The
// same instantiations an nvcc-compiled call makes (backend/cuda/scan.hpp), so the bits are the
// same whichever compiler built the call site.
#pragma once

#include <cstring>

#include <sweep/detail/compensated.hpp>
#include <sweep/execution.hpp>

#include "scan_builtin_impl.cuh"

namespace sweep::detail::cuda {

template <class T>
void run_numerics(const builtin_scan_request& r) {
    T init;
    std::memcpy(&init, r.init, sizeof(T));
    const auto* in = static_cast<const T*>(r.in);
    auto* out = static_cast<T*>(r.out);
    const bool det = (r.numerics & numerics_deterministic) != 0;
    if ((r.numerics & numerics_compensated) != 0) {
        using C = comp_sum<T>;
        using F = to_comp<T, identity>;
        reg_array<C, 1> ci;
        ci[0] = C{init, T(0)};
        if (det) {
            launch_scan<canonical_scan_tuning<C>, true, C, const T*, T*, comp_plus<T>, F, void>(
                r.name, in, out, r.n, comp_plus<T>{}, F{}, ci, r.exclusive, r.has_init, r.stream,
                r.alloc);
        } else {
            launch_scan<default_scan_tuning<C>, false, C>(r.name, in, out, r.n, comp_plus<T>{}, F{},
                                                          ci, r.exclusive, r.has_init, r.stream,
                                                          r.alloc);
        }
    } else if (det) {
        reg_array<T, 1> ti;
        ti[0] = init;
        launch_scan<canonical_scan_tuning<T>, true, T, const T*, T*, sweep::plus<T>, identity,
                    canonical_scan_bulk_tuning<T>>(r.name, in, out, r.n, sweep::plus<T>{}, identity{}, ti, r.exclusive,
                          r.has_init, r.stream, r.alloc);
    }
}

}  // namespace sweep::detail::cuda
