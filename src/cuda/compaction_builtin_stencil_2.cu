// src/cuda/compaction_builtin_stencil_2.cu -- GPU backend, precompiled kernels: copy_if with a
// stencil of any built-in type, for 2-byte elements (moved as std::uint16_t).
#include <cstdint>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

std::int64_t compaction_builtin_stencil_2(const builtin_compaction_request& r) {
    return run_builtin_stencil_types<std::uint16_t>(r);
}

}  // namespace sweep::detail::cuda
