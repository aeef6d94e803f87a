// test/fuzz_differential.cpp -- differential fuzzing of the host backends (issue 9): random cases
// (support/differential.hpp: algorithm, type, operator, size at block edges, selectivity, data
// and segment layout) run under sweep::par (all threads, and 3 threads) and compared with seq.
//
// Environment:
//   SWEEP_FUZZ_CASES   cases to run (default 300: the short CI run)
//   SWEEP_FUZZ_MAX_N   largest size (default 600000)
//   SWEEP_TEST_SEED    the run's seed (default: fresh, printed)
//   SWEEP_FUZZ_REPLAY  a case seed from a failure report: run that one case only
//   SWEEP_FUZZ_SECONDS stop drawing cases after this many seconds (default: no limit; the
//                      summary line then says so)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sweep/sweep.hpp>

#include "catch.hpp"
#include "differential.hpp"
#include "random.hpp"

namespace {

std::int64_t env_int(const char* name, std::int64_t fallback) {
    const char* e = std::getenv(name);
    return e != nullptr ? std::atoll(e) : fallback;
}

// The par backend's edges: its 256/512-element tiles, the 2^15 blocks of scans, compaction and
// partition (and sweep::automatic's switch), radix sort's serial limit and survey block (2^16),
// partition's 8-block swap units (2^18), radix sort's leaves of 256 KiB (2^16 4-byte keys).
const std::vector<std::int64_t> host_tiles = {256, 512, 1 << 15, 1 << 16, 1 << 17, 1 << 18};

}  // namespace

TEST_CASE("differential fuzzing: par against seq", "[fuzz]") {
    const std::int64_t max_n = env_int("SWEEP_FUZZ_MAX_N", 600000);
    std::vector<std::uint64_t> seeds;
    if (const char* r = std::getenv("SWEEP_FUZZ_REPLAY")) {
        seeds.push_back(std::stoull(r));
    } else {
        const std::int64_t cases = env_int("SWEEP_FUZZ_CASES", 300);
        for (std::int64_t i = 0; i < cases; ++i)
            seeds.push_back(sweep_fuzz::mix(sweep_test::seed() ^ (0x5EEDull << 32)) + static_cast<std::uint64_t>(i));
    }
    std::printf("differential fuzzing (host): %zu cases, run seed %llu, max n %lld\n",
                seeds.size(), static_cast<unsigned long long>(sweep_test::seed()),
                static_cast<long long>(max_n));
    std::int64_t failures = 0, elements = 0;
    const std::int64_t seconds = env_int("SWEEP_FUZZ_SECONDS", 0);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t done = 0;
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        if (seconds > 0 &&
            std::chrono::steady_clock::now() - t0 >= std::chrono::seconds(seconds))
            break;
        ++done;
        const auto c = sweep_fuzz::draw_case(seeds[i], host_tiles, max_n);
        elements += c.n;
        std::string bad;
        const char* pol_name = i % 2 == 0 ? "sweep::par" : "sweep::par.threads(3)";
        try {
            bad = i % 2 == 0 ? sweep_fuzz::check_case(c, sweep::par, sweep_fuzz::host_mem{})
                             : sweep_fuzz::check_case(c, sweep::par.threads(3), sweep_fuzz::host_mem{});
        } catch (const std::exception& e) {
            bad = std::string("threw: ") + e.what();
        }
        if (!bad.empty()) {
            ++failures;
            std::printf("FAIL %s: %s\n  %s\n  replay: SWEEP_FUZZ_REPLAY=%llu SWEEP_FUZZ_MAX_N=%lld "
                        "test/test_fuzz_differential\n",
                        pol_name, sweep_fuzz::describe(c).c_str(), bad.c_str(),
                        static_cast<unsigned long long>(c.seed), static_cast<long long>(max_n));
        }
        INFO(pol_name << ": " << sweep_fuzz::describe(c) << ": " << bad);
        CHECK(bad.empty());
    }
    std::printf("differential fuzzing (host): %zu cases, %lld elements, %lld failures%s\n", done,
                static_cast<long long>(elements), static_cast<long long>(failures),
                done < seeds.size() ? " (stopped by SWEEP_FUZZ_SECONDS before all cases ran)" : "");
    std::fflush(stdout);
}

TEST_CASE("differential fuzzing: a wrong result is reported", "[fuzz]") {
    // The comparison itself can fail: one flipped bit, one wrong returned position.
    const auto c = sweep_fuzz::draw_case(12345, host_tiles, 5000);
    sweep_fuzz::with_type(c.t, [&](auto tv) {
        using T = decltype(tv);
        auto in = sweep_fuzz::make_inputs<T>(c);
        const auto a = sweep_fuzz::run_case(c, in, sweep::seq, sweep_fuzz::host_mem{});
        auto b = a;
        CHECK(sweep_fuzz::compare(c, in, a, b).empty());
        if (!b.out1.empty()) {
            b.out1[b.out1.size() / 2] ^= 0x10;
            CHECK_FALSE(sweep_fuzz::compare(c, in, a, b).empty());
        }
        b = a;
        b.r1 += 1;
        CHECK_FALSE(sweep_fuzz::compare(c, in, a, b).empty());
    });
}
