// src/cuda/scan_builtin_impl.cuh -- GPU backend, precompiled kernels: the one template every
// scan_builtin_*.cu instantiates for its types (split so that the .cu files build in parallel).
#pragma once

#include <cstring>

#include <sweep/backend/cuda/dispatch/scan.cuh>
#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/detail/scan_common.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail::cuda {

template <class T, class Op>
void run_builtin(const builtin_scan_request& r) {
    reg_array<T, 1> init;
    std::memcpy(&init[0], r.init, sizeof(T));
    launch_scan<default_scan_tuning<T>, false, T>(r.name, static_cast<const T*>(r.in),
                                                  static_cast<T*>(r.out), r.n, Op{}, identity{},
                                                  init, r.exclusive, r.has_init, r.stream, r.alloc);
}

template <class T>
void run_builtin_ops(builtin_op op, const builtin_scan_request& r) {
    switch (op) {
        case builtin_op::plus: return run_builtin<T, sweep::plus<T>>(r);
        case builtin_op::minimum: return run_builtin<T, sweep::minimum<T>>(r);
        case builtin_op::maximum: return run_builtin<T, sweep::maximum<T>>(r);
    }
}

// One per .cu file.
void scan_builtin_8_16(builtin_type type, builtin_op op, const builtin_scan_request& r);
void scan_builtin_32(builtin_type type, builtin_op op, const builtin_scan_request& r);
void scan_builtin_64(builtin_type type, builtin_op op, const builtin_scan_request& r);
// .deterministic() / .compensated() sums (r.numerics != 0).
void scan_numerics_f32(const builtin_scan_request& r);
void scan_numerics_f64(const builtin_scan_request& r);

}  // namespace sweep::detail::cuda
