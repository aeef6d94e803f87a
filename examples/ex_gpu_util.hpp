// examples/ex_gpu_util.hpp -- what the examples need to put data on the GPU from a plain .cpp file
// (no nvcc): whether a CUDA device is present, and a device copy of a host vector. Without the
// GPU backend (SWEEP_HAS_CUDA == 0) there is no device, and the examples run their CPU parts.
#pragma once

#include <cstddef>
#include <cstdio>
#include <vector>

#if SWEEP_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ex {

inline bool have_gpu() {
#if SWEEP_HAS_CUDA
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
#else
    return false;
#endif
}

#if SWEEP_HAS_CUDA
/// cudaMalloc'd memory holding a copy of `h` (or n uninitialised elements); freed on scope exit.
template <class T>
struct device_copy {
    T* p = nullptr;
    std::size_t n = 0;
    explicit device_copy(std::size_t count) : n(count) {
        if (cudaMalloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T)) != cudaSuccess) {
            std::printf("cudaMalloc failed\n");
            p = nullptr;
        }
    }
    explicit device_copy(const std::vector<T>& h) : device_copy(h.size()) {
        if (p) cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    }
    device_copy(const device_copy&) = delete;
    device_copy& operator=(const device_copy&) = delete;
    ~device_copy() { cudaFree(p); }
    std::vector<T> to_host(std::size_t count) const {
        std::vector<T> h(count);
        cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost);
        return h;
    }
    std::vector<T> to_host() const { return to_host(n); }
};
#endif

}  // namespace ex
