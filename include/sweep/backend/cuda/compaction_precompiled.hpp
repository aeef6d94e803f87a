// sweep/backend/cuda/compaction_precompiled.hpp -- GPU backend, host side: the stream-compaction
// kernels the library ships compiled (src/cuda/compaction_builtin*.cu), for callers compiled
// without nvcc. Raw pointers to the built-in element types, with the comparison predicates of
// <sweep/functional.hpp> on the element type (plain forms) or on a built-in stencil type.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <sweep/backend/cuda/precompiled.hpp>
#include <sweep/backend/cuda/runtime.hpp>
#include <sweep/functional.hpp>

namespace sweep::detail::cuda {

/// The predicate, as a run-time code: pred(x) = x OP operand.
enum class builtin_compare : unsigned char {
    greater, greater_equal, less, less_equal, equal, not_equal
};

enum class builtin_compaction_mode : unsigned char {
    select,    // copy_if
    split,     // partition_copy
    in_place,           // stable_partition (and partition below 2^27 elements)
    in_place_unstable,  // partition
};

/// One precompiled compaction call.
struct builtin_compaction_request {
    const void* in = nullptr;
    const void* stencil = nullptr;  // null: the predicate applies to the input itself
    void* out_true = nullptr;       // in_place: the range (in == out_true)
    void* out_false = nullptr;
    std::int64_t n = 0;
    builtin_type value_type = builtin_type::i32;
    builtin_type operand_type = builtin_type::i32;  // the stencil's type, or value_type
    builtin_compare compare = builtin_compare::not_equal;
    alignas(8) unsigned char operand[8] = {};
    builtin_compaction_mode mode = builtin_compaction_mode::select;
    stream_t stream = nullptr;
    temp_allocator alloc;
    const char* name = "copy_if";
};

/// Defined in src/cuda/compaction_builtin.cu. Returns the kept count; waits for the stream.
std::int64_t compaction_builtin(const builtin_compaction_request& request);

// ---- which predicates have precompiled kernels ---------------------------------------------

/// The code of Pred applied to elements of type T, or -1: the comparison templates with exactly
/// T as their type, and nonzero<> / nonzero<T> (x != 0).
template <class Pred, class T>
constexpr int builtin_compare_index() {
    using P = std::remove_cvref_t<Pred>;
    using C = builtin_compare;
    if constexpr (!is_builtin_type_v<T>) return -1;
    else if constexpr (std::is_same_v<P, sweep::greater_than<T>>)
        return static_cast<int>(C::greater);
    else if constexpr (std::is_same_v<P, sweep::greater_or_equal<T>>)
        return static_cast<int>(C::greater_equal);
    else if constexpr (std::is_same_v<P, sweep::less_than<T>>) return static_cast<int>(C::less);
    else if constexpr (std::is_same_v<P, sweep::less_or_equal<T>>)
        return static_cast<int>(C::less_equal);
    else if constexpr (std::is_same_v<P, sweep::equal_to_value<T>>)
        return static_cast<int>(C::equal);
    else if constexpr (std::is_same_v<P, sweep::not_equal_to_value<T>> ||
                       std::is_same_v<P, sweep::nonzero<>> || std::is_same_v<P, sweep::nonzero<T>>)
        return static_cast<int>(C::not_equal);
    else return -1;
}

/// Fills the predicate fields of a request (Pred applies to values of type T).
template <class T, class Pred>
void set_builtin_predicate(builtin_compaction_request& r, const Pred& pred) {
    using P = std::remove_cvref_t<Pred>;
    r.operand_type = static_cast<builtin_type>(builtin_type_index<T>());
    r.compare = static_cast<builtin_compare>(builtin_compare_index<P, T>());
    T v = T(0);
    if constexpr (requires { pred.value; }) v = pred.value;
    std::memcpy(r.operand, &v, sizeof(T));
}

}  // namespace sweep::detail::cuda
