// src/cuda/compaction_builtin_plain_32_64.cu -- GPU backend, precompiled kernels: copy_if,
// partition_copy, partition and stable_partition on 32- and 64-bit integers, float and double.
#include <cstdint>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

std::int64_t compaction_builtin_plain_32_64(const builtin_compaction_request& r) {
    switch (r.value_type) {
        case builtin_type::i32: return run_builtin_plain<std::int32_t>(r);
        case builtin_type::u32: return run_builtin_plain<std::uint32_t>(r);
        case builtin_type::i64: return run_builtin_plain<std::int64_t>(r);
        case builtin_type::u64: return run_builtin_plain<std::uint64_t>(r);
        case builtin_type::f32: return run_builtin_plain<float>(r);
        case builtin_type::f64: return run_builtin_plain<double>(r);
        default: return 0;
    }
}

}  // namespace sweep::detail::cuda
