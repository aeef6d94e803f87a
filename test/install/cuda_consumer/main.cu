// A user's CUDA program against the installed sweep: nvcc-instantiated calls (Thrust containers,
// a custom operator) and the host-compiled ones of host_caller.cpp, checked against sweep::seq.
// Without a CUDA device it only proves that everything built and linked, and says so.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <sweep/thrust.hpp>

std::int64_t host_compiled_calls(const int* in, int* out, const int* keys, int* by_key, int* kept,
                                 std::int64_t n);

struct max_abs {
    __host__ __device__ int operator()(int a, int b) const {
        const int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
        return x < y ? y : x;
    }
};

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("cuda consumer: built and linked; no CUDA device, nothing run\n");
        return 0;
    }
    const std::int64_t n = 1 << 20;
    std::vector<int> h(n), keys(n);
    for (std::int64_t i = 0; i < n; ++i) {
        h[i] = static_cast<int>(i % 13) - 6;
        keys[i] = static_cast<int>(i / 100);
    }
    thrust::device_vector<int> d(h.begin(), h.end()), dk(keys.begin(), keys.end()), out(n),
        by_key(n), kept(n);

    // nvcc-instantiated: a custom operator on Thrust iterators, with thrust::device.
    std::vector<int> want(n);
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin(), max_abs{});
    sweep::inclusive_scan(thrust::device, d.begin(), d.end(), out.begin(), max_abs{});
    thrust::host_vector<int> got = out;
    bool ok = std::vector<int>(got.begin(), got.end()) == want;

    // Host-compiled calls on the precompiled kernels.
    const std::int64_t k = host_compiled_calls(thrust::raw_pointer_cast(d.data()),
                                               thrust::raw_pointer_cast(out.data()),
                                               thrust::raw_pointer_cast(dk.data()),
                                               thrust::raw_pointer_cast(by_key.data()),
                                               thrust::raw_pointer_cast(kept.data()), n);
    sweep::inclusive_scan(sweep::seq, h.begin(), h.end(), want.begin());
    got = out;
    ok = ok && std::vector<int>(got.begin(), got.end()) == want;
    sweep::inclusive_scan_by_key(sweep::seq, keys.begin(), keys.end(), h.begin(), want.begin());
    got = by_key;
    ok = ok && std::vector<int>(got.begin(), got.end()) == want;
    const auto want_k =
        sweep::copy_if(sweep::seq, h.begin(), h.end(), want.begin(), sweep::greater_than<int>{0}) -
        want.begin();
    ok = ok && k == want_k;
    std::printf("cuda consumer: %s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
