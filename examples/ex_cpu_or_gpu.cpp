// examples/ex_cpu_or_gpu.cpp -- choosing the CPU or the GPU per call: one word (the policy), or
// none (sweep::automatic looks at where the data is and how much there is). docs/porting.md.
// A plain .cpp file: its GPU calls run on the kernels precompiled in the library.
#include <cstdio>
#include <numeric>
#include <vector>

#include <sweep/sweep.hpp>

#include "ex_gpu_util.hpp"

int main() {
    const std::size_t n = 1 << 20;
    std::vector<int> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<int>(i % 10);
    std::vector<int> want(n), got(n);
    std::inclusive_scan(x.begin(), x.end(), want.begin());
    bool ok = true;

    // One word chooses: all host cores ...
    sweep::inclusive_scan(sweep::par, x.begin(), x.end(), got.begin());
    ok = ok && got == want;
    // ... or, for small inputs, one thread (no task overhead) ...
    sweep::inclusive_scan(sweep::seq, x.begin(), x.begin() + 100, got.begin());
    // ... or none: sweep::automatic runs host data on seq or par by its size.
    sweep::inclusive_scan(sweep::automatic, x.begin(), x.end(), got.begin());
    ok = ok && got == want;
    std::printf("host data: par and automatic %s\n", ok ? "match std" : "DIFFER");

#if SWEEP_HAS_CUDA
    if (ex::have_gpu()) {
        ex::device_copy<int> d(x), out(n);
        // The GPU, named ...
        sweep::inclusive_scan(sweep::gpu, d.p, d.p + n, out.p);
        bool gpu_ok = out.to_host() == want;
        // ... or found: a device pointer sends sweep::automatic to the GPU (one
        // cudaPointerGetAttributes per call), a host pointer keeps it on the CPU.
        sweep::inclusive_scan(sweep::automatic, d.p, d.p + n, out.p);
        gpu_ok = gpu_ok && out.to_host() == want;
        sweep::inclusive_scan(sweep::automatic, x.data(), x.data() + n, got.data());
        gpu_ok = gpu_ok && got == want;
        std::printf("device data: gpu and automatic %s\n", gpu_ok ? "match std" : "DIFFER");
        ok = ok && gpu_ok;
    } else {
        std::printf("no CUDA device: the GPU calls are skipped\n");
    }
#else
    std::printf("built without the GPU backend: the GPU calls are skipped\n");
#endif
    return ok ? 0 : 1;
}
