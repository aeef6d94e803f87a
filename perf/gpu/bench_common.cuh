// perf/gpu/bench_common.cuh -- what the GPU benchmarks share: the CUDA error check, the event
// timer (method: shared/ANCHORS.md and docs/performance.md -- 3 warm-up calls, then the median of
// `reps` calls, each timed alone with CUDA events on one stream; or several contenders timed
// interleaved, a call of each per repetition), the input generators' mix and the device's global
// timer.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace sweep_bench {

/// Exits with the CUDA error's text when `e` is not cudaSuccess.
inline void ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

/// The names of a comma-separated list (empty names kept: "a,,b" gives three).
inline std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> v;
    for (std::size_t a = 0; a <= list.size();) {
        const std::size_t comma = std::min(list.find(',', a), list.size());
        v.push_back(list.substr(a, comma - a));
        a = comma + 1;
    }
    return v;
}

/// The integer in environment variable `name`, clamped to [lo, hi]; `fallback` when unset.
inline int env_int(const char* name, int lo, int hi, int fallback) {
    const char* e = std::getenv(name);
    return e != nullptr && *e != '\0' ? std::clamp(std::atoi(e), lo, hi) : fallback;
}

/// The benches' tuning modes (tile geometries, kernel variants that are not the default) are
/// compiled only with -DSWEEP_BUILD_TUNING=ON (SWEEP_PERF_TUNING; perf/device_stage.sh sets it),
/// so that the default build (CI's) does not compile dozens of kernels no user runs. Without it a
/// tuning mode says so and exits with status 2.
#ifndef SWEEP_PERF_TUNING
#define SWEEP_PERF_TUNING 0
#endif
inline int tuning_not_built(const char* mode) {
    std::fprintf(stderr, "%s: a tuning mode, built with -DSWEEP_BUILD_TUNING=ON only\n", mode);
    return 2;
}

struct timer {
    cudaStream_t s;
    cudaEvent_t a, b;
    explicit timer(cudaStream_t st) : s(st) {
        ok(cudaEventCreate(&a), "event");
        ok(cudaEventCreate(&b), "event");
    }
    ~timer() {
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    timer(const timer&) = delete;
    timer& operator=(const timer&) = delete;

    /// Median over `reps` timed calls (after 3 warm-ups), in microseconds. `setup` runs before
    /// each call, outside the timed interval. interleaved() with one contender.
    template <class F, std::invocable S>
    double median_us(F&& f, S&& setup, int reps = 25) {
        return interleaved({{[&] { f(); }, [&] { setup(); }}}, reps)[0];
    }
    template <class F>
    double median_us(F&& f, int reps = 25) {
        return median_us(f, [] {}, reps);
    }

    /// One contender of interleaved(): the timed call and what runs before it, untimed. `apart`:
    /// timed in a loop of its own after the interleaved rounds (3 warm-ups, then `reps` calls),
    /// for a contender that slows whichever call comes after it (session 27: Thrust's in-place
    /// partitions, whose cudaMalloc/cudaFree of an n-element temporary every call slowed the
    /// next contender's call by up to ~11 %).
    struct contender {
        std::function<void()> call;
        std::function<void()> setup = [] {};
        bool apart = false;
    };

    /// The contenders timed interleaved (those marked `apart` after them, each in a loop of its
    /// own): each repetition times one call of every contender, each
    /// alone with events as median_us does, the order rotated by one each round and walked
    /// forward on even rounds and backward on odd ones (so a pair of rounds starts from the
    /// same contender, and each contender follows both of its neighbours), so that a
    /// drift of the machine during the run (clocks, another process's traffic) falls on all of
    /// them alike instead of on whichever was timed last, and each follows more than one
    /// neighbour (a call can leave work behind for the next: dirty lines in L2). 3 rounds of
    /// warm-up, then `reps` rounds; the median of each, in microseconds, in the contenders'
    /// order. A ratio of two of these compares times taken side by side.
    std::vector<double> interleaved(const std::vector<contender>& cs, int reps = 25) {
        std::vector<std::vector<float>> ms(cs.size(), std::vector<float>(static_cast<std::size_t>(reps)));
        const auto time_one = [&](std::size_t c, int r) {
            cs[c].setup();
            ok(cudaEventRecord(a, s), "record");
            cs[c].call();
            ok(cudaEventRecord(b, s), "record");
            ok(cudaEventSynchronize(b), "sync");
            if (r >= 0) ok(cudaEventElapsedTime(&ms[c][static_cast<std::size_t>(r)], a, b), "elapsed");
        };
        std::vector<std::size_t> rotated, apart;  // indices into cs
        for (std::size_t c = 0; c < cs.size(); ++c) (cs[c].apart ? apart : rotated).push_back(c);
        const std::size_t k = rotated.size();
        for (int r = -3; r < reps && k > 0; ++r) {
            for (std::size_t j = 0; j < k; ++j) {
                const std::size_t step = (r + 3) % 2 == 0 ? j : k - 1 - j;
                time_one(rotated[(step + static_cast<std::size_t>(r + 3)) % k], r);
            }
        }
        for (const std::size_t c : apart)
            for (int r = -3; r < reps; ++r) time_one(c, r);
        ok(cudaGetLastError(), "interleaved");
        std::vector<double> med(cs.size());
        for (std::size_t c = 0; c < cs.size(); ++c) {
            std::sort(ms[c].begin(), ms[c].end());
            med[c] = 1000.0 * ms[c][static_cast<std::size_t>(reps / 2)];
        }
        return med;
    }
};

/// A 64-bit finalizer (SplitMix64's, without its increment): the benches fill their inputs on the
/// device with mix(seed + i), so that every run of a bench sees the same data.
__host__ __device__ inline std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// The device's global timer, in nanoseconds (comparable across SMs, unlike clock64).
__device__ __forceinline__ unsigned long long globaltimer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

}  // namespace sweep_bench
