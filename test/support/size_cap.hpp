// test/support/size_cap.hpp -- SWEEP_TEST_MAX_N: one cap on the sizes of every test, for the runs
// under sanitizers (compute-sanitizer is 10-100x slower, ASan/TSan 2-20x; perf/gpu/
// run_reliability.sh sanitize sets it). Unset, nothing is capped and the tests run their full
// sizes. A test whose point is its size (past 2^31, a million tiles) skips itself under a cap and
// says so (skip_if_capped); the others keep their edge cases below the cap and clamp the rest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace sweep_test {

/// SWEEP_TEST_MAX_N, or 2^62 (no cap) when unset or unparsable.
inline std::int64_t test_max_n() {
    static const std::int64_t m = [] {
        const char* e = std::getenv("SWEEP_TEST_MAX_N");
        const long long v = e != nullptr ? std::atoll(e) : 0;
        return v > 0 ? static_cast<std::int64_t>(v) : std::int64_t{1} << 62;
    }();
    return m;
}

inline bool test_sizes_capped() { return test_max_n() < (std::int64_t{1} << 62); }

/// One size, clamped to the cap.
inline std::int64_t capped(std::int64_t n) { return std::min(n, test_max_n()); }

/// A list of sizes without those past the cap (the edge cases below it stay as they are).
inline std::vector<std::int64_t> within_cap(std::vector<std::int64_t> sizes) {
    sizes.erase(std::remove_if(sizes.begin(), sizes.end(),
                               [](std::int64_t n) { return n > test_max_n(); }),
                sizes.end());
    return sizes;
}

/// For a test that only means something at size n: true (and a line saying the test was skipped,
/// which the run's summary picks up) when the cap is below n.
inline bool skip_if_capped(std::int64_t n, const char* what) {
    if (n <= test_max_n()) return false;
    std::printf("SKIPPED (SWEEP_TEST_MAX_N=%lld is below n = %lld): %s\n",
                static_cast<long long>(test_max_n()), static_cast<long long>(n), what);
    std::fflush(stdout);
    return true;
}

/// SWEEP_TEST_THREADS and SWEEP_TEST_ROUNDS: the host threads and rounds of the concurrency
/// tests (`fallback` when unset or not positive). Sanitizer runs lower them: racecheck could not
/// finish 8 threads on one shared stream (docs/reliability.md); fewer threads still share it.
inline int test_knob(const char* name, int fallback) {
    const char* e = std::getenv(name);
    const long long v = e != nullptr ? std::atoll(e) : 0;
    return v > 0 && v < 1024 ? static_cast<int>(v) : fallback;
}
inline int test_threads(int fallback) { return test_knob("SWEEP_TEST_THREADS", fallback); }
inline int test_rounds(int fallback) { return test_knob("SWEEP_TEST_ROUNDS", fallback); }

}  // namespace sweep_test
