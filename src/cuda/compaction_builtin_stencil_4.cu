// src/cuda/compaction_builtin_stencil_4.cu -- GPU backend, precompiled kernels: copy_if with a
// stencil of any built-in type, for 4-byte elements (moved as std::uint32_t).
#include <cstdint>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

std::int64_t compaction_builtin_stencil_4(const builtin_compaction_request& r) {
    return run_builtin_stencil_types<std::uint32_t>(r);
}

}  // namespace sweep::detail::cuda
