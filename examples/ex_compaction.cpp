// examples/ex_compaction.cpp -- stream compaction: keep the elements that pass a test (copy_if),
// split them in two (partition_copy), regroup in place (stable_partition), on all CPU cores and on
// the GPU, with the same calls. The predicates of <sweep/functional.hpp> (greater_than, ...) have
// precompiled GPU kernels, so this plain .cpp file needs no nvcc. docs/porting.md.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <sweep/sweep.hpp>

#include "ex_gpu_util.hpp"

int main() {
    const std::size_t n = 3'000'000;
    std::vector<float> reading(n);
    for (std::size_t i = 0; i < n; ++i) reading[i] = static_cast<float>((i * 7919) % 1000) / 10.0f;
    const auto hot = sweep::greater_than<float>{95.0f};  // keep readings above 95

    // The reference: the standard library on one thread.
    std::vector<float> want(n);
    want.resize(static_cast<std::size_t>(std::copy_if(reading.begin(), reading.end(), want.begin(), hot) -
                                         want.begin()));

    // All cores.
    std::vector<float> kept(n), rest(n);
    const auto end = sweep::copy_if(sweep::par, reading.begin(), reading.end(), kept.begin(), hot);
    bool ok = std::equal(kept.begin(), end, want.begin(), want.end());
    const auto [t, f] = sweep::partition_copy(sweep::par, reading.begin(), reading.end(),
                                              kept.begin(), rest.begin(), hot);
    ok = ok && static_cast<std::size_t>(t - kept.begin()) == want.size() &&
         static_cast<std::size_t>(f - rest.begin()) == n - want.size();
    std::vector<float> grouped = reading;
    const auto mid = sweep::stable_partition(sweep::par, grouped.begin(), grouped.end(), hot);
    ok = ok && std::equal(grouped.begin(), mid, want.begin(), want.end());
    std::printf("par: kept %zu of %zu readings: %s\n", want.size(), n, ok ? "ok" : "WRONG");

#if SWEEP_HAS_CUDA
    if (ex::have_gpu()) {
        ex::device_copy<float> d(reading), out(n), out2(n), range(reading);
        const float* e = sweep::copy_if(sweep::gpu, d.p, d.p + n, out.p, hot);
        bool gpu_ok = out.to_host(static_cast<std::size_t>(e - out.p)) == want;
        const auto [gt, gf] = sweep::partition_copy(sweep::gpu, d.p, d.p + n, out.p, out2.p, hot);
        gpu_ok = gpu_ok && static_cast<std::size_t>(gt - out.p) == want.size() &&
                 static_cast<std::size_t>(gf - out2.p) == n - want.size();
        float* m = sweep::stable_partition(sweep::gpu, range.p, range.p + n, hot);
        gpu_ok = gpu_ok && range.to_host(static_cast<std::size_t>(m - range.p)) == want;
        std::printf("gpu: %s\n", gpu_ok ? "ok" : "WRONG");
        ok = ok && gpu_ok;
    } else {
        std::printf("no CUDA device: the GPU calls are skipped\n");
    }
#endif
    return ok ? 0 : 1;
}
