// perf/cpu/bench_parlay_anchor.cpp -- the CPU radix sort's anchor, ParlayLib's integer_sort, in the
// same process as sweep::radix_sort(par) (issue 5's CPU bar: ../shared/ANCHORS.md figures are
// ParlayLib's integer_sort on the 16-core host, 1.34 Gkeys/s for u32 and 0.68 for u64 at 2^27).
//
// ParlayLib is not packaged for Debian or Ubuntu and is not part of this repository: configure
// with -DSWEEP_PARLAYLIB_DIR=<a checkout of github.com/cmuparlay/parlaylib> (its `include`
// directory is used) to build the target sweep_perf_cpu_parlay_anchor. ParlayLib runs on its own
// work-stealing scheduler (its default), sweep on oneTBB; both use every core.
//
// Method: inputs drawn once (uniform keys; and two low-entropy inputs: the AND of two random words
// and keys & 0xFFFF); every timed call sorts a fresh copy of the input (the copy, a parallel
// memcpy, is not timed) in place: sweep::radix_sort(par, ...), parlay::integer_sort_inplace; also
// parlay::integer_sort (returns a sorted copy: what its benchmarks time). The contenders take
// turns within each round, in an order that rotates from round to round, with a 100 ms pause
// before each call so that the other library's idle workers are asleep. One untimed round first
// (pages, pools) checks every result against std::sort. Printed: median ms, Gkeys/s, min..max,
// sweep's speed over each ParlayLib call's (its median time / sweep's), and a oneTBB-parallel
// memcpy of the keys measured the same way
// (% of copy: 100% would be a sort as fast as copying its keys once).
//
// Usage: sweep_perf_cpu_parlay_anchor [n = 2^27] [rounds = 7] [which = all | u32 | u64 | ...]
#include <parlay/primitives.h>
#include <parlay/sequence.h>

#include <sweep/radix_sort.hpp>

#include "parallel_memcpy.hpp"
#include "median_ms.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execution>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using sweep_perf::median;


enum class dist { uniform, and2, mask16 };
const char* dist_name(dist d) {
    return d == dist::uniform ? "uniform" : d == dist::and2 ? "and2" : "mask16";
}

template <class U>
parlay::sequence<U> draw(std::size_t n, dist d) {
    parlay::sequence<U> v(n);
    // Blocks of 2^16 keys, each with its own seed: the same input in every process.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, (n + 0xFFFF) >> 16), [&](const auto& br) {
      for (std::size_t blk = br.begin(); blk != br.end(); ++blk) {
        const tbb::blocked_range<std::size_t> r(blk << 16, std::min(n, (blk + 1) << 16));
        std::mt19937_64 g(0x5eed + r.begin());
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
            const std::uint64_t x = g();
            v[i] = static_cast<U>(d == dist::uniform ? x : d == dist::and2 ? (x & g()) : (x & 0xFFFF));
        }
      }
    });
    return v;
}

struct contender {
    const char* name;
    std::function<void()> call;  // sorts `work` (from a fresh copy of the input)
    std::vector<double> ms;
};

template <class U>
bool run(std::size_t n, int rounds, dist d, const char* type) {
    const parlay::sequence<U> pristine = draw<U>(n, d);
    parlay::sequence<U> work(n), copied;
    std::vector<U> want(pristine.begin(), pristine.end());
    std::sort(std::execution::par, want.begin(), want.end());
    const std::size_t bytes = n * sizeof(U);

    std::vector<contender> cs;
    cs.push_back({"memcpy", [&] { sweep_perf::parallel_memcpy(work.data(), pristine.data(), bytes); }, {}});
    cs.push_back({"sweep_par", [&] { sweep::radix_sort(sweep::par, work.begin(), work.end()); }, {}});
    cs.push_back({"parlay_inplace", [&] { parlay::integer_sort_inplace(work); }, {}});
    cs.push_back({"parlay_copy", [&] { copied = parlay::integer_sort(work); }, {}});

    bool ok = true;
    const int k = static_cast<int>(cs.size());
    for (int r = -1; r < rounds; ++r) {  // round -1: untimed, checks
        for (int j = 0; j < k; ++j) {
            contender& c = cs[static_cast<std::size_t>((j + std::max(r, 0)) % k)];
            sweep_perf::parallel_memcpy(work.data(), pristine.data(), bytes);
            copied = parlay::sequence<U>();
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const auto t0 = std::chrono::steady_clock::now();
            c.call();
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (r >= 0) {
                c.ms.push_back(ms);
            } else if (std::strcmp(c.name, "memcpy") != 0) {
                const bool good = std::strcmp(c.name, "parlay_copy") == 0
                                      ? std::equal(want.begin(), want.end(), copied.begin(), copied.end())
                                      : std::equal(want.begin(), want.end(), work.begin(), work.end());
                if (!good) std::printf("MISMATCH: %s %s %s\n", c.name, type, dist_name(d));
                ok = ok && good;
            }
        }
    }
    const double copy_ms = median(cs[0].ms);
    const double sweep_ms = median(cs[1].ms);
    for (std::size_t j = 1; j < cs.size(); ++j) {
        const contender& c = cs[j];
        const double m = median(c.ms);
        std::printf("| %s | %s | 2^%d | %s | %.1f | %.3f | %.1f..%.1f | %.1f%% | %s |\n", type,
                    dist_name(d), static_cast<int>(std::log2(double(n)) + 0.5), c.name, m,
                    double(n) / m / 1e6, *std::min_element(c.ms.begin(), c.ms.end()),
                    *std::max_element(c.ms.begin(), c.ms.end()), 100.0 * copy_ms / m,
                    j == 1 ? "" : (std::to_string(m / sweep_ms).substr(0, 5) + "x").c_str());
    }
    std::printf("| %s | %s | | memcpy of the keys | %.1f | %.1f GB/s | | | |\n", type, dist_name(d),
                copy_ms, 2.0 * double(bytes) / copy_ms / 1e6);
    std::fflush(stdout);
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t{1} << 27;
    const int rounds = std::max(1, argc > 2 ? std::atoi(argv[2]) : 7);
    const std::string which = argc > 3 ? argv[3] : "all";
    std::printf("ParlayLib integer_sort against sweep::radix_sort(par), n = %zu, %d rounds; parlay "
                "workers %zu, hardware threads %u\n\n",
                n, rounds, static_cast<std::size_t>(parlay::num_workers()),
                std::thread::hardware_concurrency());
    std::printf("| keys | input | n | contender | median ms | Gkeys/s | min..max ms | %% of copy | sweep's speed / its |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    bool ok = true;
    auto want = [&](const char* w) { return which == "all" || which == w; };
    if (want("u32")) ok = run<std::uint32_t>(n, rounds, dist::uniform, "u32") && ok;
    if (want("u64")) ok = run<std::uint64_t>(n, rounds, dist::uniform, "u64") && ok;
    if (want("u32_low") || which == "all") {
        ok = run<std::uint32_t>(n, rounds, dist::and2, "u32") && ok;
        ok = run<std::uint32_t>(n, rounds, dist::mask16, "u32") && ok;
    }
    if (want("u64_low") || which == "all") ok = run<std::uint64_t>(n, rounds, dist::and2, "u64") && ok;
    return ok ? 0 : 1;
}
