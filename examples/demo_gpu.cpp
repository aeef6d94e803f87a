// examples/demo_gpu.cpp -- the demo's GPU rows. Compiled by the host compiler: it calls sweep::gpu
// on raw device pointers through the library's precompiled kernels (no nvcc needed here).
#include "demo_gpu.hpp"

#include <cstdio>

#include <sweep/sweep.hpp>

namespace sweep_demo {

void gpu_rows(const std::vector<std::int32_t>&, const row_sink&) {
#if SWEEP_HAS_CUDA
    std::printf("gpu rows: the GPU backend is built; its demo rows arrive with the GPU engine\n");
#else
    std::printf("gpu rows: skipped (sweep was built without the CUDA backend)\n");
#endif
}

}  // namespace sweep_demo
