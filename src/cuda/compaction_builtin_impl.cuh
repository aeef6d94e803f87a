// src/cuda/compaction_builtin_impl.cuh -- GPU backend, precompiled kernels: the templates every
// compaction_builtin_*.cu instantiates for its types (split so that the .cu files build in
// parallel). The predicate is a run-time comparison code, so that each element type needs one
// kernel pair for all of copy_if, partition_copy, partition and stable_partition, not one per
// predicate.
#pragma once

#include <cstdint>
#include <cstring>

#include <sweep/backend/cuda/compaction_precompiled.hpp>
#include <sweep/backend/cuda/dispatch/compaction.cuh>

namespace sweep::detail::cuda {

/// pred(x) = x OP operand, OP chosen at run time (uniform across the launch, so the branch costs
/// a few instructions per element and no divergence).
template <class S>
struct builtin_predicate {
    builtin_compare compare;
    S operand;
    __device__ bool operator()(const S& x) const {
        switch (compare) {
            case builtin_compare::greater: return x > operand;
            case builtin_compare::greater_equal: return x >= operand;
            case builtin_compare::less: return x < operand;
            case builtin_compare::less_equal: return x <= operand;
            case builtin_compare::equal: return x == operand;
            case builtin_compare::not_equal: return x != operand;
        }
        return false;
    }
};

template <class S>
builtin_predicate<S> make_builtin_predicate(const builtin_compaction_request& r) {
    builtin_predicate<S> p{r.compare, S{}};
    std::memcpy(&p.operand, r.operand, sizeof(S));
    return p;
}

/// copy_if (plain), partition_copy and the in-place partitions on elements of type T, the
/// predicate on T.
template <class T>
std::int64_t run_builtin_plain(const builtin_compaction_request& r) {
    using tuning = default_compaction_tuning<T>;
    const auto* in = static_cast<const T*>(r.in);
    auto* out_t = static_cast<T*>(r.out_true);
    const auto pred = make_builtin_predicate<T>(r);
    switch (r.mode) {
        case builtin_compaction_mode::select:
            return run_compaction<tuning>(r.name, in, in, true, out_t, out_t, false, false, r.n,
                                          pred, r.stream, r.alloc);
        case builtin_compaction_mode::split:
            return run_compaction<tuning>(r.name, in, in, true, out_t, static_cast<T*>(r.out_false),
                                          true, false, r.n, pred, r.stream, r.alloc);
        case builtin_compaction_mode::in_place:
            return run_partition_in_place<tuning>(r.name, in, out_t, r.n, pred, r.stream, r.alloc);
        case builtin_compaction_mode::in_place_unstable:
            return run_partition_unstable_in_place<tuning>(r.name, in, out_t, r.n, pred, r.stream,
                                                           r.alloc);
    }
    return 0;
}

/// copy_if with a stencil: values of U (an unsigned type of the element's size: copying moves
/// bits only), the predicate on the stencil's type S.
template <class U, class S>
std::int64_t run_builtin_stencil(const builtin_compaction_request& r) {
    auto* out = static_cast<U*>(r.out_true);
    // The stencil form never takes the shared-memory path (BulkTuning void): no kernel for it
    // where S happens to be U.
    return run_compaction<default_compaction_tuning<U>, const U*, const S*, U*, U*,
                          builtin_predicate<S>, void>(
        r.name, static_cast<const U*>(r.in), static_cast<const S*>(r.stencil), false, out, out,
        false, false, r.n, make_builtin_predicate<S>(r), r.stream, r.alloc);
}

/// Routes on the stencil type.
template <class U>
std::int64_t run_builtin_stencil_types(const builtin_compaction_request& r) {
    switch (r.operand_type) {
        case builtin_type::i8: return run_builtin_stencil<U, std::int8_t>(r);
        case builtin_type::u8: return run_builtin_stencil<U, std::uint8_t>(r);
        case builtin_type::i16: return run_builtin_stencil<U, std::int16_t>(r);
        case builtin_type::u16: return run_builtin_stencil<U, std::uint16_t>(r);
        case builtin_type::i32: return run_builtin_stencil<U, std::int32_t>(r);
        case builtin_type::u32: return run_builtin_stencil<U, std::uint32_t>(r);
        case builtin_type::i64: return run_builtin_stencil<U, std::int64_t>(r);
        case builtin_type::u64: return run_builtin_stencil<U, std::uint64_t>(r);
        case builtin_type::f32: return run_builtin_stencil<U, float>(r);
        case builtin_type::f64: return run_builtin_stencil<U, double>(r);
    }
    return 0;
}

// One per .cu file.
std::int64_t compaction_builtin_plain_8_16(const builtin_compaction_request& r);
std::int64_t compaction_builtin_plain_32_64(const builtin_compaction_request& r);
std::int64_t compaction_builtin_stencil_1(const builtin_compaction_request& r);
std::int64_t compaction_builtin_stencil_2(const builtin_compaction_request& r);
std::int64_t compaction_builtin_stencil_4(const builtin_compaction_request& r);
std::int64_t compaction_builtin_stencil_8(const builtin_compaction_request& r);

}  // namespace sweep::detail::cuda
