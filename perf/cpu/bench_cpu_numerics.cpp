// perf/cpu/bench_cpu_numerics.cpp -- the numerics modes on the host: inclusive float and double
// sums on sweep::par in the default mode, .deterministic(), .compensated() and both (and seq for
// scale), in one process. Bar (issue 7): deterministic and compensated >= 0.7x par's default.
//
// Method: inputs generated once (uniform in [-0.5, 0.5)), one warm-up call, then the median of 7
// wall-clock calls; GB/s counts n values read plus n written. Plain program (no Google Benchmark)
// so that it prints the one table the bar needs.
//
// Usage: sweep_perf_cpu_numerics [log2 sizes, comma-separated = 24,27] [threads = all]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sweep/scan.hpp>

#include "median_ms.hpp"

namespace {

using sweep_perf::median_ms;

template <class T>
void bench(const char* name, int lg, int threads) {
    const std::size_t n = std::size_t{1} << lg;
    std::vector<T> in(n), out(n);
    std::mt19937_64 g(7);
    std::uniform_real_distribution<double> d(-0.5, 0.5);
    for (auto& v : in) v = static_cast<T>(d(g));
    const auto par = sweep::par.threads(threads);
    const double bytes = 2.0 * n * sizeof(T);
    const double def = median_ms([&] { sweep::inclusive_scan(par, in.begin(), in.end(), out.begin()); });
    // bar: the issue's >= 0.7x of par's default, for the par numerics modes at every size (the
    // claim is made at 2^27 on the 16-core host); "-" where no bar applies.
    auto row = [&](const char* mode, double ms, bool barred = false) {
        std::printf("| %-6s | 2^%-2d | %-30s | %9.2f | %7.1f | %6.2fx | %-4s |\n", name, lg, mode,
                    ms, bytes / ms * 1e-6, def / ms,
                    !barred ? "-" : (def / ms >= 0.7 ? "met" : "MISS"));
    };
    row("par default", def);
    row("par deterministic", median_ms([&] {
            sweep::inclusive_scan(par.deterministic(), in.begin(), in.end(), out.begin());
        }), true);
    row("par compensated", median_ms([&] {
            sweep::inclusive_scan(par.compensated(), in.begin(), in.end(), out.begin());
        }), true);
    row("par compensated+deterministic", median_ms([&] {
            sweep::inclusive_scan(par.compensated().deterministic(), in.begin(), in.end(),
                                  out.begin());
        }));
    row("seq default", median_ms([&] {
            sweep::inclusive_scan(sweep::seq, in.begin(), in.end(), out.begin());
        }));
    row("seq deterministic", median_ms([&] {
            sweep::inclusive_scan(sweep::seq.deterministic(), in.begin(), in.end(), out.begin());
        }));
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    std::string arg = argc > 1 ? argv[1] : "24,27";
    for (std::size_t pos = 0; pos < arg.size();) {
        const std::size_t comma = arg.find(',', pos);
        sizes.push_back(std::atoi(arg.substr(pos, comma - pos).c_str()));
        pos = comma == std::string::npos ? arg.size() : comma + 1;
    }
    const int threads = argc > 2 ? std::atoi(argv[2]) : 0;
    std::printf("inclusive sums on the host; median of 7 wall-clock calls; 'vs par' = par default "
                "time / this time (bar: >= 0.7x)\n");
    std::printf("threads: %s (std::thread::hardware_concurrency() = %u)\n\n",
                threads > 0 ? std::to_string(threads).c_str() : "all",
                std::thread::hardware_concurrency());
    std::printf("| type   | n    | mode                           | ms        | GB/s    | vs par  | bar  |\n");
    std::printf("|--------|------|--------------------------------|-----------|---------|---------|------|\n");
    for (const int lg : sizes) {
        bench<float>("float", lg, threads);
        bench<double>("double", lg, threads);
    }
}
