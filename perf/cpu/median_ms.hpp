// perf/cpu/median_ms.hpp -- the plain (non-Google-Benchmark) CPU benches' clock: one warm-up
// call, then the median wall time of 7 calls, in milliseconds; and the median of timings taken
// otherwise (rotated rounds).
#pragma once

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

namespace sweep_perf {

/// The median of v (the upper one of an even count); v not empty.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F>
double median_ms(F&& f) {
    f();
    std::vector<double> t;
    for (int i = 0; i < 7; ++i) {
        const auto a = std::chrono::steady_clock::now();
        f();
        const auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    }
    return median(std::move(t));
}

}  // namespace sweep_perf
