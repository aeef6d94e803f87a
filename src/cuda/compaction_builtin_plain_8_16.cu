// src/cuda/compaction_builtin_plain_8_16.cu -- GPU backend, precompiled kernels: copy_if,
// partition_copy, partition and stable_partition on 8- and 16-bit integers.
#include <cstdint>

#include "compaction_builtin_impl.cuh"

namespace sweep::detail::cuda {

std::int64_t compaction_builtin_plain_8_16(const builtin_compaction_request& r) {
    switch (r.value_type) {
        case builtin_type::i8: return run_builtin_plain<std::int8_t>(r);
        case builtin_type::u8: return run_builtin_plain<std::uint8_t>(r);
        case builtin_type::i16: return run_builtin_plain<std::int16_t>(r);
        case builtin_type::u16: return run_builtin_plain<std::uint16_t>(r);
        default: return 0;
    }
}

}  // namespace sweep::detail::cuda
