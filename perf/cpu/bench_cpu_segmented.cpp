// perf/cpu/bench_cpu_segmented.cpp -- CPU benchmarks of the segmented scans: sweep::par next to
// tbb::parallel_scan with a segmented operator, in one process.
//
// Workloads (n = 2^27 unless --n=N), int32 values, for each segment-length distribution: mean
// segment length 1 (every element a head), 100, 1e4, 1e6, and a skewed mix (90% of the segments
// 1-3 elements, 9.5% 50-500, 0.5% 1e5-1e6; most elements then lie in the long ones):
//   by_key   inclusive_scan_by_key, int32 keys (segment ids), bytes = keys + values + output
//   offsets  segmented_inclusive_scan with int32 offsets (k+1 of them), bytes = offsets + values
//            + output
// Anchor: tbb::parallel_scan over (head flag, value) pairs with the segmented operator
// (fa, a) . (fb, b) = fb ? (fb, b) : (fa, a + b), heads derived from the keys in its body (the
// by-key workload; the offsets rows show their ratio to the same anchor and to sweep's by-key
// row). Ceiling: a oneTBB-parallel memcpy of n int32.
// Method as in perf/cpu/bench_cpu.cpp and /work/shared/ANCHORS.md: inputs generated once per
// distribution (values random, never zero), one warm-up call, every call timed on the wall clock,
// the median call gives GB/s (each byte read plus each byte written once); every result is
// compared with sweep::seq's ("ok" in the summary, counter matches_seq). Flags: --n=N,
// --threads=K (caps every library via tbb::global_control). The summary goes to stderr.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>

#include <sweep/segmented_scan.hpp>

#include "parallel_memcpy.hpp"

namespace {

std::int64_t g_n = std::int64_t{1} << 27;

template <class T>
std::unique_ptr<T[]> alloc(std::int64_t n) {
    return std::unique_ptr<T[]>(new T[static_cast<std::size_t>(n)]);
}

using sweep_perf::parallel_memcpy;

struct distribution {
    const char* name;
    std::int64_t mean;  // 0: the skewed mix
};
const std::vector<distribution> distributions = {
    {"len1", 1}, {"len100", 100}, {"len1e4", 10000}, {"len1e6", 1000000}, {"skewed", 0}};

// Values: int32 in [-1000, 1000] \ {0}, touched first by oneTBB workers (pages spread as the work
// is). Keys and offsets: generated serially from the segment lengths.
struct inputs {
    std::unique_ptr<std::int32_t[]> values = alloc<std::int32_t>(g_n);
    std::unique_ptr<std::int32_t[]> out = alloc<std::int32_t>(g_n);
    std::unique_ptr<std::int32_t[]> keys = alloc<std::int32_t>(g_n);
    std::unique_ptr<std::int32_t[]> ref = alloc<std::int32_t>(g_n);  // seq's result
    std::vector<std::int32_t> offsets;
    std::string current;  // the distribution keys/offsets hold
    inputs() {
        std::int32_t* v = values.get();
        std::int32_t* o = out.get();
        std::int32_t* k = keys.get();
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, g_n, 1 << 16), [&](const auto& r) {
            std::mt19937_64 g(0x5eed + static_cast<std::uint64_t>(r.begin()));
            for (std::int64_t i = r.begin(); i != r.end(); ++i) {
                const auto x = static_cast<std::int32_t>(g() % 2000);
                v[i] = x < 1000 ? x - 1000 : x - 999;
                o[i] = 1;
                k[i] = 0;
            }
        });
    }
    void make(const distribution& d) {
        if (current == d.name) return;
        current = d.name;
        std::mt19937_64 g(0xd157 + static_cast<std::uint64_t>(d.mean));
        auto next_len = [&]() -> std::int64_t {
            if (d.mean == 1) return 1;
            if (d.mean > 1) {  // uniform in [1, 2 mean - 1]: mean `mean`
                return 1 + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * d.mean - 1));
            }
            const auto r = g() % 1000;
            if (r < 900) return 1 + static_cast<std::int64_t>(g() % 3);
            if (r < 995) return 50 + static_cast<std::int64_t>(g() % 451);
            return 100000 + static_cast<std::int64_t>(g() % 900001);
        };
        offsets.clear();
        std::int32_t* k = keys.get();
        std::int64_t i = 0;
        std::int32_t id = 0;
        while (i < g_n) {
            const std::int64_t end = std::min(g_n, i + next_len());
            offsets.push_back(static_cast<std::int32_t>(i));
            for (; i < end; ++i) k[i] = id;
            ++id;
        }
        offsets.push_back(static_cast<std::int32_t>(g_n));
        sweep::inclusive_scan_by_key(sweep::seq, k, k + g_n, values.get(), ref.get());
    }
    /// Does the last result equal seq's?
    bool check() const {
        return std::memcmp(out.get(), ref.get(), static_cast<std::size_t>(g_n) * 4) == 0;
    }
};
inputs& data() {
    static inputs d;
    return d;
}

std::map<std::string, double>& results() {
    static std::map<std::string, double> r;
    return r;
}
std::map<std::string, double> g_segments;  // distribution -> segment count
std::map<std::string, bool> g_checks;       // benchmark -> result equals seq's
double g_memcpy_gbps = 0;
std::string g_current;

template <class Run>
void timed(benchmark::State& state, double bytes, Run run) {
    run();  // warm-up
    std::vector<double> secs;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        const auto t1 = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(t1 - t0).count();
        secs.push_back(s);
        state.SetIterationTime(s);
    }
    std::nth_element(secs.begin(), secs.begin() + static_cast<std::ptrdiff_t>(secs.size() / 2),
                     secs.end());
    const double median = secs[secs.size() / 2];
    const double gbps = bytes / median / 1e9;
    state.counters["GBps"] = gbps;
    state.counters["median_ms"] = median * 1e3;
    state.counters["n"] = static_cast<double>(g_n);
    if (g_memcpy_gbps > 0) state.counters["pct_memcpy"] = 100.0 * gbps / g_memcpy_gbps;
    results()[g_current] = gbps;
    if (g_current.rfind("memcpy", 0) != 0) {
        const bool good = data().check();
        g_checks[g_current] = good;
        state.counters["matches_seq"] = good ? 1 : 0;
    }
}

void memcpy_tbb(benchmark::State& st) {
    auto& d = data();
    timed(st, 2.0 * static_cast<double>(g_n) * 4, [&] {
        parallel_memcpy(d.out.get(), d.values.get(), static_cast<std::size_t>(g_n) * 4);
    });
    g_memcpy_gbps = results()[g_current];
    st.counters["pct_memcpy"] = 100.0;
}

double by_key_bytes() { return 3.0 * static_cast<double>(g_n) * 4; }
double offsets_bytes() {
    return (2.0 * static_cast<double>(g_n) + static_cast<double>(data().offsets.size())) * 4;
}

void by_key_sweep(benchmark::State& st, const distribution& dist) {
    auto& d = data();
    d.make(dist);
    g_segments[dist.name] = static_cast<double>(d.offsets.size() - 1);
    const std::int32_t* k = d.keys.get();
    timed(st, by_key_bytes(), [&] {
        sweep::inclusive_scan_by_key(sweep::par, k, k + g_n, d.values.get(), d.out.get());
    });
}

void offsets_sweep(benchmark::State& st, const distribution& dist) {
    auto& d = data();
    d.make(dist);
    const std::int32_t* v = d.values.get();
    timed(st, offsets_bytes(), [&] {
        sweep::segmented_inclusive_scan(sweep::par, v, v + g_n, d.out.get(),
                                        sweep::offsets(d.offsets.data(),
                                                       d.offsets.data() + d.offsets.size()));
    });
}

// The anchor: tbb::parallel_scan with the segmented operator over (head, value).
struct flagged {
    bool head;
    std::int32_t value;
};
void by_key_tbb(benchmark::State& st, const distribution& dist) {
    auto& d = data();
    d.make(dist);
    const std::int32_t* k = d.keys.get();
    const std::int32_t* v = d.values.get();
    std::int32_t* out = d.out.get();
    timed(st, by_key_bytes(), [&] {
        tbb::parallel_scan(
            tbb::blocked_range<std::int64_t>(0, g_n), flagged{false, 0},
            [&](const tbb::blocked_range<std::int64_t>& r, flagged sum, bool is_final) {
                for (std::int64_t i = r.begin(); i != r.end(); ++i) {
                    const bool h = i == 0 || k[i - 1] != k[i];
                    sum = h ? flagged{true, v[i]} : flagged{sum.head, sum.value + v[i]};
                    if (is_final) out[i] = sum.value;
                }
                return sum;
            },
            [](const flagged& a, const flagged& b) {
                return b.head ? b : flagged{a.head, a.value + b.value};
            });
    });
}

void register_all() {
    auto reg = [](const std::string& name, auto fn) {
        benchmark::RegisterBenchmark(name.c_str(),
                                     [fn, name](benchmark::State& st) {
                                         g_current = name;
                                         fn(st);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    };
    reg("memcpy/tbb_parallel", memcpy_tbb);
    for (const auto& dist : distributions) {
        const std::string base = dist.name;
        reg("by_key_i32_" + base + "/sweep_par", [dist](auto& st) { by_key_sweep(st, dist); });
        reg("by_key_i32_" + base + "/tbb_parallel_scan",
            [dist](auto& st) { by_key_tbb(st, dist); });
        reg("offsets_i32_" + base + "/sweep_par", [dist](auto& st) { offsets_sweep(st, dist); });
    }
}

void print_summary() {
    auto& r = results();
    auto get = [&](const std::string& k) {
        const auto it = r.find(k);
        return it == r.end() ? 0.0 : it->second;
    };
    auto pct = [](double g) { return g_memcpy_gbps > 0 ? 100.0 * g / g_memcpy_gbps : 0.0; };
    std::fprintf(stderr, "\nsweep CPU segmented scans, n = %lld, memcpy (tbb parallel) %.1f GB/s\n",
                 static_cast<long long>(g_n), g_memcpy_gbps);
    std::fprintf(stderr, "%-10s %12s | %-26s | %-26s | %-38s\n", "segments", "count",
                 "sweep by key GB/s %copy", "tbb by key GB/s %copy", "sweep offsets GB/s %copy");
    std::fprintf(stderr, "%-10s %12s | %-26s | %-26s | %-38s\n", "", "", "  (sweep / tbb)", "",
                 "  (/ tbb by key, / sweep by key)");
    for (const auto& dist : distributions) {
        const std::string b = dist.name;
        const double s = get("by_key_i32_" + b + "/sweep_par");
        const double t = get("by_key_i32_" + b + "/tbb_parallel_scan");
        const double o = get("offsets_i32_" + b + "/sweep_par");
        if (s == 0 && t == 0 && o == 0) continue;
        bool all_ok = true;
        for (const char* impl : {"by_key_i32_", "offsets_i32_"}) {
            for (const char* who : {"/sweep_par", "/tbb_parallel_scan"}) {
                const auto it = g_checks.find(impl + b + who);
                if (it != g_checks.end()) all_ok = all_ok && it->second;
            }
        }
        std::fprintf(stderr,
                     "%-10s %12.0f | %6.1f %5.1f%% (%5.2fx)      | %6.1f %5.1f%%              | "
                     "%6.1f %5.1f%% (%5.2fx, %5.2fx) %s\n",
                     dist.name, g_segments[b], s, pct(s), t > 0 ? s / t : 0.0, t, pct(t), o,
                     pct(o), t > 0 ? o / t : 0.0, s > 0 ? o / s : 0.0,
                     all_ok ? "ok" : "MISMATCH with seq");
    }
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 0;
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--n=", 4) == 0) g_n = std::atoll(argv[i] + 4);
        else if (std::strncmp(argv[i], "--threads=", 10) == 0) threads = std::atoi(argv[i] + 10);
        else rest.push_back(argv[i]);
    }
    std::unique_ptr<tbb::global_control> cap;
    if (threads > 0)
        cap = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(threads));
    int rest_argc = static_cast<int>(rest.size());
    benchmark::Initialize(&rest_argc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 1;
    benchmark::AddCustomContext("n", std::to_string(g_n));
    benchmark::AddCustomContext("threads", std::to_string(threads));
    data();
    register_all();
    benchmark::RunSpecifiedBenchmarks();
    print_summary();
    benchmark::Shutdown();
    return 0;
}
