// sweep/backend/cuda/radix_precompiled.hpp -- GPU backend, host side: the radix sorts the library
// ships compiled (src/cuda/radix_builtin*.cu), for callers compiled without nvcc. Raw device
// pointers to a built-in key type, keys only or with values of 4 or 8 bytes (moved as bits, so
// any trivially copyable type of that size), both directions.
#pragma once

#include <cstdint>

#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/backend/cuda/runtime.hpp>

namespace sweep::detail::cuda {

/// One precompiled radix sort call.
struct builtin_radix_request {
    void* keys = nullptr;
    void* values = nullptr;  // null: keys only
    std::int64_t n = 0;
    builtin_type key_type = builtin_type::u32;
    int value_bytes = 0;  // 0 (keys only), 4 or 8
    bool descending = false;
    stream_t stream = nullptr;
    temp_allocator alloc;
    const char* name = "radix_sort";
};

/// Defined in src/cuda/radix_builtin.cu. Enqueues the sort on request.stream (does not wait).
void radix_sort_builtin(const builtin_radix_request& request);

// The per-key-size entries behind it (src/cuda/radix_builtin_*.cu, one TU each).
void radix_sort_builtin_keys(const builtin_radix_request& request);
void radix_sort_builtin_pairs_8_16(const builtin_radix_request& request);
void radix_sort_builtin_pairs_32(const builtin_radix_request& request);
void radix_sort_builtin_pairs_64(const builtin_radix_request& request);

}  // namespace sweep::detail::cuda
