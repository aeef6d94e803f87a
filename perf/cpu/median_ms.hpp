// perf/cpu/median_ms.hpp -- the plain (non-Google-Benchmark) CPU benches' clock: one warm-up
// call, then the median wall time of 7 calls, in milliseconds.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace sweep_perf {

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
    std::sort(t.begin(), t.end());
    return t[3];
}

}  // namespace sweep_perf
