// test/gpu/fuzz/fuzz_gpu_int32.cu -- the GPU differential fuzzer's cases on int32 (support/fuzz_gpu.hpp).
#define SWEEP_FUZZ_GPU_DEFINE 1
#include "fuzz_gpu.hpp"

namespace sweep_fuzz {
template std::string gpu_check<std::int32_t>(const fuzz_case&);
}  // namespace sweep_fuzz
