// perf/cpu/bench_automatic.cpp -- the measurement behind sweep::automatic's host threshold
// (detail::automatic_seq_below): where sweep::par starts to beat sweep::seq, per algorithm.
//
// For n = 2^8 .. 2^22 (and the half powers between), each algorithm runs on seq and on par over
// the same host data; the median of `reps` timed calls (after one warm-up) is printed with the
// ratio seq/par. The crossover of an algorithm is the smallest n from which par is faster at that
// n and at every larger n measured. The threshold sweep::automatic should use is the smallest
// crossover over the algorithms (a call below it loses little on seq, because seq and par are
// within a few microseconds of each other there, while one above it gains a core count's factor).
//
// Algorithms: inclusive_scan int32 (plus), copy_if int32 (50% kept), stable_partition int32,
// radix_sort uint32, inclusive_scan_by_key int32 (mean segment 100). Inputs are generated once per
// size; in-place algorithms run on a fresh copy each call (the copy is not timed).
// Usage: sweep_perf_cpu_automatic [max_log2=22] [reps=31]. Output: a markdown table on stdout.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sweep/sweep.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

template <class F>
double median_us(int reps, F&& f) {
    f();  // warm-up: oneTBB's workers started, pages touched
    std::vector<double> t;
    t.reserve(static_cast<std::size_t>(reps));
    for (int r = 0; r < reps; ++r) {
        const auto a = clock_type::now();
        f();
        const auto b = clock_type::now();
        t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
    return t[static_cast<std::size_t>(reps / 2)];
}

struct row {
    std::int64_t n;
    double seq_us, par_us;
};

struct algorithm {
    const char* name;
    // Runs the algorithm once on the given policy over the prepared data of size n.
    std::function<void(bool par, std::int64_t n)> run;
    std::vector<row> rows;
};

}  // namespace

int main(int argc, char** argv) {
    const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 22;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 31;
    const std::int64_t max_n = std::int64_t{1} << max_log2;

    std::mt19937_64 g(0x5eed);
    std::vector<std::int32_t> x(static_cast<std::size_t>(max_n));
    for (auto& v : x) v = static_cast<std::int32_t>(g() % 2001) - 1000;
    std::vector<std::uint32_t> u(x.size());
    for (auto& v : u) v = static_cast<std::uint32_t>(g());
    std::vector<std::int32_t> keys(x.size());
    {
        std::int32_t k = 0;
        for (auto& v : keys) {
            if (g() % 100 == 0) ++k;
            v = k;
        }
    }
    std::vector<std::int32_t> out(x.size()), work(x.size());
    std::vector<std::uint32_t> uwork(u.size());

    auto on = [](bool par, auto&& f) {
        if (par) f(sweep::par);
        else f(sweep::seq);
    };
    std::vector<algorithm> algs;
    algs.push_back({"inclusive_scan int32", [&](bool par, std::int64_t n) {
                        on(par, [&](auto p) {
                            sweep::inclusive_scan(p, x.begin(), x.begin() + n, out.begin());
                        });
                    }, {}});
    algs.push_back({"copy_if int32 50%", [&](bool par, std::int64_t n) {
                        on(par, [&](auto p) {
                            sweep::copy_if(p, x.begin(), x.begin() + n, out.begin(),
                                           sweep::greater_than<std::int32_t>{0});
                        });
                    }, {}});
    algs.push_back({"stable_partition int32", [&](bool par, std::int64_t n) {
                        std::copy(x.begin(), x.begin() + n, work.begin());  // untimed below
                        on(par, [&](auto p) {
                            sweep::stable_partition(p, work.begin(), work.begin() + n,
                                                    sweep::greater_than<std::int32_t>{0});
                        });
                    }, {}});
    algs.push_back({"radix_sort uint32", [&](bool par, std::int64_t n) {
                        std::copy(u.begin(), u.begin() + n, uwork.begin());
                        on(par, [&](auto p) { sweep::radix_sort(p, uwork.begin(), uwork.begin() + n); });
                    }, {}});
    algs.push_back({"inclusive_scan_by_key int32", [&](bool par, std::int64_t n) {
                        on(par, [&](auto p) {
                            sweep::inclusive_scan_by_key(p, keys.begin(), keys.begin() + n,
                                                         x.begin(), out.begin());
                        });
                    }, {}});

    // The copies of the in-place algorithms are timed with them; subtract a copy's time.
    auto copy_us = [&](std::int64_t n) {
        return median_us(reps, [&] { std::copy(x.begin(), x.begin() + n, work.begin()); });
    };

    std::vector<std::int64_t> sizes;
    for (int l = 8; l <= max_log2; ++l) {
        sizes.push_back(std::int64_t{1} << l);
        if (l < max_log2) sizes.push_back(static_cast<std::int64_t>(std::llround(std::ldexp(1.0, l) * 1.41421356)));
    }
    for (const std::int64_t n : sizes) {
        const double c = copy_us(n);
        for (auto& a : algs) {
            const bool in_place = std::string(a.name).find("partition") != std::string::npos ||
                                  std::string(a.name).find("radix") != std::string::npos;
            double s = median_us(reps, [&] { a.run(false, n); });
            double p = median_us(reps, [&] { a.run(true, n); });
            if (in_place) {
                s = std::max(0.01, s - c);
                p = std::max(0.01, p - c);
            }
            a.rows.push_back({n, s, p});
        }
    }

    std::printf("# sweep::automatic: seq vs par on this host (%u hardware threads)\n\n",
                std::thread::hardware_concurrency());
    std::printf("median of %d calls, microseconds; ratio = seq / par (> 1: par is faster)\n\n", reps);
    std::printf("| n |");
    for (auto& a : algs) std::printf(" %s seq | par | ratio |", a.name);
    std::printf("\n| --- |");
    for (std::size_t i = 0; i < algs.size(); ++i) std::printf(" --- | --- | --- |");
    std::printf("\n");
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        std::printf("| %lld |", static_cast<long long>(sizes[r]));
        for (auto& a : algs)
            std::printf(" %.1f | %.1f | %.2f |", a.rows[r].seq_us, a.rows[r].par_us,
                        a.rows[r].seq_us / a.rows[r].par_us);
        std::printf("\n");
    }
    std::printf("\n| algorithm | crossover n (par faster from here on) |\n| --- | --- |\n");
    std::int64_t smallest = -1;
    for (auto& a : algs) {
        std::int64_t cross = -1;
        for (std::size_t r = a.rows.size(); r-- > 0;) {
            if (a.rows[r].par_us < a.rows[r].seq_us) cross = a.rows[r].n;
            else break;
        }
        std::printf("| %s | %lld |\n", a.name, static_cast<long long>(cross));
        if (cross > 0 && (smallest < 0 || cross < smallest)) smallest = cross;
    }
    std::printf("\nsmallest crossover: %lld (sweep::detail::automatic_seq_below = %lld now)\n",
                static_cast<long long>(smallest),
                static_cast<long long>(sweep::detail::automatic_seq_below));
    return 0;
}
