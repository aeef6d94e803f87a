// test/gpu/fuzz/fuzz_gpu_float.cu -- the GPU differential fuzzer's cases on float (support/fuzz_gpu.hpp).
#define SWEEP_FUZZ_GPU_DEFINE 1
#include "fuzz_gpu.hpp"

namespace sweep_fuzz {
template std::string gpu_check<float>(const fuzz_case&);
}  // namespace sweep_fuzz
