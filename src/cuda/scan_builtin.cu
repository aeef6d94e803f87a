// src/cuda/scan_builtin.cu -- GPU backend, precompiled kernels: the entry point host-compiled
// callers link against; routes by element size to the file holding the kernels.
#include "scan_builtin_impl.cuh"

namespace sweep::detail::cuda {

void scan_builtin(builtin_type type, builtin_op op, const builtin_scan_request& r) {
    if (r.numerics != 0) {  // the host side sends only float/double plus here
        if (type == builtin_type::f32) return scan_numerics_f32(r);
        if (type == builtin_type::f64) return scan_numerics_f64(r);
        return;
    }
    switch (type) {
        case builtin_type::i8:
        case builtin_type::u8:
        case builtin_type::i16:
        case builtin_type::u16: return scan_builtin_8_16(type, op, r);
        case builtin_type::i32:
        case builtin_type::u32:
        case builtin_type::f32: return scan_builtin_32(type, op, r);
        case builtin_type::i64:
        case builtin_type::u64:
        case builtin_type::f64: return scan_builtin_64(type, op, r);
    }
}

}  // namespace sweep::detail::cuda
