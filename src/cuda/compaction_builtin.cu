// src/cuda/compaction_builtin.cu -- GPU backend, precompiled kernels: the stream-compaction entry
// point host-compiled callers link against; routes by form and element size to the file holding
// the kernels.
#include <cstdint>

#include <cuda_runtime.h>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

namespace {
int size_of(builtin_type t) {
    switch (t) {
        case builtin_type::i8:
        case builtin_type::u8: return 1;
        case builtin_type::i16:
        case builtin_type::u16: return 2;
        case builtin_type::i32:
        case builtin_type::u32:
        case builtin_type::f32: return 4;
        default: return 8;
    }
}
}  // namespace


std::int64_t compaction_builtin(const builtin_compaction_request& r) {
    const int size = size_of(r.value_type);
    if (r.stencil != nullptr) {
        switch (size) {
            case 1: return compaction_builtin_stencil_1(r);
            case 2: return compaction_builtin_stencil_2(r);
            case 4: return compaction_builtin_stencil_4(r);
            default: return compaction_builtin_stencil_8(r);
        }
    }
    return size <= 2 ? compaction_builtin_plain_8_16(r) : compaction_builtin_plain_32_64(r);
}

}  // namespace sweep::detail::cuda
