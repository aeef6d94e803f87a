// test/gpu/fuzz/fuzz_gpu_uint64.cu -- the GPU differential fuzzer's cases on uint64 (support/fuzz_gpu.hpp).
#define SWEEP_FUZZ_GPU_DEFINE 1
#include "fuzz_gpu.hpp"

namespace sweep_fuzz {
template std::string gpu_check<std::uint64_t>(const fuzz_case&);
}  // namespace sweep_fuzz
