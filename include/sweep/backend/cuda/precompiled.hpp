// sweep/backend/cuda/precompiled.hpp -- GPU backend, host side: the kernels the library ships
// compiled (src/cuda/scan_builtin*.cu), for callers compiled without nvcc. Built-in element types
// on raw pointers, with plus, minimum and maximum; everything else needs nvcc at the call site.
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/execution.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail::cuda {

enum class builtin_type : unsigned char { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };
enum class builtin_op : unsigned char { plus, minimum, maximum };

/// One precompiled scan call. Exclusive/inclusive and the init are run-time flags, so each
/// (type, operator) pair is one kernel pair in the library, not six.
struct builtin_scan_request {
    const void* in = nullptr;
    void* out = nullptr;
    std::int64_t n = 0;
    bool exclusive = false;
    bool has_init = false;
    alignas(8) unsigned char init[8] = {};
    stream_t stream = nullptr;
    temp_allocator alloc;
    const char* name = "scan";
    /// numerics_deterministic / numerics_compensated (execution.hpp): float and double plus only
    /// (src/cuda/scan_numerics_*.cu).
    unsigned numerics = 0;
};

/// Defined in src/cuda/scan_builtin.cu.
void scan_builtin(builtin_type type, builtin_op op, const builtin_scan_request& request);

// ---- which (type, operator) pairs have precompiled kernels -----------------------------------

template <class T>
constexpr int builtin_type_index() {
    if constexpr (std::is_same_v<T, float>) return static_cast<int>(builtin_type::f32);
    else if constexpr (std::is_same_v<T, double>) return static_cast<int>(builtin_type::f64);
    else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        constexpr int log2 = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
        return 2 * log2 + (std::is_signed_v<T> ? 0 : 1);
    } else return -1;
}

template <class T>
inline constexpr bool is_builtin_type_v = builtin_type_index<T>() >= 0;

template <class Op, class T>
constexpr int builtin_op_index() {
    using O = std::remove_cvref_t<Op>;
    if constexpr (std::is_same_v<O, sweep::plus<>> || std::is_same_v<O, sweep::plus<T>> ||
                  std::is_same_v<O, std::plus<>> || std::is_same_v<O, std::plus<T>>)
        return static_cast<int>(builtin_op::plus);
    else if constexpr (std::is_same_v<O, sweep::minimum<>> || std::is_same_v<O, sweep::minimum<T>>)
        return static_cast<int>(builtin_op::minimum);
    else if constexpr (std::is_same_v<O, sweep::maximum<>> || std::is_same_v<O, sweep::maximum<T>>)
        return static_cast<int>(builtin_op::maximum);
    else return -1;
}

}  // namespace sweep::detail::cuda
