// test/gpu/fuzz_differential.cu -- differential fuzzing of the GPU backend (issue 9): random cases
// (support/differential.hpp: algorithm, type, operator, size at the GPU tiles' edges, selectivity,
// data and segment layout) run under sweep::gpu and compared with sweep::seq (par against seq:
// test_fuzz_differential).
// The per-type work lives in test/gpu/fuzz/fuzz_gpu_*.cu.
//
// radix_sort cases run on the GPU where sweep/radix_sort.hpp defines SWEEP_HAS_GPU_RADIX_SORT
// (the switch in differential.hpp: runs_radix), i.e. wherever the GPU backend is built.
//
// Environment:
//   SWEEP_FUZZ_CASES   cases to run (default 300: the short CI run; the long run: 10^5)
//   SWEEP_FUZZ_MAX_N   largest size (default 1500000: float sums of small integers stay exact)
//   SWEEP_TEST_SEED    the run's seed (default: fresh, printed)
//   SWEEP_FUZZ_REPLAY  a case seed from a failure report: run that one case only
//   SWEEP_FUZZ_SECONDS stop drawing cases after this many seconds (default: no limit); the
//                      summary line then says how many of the cases ran
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sweep/backend/cuda/tuning/compaction_tuning.cuh>
#include <sweep/backend/cuda/tuning/segmented_tuning.cuh>

#include "catch.hpp"
#include "fuzz_gpu.hpp"
#include "random.hpp"

namespace {

std::int64_t env_int(const char* name, std::int64_t fallback) {
    const char* e = std::getenv(name);
    return e != nullptr ? std::atoll(e) : fallback;
}

template <class T>
void add_tiles(std::vector<std::int64_t>& v) {
    namespace cu = sweep::detail::cuda;
    const std::int64_t t = sweep_gpu_test::tile_of<T>();
    v.push_back(t);
    v.push_back(t * cu::single_block_max_tiles);
    if (16 % sizeof(T) == 0) v.push_back(sweep_gpu_test::bulk_tile_of<T>());
    using ct = cu::default_compaction_tuning<T>;
    const std::int64_t c = std::int64_t{ct::threads} * ct::rounds * cu::compaction_vec(sizeof(T));
    v.push_back(c);
    v.push_back(4 * c);
    v.push_back(cu::default_segmented_tuning<T>::tile_items);
}

/// The GPU tiles of every fuzzed type: register and shared-memory scan tiles, the single-block
/// limit, compaction and segmented tiles.
std::vector<std::int64_t> gpu_tiles() {
    std::vector<std::int64_t> v;
    add_tiles<std::int8_t>(v);
    add_tiles<std::uint16_t>(v);
    add_tiles<std::int32_t>(v);
    add_tiles<std::uint64_t>(v);
    add_tiles<float>(v);
    add_tiles<double>(v);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

}  // namespace

TEST_CASE("differential fuzzing: gpu against seq", "[gpu][fuzz]") {
    const std::int64_t max_n = env_int("SWEEP_FUZZ_MAX_N", 1500000);
    const auto tiles = gpu_tiles();
    std::vector<std::uint64_t> seeds;
    if (const char* r = std::getenv("SWEEP_FUZZ_REPLAY")) {
        seeds.push_back(std::stoull(r));
    } else {
        const std::int64_t cases = env_int("SWEEP_FUZZ_CASES", 300);
        for (std::int64_t i = 0; i < cases; ++i)
            seeds.push_back(sweep_fuzz::mix(sweep_test::seed() ^ (0x6B0ull << 32)) +
                            static_cast<std::uint64_t>(i));
    }
    std::printf("differential fuzzing (gpu): %zu cases, run seed %llu, max n %lld, tiles",
                seeds.size(), static_cast<unsigned long long>(sweep_test::seed()),
                static_cast<long long>(max_n));
    for (auto t : tiles) std::printf(" %lld", static_cast<long long>(t));
    std::printf("\n");
    std::int64_t failures = 0, elements = 0, radix_cases = 0;
    std::int64_t done = 0;
    const std::int64_t seconds = env_int("SWEEP_FUZZ_SECONDS", 0);
    const auto t0 = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    bool out_of_time = false;
    for (const std::uint64_t s : seeds) {
        if (seconds > 0 && elapsed() >= static_cast<double>(seconds)) {
            out_of_time = true;
            break;
        }
        if (done > 0 && done % 1000 == 0) {
            std::printf("differential fuzzing (gpu): %lld cases done, %lld elements, %lld failures, "
                        "%.0f s\n",
                        static_cast<long long>(done), static_cast<long long>(elements),
                        static_cast<long long>(failures), elapsed());
            std::fflush(stdout);
        }
        ++done;
        const auto c = sweep_fuzz::draw_case(s, tiles, max_n);
        elements += c.n;
        const bool radix = sweep_fuzz::is_radix(c.a);
        radix_cases += radix;
        std::string bad;
        try {
            sweep_fuzz::with_type(c.t, [&](auto tv) { bad = sweep_fuzz::gpu_check<decltype(tv)>(c); });
        } catch (const std::exception& e) {
            bad = std::string("threw: ") + e.what();
        }
        if (!bad.empty()) {
            ++failures;
            std::printf("FAIL %s\n  %s\n  replay: SWEEP_FUZZ_REPLAY=%llu SWEEP_FUZZ_MAX_N=%lld "
                        "test/test_gpu_fuzz_differential\n",
                        sweep_fuzz::describe(c).c_str(), bad.c_str(),
                        static_cast<unsigned long long>(c.seed), static_cast<long long>(max_n));
            std::fflush(stdout);
        }
        INFO(sweep_fuzz::describe(c) << ": " << bad);
        CHECK(bad.empty());
    }
    // The summary line (perf/gpu/run_reliability.sh reads it): cases run, elements, failures.
    std::printf("differential fuzzing (gpu): %lld cases, %lld elements, %lld failures, %lld radix "
                "sorts among them, %.1f s%s\n",
                static_cast<long long>(done), static_cast<long long>(elements),
                static_cast<long long>(failures), static_cast<long long>(radix_cases),
                elapsed(),
                out_of_time ? " (stopped by SWEEP_FUZZ_SECONDS before all cases ran)" : "");
    std::fflush(stdout);
}
