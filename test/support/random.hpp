// test/support/random.hpp -- the seed of a test run and random inputs drawn from it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace sweep_test {

/// The run's seed: SWEEP_TEST_SEED if set, else drawn fresh once per process.
inline std::uint64_t seed() {
    static const std::uint64_t s = [] {
        if (const char* env = std::getenv("SWEEP_TEST_SEED"))
            return static_cast<std::uint64_t>(std::stoull(env));
        std::random_device rd;
        return static_cast<std::uint64_t>(std::uint64_t{rd()} << 32) ^ rd() ^
               static_cast<std::uint64_t>(
                   std::chrono::steady_clock::now().time_since_epoch().count());
    }();
    return s;
}

/// A generator for one test case: the run's seed mixed with a per-case salt, so cases do not
/// share streams and each can be replayed alone.
inline std::mt19937_64 rng(std::uint64_t salt) {
    std::uint64_t z = seed() + 0x9E3779B97F4A7C15ull * (salt + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return std::mt19937_64(z ^ (z >> 31));
}

}  // namespace sweep_test
