// src/cuda/compaction_builtin_stencil_8.cu -- GPU backend, precompiled kernels: copy_if with a
// stencil of any built-in type, for 8-byte elements (moved as std::uint64_t).
#include <cstdint>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

std::int64_t compaction_builtin_stencil_8(const builtin_compaction_request& r) {
    return run_builtin_stencil_types<std::uint64_t>(r);
}

}  // namespace sweep::detail::cuda
