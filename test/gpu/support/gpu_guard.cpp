// test/gpu/support/gpu_guard.cpp -- linked into every GPU test: where no CUDA device is present
// the test says so and exits 77, which ctest reports as skipped (SKIP_RETURN_CODE).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace {
struct skip_without_device {
    skip_without_device() {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
            std::printf("skipped: no CUDA device\n");
            std::fflush(stdout);
            std::_Exit(77);
        }
    }
} const guard;
}  // namespace
